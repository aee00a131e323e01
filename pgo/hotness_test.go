package pgo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/internal/funcname"
)

func TestHotness(t *testing.T) {
	fx := fixture(t)
	h, err := LoadHotness(context.Background(), []string{fx.cpu, fx.heap}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(fx.dir, "work", "work.go")
	samples, dur := h.Total()
	if samples == 0 || dur == 0 {
		t.Fatalf("Total() = %d, %v", samples, dur)
	}

	mix := h.Func("example.com/fix/work.mix")
	if mix.Flat < 0.02 || mix.Cum < mix.Flat {
		t.Errorf("mix: %+v, want a sizeable flat share and cum >= flat", mix)
	}
	loopLine := lineOf(t, src, "t += mix(x)")
	loop := h.Line(src, loopLine)
	if u := h.Under(src, loopLine, "example.com/fix/work.mix"); loop.Cum < 0.02 || u < 0.02 || u > loop.Cum+1e-9 {
		t.Errorf("the loop calling mix: %+v, of which calling mix %v", loop, u)
	}
	// The loop itself does not allocate; Alloc does.
	if loop.Alloc != 0 {
		t.Errorf("loop calling mix has alloc share %v", loop.Alloc)
	}
	mk := lineOf(t, src, "keep = append(keep, make(")
	if w := h.Line(src, mk); w.Alloc <= 0 || w.Alloc > w.Cum {
		t.Errorf("allocating line: %+v, want 0 < Alloc <= Cum", w)
	}
	if b, o := h.HeapLine(src, mk); b <= 0 || o <= 0 {
		t.Errorf("HeapLine(allocating line) = %d bytes, %d objects", b, o)
	}
	if b, o := h.HeapLine(src, lineOf(t, src, "t += mix(x)")); b != 0 || o != 0 {
		t.Errorf("HeapLine(non-allocating line) = %d, %d", b, o)
	}

	de := lineOf(t, src, "return reflect.DeepEqual(a, b)")
	under := h.Under(src, de, "reflect.DeepEqual")
	if deq := h.Func("reflect.DeepEqual"); under <= 0 || under > deq.Cum+1e-9 {
		t.Errorf("Under(DeepEqual call) = %v, DeepEqual cum %v", under, deq.Cum)
	}
	if u := h.Under(src, de, "example.com/fix/work.mix"); u != 0 {
		t.Errorf("Under(DeepEqual line, mix) = %v, want 0", u)
	}

	// The same file under another root, and a root-level file after
	// learning the root.
	other := "/elsewhere/checkout/fix/work/work.go"
	if got, want := h.Line(other, mk), h.Line(src, mk); got != want {
		t.Errorf("Line under another root = %+v, want %+v", got, want)
	}
	if w := h.Line("/elsewhere/unrelated/work.go", mk); w != (Weight{}) {
		t.Errorf("unrelated file with the same base name matched: %+v", w)
	}

	out := h.Outside("example.com/fix", 5)
	if len(out) == 0 {
		t.Fatal("Outside returned nothing")
	}
	for i, o := range out {
		if strings.HasPrefix(o.Name, "example.com/fix") {
			t.Errorf("Outside returned %s of the module", o.Name)
		}
		if i > 0 && o.Flat > out[i-1].Flat {
			t.Errorf("Outside not sorted: %v", out)
		}
	}
}

func TestLoadHotnessRejectsOtherProfiles(t *testing.T) {
	p := synth(t, 0, map[string]int64{"main.a:11": 1})
	p.SampleType = p.SampleType[:1]
	p.SampleType[0].Type = "contentions"
	for _, s := range p.Sample {
		s.Value = s.Value[:1]
	}
	name := writeProfile(t, p, filepath.Join(t.TempDir(), "block.pprof"))
	_, err := LoadHotness(context.Background(), []string{name}, LoadOptions{})
	checkOneLine(t, err, name, "neither a CPU nor a heap profile")
}

// TestHotnessConcurrent calls the lookups from several goroutines, as
// analyzers running in parallel do; run with -race.
func TestHotnessConcurrent(t *testing.T) {
	fx := fixture(t)
	h, err := LoadHotness(context.Background(), []string{fx.cpu}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(fx.dir, "work", "work.go")
	want := h.Line(src, lineOf(t, src, "t += mix(x)"))
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				if got := h.Line(fmt.Sprintf("/root%d/fix/work/work.go", j%3), lineOf(t, src, "t += mix(x)")); got != want {
					t.Errorf("Line under another root = %+v, want %+v", got, want)
					return
				}
				h.Func("example.com/fix/work.mix")
				h.Under(src, 1, "x")
			}
		}()
	}
	wg.Wait()
}

// writePprof writes p to a file of the test's temporary directory and
// returns its name.
func writePprof(t *testing.T, p *profile.Profile) string {
	t.Helper()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "prof.pprof")
	if err := os.WriteFile(path, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return path
}

// cpuProfile returns a CPU profile of the given samples: each a stack of
// functions (leaf first, one line each, at line 10 of their file) and a
// sample count.
func cpuProfile(funcs []*profile.Function, samples map[int][]int) *profile.Profile {
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10_000_000,
		DurationNanos: 1e9,
		Function:      funcs,
	}
	for i, f := range funcs {
		p.Location = append(p.Location, &profile.Location{ID: uint64(i + 1), Line: []profile.Line{{Function: f, Line: 10}}})
	}
	for n := range len(samples) {
		stack := samples[n]
		s := &profile.Sample{Value: []int64{int64(stack[0]), int64(stack[0]) * 10_000_000}}
		for _, i := range stack[1:] {
			s.Location = append(s.Location, p.Location[i])
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

// TestInsideLeavesOutTestFiles checks that the module's hottest functions
// are those of the code it ships: a benchmark's own loop, in a _test.go
// file, is left out however hot it is.
func TestInsideLeavesOutTestFiles(t *testing.T) {
	work := &profile.Function{ID: 1, Name: "example.com/m.Work", Filename: "/src/m/work.go"}
	bench := &profile.Function{ID: 2, Name: "example.com/m.BenchmarkWork.func1", Filename: "/src/m/work_test.go"}
	// Two samples in Work under the benchmark, five in the benchmark.
	p := cpuProfile([]*profile.Function{work, bench}, map[int][]int{0: {2, 0, 1}, 1: {5, 1}})
	h, err := LoadHotness(context.Background(), []string{writePprof(t, p)}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b := h.Func(bench.Name); b.Flat == 0 {
		t.Fatalf("the benchmark's loop has no flat weight: %+v", b)
	}
	in := h.Inside("example.com/m", 10)
	if len(in) != 1 || in[0].Name != work.Name {
		t.Errorf("Inside = %+v, want only %s", in, work.Name)
	}
}

// TestEscapedPackagePath checks a module whose path ends in ".go", as
// nats.go's does: profiles name its functions "example.com/m%2ego.F".
// They are the module's, Func finds them by their source name, and the
// module's hottest functions and an allocation's callers are named as the
// source names them.
func TestEscapedPackagePath(t *testing.T) {
	const module = "example.com/m.go"
	decode := &profile.Function{ID: 1, Name: "example.com/m%2ego.Decode", Filename: "/src/m/decode.go"}
	reader := &profile.Function{ID: 2, Name: "bytes.NewReader", Filename: "/go/src/bytes/reader.go"}
	bench := &profile.Function{ID: 3, Name: "example.com/m%2ego.BenchmarkDecode", Filename: "/src/m/decode_test.go"}
	malloc := &profile.Function{ID: 4, Name: "runtime.mallocgc", Filename: "/go/src/runtime/malloc.go"}
	// Three samples in Decode, two allocating in bytes.NewReader under it.
	p := cpuProfile([]*profile.Function{decode, reader, bench, malloc}, map[int][]int{0: {3, 0, 2}, 1: {2, 3, 1, 0, 2}})
	h, err := LoadHotness(context.Background(), []string{writePprof(t, p)}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// check refuses a profile none of whose samples is in the analysed
	// packages: these are.
	if c := h.Coverage(func(pkg string) bool { return pkg == module }); len(c) != 1 || c[0].Percent != 100 {
		t.Errorf("Coverage of %s = %+v, want 100%%", module, c)
	}
	if w := h.Func("example.com/m.go.Decode"); w.Flat == 0 || w.Cum < w.Flat {
		t.Errorf("Func by the source's name: %+v, want Decode's weight", w)
	}
	in := h.Inside(module, 10)
	if len(in) != 1 || in[0].Name != "example.com/m.go.Decode" || in[0].Package != module {
		t.Errorf("Inside(%q) = %+v, want Decode alone, by its source name", module, in)
	}
	// bytes.NewReader's allocations are charged to Decode, the module's
	// frame that calls it.
	own := func(fn string) bool { return funcname.Package(fn) == module }
	cs := h.Allocations(own).Callers("/go/src/bytes/reader.go", 10)
	if len(cs) != 1 || cs[0].Func != "example.com/m.go.Decode" || cs[0].Via != "bytes.NewReader" {
		t.Errorf("callers of the allocating line: %+v, want example.com/m.go.Decode via bytes.NewReader", cs)
	}
}

// TestLineByPackage checks that a line of a file the profile names under
// another root, sharing only its base name with the source's (a package
// at a module's root, built in a directory named otherwise), is matched
// by the package of its functions once the source's directories are
// known; and not for a directory of another package, nor when two of the
// profile's files of one package have that base name.
func TestLineByPackage(t *testing.T) {
	root := &profile.Function{ID: 1, Name: "example.com/rank.Hot", Filename: "/build/ci-1234/rank.go"}
	sub := &profile.Function{ID: 2, Name: "example.com/rank/sub.Walk", Filename: "/build/ci-1234/sub/walk.go"}
	other := &profile.Function{ID: 3, Name: "example.com/other.Hot", Filename: "/vendor-cache/other@v1/util.go"}
	p := cpuProfile([]*profile.Function{root, sub, other}, map[int][]int{0: {4, 0}, 1: {3, 1}, 2: {2, 2}})
	load := func(dirs map[string]string) *Hotness {
		t.Helper()
		h, err := NewHotness(p)
		if err != nil {
			t.Fatal(err)
		}
		h.SetPackageDirs(dirs)
		return h
	}
	dirs := map[string]string{
		"/home/dev/rank-checkout":          "example.com/rank",
		"/home/dev/rank-checkout/sub":      "example.com/rank/sub",
		"/home/dev/rank-checkout/internal": "example.com/rank/internal",
	}
	h := load(dirs)
	if w := h.Line("/home/dev/rank-checkout/rank.go", 10); w.Flat == 0 {
		t.Errorf("rank.go:10 in another root: no weight; want Hot's samples")
	}
	// Two path elements in common: matched by suffix, as before.
	if w := h.Line("/home/dev/rank-checkout/sub/walk.go", 10); w.Flat == 0 {
		t.Errorf("sub/walk.go:10: no weight; want Walk's samples")
	}
	// util.go of another package with the profile's base name.
	if w := h.Line("/home/dev/rank-checkout/internal/util.go", 10); w.Flat != 0 {
		t.Errorf("internal/util.go:10 = %+v; want nothing: the profile's util.go is another package's", w)
	}
	// Without the directories, a base name alone is not enough.
	if w := load(nil).Line("/home/dev/rank-checkout/rank.go", 10); w.Flat != 0 {
		t.Errorf("rank.go:10 without the packages' directories = %+v; want nothing", w)
	}
	// Two files of the package with that base name: ambiguous.
	twin := &profile.Function{ID: 4, Name: "example.com/rank.Cold", Filename: "/build/ci-9999/rank.go"}
	p = cpuProfile([]*profile.Function{root, twin}, map[int][]int{0: {4, 0}, 1: {1, 1}})
	if w := load(dirs).Line("/home/dev/rank-checkout/rank.go", 10); w.Flat != 0 {
		t.Errorf("rank.go:10 with two profile files of the package named rank.go = %+v; want nothing", w)
	}
}
