package deepequal_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/deepequal"
	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
)

func TestAnalyzer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), deepequal.Analyzer, "a", "single", "shadow", "gen", "qual")
}

// TestNoFixSaysWhy checks that every finding without a fix says in its
// message why there is none, and that no finding with a fix says so.
func TestNoFixSaysWhy(t *testing.T) {
	fixtest.SaysWhy(t, analysistest.Run(fixtest.IgnoreWants{}, analysistest.TestData(), deepequal.Analyzer, "a", "single", "shadow", "gen", "qual"))
}
