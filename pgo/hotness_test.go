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

// TestInsideLeavesOutTestFiles checks that the module's hottest functions
// are those of the code it ships: a benchmark's own loop, in a _test.go
// file, is left out however hot it is.
func TestInsideLeavesOutTestFiles(t *testing.T) {
	work := &profile.Function{ID: 1, Name: "example.com/m.Work", Filename: "/src/m/work.go"}
	bench := &profile.Function{ID: 2, Name: "example.com/m.BenchmarkWork.func1", Filename: "/src/m/work_test.go"}
	loc := func(id uint64, f *profile.Function) *profile.Location {
		return &profile.Location{ID: id, Line: []profile.Line{{Function: f, Line: 10}}}
	}
	lw, lb := loc(1, work), loc(2, bench)
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10_000_000,
		DurationNanos: 1e9,
		Function:      []*profile.Function{work, bench},
		Location:      []*profile.Location{lw, lb},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lw, lb}, Value: []int64{2, 20_000_000}},
			{Location: []*profile.Location{lb}, Value: []int64{5, 50_000_000}},
		},
	}
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	h, err := LoadHotness(context.Background(), []string{path}, LoadOptions{})
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
