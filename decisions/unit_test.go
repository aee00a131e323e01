package decisions

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/bench"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestFuncNamesMatchCompiler compiles functions, methods and nested
// closures and checks that the index names each one as the compiler's
// "can inline" remarks do, at the compiler's positions.
func TestFuncNamesMatchCompiler(t *testing.T) {
	dir := t.TempDir()
	src := `package p

type T struct{ n int }

type G[E any] struct{ e E }

func (t *T) Inc() int { t.n++; return t.n }

func (t T) Get() int { return t.n }

func (g *G[E]) Elem() E { return g.e }

var f0 = func() int { return 1 }

func Outer(x int) func() int {
	a := func() int { return x + 1 }
	b := func() func() int {
		return func() int { return x + 2 }
	}
	_ = b
	return a
}

func Worker(ch chan int) {
	for range ch {
	}
}

func Start(ch chan int) {
	go Worker(ch)
	go func() { ch <- 1 }()
}
`
	gittest.WriteFiles(t, dir, map[string]string{"go.mod": "module example.com/p\n\ngo 1.26\n", "p.go": src})
	out := run(t, dir, "go", "build", "-gcflags=-m", ".")
	re := regexp.MustCompile(`(?m)^\./p\.go:(\d+):(\d+): can inline (\S+)$`)
	ms := re.FindAllStringSubmatch(out, -1)
	if len(ms) < 8 {
		t.Fatalf("too few can-inline remarks:\n%s", out)
	}
	idx := newFuncIndex()
	file := filepath.Join(dir, "p.go")
	for _, m := range ms {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		want := m[3]
		if strings.Contains(want, ".gowrap") || strings.Contains(want, ".deferwrap") {
			continue // the compiler's wrapper of a go or defer statement with arguments
		}
		if i := strings.Index(want, "["); i >= 0 { // (*G[go.shape...]).Elem
			want = strings.Replace(want, want[i:strings.Index(want, "]")+1], "", 1)
		}
		if got := idx.enclosing(file, line, col); got != want {
			t.Errorf("%s:%s: index names %q, compiler %q", m[1], m[2], got, want)
		}
	}
	ff := idx.file(file)
	if !strings.Contains(strings.Join(ff.goNames, ","), "Worker") {
		t.Errorf("go statement of Worker not found: %q", ff.goNames)
	}
	lit := idx.span(file, lineOf(src, "go func() { ch <- 1 }()"), 13)
	if lit == nil || lit.name != "Start.func1" || !lit.goroutine {
		t.Errorf("goroutine literal = %+v, want Start.func1 marked as goroutine", lit)
	}
	if got := idx.lineText(file, lineOf(src, "func (t T) Get")); got != "func (t T) Get() int { return t.n }" {
		t.Errorf("lineText = %q", got)
	}
	if idx.enclosing(filepath.Join(dir, "missing.go"), 1, 1) != "" {
		t.Errorf("a missing file has functions")
	}
}

// compilerSample is real output of go build -pgo=... -gcflags=-m
// -d=pgodebug=3 (shortened), with a duplicated hot-budget line as the
// compiler prints it and a package that is not kept.
const compilerSample = `# example.com/fx/other
other/o.go:3:6: can inline Other
# example.com/fx/shapes [example.com/fx/shapes.test]
shapes/shapes.go:23:14: PGO devirtualize considering call x.Area()
shapes/shapes.go:23:14: PGO devirtualizing interface call x.Area to (*Rect).Area
{"Pkg":"example.com/fx/shapes","Pos":"/m/shapes/shapes.go:23:14","Caller":"example.com/fx/shapes.Total","Direct":false,"Interface":true,"Weight":30,"Hottest":"example.com/fx/shapes.(*Rect).Area","HottestWeight":29,"Devirtualized":"example.com/fx/shapes.(*Rect).Area","DevirtualizedWeight":29}
hot-callsite-thres-from-CDF=0.9900990099009901
hot-node enabled increased budget=2000 for func=example.com/fx/shapes.scan
hot-budget check allows inlining for call example.com/fx/shapes.scan (cost 101) at shapes/shapes.go:61:12 in function example.com/fx/shapes.Checksum
shapes/shapes.go:58:6: can inline Checksum
hot-budget check allows inlining for call example.com/fx/shapes.scan (cost 101) at shapes/shapes.go:61:12 in function example.com/fx/shapes.Checksum
shapes/shapes.go:61:12: inlining call to scan
hot-big check disallows inlining for call example.com/fx/shapes.scan (cost 101) at shapes/big.go:9:3 in big function example.com/fx/shapes.Big
shapes/shapes.go:37:7: &Token{} escapes to heap
shapes/shapes.go:61:12: &Token{} does not escape
shapes/shapes.go:40:2: moved to heap: buf
shapes/shapes.go:20:12: leaking param content: shapes
`

func TestParseCompilerOutput(t *testing.T) {
	out, err := parseCompilerOutput(strings.NewReader(compilerSample), "/m", map[string]bool{"example.com/fx/shapes": true})
	if err != nil {
		t.Fatal(err)
	}
	f := "/m/shapes/shapes.go"
	want := []remark{
		{Pkg: "example.com/fx/shapes", Pos: Pos{f, 23, 14}, Kind: rkDevirt, Iface: true, Expr: "x.Area", Callee: "(*Rect).Area"},
		{Pkg: "example.com/fx/shapes", Pos: Pos{f, 61, 12}, Kind: rkHotInline, Callee: "example.com/fx/shapes.scan", Cost: 101, Caller: "example.com/fx/shapes.Checksum"},
		{Pkg: "example.com/fx/shapes", Pos: Pos{f, 58, 6}, Kind: rkCanInline, Callee: "Checksum"},
		{Pkg: "example.com/fx/shapes", Pos: Pos{f, 61, 12}, Kind: rkInlineCall, Callee: "scan"},
		{Pkg: "example.com/fx/shapes", Pos: Pos{"/m/shapes/big.go", 9, 3}, Kind: rkHotBig, Callee: "example.com/fx/shapes.scan", Cost: 101, Caller: "example.com/fx/shapes.Big"},
		{Pkg: "example.com/fx/shapes", Pos: Pos{f, 37, 7}, Kind: rkEscapes, Name: "&Token{}"},
		{Pkg: "example.com/fx/shapes", Pos: Pos{f, 61, 12}, Kind: rkNoEscape, Name: "&Token{}"},
		{Pkg: "example.com/fx/shapes", Pos: Pos{f, 40, 2}, Kind: rkMoved, Name: "buf"},
	}
	if len(out.remarks) != len(want) {
		t.Fatalf("got %d remarks, want %d:\n%+v", len(out.remarks), len(want), out.remarks)
	}
	for i := range want {
		if out.remarks[i] != want[i] {
			t.Errorf("remark %d = %+v\nwant %+v", i, out.remarks[i], want[i])
		}
	}
	st := out.stats[Pos{f, 23, 14}]
	if st == nil || st.Weight != 30 || st.DevirtualizedWeight != 29 || st.Caller != "example.com/fx/shapes.Total" {
		t.Errorf("call statistics = %+v", st)
	}
	if out.hotCDF != "0.9900990099009901" {
		t.Errorf("hotCDF = %q", out.hotCDF)
	}
	if _, err := parseCompilerOutput(strings.NewReader("# example.com/fx/shapes\n{\"Pkg\":\"x\n"), "/m", map[string]bool{"example.com/fx/shapes": true}); err == nil || !strings.Contains(err.Error(), "malformed -d=pgodebug=3") {
		t.Errorf("malformed statistics: err = %v", err)
	}
}

func TestGate(t *testing.T) {
	if _, err := ParseGate("escapes,typo"); err == nil || !strings.Contains(err.Error(), `"typo"`) {
		t.Errorf("ParseGate(typo) = %v", err)
	}
	checks, err := ParseGate("escapes, inline,")
	if err != nil || len(checks) != 2 {
		t.Fatalf("ParseGate = %q, %v", checks, err)
	}
	rep := &DiffReport{Funcs: []FuncDiff{
		{Package: "p", Func: "Cold", EscapesAdded: []Escape{{Name: "x", Cause: "interface conversion", Pos: Pos{"p.go", 3, 2}}}},
		{Package: "p", Func: "Hot", Hot: true, InlinedRemoved: []Count{{"f", 2}}, BoundsAdded: []Bounds{{Kind: "index", Pos: Pos{"p.go", 9, 1}}}},
		{Package: "p", Func: "f", Inlinable: &InlinableChange{Before: true, After: false, Reason: "function too complex: cost 90 exceeds budget 80"}},
	}}
	got := strings.Join(rep.GateFailures(checks), "\n")
	want := "p.go:3:2: p.Cold: new heap escape of x (interface conversion)\n" +
		"p.Hot: 2 calls to f no longer inlined\n" +
		"p.f is no longer inlinable: function too complex: cost 90 exceeds budget 80"
	if got != want {
		t.Errorf("failures without a profile:\n%s\nwant:\n%s", got, want)
	}
	rep.Profile = "cpu.pprof" // only hot functions count
	if got := rep.GateFailures(checks); len(got) != 1 || got[0] != "p.Hot: 2 calls to f no longer inlined" {
		t.Errorf("failures with a profile = %q", got)
	}
	if got := rep.GateFailures([]string{GateBounds}); len(got) != 1 || !strings.Contains(got[0], "new index bounds check") {
		t.Errorf("bounds failures = %q", got)
	}
	// Outside a package, whatever the profile, escapes keep their
	// position; bounds checks do not count.
	// An escape whose cause alone changed is not new.
	rep.Funcs = append(rep.Funcs, FuncDiff{Package: "q", Func: "G",
		EscapesAdded:   []Escape{{Name: "y", Cause: "returned", Pos: Pos{"q/q.go", 5, 9}}, {Name: "z", Cause: "unknown cause", Pos: Pos{"q/q.go", 6, 2}}},
		EscapesRemoved: []Escape{{Name: "z", Cause: "returned", Pos: Pos{"q/q.go", 6, 2}}}})
	regs := rep.RegressionsOutside("p")
	if len(regs) != 1 || regs[0].Package != "q" || regs[0].Func != "G" || regs[0].Escape == nil || regs[0].Escape.Pos != (Pos{"q/q.go", 5, 9}) || regs[0].Text != "q/q.go:5:9: q.G: new heap escape of y (returned)" {
		t.Errorf("RegressionsOutside(p) = %+v", regs)
	}
	if regs := rep.RegressionsOutside("q"); len(regs) != 3 || regs[0].Escape == nil || regs[1].Escape != nil || regs[2].Escape != nil {
		t.Errorf("RegressionsOutside(q) = %+v, want p's escape and its two lost inlinings", regs)
	}
}

func TestVerdict(t *testing.T) {
	cost := &CostTable{}
	cost.addRow(MetricModuleCPU, "s", []float64{10}, []float64{10.4})
	cost.addRow(MetricBinary, "bytes", []float64{1000}, []float64{1012})
	row := func(name string, base, head, p float64, v bench.Verdict) *bench.Row {
		return &bench.Row{Name: name, Unit: "sec/op", Base: &bench.Stats{Center: base}, Head: &bench.Stats{Center: head},
			DeltaPct: (head - base) / base * 100, P: p, Significant: p < 0.05, Verdict: v}
	}
	for _, tc := range []struct {
		rows    []*bench.Row
		want    string
		outcome Outcome
	}{
		{[]*bench.Row{row("A", 100, 93.9, 0.002, bench.Faster)}, "PGO: -6.1% sec/op (p=0.002) for +4% build CPU, +1.2% binary: worth it", WorthIt},
		{[]*bench.Row{row("A", 100, 99, 0.4, bench.NoChange)}, "PGO: -1.0% sec/op (p=0.400) for +4% build CPU, +1.2% binary: no significant gain", NoGain},
		{[]*bench.Row{row("A", 100, 80, 0.001, bench.Faster), row("B", 100, 125, 0.001, bench.Slower)},
			"PGO: +0.0% sec/op geomean over 2 benchmarks (1 significantly faster, 1 slower) for +4% build CPU, +1.2% binary: mixed, check the slower benchmarks", Mixed},
		{[]*bench.Row{row("A", 100, 110, 0.001, bench.Slower)}, "PGO: +10.0% sec/op (p=0.001) for +4% build CPU, +1.2% binary: slower, do not use this profile", Slower},
	} {
		if got, outcome := verdict(&bench.Comparison{Rows: tc.rows}, cost); got != tc.want || outcome != tc.outcome {
			t.Errorf("verdict = %q, %q\nwant      %q, %q", got, outcome, tc.want, tc.outcome)
		}
	}
	if got, outcome := verdict(nil, nil); got != "PGO: runtime not measured (give -bench)" || outcome != NotMeasured {
		t.Errorf("verdict without anything = %q, %q", got, outcome)
	}
	if r := cost.Row(MetricBinary); math.Abs(r.DeltaPct-1.2) > 1e-9 {
		t.Errorf("binary delta = %v", r.DeltaPct)
	}
}

func TestToolexecProbe(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary acts as the wrapper (see TestMain).
	if err := probeWrapper(context.Background(), exe, t.TempDir()); err != nil {
		t.Errorf("probe of the test binary: %v", err)
	}
	truePath, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true command")
	}
	if err := probeWrapper(context.Background(), truePath, t.TempDir()); err == nil || !strings.Contains(err.Error(), "does not act as the -toolexec wrapper") {
		t.Errorf("probe of true = %v, want an error", err)
	}
}

func TestCodeHazards(t *testing.T) {
	dir := t.TempDir()
	src := `package p

func Worker(ch chan string) {
	for s := range ch {
		_ = parse(s)
	}
}

func Start(ch chan string) { go Worker(ch) }

func Serve(s string) int { return parse(s) + parse(s) + parse(s) }

func parse(s string) int { return len(s) }
`
	gittest.WriteFiles(t, dir, map[string]string{"p.go": src})
	file := filepath.Join(dir, "p.go")
	ex := &Explanation{dir: dir, HotInlines: []HotInline{
		{Package: "p", Caller: "Worker", Callee: "p.parse", Cost: 120, Pos: Pos{file, 5, 9}},
		{Package: "p", Caller: "Serve", Callee: "p.parse", Cost: 150, Pos: Pos{file, 11, 35}},
		{Package: "p", Caller: "Serve", Callee: "p.parse", Cost: 150, Pos: Pos{file, 11, 46}},
		{Package: "p", Caller: "Serve", Callee: "p.parse", Cost: 150, Pos: Pos{file, 11, 57}},
	}}
	tg := &targets{files: map[string][]string{"p": {file}}}
	ex.codeHazards(&compilerOutput{}, newFuncIndex(), tg, DefaultBigCaller)
	if len(ex.Hazards) != 2 {
		t.Fatalf("hazards = %q, want 2", ex.Hazards)
	}
	if !strings.HasPrefix(ex.Hazards[0], "p.go:5:9: p.Worker is a goroutine entry function and PGO inlines parse (cost 120) into it") {
		t.Errorf("goroutine hazard = %q", ex.Hazards[0])
	}
	if !strings.HasPrefix(ex.Hazards[1], "p.Serve receives 3 hot-budget inlines of total cost 450 (over 400)") {
		t.Errorf("big caller hazard = %q", ex.Hazards[1])
	}
}

// TestGenericAndStdNames checks, on the compiler's output for a module
// that hot-inlines a generic method holding a sync/atomic.Pointer of a
// struct, that the explanation keeps the whole names of instantiations
// (their type arguments hold spaces) and groups the code of the standard
// library compiled into the module's package under sync/atomic.
func TestGenericAndStdNames(t *testing.T) {
	dir := t.TempDir()
	atomicDir := filepath.Join(dir, "goroot", "src", "sync", "atomic")
	gittest.WriteFiles(t, dir, map[string]string{
		"m/cache/big.go": "package cache\n\n" +
			"type Box[T any] struct{ p atomic.Pointer[T] }\n\n" +
			"func (b *Box[T]) Fill(v *T) { b.p.Store(v) }\n\n" +
			"func Loop() {\n\tfor i := 0; i < 100; i++ {\n\t\tbox.Fill(&struct{ a, b int }{i, i})\n\t}\n}\n",
		"goroot/src/sync/atomic/type.go": "package atomic\n\n" +
			"func (x *Pointer[T]) Store(val *T) { StorePointer(&x.v, unsafe.Pointer(val)) }\n",
	})
	const shape = "go.shape.struct { example.com/gx/cache.a int; example.com/gx/cache.b int }"
	store := filepath.Join(atomicDir, "type.go")
	off := "# example.com/gx/cache\n" +
		"cache/big.go:5:6: can inline (*Box[" + shape + "]).Fill with cost 121\n"
	on := "# example.com/gx/cache\n" +
		"hot-budget check allows inlining for call example.com/gx/cache.(*Box[" + shape + "]).Fill (cost 121) at cache/big.go:9:11 in function example.com/gx/cache.Loop\n" +
		"cache/big.go:9:11: inlining call to (*Box[" + shape + "]).Fill\n" +
		"cache/big.go:9:11: inlining call to atomic.(*Pointer[" + shape + "]).Store\n" +
		store + ":3:6: inlining call to atomic.StorePointer\n"
	keep := map[string]bool{"example.com/gx/cache": true}
	m := filepath.Join(dir, "m")
	offOut, err := parseCompilerOutput(strings.NewReader(off), m, keep)
	if err != nil {
		t.Fatal(err)
	}
	onOut, err := parseCompilerOutput(strings.NewReader(on), m, keep)
	if err != nil {
		t.Fatal(err)
	}
	ex := &Explanation{Profile: "cpu.pprof", dir: m, pkgOfDir: map[string]string{
		filepath.Join(m, "cache"): "example.com/gx/cache", atomicDir: "sync/atomic",
	}}
	ex.compare(offOut, onOut, newFuncIndex())
	if len(ex.HotInlines) != 1 || ex.HotInlines[0].Callee != "example.com/gx/cache.(*Box["+shape+"]).Fill" || ex.HotInlines[0].Caller != "Loop" {
		t.Fatalf("hot inlines = %+v, want the whole name of (*Box[...]).Fill into Loop", ex.HotInlines)
	}
	var text bytes.Buffer
	ex.writeText(&text)
	for _, want := range []string{
		"  example.com/gx/cache\n    Loop\n      cache/big.go:9:11: inlined (*Box[go.shape.struct { cache.a int; cache.b int }]).Fill (cost 121), weight unknown\n",
		"cache/big.go:9:11: atomic.(*Pointer[go.shape.struct { cache.a int; cache.b int }]).Store inlined only with PGO\n",
		"  sync/atomic\n    (*Pointer).Store\n      " + store + ":3:6: atomic.StorePointer inlined only with PGO\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, text.String())
		}
	}
}
