package kind

import (
	"slices"
	"testing"
)

// TestApportion checks that a budget is shared in proportion to sizes, by
// largest remainders, and always in full.
func TestApportion(t *testing.T) {
	for _, tc := range []struct {
		budget int
		sizes  []int
		want   []int
	}{
		{3, []int{600, 400}, []int{2, 1}},
		{3, []int{900, 100}, []int{3, 0}},
		{30, []int{4549, 4762, 689}, []int{14, 14, 2}},
		{5, []int{1, 1, 1, 1, 1, 1, 1}, []int{1, 1, 1, 1, 1, 0, 0}},
		{4, []int{0, 0}, []int{0, 0}},
	} {
		got := Apportion(tc.budget, tc.sizes)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Apportion(%d, %v) = %v, want %v", tc.budget, tc.sizes, got, tc.want)
		}
	}
}

// TestInterleave checks that the default's budget takes turns between the
// next finding by saving and the next costliest function's best finding:
// a function whose many findings name no change still gets its turn, one
// finding at a time, and no finding is taken twice.
func TestInterleave(t *testing.T) {
	// In order of saving: three rewrites in f, then g's four costs with
	// no known change (each cheap, together the most), then h's one.
	group := []string{"f", "f", "f", "g", "g", "g", "g", "h"}
	spend := []float64{10, 10, 10, 9, 9, 9, 9, 5}
	got := Interleave(len(group), func(i int) string { return group[i] }, func(i int) float64 { return spend[i] })
	// By cost the order is g's best (3), f's (0), h's (7), then the
	// second of each. Turns: saving 0, cost 3, saving 1, cost 7 (0 is
	// taken), saving 2, cost 4, saving 5 (3 and 4 are taken), cost 6.
	want := []int{0, 3, 1, 7, 2, 4, 5, 6}
	if !slices.Equal(got, want) {
		t.Errorf("Interleave = %v, want %v", got, want)
	}
	if got := Interleave(0, func(int) int { return 0 }, func(int) float64 { return 0 }); len(got) != 0 {
		t.Errorf("Interleave of nothing = %v", got)
	}
}

// TestAmortized checks that an amortized finding adds nothing to its
// function's spend, and that one with no change named has the odds of a
// cost proven inherent, while one that names a change keeps its odds.
func TestAmortized(t *testing.T) {
	lazy := Fields{Tier: "unknown", CostNS: 100, Amortized: true}
	every := Fields{Tier: "unknown", CostNS: 100}
	if Spend(&lazy) != 0 || Spend(&every) != 1 {
		t.Errorf("Spend: amortized %v, every run %v; want 0, 1", Spend(&lazy), Spend(&every))
	}
	if Odds(&lazy) != oddsInherent || Odds(&every) != oddsUnknown {
		t.Errorf("Odds: amortized %v, every run %v; want %v, %v", Odds(&lazy), Odds(&every), oddsInherent, oddsUnknown)
	}
	lazy.Rewrite, every.Rewrite = true, true
	if Odds(&lazy) != oddsRewrite {
		t.Errorf("Odds of an amortized finding with a rewrite: %v, want %v", Odds(&lazy), oddsRewrite)
	}
}

// TestAmortizedCost checks that an amortized allocation's size does not
// add to its estimated cost per run (a buffer of a megabyte grown once
// per owner), where an allocation made on every run pays for its bytes.
func TestAmortizedCost(t *testing.T) {
	k := Kind{ID: "kindtest/amortized-cost", Title: "an allocation", Doc: "An allocation.", Scoring: ScoreAlloc, CostNS: 30}
	Register(k)
	lazy := Fields{Kind: k.ID, Size: 1 << 20, Amortized: true}
	every := Fields{Kind: k.ID, Size: 1 << 20}
	Complete(&lazy)
	Complete(&every)
	if lazy.CostNS != k.CostNS || every.CostNS != Cost(k, 1<<20) || every.CostNS <= lazy.CostNS {
		t.Errorf("CostNS: amortized %v, every run %v; want %v and %v", lazy.CostNS, every.CostNS, k.CostNS, Cost(k, 1<<20))
	}
}
