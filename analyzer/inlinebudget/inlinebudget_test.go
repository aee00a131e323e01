package inlinebudget_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/inlinebudget"
)

// TestAnalyzer runs inlinebudget on a fixture module. The costs come from
// building the fixture with the compiler's optimization log (the escape
// fallback path), so the expectations are the compiler's real decisions.
func TestAnalyzer(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := filepath.Join(analysistest.TestData(), "src", "a")
	analysistest.Run(t, dir, inlinebudget.Analyzer, "./...")
}

// TestMargin checks that -margin bounds how far over the budget a reported
// function may be.
func TestMargin(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	if err := inlinebudget.Analyzer.Flags.Set("margin", "10"); err != nil {
		t.Fatal(err)
	}
	defer inlinebudget.Analyzer.Flags.Set("margin", "60")
	dir := filepath.Join(analysistest.TestData(), "src", "margin")
	analysistest.Run(t, dir, inlinebudget.Analyzer, "./...")
}
