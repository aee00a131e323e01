package html

import (
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/goadvise/goadvise/decisions"
)

// explainDir is the directory the fixture explanation was made in.
const explainDir = "/src/svc"

// fixtureExplanation returns what goadvise pgo explain reports for a
// service with two hot-budget inlines, a devirtualized call, an escape
// each way, an inlining change and a hazard, with names that need
// escaping.
func fixtureExplanation() *decisions.Explanation {
	pos := func(file string, line, col int) decisions.Pos {
		return decisions.Pos{File: explainDir + "/" + file, Line: line, Col: col}
	}
	return &decisions.Explanation{
		Profile:  explainDir + "/cmd/server/default.pgo",
		Packages: []string{"example.com/svc/kv", "example.com/svc/wire"},
		HotInlines: []decisions.HotInline{
			{Package: "example.com/svc/kv", Caller: "(*Store).Put", Callee: "example.com/svc/wire.(*Reader).Next", Cost: 96, Pos: pos("kv/store.go", 55, 14), Weight: 4000},
			{Package: "example.com/svc/kv", Caller: "Map[go.shape.int]", Callee: "example.com/svc/kv.scan<b>", Cost: 120, Pos: pos("kv/store.go", 70, 9), Weight: 1000},
		},
		Devirtualized: []decisions.Devirtualized{
			{Package: "example.com/svc/wire", Caller: "Total", Pos: pos("wire/wire.go", 29, 14), Kind: "interface", Call: "x.Area", Callee: "example.com/svc/wire.(*Rect).Area", Weight: 930, Total: 1000, Inlined: true},
		},
		InlineChanges: []decisions.InlineChange{
			{Package: "example.com/svc/wire", Caller: "Total", Pos: pos("wire/wire.go", 29, 14), Callee: "(*Rect).Area", WithPGO: true},
		},
		Escapes: []decisions.EscapeChange{
			{Package: "example.com/svc/kv", Func: "(*Store).Put", Pos: pos("kv/store.go", 55, 14), Name: "&Token{<script>}", Off: "heap", On: "stack", Via: "wire.(*Reader).Next"},
			{Package: "example.com/svc/kv", Func: "Flush", Pos: decisions.Pos{File: "/elsewhere/x.go", Line: 3, Col: 2}, Name: "buf", Off: "stack", On: "heap"},
		},
		Cost: &decisions.CostTable{Runs: 3, Rows: []decisions.CostRow{
			{Metric: decisions.MetricModuleCPU, Unit: "s", Off: sample(2.00, 1.90, 2.10), On: sample(2.10, 2.05, 2.30), DeltaPct: 5},
			{Metric: decisions.MetricCompileRSS, Unit: "MB", Off: sample(120, 120, 120), On: sample(118, 117, 121), DeltaPct: -1.7},
			{Metric: decisions.MetricBinary, Unit: "bytes", Off: sample(1000000, 1000000, 1000000), On: sample(1012000, 1012000, 1012000), DeltaPct: 1.2},
			{Metric: decisions.MetricText, Unit: "bytes", Off: sample(0, 0, 0), On: sample(0, 0, 0), DeltaPct: math.NaN()},
		}},
		Verdict: "PGO: -6.1% sec/op (p=0.002) for +5% build CPU, +1.2% binary: worth it",
		Outcome: decisions.WorthIt,
		Hazards: []string{"kv/store.go:5:9: kv.Worker is a goroutine entry function and PGO inlines parse (cost 120) into it <b>&</b>"},
	}
}

// sample returns a sample of three runs with the given median, min and max.
func sample(median, lo, hi float64) decisions.Sample {
	return decisions.Sample{Median: median, Min: lo, Max: hi, Values: []float64{lo, median, hi}}
}

func renderExplain(t *testing.T, ex *decisions.Explanation, opts ExplainOptions) string {
	t.Helper()
	var b strings.Builder
	if err := WriteExplain(&b, ex, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteExplain(t *testing.T) {
	ex := fixtureExplanation()
	out := renderExplain(t, ex, ExplainOptions{Version: "v1", Generated: time.Date(2026, 11, 29, 21, 0, 0, 0, time.UTC), Dir: explainDir})

	counts := map[string]int{
		`<tr class="cost-row"`:     4,
		`<tr class="hot-inline">`:  2,
		`<tr class="devirt">`:      1,
		`<tr class="escape `:       2,
		`<tr class="inline-change`: 1,
		`<li class="hazard">`:      1,
		// Three runs per variant and metric.
		`<circle class="dot`: 4 * 2 * 3,
	}
	for s, want := range counts {
		if n := strings.Count(out, s); n != want {
			t.Errorf("%d of %q, want %d", n, s, want)
		}
	}
	for _, want := range []string{
		`<title>goadvise pgo explain</title>`,
		`generated 2026-11-29 21:00 UTC`,
		`<p id="verdict" class="verdict good">PGO: -6.1% sec/op (p=0.002) for &#43;5% build CPU, &#43;1.2% binary: worth it</p>`,
		`<code id="profile" title="/src/svc/cmd/server/default.pgo">default.pgo</code>`,
		`<div class="v" id="count-hot-inlines">2</div>`,
		`<div class="s">1 to the stack, 1 to the heap with PGO</div>`,
		// The cost table: median [min .. max], a constant sample as one
		// value, an unknown change as ~, costlier in red.
		`<td class="num">2.00s [1.90s .. 2.10s]</td>`,
		`<td class="num">2.10s [2.05s .. 2.30s]</td>`,
		`<td class="num change more">&#43;5.0%</td>`,
		`<td class="num">120MB</td>`,
		`<td class="num change less">-1.7%</td>`,
		`<td class="num">1012000</td>`,
		`<td class="num change">~</td>`,
		`Median [min .. max] of 3 builds of each variant.`,
		// The decisions, positions relative to the directory.
		`<td class="mono" title="/src/svc/kv/store.go">kv/store.go:55:14</td>`,
		`<td class="mono" title="example.com/svc/kv">kv.(*Store).Put</td>`,
		`<td class="mono" title="example.com/svc/wire.(*Reader).Next">wire.(*Reader).Next</td>`,
		`<td class="num">96 <span class="muted">(+16)</span></td>`,
		`<td class="num">4000</td>`,
		`<span style="width:100.0%">`, `<span style="width:25.0%">`,
		`<span class="chip plain">interface</span> <code>x.Area</code>`,
		`<span class="score-label">93% of 1000</span>`,
		`<span class="chip good">then inlined</span>`,
		`<tr class="escape good">`, `<tr class="escape bad">`,
		`<code>wire.(*Reader).Next</code> inlined here only with PGO`,
		`<td class="mono" title="/elsewhere/x.go">/elsewhere/x.go:3:2</td>`,
		`<td>only with PGO</td>`,
		`<p class="note" id="no-runtime">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// What comes from the code is escaped.
	for _, bad := range []string{"<script>}", "scan<b>", "<b>&</b>"} {
		if strings.Contains(out, bad) {
			t.Errorf("page has %q unescaped", bad)
		}
	}
	for _, want := range []string{"&amp;Token{&lt;script&gt;}", "kv.scan&lt;b&gt;", "&lt;b&gt;&amp;&lt;/b&gt;"} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks the escaped %q", want)
		}
	}
	// The page is self-contained.
	if m := regexp.MustCompile(`(?i)(src|href)="(https?:)?//`).FindString(out); m != "" {
		t.Errorf("page loads %s from the network", m)
	}
}

func TestWriteExplainRuntime(t *testing.T) {
	ex := fixtureExplanation()
	ex.Runtime = fixtureComparison(t)
	out := renderExplain(t, ex, ExplainOptions{Dir: explainDir})
	if strings.Contains(out, `id="no-runtime"`) {
		t.Errorf("page with a runtime comparison says it was not measured")
	}
	runtime := out[strings.Index(out, `<section id="runtime">`):]
	if n := strings.Count(runtime, `<tr class="unit-row"`); n != len(ex.Runtime.Rows) {
		t.Errorf("%d unit rows in the runtime section, want %d", n, len(ex.Runtime.Rows))
	}
	// The same plots as goadvise bench -format html draws.
	if n := strings.Count(runtime, `<circle class="dot`); n != 6*2*3*2 {
		t.Errorf("%d dots in the runtime section, want %d", n, 6*2*3*2)
	}
	for _, want := range []string{`<h3>Format&lt;x&gt;-8 <span class="pkg">`, `<span class="regression">3 regressions</span>`} {
		if !strings.Contains(runtime, want) {
			t.Errorf("runtime section lacks %q", want)
		}
	}
	// Each id appears once, though the page shows two summaries.
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`\sid="([^"]+)"`).FindAllStringSubmatch(out, -1) {
		if seen[m[1]] {
			t.Errorf("id %q appears twice", m[1])
		}
		seen[m[1]] = true
	}
}

func TestWriteExplainEmpty(t *testing.T) {
	ex := &decisions.Explanation{Profile: "/p/default.pgo", Verdict: "PGO: runtime not measured (give -bench)", Outcome: decisions.NotMeasured}
	out := renderExplain(t, ex, ExplainOptions{Title: "kv <PGO>"})
	for _, want := range []string{
		`<title>kv &lt;PGO&gt;</title>`,
		`<p id="verdict" class="verdict plain">PGO: runtime not measured (give -bench)</p>`,
		`<p class="note" id="no-cost">`,
		`<p class="none">None.</p>`,
		`<div class="v" id="count-hazards">0</div>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, absent := range []string{`id="hazards"`, `id="inline-changes"`, `<table`} {
		if strings.Contains(out, absent) {
			t.Errorf("empty explanation has %q", absent)
		}
	}
	if err := WriteExplain(&strings.Builder{}, nil, ExplainOptions{}); err == nil {
		t.Errorf("WriteExplain(nil) succeeded")
	}
}

func TestVerdictClass(t *testing.T) {
	for o, want := range map[decisions.Outcome]string{
		decisions.WorthIt:     "good",
		decisions.Slower:      "bad",
		decisions.Mixed:       "unsure",
		decisions.NoGain:      "same",
		decisions.NotMeasured: "plain",
		"":                    "plain",
	} {
		if got := verdictClass(o); got != want {
			t.Errorf("verdictClass(%q) = %q, want %q", o, got, want)
		}
	}
}

func TestCostPlot(t *testing.T) {
	r := decisions.CostRow{Metric: "m", Unit: "s", Off: sample(2, 1.9, 2.1), On: sample(2.2, 2.1, 2.4)}
	p := makeCostPlot(r)
	for _, row := range p.Rows {
		if len(row.Dots) != 3 {
			t.Errorf("%s: %d dots, want 3", row.Label, len(row.Dots))
		}
		for _, d := range row.Dots {
			if d.X < p.Left || d.X > p.Right {
				t.Errorf("%s dot at %v outside the axis [%v, %v]", row.Label, d.X, p.Left, p.Right)
			}
		}
		if !(row.Lo <= row.Median && row.Median <= row.Hi) {
			t.Errorf("%s median %v outside its range [%v, %v]", row.Label, row.Median, row.Lo, row.Hi)
		}
	}
	if !(p.Rows[0].Median < p.Rows[1].Median) {
		t.Errorf("off median x %v not left of on median x %v", p.Rows[0].Median, p.Rows[1].Median)
	}
	// Ticks are distinct even over a narrow range.
	p = makeCostPlot(decisions.CostRow{Metric: "m", Unit: "MB", Off: sample(120, 120, 120), On: sample(120.4, 120.3, 120.5)})
	distinct := func(p plot) {
		t.Helper()
		seen := map[string]bool{}
		for _, tk := range p.Ticks {
			if seen[tk.Label] {
				t.Errorf("tick label %q repeated: %+v", tk.Label, p.Ticks)
			}
			seen[tk.Label] = true
		}
	}
	distinct(p)
	// Sizes in bytes: short labels, and an axis from 0 when all are 0.
	p = makeCostPlot(decisions.CostRow{Metric: "m", Unit: "bytes", Off: sample(1000000, 1000000, 1000000), On: sample(1012000, 1012000, 1012000)})
	distinct(p)
	if got := p.Ticks[len(p.Ticks)-1].Label; got != "1.013MB" {
		t.Errorf("last tick of the binary size is %q, want 1.013MB", got)
	}
	p = makeCostPlot(decisions.CostRow{Metric: "m", Unit: "bytes", Off: sample(0, 0, 0), On: sample(0, 0, 0)})
	distinct(p)
	if got := p.Ticks[0].Label; got != "0" {
		t.Errorf("axis of zero sizes starts at %q, want 0", got)
	}
}
