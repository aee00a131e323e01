package driver

import (
	"testing"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/pgo"
	"github.com/goadvise/goadvise/report"
)

// TestBenchCostsFree checks what the benchmarks' exact heap profiles say
// of each allocation finding: one at a line where a benchmark allocated
// is not free; one at another line of a function the benchmark ran, where
// nothing was allocated, is (report.MeasuredFree); one in a function no
// benchmark ran is not: nothing was measured there.
func TestBenchCostsFree(t *testing.T) {
	decode := &profile.Function{ID: 1, Name: "example.com/m.Decode", SystemName: "example.com/m.Decode", Filename: "/m/d.go"}
	at := func(id uint64, line int64) *profile.Location {
		return &profile.Location{ID: id, Line: []profile.Line{{Function: decode, Line: line}}}
	}
	cpuLoc, heapLoc := at(1, 6), at(2, 9)
	cpu := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10000000,
		DurationNanos: 1e9,
		Function:      []*profile.Function{decode},
		Location:      []*profile.Location{cpuLoc},
		Sample:        []*profile.Sample{{Location: []*profile.Location{cpuLoc}, Value: []int64{50, 50 * 10000000}}},
	}
	heap := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"},
			{Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:     1,
		Function:   []*profile.Function{decode},
		Location:   []*profile.Location{heapLoc},
		Sample:     []*profile.Sample{{Location: []*profile.Location{heapLoc}, Value: []int64{100, 1600, 0, 0}}},
	}
	hot, err := pgo.NewHotness(cpu, heap)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(fn string, line int) report.Finding {
		f := report.Finding{Analyzer: "heapescape", File: "/m/d.go", Line: line, Function: fn, Package: "example.com/m"}
		f.Scoring, f.Tier, f.CostNS = kind.ScoreAlloc, "hot-loop", 30
		return f
	}
	fs := []report.Finding{mk("example.com/m.Decode", 9), mk("example.com/m.Decode", 7), mk("example.com/m.Never", 3)}
	benchCosts(fs, []*measuredBench{{Measured: &bench.Measured{Package: "example.com/m", Name: "BenchmarkDecode", N: 100, Ops: 100}, hot: hot}}, "example.com/m")
	for i, want := range []bool{false, true, false} {
		if got := report.MeasuredFree(fs[i]); got != want {
			t.Errorf("%s line %d: MeasuredFree %v, want %v (benchmarks %+v)", fs[i].Function, fs[i].Line, got, want, fs[i].Benchmarks)
		}
	}
	if len(fs[0].Benchmarks) != 1 || fs[0].Benchmarks[0].AllocsPerOp != 1 {
		t.Errorf("line 9: %+v, want 1 alloc/op in BenchmarkDecode", fs[0].Benchmarks)
	}
}
