package byvalue_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/kind"

	"github.com/goadvise/goadvise/analyzer/byvalue"
)

// TestAnalyzer checks the findings against the compiler's real escape
// decisions, the fix on the callers that only read, and the reason given
// where a fix is not offered.
func TestAnalyzer(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), byvalue.Analyzer, "bv")
}

// TestCategory checks that every finding is of the analyzer's kind, with
// its tier in its fields, and that a finding without a fix says what
// stands in the way of the change (Blocked), and one with a fix does not.
func TestCategory(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	for _, r := range analysistest.Run(t, analysistest.TestData(), byvalue.Analyzer, "bv") {
		for _, d := range r.Diagnostics {
			f, ok := kind.Of(r.Pass, d)
			if !ok || d.Category != string(f.Kind) || f.Tier == "" {
				t.Errorf("%s: category %q, fields %+v", r.Pass.Fset.Position(d.Pos), d.Category, f)
			}
			if fixed := len(d.SuggestedFixes) > 0; fixed == (f.Blocked != "") {
				t.Errorf("%s: blocked %q with %d fixes: %s", r.Pass.Fset.Position(d.Pos), f.Blocked, len(d.SuggestedFixes), d.Message)
			}
		}
	}
}

func TestArticle(t *testing.T) {
	for n, want := range map[int64]string{1: "a", 8: "an", 11: "an", 16: "a", 18: "an", 24: "a", 80: "an", 88: "an", 110: "a", 800: "an", 11000: "an", 18432: "an", 1100: "a"} {
		if got := byvalue.Article(n); got != want {
			t.Errorf("article(%d) = %q, want %q", n, got, want)
		}
	}
}
