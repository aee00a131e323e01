package byvalue_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/byvalue"
)

// TestAnalyzer checks the findings against the compiler's real escape
// decisions, the fix on the callers that only read, and the reason given
// where a fix is not offered.
func TestAnalyzer(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), byvalue.Analyzer, "bv")
}

// TestCategory checks that a finding without a fix is filed with the
// inherent allocations (shown on request), and one with a fix is not.
func TestCategory(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	for _, r := range analysistest.Run(t, analysistest.TestData(), byvalue.Analyzer, "bv") {
		for _, d := range r.Diagnostics {
			inherent := strings.HasSuffix(d.Category, ",inherent")
			if fixed := len(d.SuggestedFixes) > 0; fixed == inherent {
				t.Errorf("%s: category %q with %d fixes: %s", r.Pass.Fset.Position(d.Pos), d.Category, len(d.SuggestedFixes), d.Message)
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
