package percall_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
	"github.com/goadvise/goadvise/analyzer/percall"
)

func TestAnalyzer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), percall.Analyzer, "a", "b", "c")
}

// TestOldGoVersion runs the analyzer on a module whose go.mod says go
// 1.12, where the advice names sync.Once instead of sync.OnceValue.
func TestOldGoVersion(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "go112"), percall.Analyzer, "./...")
}

// TestNoFixSaysWhy checks that every finding without a fix says in its
// message why there is none, and that no finding with a fix says so.
func TestNoFixSaysWhy(t *testing.T) {
	fixtest.SaysWhy(t, analysistest.Run(fixtest.IgnoreWants{}, analysistest.TestData(), percall.Analyzer, "a", "b", "c"))
}
