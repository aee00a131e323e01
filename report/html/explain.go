package html

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"path/filepath"
	"time"

	"github.com/goadvise/goadvise/decisions"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/internal/plural"
)

// ExplainOptions control WriteExplain.
type ExplainOptions struct {
	// Title is the page title; "goadvise pgo explain" if empty.
	Title string

	// Version is goadvise's version, shown in the page footer.
	Version string

	// Generated is when the explanation was made; omitted if zero.
	Generated time.Time

	// Dir is the directory that source positions are shown relative
	// to, usually the directory the explanation was made in; positions
	// outside it stay absolute.
	Dir string
}

// costPlotRight is the right end of the axis of the cost plots, which
// leaves room for the last tick's label with its unit.
const costPlotRight = plotRight - 12

// defaultBudget is the compiler's default inlining budget, which the
// hot-budget inlines exceed.
const defaultBudget = 80

type explainPage struct {
	Meta         header
	Profile      string // the profile's file name
	ProfilePath  string
	Packages     []string
	Verdict      string
	VerdictClass string // "good", "bad", "unsure", "same" or "plain"

	HotInlines    []hotInlineView
	Devirtualized []devirtView
	DevirtInlined int
	InlineChanges []inlineChangeView
	OpenChanges   bool // few enough to show expanded
	Escapes       []escapeView
	ToStack       int // escapes heap without PGO, stack with it
	ToHeap        int

	Cost    *costView
	Hazards []string
	Runtime *benchPage
}

type hotInlineView struct {
	Pos, File  string // Pos is shown, File is its full name
	Package    string
	Caller     string // "shapes.Checksum"
	Callee     string // "shapes.scan"
	CalleeFull string
	Cost       int
	Over       int // cost above the default budget
	Weight     string
	WeightPct  float64 // of the largest weight in the list, for the bar
}

type devirtView struct {
	Pos, File  string
	Package    string
	Caller     string
	Kind       string // "interface" or "function"
	Call       string
	Callee     string
	CalleeFull string
	Weight     string
	Share      string  // "93%" of the site's weight, or ""
	SharePct   float64 // for the bar
	Inlined    bool
}

type escapeView struct {
	Pos, File  string
	Package    string
	Func       string
	Name       string
	Off, On    string // "heap", "stack" or "—"
	Via        string
	ViaWithPGO bool   // Via is inlined here only with PGO
	Class      string // "good" (to the stack), "bad" (to the heap) or "same"
}

type inlineChangeView struct {
	Pos, File string
	Package   string
	Caller    string
	Callee    string
	WithPGO   bool
}

type costView struct {
	Runs, CleanRuns int
	Rows            []costRowView
}

type costRowView struct {
	Metric  string
	Off, On string // "1.23s [1.20s .. 1.31s]"
	Change  string
	Class   string // "more", "less" or "" (no change or unknown)
	Plot    plot
}

// WriteExplain writes the explanation ex of goadvise pgo explain as an
// HTML page to w: the verdict, the build cost, the compiler's decisions
// that the profile changed, the hazards and, if the benchmarks were run,
// their comparison as [WriteBench] shows it. Nothing is written if the
// page cannot be rendered.
func WriteExplain(w io.Writer, ex *decisions.Explanation, opts ExplainOptions) error {
	if ex == nil {
		return errors.New("rendering explain page: no explanation")
	}
	meta := makeHeader(opts.Title, "goadvise pgo explain", opts.Version, opts.Generated)
	p := &explainPage{
		Meta:         meta,
		Profile:      filepath.Base(ex.Profile),
		ProfilePath:  ex.Profile,
		Packages:     ex.Packages,
		Verdict:      ex.Verdict,
		VerdictClass: verdictClass(ex.Outcome),
		Hazards:      ex.Hazards,
	}
	pos := func(q decisions.Pos) (shown, file string) {
		file = q.File
		q.File = relPath(opts.Dir, q.File)
		return q.String(), file
	}
	caller := func(pkg, fn string) string {
		if fn == "" {
			return "(package level)"
		}
		if pkg == "" {
			return fn
		}
		return funcname.Brief(path.Base(pkg) + "." + fn)
	}

	var maxWeight int64
	for _, h := range ex.HotInlines {
		maxWeight = max(maxWeight, h.Weight)
	}
	for _, h := range ex.HotInlines {
		v := hotInlineView{
			Package: h.Package, Caller: caller(h.Package, h.Caller),
			Callee: funcname.Brief(h.Callee), CalleeFull: h.Callee,
			Cost: h.Cost, Over: h.Cost - defaultBudget, Weight: weight(h.Weight),
		}
		v.Pos, v.File = pos(h.Pos)
		if h.Weight > 0 && maxWeight > 0 {
			v.WeightPct = 100 * float64(h.Weight) / float64(maxWeight)
		}
		p.HotInlines = append(p.HotInlines, v)
	}
	for _, d := range ex.Devirtualized {
		v := devirtView{
			Package: d.Package, Caller: caller(d.Package, d.Caller), Kind: d.Kind, Call: d.Call,
			Callee: funcname.Brief(d.Callee), CalleeFull: d.Callee, Weight: weight(d.Weight), Inlined: d.Inlined,
		}
		v.Pos, v.File = pos(d.Pos)
		if d.Weight >= 0 && d.Total > 0 {
			v.SharePct = min(100, 100*float64(d.Weight)/float64(d.Total))
			v.Share = fmt.Sprintf("%.0f%% of %d", v.SharePct, d.Total)
		}
		if d.Inlined {
			p.DevirtInlined++
		}
		p.Devirtualized = append(p.Devirtualized, v)
	}
	for _, c := range ex.InlineChanges {
		v := inlineChangeView{Package: c.Package, Caller: caller(c.Package, c.Caller), Callee: funcname.Brief(c.Callee), WithPGO: c.WithPGO}
		v.Pos, v.File = pos(c.Pos)
		p.InlineChanges = append(p.InlineChanges, v)
	}
	for _, e := range ex.Escapes {
		v := escapeView{Package: e.Package, Func: caller(e.Package, e.Func), Name: e.Name, Off: orDash(e.Off), On: orDash(e.On), Via: e.Via, ViaWithPGO: e.On == "stack", Class: "same"}
		v.Pos, v.File = pos(e.Pos)
		switch {
		case e.Off == "heap" && e.On == "stack":
			v.Class = "good"
			p.ToStack++
		case e.Off == "stack" && e.On == "heap":
			v.Class = "bad"
			p.ToHeap++
		}
		p.Escapes = append(p.Escapes, v)
	}
	p.OpenChanges = len(p.InlineChanges) <= 10
	if ex.Cost != nil {
		p.Cost = &costView{Runs: ex.Cost.Runs, CleanRuns: ex.Cost.CleanRuns}
		for _, r := range ex.Cost.Rows {
			p.Cost.Rows = append(p.Cost.Rows, makeCostRow(r))
		}
	}
	if ex.Runtime != nil {
		p.Runtime = newBenchPage(ex.Runtime, meta)
	}
	return render(w, "explain", p)
}

// verdictClass gives the color class of a verdict's outcome.
func verdictClass(o decisions.Outcome) string {
	switch o {
	case decisions.WorthIt:
		return "good"
	case decisions.Slower:
		return "bad"
	case decisions.Mixed:
		return "unsure"
	case decisions.NoGain:
		return "same"
	}
	return "plain"
}

// weight formats a profile weight; negative means unknown.
func weight(w int64) string {
	if w < 0 {
		return "unknown"
	}
	return fmt.Sprint(w)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func makeCostRow(r decisions.CostRow) costRowView {
	v := costRowView{
		Metric: r.Metric,
		Off:    r.Off.Format(r.Unit),
		On:     r.On.Format(r.Unit),
		Change: "~",
		Plot:   makeCostPlot(r),
	}
	if !math.IsNaN(r.DeltaPct) && !math.IsInf(r.DeltaPct, 0) {
		v.Change = fmt.Sprintf("%+.1f%%", r.DeltaPct)
		switch {
		case r.DeltaPct >= 0.05:
			v.Class = "more"
		case r.DeltaPct <= -0.05:
			v.Class = "less"
		}
	}
	return v
}

// makeCostPlot draws the measurements of both builds of one metric as the
// benchmark plots do, with the band spanning the range of the runs.
func makeCostPlot(r decisions.CostRow) plot {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range []decisions.Sample{r.Off, r.On} {
		for _, x := range append([]float64{s.Median}, s.Values...) {
			if !math.IsInf(x, 0) && !math.IsNaN(x) {
				lo, hi = min(lo, x), max(hi, x)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	nonNeg := lo >= 0
	if hi == lo {
		d := math.Abs(lo) * 0.01
		if r.Unit == "bytes" {
			d = max(d, 4) // whole bytes on the ticks
		} else if d == 0 {
			d = 1
		}
		lo, hi = lo-d, hi+d
	}
	pad := (hi - lo) * 0.06
	lo, hi = lo-pad, hi+pad
	if nonNeg && lo < 0 {
		lo = 0
	}
	x := func(v float64) float64 {
		return plotLeft + (v-lo)/(hi-lo)*(costPlotRight-plotLeft)
	}
	p := plot{Aria: "measurements of " + r.Metric + " without and with PGO", Width: plotWidth, Left: plotLeft, Right: costPlotRight}
	sides := []struct {
		label string
		s     decisions.Sample
	}{{"off", r.Off}, {"on", r.On}}
	for i, side := range sides {
		row := plotRow{Label: side.label, Class: []string{"base", "head"}[i], Y: plotTop + i*plotRowGap}
		s := side.s
		values := s.Values
		if len(values) == 0 {
			values = []float64{s.Median} // a single measurement
		}
		row.HasCenter = true
		row.Median = x(s.Median)
		row.Lo, row.Hi = x(min(s.Min, s.Median)), x(max(s.Max, s.Median))
		row.Summary = fmt.Sprintf("pgo=%s: median %s, range [%s .. %s], %d %s", side.label,
			decisions.FormatValue(s.Median, r.Unit), decisions.FormatValue(s.Min, r.Unit), decisions.FormatValue(s.Max, r.Unit), len(values), plural.Noun(len(values), "run", "runs"))
		prev, run := math.NaN(), 0
		for _, v := range values {
			if v == prev {
				run++
			} else {
				prev, run = v, 0
			}
			off := float64((run+1)/2) * 3.0
			if run%2 == 1 {
				off = -off
			}
			row.Dots = append(row.Dots, dot{X: x(v), Y: float64(row.Y) + min(max(off, -9), 9), Label: decisions.FormatValue(v, r.Unit)})
		}
		p.Rows = append(p.Rows, row)
	}
	p.AxisY = plotTop + len(sides)*plotRowGap - 6
	p.Height = p.AxisY + 18
	for i := 0; i <= 4; i++ {
		v := lo + (hi-lo)*float64(i)/4
		p.Ticks = append(p.Ticks, tick{X: x(v), Label: formatTick(v, (hi-lo)/4, r.Unit)})
	}
	return p
}

// formatTick formats an axis label in the unit of a cost metric, with
// enough decimals to tell ticks step apart. Sizes in bytes are shown in
// kB or MB (of 1000), so that the labels fit.
func formatTick(v, step float64, unit string) string {
	suffix := ""
	switch unit {
	case "s", "MB":
		suffix = unit
	case "bytes":
		switch {
		case math.Abs(v) >= 1e6 || step >= 1e5:
			v, step, suffix = v/1e6, step/1e6, "MB"
		case math.Abs(v) >= 1e4 || step >= 1e3:
			v, step, suffix = v/1e3, step/1e3, "kB"
		}
	default:
		return fmt.Sprintf("%g", v)
	}
	digits := 0
	if step > 0 && step < 1 {
		digits = min(int(math.Ceil(-math.Log10(step))), 6)
	}
	if unit == "s" {
		digits = max(digits, 1)
	}
	return fmt.Sprintf("%.*f%s", digits, v, suffix)
}
