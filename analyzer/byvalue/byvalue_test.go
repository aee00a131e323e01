package byvalue_test

import (
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
