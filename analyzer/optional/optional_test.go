package optional_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/kind"

	"github.com/goadvise/goadvise/analyzer/optional"
)

// TestAnalyzer checks the findings against the compiler's real escape
// decisions, the fix with and without a presence flag, and the reason
// given where a fix is not offered.
func TestAnalyzer(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), optional.Analyzer, "opt")
}

// TestCategory checks that every finding is of the analyzer's kind, with
// its tier in its fields, and that a finding without a fix says what
// stands in the way of the change (Blocked), and one with a fix does not.
func TestCategory(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	for _, r := range analysistest.Run(t, analysistest.TestData(), optional.Analyzer, "opt") {
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
