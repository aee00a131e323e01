package report

import (
	"strings"
	"testing"
)

// TestSummaryHidden checks that the summary line counts the findings
// check did not show, and says which flag shows them.
func TestSummaryHidden(t *testing.T) {
	for _, tc := range []struct {
		stats Stats
		want  []string
	}{
		{Stats{Packages: 1, Findings: 2, Total: 2, Ranking: "static", HiddenCold: 5, BelowCut: 1, Lines: 600},
			[]string{"2 findings in 1 package", "; 5 in cold code not shown (-cold shows them)", "; 1 more ranked below the 2 shown for 600 lines (-all shows them)"}},
		{Stats{Packages: 3, Ranking: "static", HiddenCold: 7},
			[]string{"no findings in 3 packages", "; 7 in cold code not shown (-cold shows them)"}},
	} {
		var b strings.Builder
		if err := writeSummary(&b, &Report{Stats: tc.stats}); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("summary %q does not say %q", b.String(), w)
			}
		}
		if tc.stats.HiddenCold == 0 && strings.Contains(b.String(), "in cold code") {
			t.Errorf("summary %q mentions cold code with none hidden", b.String())
		}
	}
}
