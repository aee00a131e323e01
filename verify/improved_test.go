package verify

import (
	"testing"

	"github.com/goadvise/goadvise/bench"
)

// TestImproved checks what counts as a benchmark's improvement that
// outweighs new compiler decisions elsewhere: any significant drop in
// allocs/op, which is exact; a significant gain in time only beyond the
// comparison's threshold, as small ones come by chance on a busy machine;
// never a change that is not significant.
func TestImproved(t *testing.T) {
	res := func(rows ...*bench.Row) *bench.VerifyResult {
		return &bench.VerifyResult{Comparison: &bench.Comparison{Alpha: 0.05, Threshold: 5, Rows: rows}}
	}
	row := func(unit string, delta float64, significant bool, verdict bench.Verdict) *bench.Row {
		return &bench.Row{Unit: unit, DeltaPct: delta, Significant: significant, Verdict: verdict}
	}
	for _, tc := range []struct {
		name string
		res  *bench.VerifyResult
		want bool
	}{
		{"one alloc fewer", res(row("allocs/op", -2, true, bench.Better)), true},
		{"2% faster", res(row("sec/op", -2, true, bench.Faster)), false},
		{"9% faster", res(row("sec/op", -9, true, bench.Faster)), true},
		{"9% faster, not significant", res(row("sec/op", -9, false, bench.NoChange)), false},
		{"3% fewer bytes", res(row("B/op", -3, true, bench.Better)), false},
		{"slower", res(row("sec/op", 12, true, bench.Slower)), false},
		{"no comparison", &bench.VerifyResult{}, false},
	} {
		if got := improved(tc.res); got != tc.want {
			t.Errorf("%s: improved = %v, want %v", tc.name, got, tc.want)
		}
	}
}
