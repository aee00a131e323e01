package html

import (
	"fmt"
	"io"
	"math"
	"time"

	"golang.org/x/perf/benchunit"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/internal/plural"
)

// BenchOptions control WriteBench.
type BenchOptions struct {
	// Title is the page title; "goadvise bench" if empty.
	Title string

	// Version is goadvise's version, shown in the page footer.
	Version string

	// Generated is when the comparison was made; omitted if zero.
	Generated time.Time
}

type benchPage struct {
	Meta        header
	Base, Head  string
	Config      []configItem
	Alpha       float64
	Threshold   float64
	Regressions int
	Rows        int
	Benchmarks  []benchGroup
	Warnings    []string
}

type configItem struct{ Key, Value string }

type benchGroup struct {
	ID    string
	Pkg   string
	Name  string
	Units []unitView
}

type unitView struct {
	Unit       string
	Base, Head string // "1.234µ ± 2%"
	Delta      string
	P          string
	Verdict    string
	Class      string // "good", "bad", "same", "unsure" or "only"
	Regression bool
	Warnings   []string
	Plot       plot
}

// A plot shows the samples of both versions on one axis: a dot per run,
// the median as a bar and the 95% confidence interval as a band.
type plot struct {
	Aria          string // the accessible name of the chart
	Width, Height int
	Left, Right   float64 // x of the axis ends
	Rows          []plotRow
	Ticks         []tick
	AxisY         int
}

type plotRow struct {
	Label     string
	Class     string // "base" or "head"
	Y         int
	Dots      []dot
	Median    float64
	Lo, Hi    float64
	Open      bool // the interval is unbounded (too few samples)
	HasCenter bool
	Summary   string // tooltip: "median 1.2µ, 95% CI [1.1µ, 1.3µ], n=10"
}

type dot struct {
	X, Y  float64
	Label string
}

const (
	plotWidth  = 520
	plotLeft   = 48
	plotRight  = 500
	plotRowGap = 24
	plotTop    = 14
)

// WriteBench writes the comparison c as an HTML page to w. Nothing is
// written if the page cannot be rendered.
func WriteBench(w io.Writer, c *bench.Comparison, opts BenchOptions) error {
	if c == nil {
		return fmt.Errorf("rendering bench page: no comparison")
	}
	return render(w, "bench", newBenchPage(c, makeHeader(opts.Title, "goadvise bench", opts.Version, opts.Generated)))
}

// newBenchPage prepares the comparison c for the bench templates, which
// also show it as the runtime section of the explain page.
func newBenchPage(c *bench.Comparison, meta header) *benchPage {
	p := &benchPage{
		Meta:      meta,
		Base:      c.BaseLabel,
		Head:      c.HeadLabel,
		Alpha:     c.Alpha,
		Threshold: c.Threshold,
		Rows:      len(c.Rows),
		Warnings:  c.Warnings,
	}
	if p.Base == "" {
		p.Base = "base"
	}
	if p.Head == "" {
		p.Head = "head"
	}
	for _, cfg := range c.Config {
		p.Config = append(p.Config, configItem{cfg.Key, string(cfg.Value)})
	}
	type key struct{ pkg, name string }
	index := make(map[key]int)
	for _, r := range c.Rows {
		k := key{r.Pkg, r.Name}
		i, ok := index[k]
		if !ok {
			i = len(p.Benchmarks)
			index[k] = i
			p.Benchmarks = append(p.Benchmarks, benchGroup{ID: fmt.Sprintf("bench-%d", i+1), Pkg: r.Pkg, Name: r.Name})
		}
		if r.Regression {
			p.Regressions++
		}
		p.Benchmarks[i].Units = append(p.Benchmarks[i].Units, makeUnitView(r, p.Base, p.Head))
	}
	return p
}

func makeUnitView(r *bench.Row, baseLabel, headLabel string) unitView {
	cls := benchunit.ClassOf(r.Unit)
	var centers []float64
	for _, s := range []*bench.Stats{r.Base, r.Head} {
		if s != nil {
			centers = append(centers, s.Center)
		}
	}
	sc := benchunit.CommonScale(centers, cls)
	cell := func(s *bench.Stats) string {
		if s == nil {
			return "—"
		}
		return sc.Format(s.Center) + " ± " + s.Spread
	}
	v := unitView{
		Unit:       r.Unit,
		Base:       cell(r.Base),
		Head:       cell(r.Head),
		Delta:      "",
		Verdict:    string(r.Verdict),
		Regression: r.Regression,
		Warnings:   r.Warnings,
		Plot:       makePlot(r, sc, baseLabel, headLabel),
	}
	if r.Base != nil && r.Head != nil {
		switch {
		case r.Verdict == bench.TooFewSamples && !r.Regression, math.IsNaN(r.DeltaPct):
			v.Delta = "?"
		case !r.Significant && !r.Regression:
			v.Delta = fmt.Sprintf("~ (%+.2f%%)", r.DeltaPct)
		default:
			v.Delta = fmt.Sprintf("%+.2f%%", r.DeltaPct)
		}
		n1, n2 := r.Base.N(), r.Head.N()
		n := fmt.Sprintf("n=%d", n1)
		if n1 != n2 {
			n = fmt.Sprintf("n=%d+%d", n1, n2)
		}
		if !math.IsNaN(r.P) {
			v.P = fmt.Sprintf("p=%.3f %s", r.P, n)
		} else {
			v.P = n
		}
	}
	switch r.Verdict {
	case bench.Faster, bench.Better:
		v.Class = "good"
	case bench.Slower, bench.Worse:
		v.Class = "bad"
	case bench.NoChange:
		v.Class = "same"
	case bench.OnlyBase, bench.OnlyHead:
		v.Class = "only"
	default:
		v.Class = "unsure"
	}
	if r.Regression {
		v.Class = "bad"
	}
	return v
}

func makePlot(r *bench.Row, sc benchunit.Scaler, baseLabel, headLabel string) plot {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range []*bench.Stats{r.Base, r.Head} {
		if s == nil {
			continue
		}
		for _, x := range append([]float64{s.Lo, s.Hi}, s.Values...) {
			if !math.IsInf(x, 0) && !math.IsNaN(x) {
				lo, hi = min(lo, x), max(hi, x)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	if hi == lo {
		d := math.Abs(lo) * 0.01
		if d == 0 {
			d = 1
		}
		lo, hi = lo-d, hi+d
	}
	pad := (hi - lo) * 0.06
	lo, hi = lo-pad, hi+pad
	if lo < 0 && min(sampleMin(r.Base), sampleMin(r.Head)) >= 0 {
		lo = 0
	}
	x := func(v float64) float64 {
		return plotLeft + (v-lo)/(hi-lo)*(plotRight-plotLeft)
	}
	clamp := func(v float64) float64 { return min(max(v, lo), hi) }
	p := plot{Aria: "samples of base and head", Width: plotWidth, Left: plotLeft, Right: plotRight}
	sides := []struct {
		label, class string
		s            *bench.Stats
	}{{"base", "base", r.Base}, {"head", "head", r.Head}}
	for i, side := range sides {
		row := plotRow{Label: side.label, Class: side.class, Y: plotTop + i*plotRowGap}
		if s := side.s; s != nil {
			row.HasCenter = true
			row.Median = x(s.Center)
			row.Open = math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) || math.IsNaN(s.Lo) || math.IsNaN(s.Hi)
			row.Lo, row.Hi = x(clamp(s.Lo)), x(clamp(s.Hi))
			ci := fmt.Sprintf("[%s, %s]", sc.Format(s.Lo), sc.Format(s.Hi))
			if row.Open {
				ci = "unbounded (too few samples)"
			}
			row.Summary = fmt.Sprintf("%s: median %s %s, 95%% CI %s, n=%d", labelOr(side.label, baseLabel, headLabel), sc.Format(s.Center), r.Unit, ci, s.N())
			// Spread equal values vertically so that each run shows.
			prev, run := math.NaN(), 0
			for _, v := range s.Values {
				if v == prev {
					run++
				} else {
					prev, run = v, 0
				}
				off := float64((run+1)/2) * 3.0
				if run%2 == 1 {
					off = -off
				}
				row.Dots = append(row.Dots, dot{X: x(v), Y: float64(row.Y) + min(max(off, -9), 9), Label: sc.Format(v) + " " + r.Unit})
			}
		}
		p.Rows = append(p.Rows, row)
	}
	p.AxisY = plotTop + len(sides)*plotRowGap - 6
	p.Height = p.AxisY + 18
	for i := 0; i <= 4; i++ {
		v := lo + (hi-lo)*float64(i)/4
		p.Ticks = append(p.Ticks, tick{X: x(v), Label: sc.Format(v)})
	}
	return p
}

func labelOr(side, base, head string) string {
	if side == "base" {
		return "base (" + base + ")"
	}
	return "head (" + head + ")"
}

func sampleMin(s *bench.Stats) float64 {
	if s == nil || len(s.Values) == 0 {
		return math.Inf(1)
	}
	return s.Values[0]
}

// Outcome summarises the comparison in one line, as the text format's
// last line does.
func (p *benchPage) Outcome() string {
	if p.Regressions > 0 {
		return fmt.Sprintf("%d %s", p.Regressions, plural.Noun(p.Regressions, "regression", "regressions"))
	}
	return fmt.Sprintf("no significant regression beyond %s%% (alpha %s)", trimNum(p.Threshold), fmt.Sprintf("%g", p.Alpha))
}
