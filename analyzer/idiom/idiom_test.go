package idiom_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/idiom"
	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
)

var fixtures = []string{"fmtcall", "presize", "conv", "copies"}

// TestAnalyzer checks the findings and fixes of every kind on the
// fixtures, and that every finding without a fix says why (and none with
// one says it has none).
func TestAnalyzer(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), idiom.Analyzer, fixtures...)
	fixtest.SaysWhy(t, results)
}
