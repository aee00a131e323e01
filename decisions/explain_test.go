package decisions

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestExplain generates a profile for a fixture with an interface call
// dominated by one concrete type and a hot call over the inlining budget,
// checks that the compiler devirtualizes and hot-inlines them, and that
// Explain reports exactly that, with the escape it removes, the cost
// table and the benchmark comparison.
func TestExplain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a fixture with PGO, which compiles the runtime with the profile (20-60s); skipped with -short")
	}
	testEnv(t)
	dir, prof := shapesFixture(t)

	// The compiler's own word, independently of the package's parsing.
	compiler := run(t, dir, "go", "build", "-pgo="+prof, "-gcflags=example.com/fx/shapes=-m -d=pgodebug=1", "-o", t.TempDir()+"/", "./cmd/app")
	for _, want := range []string{
		"shapes/shapes.go:29:14: PGO devirtualizing interface call x.Area to (*Rect).Area",
		"hot-budget check allows inlining for call example.com/fx/shapes.scan (cost ",
		"shapes/shapes.go:67:12: inlining call to scan",
		"shapes/shapes.go:67:12: &Token{} does not escape",
	} {
		if !strings.Contains(compiler, want) {
			t.Fatalf("the compiler did not say %q; the fixture no longer exercises PGO:\n%s", want, compiler)
		}
	}

	ex, err := Explain(context.Background(), ExplainOptions{
		Dir: dir, Packages: []string{"./cmd/app"}, Profile: prof,
		Cost: CostOptions{Runs: 1},
	})
	if err != nil {
		t.Fatal(err)
	}

	var dv *Devirtualized
	for i := range ex.Devirtualized {
		if ex.Devirtualized[i].Caller == "Total" {
			dv = &ex.Devirtualized[i]
		}
	}
	if dv == nil {
		t.Fatalf("no devirtualized call in Total: %+v", ex.Devirtualized)
	}
	if dv.Kind != "interface" || dv.Call != "x.Area" || dv.Callee != "example.com/fx/shapes.(*Rect).Area" ||
		dv.Pos.Line != 29 || dv.Weight <= 0 || dv.Total < dv.Weight || !dv.Inlined || dv.Package != "example.com/fx/shapes" {
		t.Errorf("devirtualized call = %+v, want x.Area -> (*Rect).Area at line 29 with its weight, then inlined", *dv)
	}

	var hi *HotInline
	for i := range ex.HotInlines {
		if ex.HotInlines[i].Caller == "Checksum" {
			hi = &ex.HotInlines[i]
		}
	}
	if hi == nil {
		t.Fatalf("no hot-budget inline in Checksum: %+v", ex.HotInlines)
	}
	if hi.Callee != "example.com/fx/shapes.scan" || hi.Cost <= 80 || hi.Pos.Line != 67 || hi.Weight <= 0 {
		t.Errorf("hot inline = %+v, want scan (cost over 80) at line 67 with a positive weight", *hi)
	}
	// A call inlined by the default budget is not a PGO decision.
	for _, h := range ex.HotInlines {
		if strings.HasSuffix(h.Callee, ".Area") {
			t.Errorf("reported a call within the default budget as hot-budget inlining: %+v", h)
		}
	}

	found := false
	for _, e := range ex.Escapes {
		if e.Func == "Checksum" && e.Name == "&Token{}" && e.Off == "heap" && e.On == "stack" && e.Via == "scan" && e.Pos.Line == 67 {
			found = true
		}
	}
	if !found {
		t.Errorf("escapes = %+v, want &Token{} heap -> stack in Checksum via scan", ex.Escapes)
	}

	if ex.Cost == nil {
		t.Fatal("no cost table")
	}
	for _, m := range []string{MetricModuleWall, MetricModuleCPU, MetricRebuild, MetricRebuildCPU, MetricCompileRSS, MetricLinkRSS, MetricBinary, MetricText} {
		r := ex.Cost.Row(m)
		if r == nil {
			t.Errorf("cost table has no %q row", m)
			continue
		}
		if r.Off.Median <= 0 || r.On.Median <= 0 {
			t.Errorf("%s: off %v, on %v: want positive measurements", m, r.Off.Median, r.On.Median)
		}
		if len(r.Off.Values) != 1 || len(r.On.Values) != 1 {
			t.Errorf("%s: %d and %d values, want 1 run each", m, len(r.Off.Values), len(r.On.Values))
		}
	}
	if b, x := ex.Cost.Row(MetricBinary), ex.Cost.Row(MetricText); b != nil && x != nil && x.On.Median >= b.On.Median {
		t.Errorf("text size %v not below binary size %v", x.On.Median, b.On.Median)
	}
	if r := ex.Cost.Row(MetricCompileRSS); r != nil && r.Off.Median < 5 {
		t.Errorf("largest compile used %vMB, implausibly little", r.Off.Median)
	}
	if want := "PGO: runtime not measured (give -bench) for "; !strings.HasPrefix(ex.Verdict, want) || !strings.Contains(ex.Verdict, "build CPU") || !strings.Contains(ex.Verdict, "binary") {
		t.Errorf("verdict = %q, want %q with the build CPU and binary changes", ex.Verdict, want)
	}

	var text bytes.Buffer
	if err := ex.Write(&text, "text"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Hot-budget inlining", "    Checksum\n      shapes/shapes.go:67:12: inlined scan (cost ",
		"interface call x.Area -> (*Rect).Area, weight ",
		"shapes/shapes.go:67:12: &Token{}: heap without PGO, stack with PGO (scan is inlined here only with PGO)",
		"Build cost", "peak RSS, largest compile", ex.Verdict,
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := ex.Write(&js, "json"); err != nil {
		t.Fatal(err)
	}
	var decoded struct {
		HotInlines    []HotInline     `json:"hot_inlines"`
		Devirtualized []Devirtualized `json:"devirtualized"`
		Cost          *struct{ Rows []map[string]any }
		Verdict       string
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil {
		t.Fatalf("JSON output does not decode: %v\n%s", err, js.String())
	}
	if len(decoded.HotInlines) != len(ex.HotInlines) || len(decoded.Devirtualized) != len(ex.Devirtualized) ||
		decoded.Cost == nil || decoded.Verdict != ex.Verdict {
		t.Errorf("JSON output incomplete:\n%s", js.String())
	}
}

// TestExplainRuntime checks that -bench adds the benchmark comparison of
// goadvise bench -pgo and that the verdict weighs it.
func TestExplainRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries with PGO, which compiles the testing package's dependencies with the profile (30-90s); skipped with -short")
	}
	testEnv(t)
	dir, prof := shapesFixture(t)
	ex, err := Explain(context.Background(), ExplainOptions{
		Dir: dir, Packages: []string{"./shapes"}, Profile: prof,
		Cost:  CostOptions{Skip: true},
		Bench: "Checksum", Count: 3, Benchtime: "20ms",
	})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Cost != nil {
		t.Errorf("cost measured despite Skip")
	}
	row := ex.Runtime.Find("Checksum", "sec/op")
	if row == nil || row.Base == nil || row.Head == nil || row.Base.N() != 3 || row.Head.N() != 3 {
		t.Fatalf("no comparison of Checksum with 3 samples each: %+v", row)
	}
	if ex.Runtime.Find("Total", "sec/op") != nil {
		t.Errorf("Total ran despite -bench Checksum")
	}
	// Three samples a side cannot reach significance at 0.05 (the
	// smallest p-value is 0.1), so the verdict cannot claim a gain.
	if want := "PGO: "; !strings.HasPrefix(ex.Verdict, want) || !strings.Contains(ex.Verdict, "sec/op (p=") || !strings.HasSuffix(ex.Verdict, ": no significant gain") {
		t.Errorf("verdict = %q, want a sec/op change with its p-value and no significant gain", ex.Verdict)
	}
	// The test binary has the hot-budget inlining too.
	found := false
	for _, h := range ex.HotInlines {
		found = found || (h.Caller == "Checksum" && h.Callee == "example.com/fx/shapes.scan")
	}
	if !found {
		t.Errorf("hot inlines of the test binary = %+v, want scan into Checksum", ex.HotInlines)
	}
	// Whether the profile makes the call of Checksum in
	// BenchmarkChecksum hot depends on where its few samples fell. If it
	// does, PGO inlines Checksum there, but the call to scan in that copy
	// is not hot (the edge belongs to Checksum): the compiler does not
	// inline it and the allocation stays, which Explain must warn about
	// and the benchmark shows. If not, the benchmark calls Checksum,
	// which inlines scan, and the allocations are gone.
	nested := false
	for _, h := range ex.HotInlines {
		nested = nested || (h.Caller == "BenchmarkChecksum" && h.Callee == "example.com/fx/shapes.Checksum")
	}
	lost := false
	for _, h := range ex.Hazards {
		lost = lost || strings.Contains(h, "PGO inlines Checksum into example.com/fx/shapes.BenchmarkChecksum, but not the hot call to scan inside it (the profile's edge belongs to Checksum): this copy keeps the call and its heap allocation of &Token{}")
	}
	a := ex.Runtime.Find("Checksum", "allocs/op")
	if a == nil || a.Base.Center == 0 {
		t.Fatalf("allocs/op of Checksum without PGO = %+v, want allocations", a)
	}
	t.Logf("BenchmarkChecksum hot-inlines Checksum: %v; allocs/op %v -> %v", nested, a.Base.Center, a.Head.Center)
	if nested != lost {
		t.Errorf("hot inline of Checksum into the benchmark: %v, hazard reported: %v (%q)", nested, lost, ex.Hazards)
	}
	if nested && a.Head.Center != a.Base.Center {
		t.Errorf("allocs/op %v -> %v: the benchmark's copy of Checksum should still allocate", a.Base.Center, a.Head.Center)
	}
	if !nested && a.Head.Center != 0 {
		t.Errorf("allocs/op %v -> %v: with scan inlined into Checksum nothing should be allocated", a.Base.Center, a.Head.Center)
	}
	var text bytes.Buffer
	ex.Write(&text, "text")
	if !strings.Contains(text.String(), "Runtime (goadvise bench -pgo):") || !strings.Contains(text.String(), "Checksum") {
		t.Errorf("text output lacks the runtime comparison:\n%s", text.String())
	}
}

func TestExplainBadProfile(t *testing.T) {
	dir := t.TempDir()
	gittest.WriteFiles(t, dir, map[string]string{"go.mod": "module m\n\ngo 1.26\n", "main.go": "package main\n\nfunc main() {}\n", "bad.pprof": "not a profile"})
	for _, tc := range []struct{ profile, want string }{
		{"", "no main package in . has a default.pgo"},
		{dir + "/bad.pprof", "bad.pprof"},
		{dir + "/missing.pprof", "missing.pprof"},
	} {
		_, err := Explain(context.Background(), ExplainOptions{Dir: dir, Profile: tc.profile})
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Explain(profile %q) = %v, want a one-line error naming %q", tc.profile, err, tc.want)
		}
	}
}

// TestProfileHazards checks the stale-profile warning: the fixture's
// profile against a copy whose hot functions were renamed.
func TestProfileHazards(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles the fixture's benchmarks (a few seconds); skipped with -short")
	}
	_, prof := shapesFixture(t)
	dir := t.TempDir()
	renamed := strings.NewReplacer("Checksum(", "Checksum2(", "Total(", "Total2(")
	gittest.WriteFiles(t, dir, map[string]string{
		"go.mod":                shapesGoMod,
		"shapes/shapes.go":      renamed.Replace(shapesSrc),
		"shapes/shapes_test.go": renamed.Replace(shapesTest),
	})
	ex := &Explanation{Profile: prof, dir: dir}
	ex.profileHazards(context.Background(), []string{"./..."})
	if len(ex.Hazards) != 1 || !strings.Contains(ex.Hazards[0], "of the profile's call-edge weight in these packages matches the current source (stale: ") ||
		!strings.Contains(ex.Hazards[0], "collect a fresh profile") {
		t.Errorf("hazards = %q, want one stale-profile warning", ex.Hazards)
	}
	// The unchanged fixture matches its profile.
	fresh, prof := shapesFixture(t)
	ex = &Explanation{Profile: prof, dir: fresh}
	ex.profileHazards(context.Background(), []string{"./..."})
	if len(ex.Hazards) != 0 {
		t.Errorf("hazards for a fresh profile = %q", ex.Hazards)
	}
}
