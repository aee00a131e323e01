package optional_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/optional"
)

// TestAnalyzer checks the findings against the compiler's real escape
// decisions, the fix with and without a presence flag, and the reason
// given where a fix is not offered.
func TestAnalyzer(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), optional.Analyzer, "opt")
}

// TestCategory checks that a finding without a fix is filed with the
// inherent allocations (shown on request), and one with a fix is not.
func TestCategory(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	for _, r := range analysistest.Run(t, analysistest.TestData(), optional.Analyzer, "opt") {
		for _, d := range r.Diagnostics {
			inherent := strings.HasSuffix(d.Category, ",inherent")
			if fixed := len(d.SuggestedFixes) > 0; fixed == inherent {
				t.Errorf("%s: category %q with %d fixes: %s", r.Pass.Fset.Position(d.Pos), d.Category, len(d.SuggestedFixes), d.Message)
			}
		}
	}
}
