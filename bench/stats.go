package bench

import (
	"fmt"
	"math"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// DefaultAlpha is the significance level used when none is given.
const DefaultAlpha = 0.05

// BytesThreshold is the regression threshold of B/op in percent, used
// when the regression threshold is larger: see the package documentation.
const BytesThreshold = 1.0

// A Verdict is the outcome of comparing one benchmark in one unit.
type Verdict string

// Verdicts. Faster and Slower are used for time units (sec/op and other
// sec/... units), Better and Worse for the others.
const (
	Faster        Verdict = "faster"
	Slower        Verdict = "slower"
	Better        Verdict = "better"
	Worse         Verdict = "worse"
	Changed       Verdict = "changed" // significant, but the unit's direction is unknown
	NoChange      Verdict = "no significant change"
	TooFewSamples Verdict = "too few samples"
	OnlyBase      Verdict = "only in base"
	OnlyHead      Verdict = "only in head"
)

// A Comparison is the result of comparing the benchmarks of two versions.
type Comparison struct {
	// BaseLabel and HeadLabel name the two versions, for example
	// "HEAD (1a2b3c4)" and "working tree".
	BaseLabel, HeadLabel string

	// Config holds the file configuration shared by the results
	// (goos, goarch, cpu), for display.
	Config []benchfmt.Config

	// Alpha is the significance level and Threshold the regression
	// threshold in percent.
	Alpha, Threshold float64

	// Rows has one entry per package, benchmark and unit, in the order
	// the benchmarks and units first appeared.
	Rows []*Row

	// Warnings are problems found while reading the results, such as
	// malformed lines.
	Warnings []string
}

// A Row compares one benchmark of one package in one unit.
type Row struct {
	Pkg  string // import path, from the "pkg:" line; may be empty
	Name string // full benchmark name without the "Benchmark" prefix, e.g. "Parse/small-8"
	Unit string // tidied unit, e.g. "sec/op", "B/op", "allocs/op"

	Base, Head *Stats // nil when the benchmark ran in one version only

	// DeltaPct is the change of the centre from base to head in
	// percent; NaN if either side is missing or the base centre is 0.
	DeltaPct float64

	// P is the p-value of the test that the samples come from the same
	// distribution; NaN if either side is missing.
	P float64

	// MinP is the smallest p-value the test could produce with these
	// sample sizes.
	MinP float64

	// Significant reports whether P < alpha (and MinP <= alpha).
	Significant bool

	Verdict Verdict

	// Regression reports whether this row is a regression that should
	// fail CI: see the package documentation.
	Regression bool

	// Warnings lists statistical caveats for this row.
	Warnings []string
}

// Stats summarizes the samples of one version.
type Stats struct {
	Center float64   // median
	Lo, Hi float64   // 95% confidence interval of the median; may be infinite
	Spread string    // benchstat's "± x%" range, without the "±"
	Values []float64 // the samples, ascending
}

// N returns the number of samples.
func (s *Stats) N() int { return len(s.Values) }

// Regressed reports whether any row of c is a regression.
func (c *Comparison) Regressed() bool {
	for _, r := range c.Rows {
		if r.Regression {
			return true
		}
	}
	return false
}

// Regressions returns the rows of c that are regressions.
func (c *Comparison) Regressions() []*Row {
	var rs []*Row
	for _, r := range c.Rows {
		if r.Regression {
			rs = append(rs, r)
		}
	}
	return rs
}

// Find returns the row for the named benchmark and unit, or nil. The name
// may be given with or without the "Benchmark" prefix and GOMAXPROCS suffix
// (an exact match is preferred).
func (c *Comparison) Find(name, unit string) *Row {
	name = strings.TrimPrefix(name, "Benchmark")
	var loose *Row
	for _, r := range c.Rows {
		if r.Unit != unit {
			continue
		}
		if r.Name == name {
			return r
		}
		if loose == nil && trimProcs(r.Name) == name {
			loose = r
		}
	}
	return loose
}

// trimProcs removes a trailing "-N" GOMAXPROCS suffix from a benchmark name.
func trimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// A resultSet is the parsed results of one version.
type resultSet struct {
	results  []*benchfmt.Result
	units    benchfmt.UnitMetadataMap
	warnings []string
}

func (s *resultSet) add(o *resultSet) {
	s.results = append(s.results, o.results...)
	s.warnings = append(s.warnings, o.warnings...)
	if len(o.units) > 0 && s.units == nil {
		s.units = make(benchfmt.UnitMetadataMap)
	}
	for k, v := range o.units {
		s.units[k] = v
	}
}

type rowKey struct{ pkg, name, unit string }

type sampleSet struct {
	order []rowKey
	vals  map[rowKey][]float64
}

func collect(rs []*benchfmt.Result, order *[]rowKey, seen map[rowKey]bool) map[rowKey][]float64 {
	m := make(map[rowKey][]float64)
	for _, r := range rs {
		pkg := r.GetConfig("pkg")
		name := strings.TrimPrefix(string(r.Name.Full()), "Benchmark")
		for _, v := range r.Values {
			k := rowKey{pkg, name, v.Unit}
			if !seen[k] {
				seen[k] = true
				*order = append(*order, k)
			}
			m[k] = append(m[k], v.Value)
		}
	}
	return m
}

// compare computes the comparison of base and head results.
func compare(base, head *resultSet, alpha, threshold float64) *Comparison {
	if alpha <= 0 {
		alpha = DefaultAlpha
	}
	units := make(benchfmt.UnitMetadataMap)
	for _, s := range []*resultSet{base, head} {
		for k, v := range s.units {
			units[k] = v
		}
	}
	var order []rowKey
	seen := make(map[rowKey]bool)
	bv := collect(base.results, &order, seen)
	hv := collect(head.results, &order, seen)

	c := &Comparison{Alpha: alpha, Threshold: threshold}
	c.Warnings = append(append(c.Warnings, base.warnings...), head.warnings...)
	c.Config = sharedConfig(append(append([]*benchfmt.Result(nil), base.results...), head.results...))
	th := &benchmath.Thresholds{CompareAlpha: alpha}
	for _, k := range order {
		row := &Row{Pkg: k.pkg, Name: k.name, Unit: k.unit, DeltaPct: math.NaN(), P: math.NaN(), MinP: math.NaN()}
		c.Rows = append(c.Rows, row)
		assume := units.GetAssumption(k.unit)
		var bs, hs *benchmath.Sample
		if v := bv[k]; len(v) > 0 {
			bs = benchmath.NewSample(v, th)
			row.Base = summarize(bs, assume, row)
		}
		if v := hv[k]; len(v) > 0 {
			hs = benchmath.NewSample(v, th)
			row.Head = summarize(hs, assume, row)
		}
		switch {
		case bs == nil:
			row.Verdict = OnlyHead
			continue
		case hs == nil:
			row.Verdict = OnlyBase
			continue
		}
		judge(row, assume, bs, hs, units.GetBetter(k.unit), alpha, threshold)
	}
	return c
}

func summarize(s *benchmath.Sample, assume benchmath.Assumption, row *Row) *Stats {
	sum := assume.Summary(s, 0.95)
	for _, w := range append(s.Warnings, sum.Warnings...) {
		row.addWarning(w.Error())
	}
	return &Stats{Center: sum.Center, Lo: sum.Lo, Hi: sum.Hi, Spread: sum.PctRangeString(), Values: s.Values}
}

func (r *Row) addWarning(w string) {
	for _, x := range r.Warnings {
		if x == w {
			return
		}
	}
	r.Warnings = append(r.Warnings, w)
}

func (r *Row) hasWarning(substr string) bool {
	for _, w := range r.Warnings {
		if strings.Contains(w, substr) {
			return true
		}
	}
	return false
}

// judge fills in the statistics and verdict of a row with both sides.
func judge(row *Row, assume benchmath.Assumption, bs, hs *benchmath.Sample, better int, alpha, threshold float64) {
	cmp := assume.Compare(bs, hs)
	for _, w := range cmp.Warnings {
		row.addWarning(w.Error())
	}
	row.P = cmp.P
	b, h := row.Base.Center, row.Head.Center
	if b != 0 {
		row.DeltaPct = (h/b - 1) * 100
	} else if h == 0 {
		row.DeltaPct = 0
	}
	if better == 0 {
		better = guessBetter(row.Unit)
	}
	exactUnit := row.Unit == "allocs/op"
	if assume == benchmath.AssumeExact {
		row.MinP = 0
	} else {
		row.MinP = minP(len(bs.Values), len(hs.Values))
	}
	tooFew := row.MinP > alpha
	row.Significant = !tooFew && cmp.P < alpha && h != b

	var dir int // +1 head is better, -1 worse, 0 unknown or no change
	if row.Significant && better != 0 {
		if (h > b) == (better > 0) {
			dir = 1
		} else {
			dir = -1
		}
	}
	switch {
	case tooFew:
		row.Verdict = TooFewSamples
		if !row.hasWarning("to detect a difference") {
			row.addWarning(fmt.Sprintf("need >= %d samples of each version to detect a difference at alpha %v", samplesFor(alpha), alpha))
		}
	case !row.Significant:
		row.Verdict = NoChange
	case dir == 0:
		row.Verdict = Changed
	case dir > 0:
		row.Verdict = pick(row.Unit, Faster, Better)
	default:
		row.Verdict = pick(row.Unit, Slower, Worse)
	}

	// Exact units: any increase counts, if it is real.
	if exactUnit && h > b && (row.Significant || hs.Values[0] > bs.Values[len(bs.Values)-1]) {
		row.Regression = true
		row.Verdict = Worse
		return
	}
	if row.Unit == "B/op" {
		// Bytes vary a little from run to run (amortized growth,
		// runtime buffers): a significant change counts from
		// BytesThreshold on, or from the threshold if smaller.
		threshold = min(threshold, BytesThreshold)
	}
	if dir < 0 {
		row.Regression = math.IsNaN(row.DeltaPct) || math.Abs(row.DeltaPct) > threshold
	}
}

func pick(unit string, timeV, otherV Verdict) Verdict {
	if strings.HasPrefix(unit, "sec/") {
		return timeV
	}
	return otherV
}

// guessBetter guesses the direction of a custom unit from its name: times
// per something are better lower, rates (per second) better higher.
func guessBetter(unit string) int {
	switch {
	case strings.HasPrefix(unit, "sec/"):
		return -1
	case strings.HasSuffix(unit, "/s"), strings.HasSuffix(unit, "/sec"):
		return 1
	}
	return 0
}

// minP returns the smallest two-sided p-value the Mann-Whitney U test can
// produce for samples of sizes n1 and n2 without ties: 2/C(n1+n2, n1).
func minP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	// C(n1+n2, n1) computed incrementally in floating point.
	c := 1.0
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// samplesFor returns the smallest n such that two samples of n values can
// reach significance at alpha.
func samplesFor(alpha float64) int {
	for n := 1; n < 100; n++ {
		if minP(n, n) <= alpha {
			return n
		}
	}
	return 100
}

// sharedConfig returns the goos, goarch and cpu configuration values that
// all results agree on.
func sharedConfig(rs []*benchfmt.Result) []benchfmt.Config {
	var out []benchfmt.Config
	for _, key := range []string{"goos", "goarch", "cpu"} {
		val, ok := "", true
		for i, r := range rs {
			v := r.GetConfig(key)
			if i == 0 {
				val = v
			} else if v != val {
				ok = false
				break
			}
		}
		if ok && val != "" {
			out = append(out, benchfmt.Config{Key: key, Value: []byte(val)})
		}
	}
	return out
}
