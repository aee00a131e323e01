package percall_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/percall"
)

func TestAnalyzer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), percall.Analyzer, "a", "b", "c")
}
