package deepequal_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/deepequal"
	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
)

func TestAnalyzer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), deepequal.Analyzer, "a", "single", "shadow", "gen", "qual")
}

// TestOldGoVersion runs the analyzer on a module whose go.mod says go 1.12:
// no fix uses package slices or maps there, and the message says why.
func TestOldGoVersion(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "go112"), deepequal.Analyzer, "./...")
}

// TestNoFixSaysWhy checks that every finding without a fix says in its
// message why there is none, and that no finding with a fix says so.
func TestNoFixSaysWhy(t *testing.T) {
	fixtest.SaysWhy(t, analysistest.Run(fixtest.IgnoreWants{}, analysistest.TestData(), deepequal.Analyzer, "a", "single", "shadow", "gen", "qual"))
}
