package html

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/perf/benchunit"

	"github.com/goadvise/goadvise/bench"
)

func renderBench(t *testing.T, c *bench.Comparison, opts BenchOptions) string {
	t.Helper()
	var b strings.Builder
	if err := WriteBench(&b, c, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteBench(t *testing.T) {
	c := fixtureComparison(t)
	out := renderBench(t, c, BenchOptions{Version: "v1"})

	if n := strings.Count(out, `<div class="bench"`); n != 2 {
		t.Errorf("%d benchmark sections, want 2 (Parse and Format<x>)", n)
	}
	if n := strings.Count(out, `<tr class="unit-row"`); n != len(c.Rows) {
		t.Errorf("%d unit rows, want %d", n, len(c.Rows))
	}
	// One dot per run: 6 runs of each version, 3 units, 2 benchmarks.
	if n := strings.Count(out, `<circle class="dot`); n != 6*2*3*2 {
		t.Errorf("%d dots, want %d", n, 6*2*3*2)
	}
	for _, want := range []string{
		// Benchmark names are escaped.
		`data-name="Format&lt;x&gt;-8"`,
		`<h3>Format&lt;x&gt;-8 <span class="pkg">example.com/svc/wire</span></h3>`,
		`<code id="base-label">old.txt</code>`,
		`<dt>cpu</dt><dd>Test CPU @ 2.00GHz</dd>`,
		// Parse got faster, significantly.
		`<tr class="unit-row" data-unit="sec/op" data-verdict="faster">`,
		`<span class="chip good verdict">faster</span>`,
		// Format got slower beyond the threshold and allocates more.
		`data-unit="sec/op" data-verdict="slower" data-regression="true"`,
		`data-unit="B/op" data-verdict="worse" data-regression="true"`,
		`<span class="regression">3 regressions</span>`,
		// Unchanged allocation counts.
		`data-unit="allocs/op" data-verdict="no significant change"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(out, "Format<x>") {
		t.Errorf("benchmark name not escaped")
	}
	// The p-value of Parse sec/op is that of the comparison.
	r := c.Find("Parse-8", "sec/op")
	if want := fmt.Sprintf("p=%.3f n=6", r.P); !strings.Contains(out, want) {
		t.Errorf("page lacks the p-value %q of Parse sec/op", want)
	}
}

func TestPlotScale(t *testing.T) {
	c := fixtureComparison(t)
	r := c.Find("Parse-8", "sec/op")
	p := makePlot(r, benchunit.CommonScale([]float64{r.Base.Center, r.Head.Center}, benchunit.ClassOf(r.Unit)), "old", "new")
	// Every dot lies on the axis, and the median of each version sits
	// inside its interval.
	for _, row := range p.Rows {
		for _, d := range row.Dots {
			if d.X < p.Left || d.X > p.Right {
				t.Errorf("%s dot at %v outside the axis [%v, %v]", row.Class, d.X, p.Left, p.Right)
			}
		}
		if !(row.Lo <= row.Median && row.Median <= row.Hi) {
			t.Errorf("%s median %v outside its interval [%v, %v]", row.Class, row.Median, row.Lo, row.Hi)
		}
	}
	// Head (about 80ns) is left of base (about 100ns).
	if !(p.Rows[1].Median < p.Rows[0].Median) {
		t.Errorf("head median x %v not left of base median x %v", p.Rows[1].Median, p.Rows[0].Median)
	}
	// Equal values are spread vertically: base has two runs of 100ns.
	heights := map[float64]map[float64]bool{}
	for _, d := range p.Rows[0].Dots {
		if heights[d.X] == nil {
			heights[d.X] = map[float64]bool{}
		}
		heights[d.X][d.Y] = true
	}
	if len(heights) != 5 {
		t.Errorf("base dots at %d distinct x, want 5 (six samples, two equal)", len(heights))
	}
	spread := 0
	for _, ys := range heights {
		if len(ys) == 2 {
			spread++
		}
	}
	if spread != 1 {
		t.Errorf("%d values drawn at two heights, want 1 (the two runs of 100ns)", spread)
	}
}

func TestWriteBenchOneSided(t *testing.T) {
	c, err := bench.Parse(strings.NewReader(baseBench), "old.txt", strings.NewReader(strings.ReplaceAll(headBench, "BenchmarkParse", "BenchmarkParseV2")), "new.txt", bench.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := renderBench(t, c, BenchOptions{})
	for _, want := range []string{`data-verdict="only in base"`, `data-verdict="only in head"`, "not measured in this version"} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
