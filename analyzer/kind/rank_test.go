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
