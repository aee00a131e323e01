package inlinebudget_test

import (
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/inlinebudget"
)

// TestAnalyzer runs inlinebudget on a fixture module. The costs come from
// building the fixture with the compiler's optimization log (the escape
// fallback path), so the expectations are the compiler's real decisions.
// It also checks that the records of the other packages that the
// candidates' cold paths call are looked up together, in one go command
// per package analysed.
func TestAnalyzer(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	inlinebudget.ResetLookUps()
	dir := filepath.Join(analysistest.TestData(), "src", "a")
	analysistest.Run(t, dir, inlinebudget.Analyzer, "./...")
	// Package a's candidates call fmt; b's Encode calls a and strconv.
	if n, paths := inlinebudget.LookUps(); n != 2 || !slices.Equal(paths, []string{"a", "fmt", "strconv"}) {
		t.Errorf("looked up the records of %q in %d go commands; want a, fmt and strconv in 2, one for each package", paths, n)
	}
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
