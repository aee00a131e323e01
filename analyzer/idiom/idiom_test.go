package idiom_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/idiom"
	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
	"github.com/goadvise/goadvise/analyzer/kind"
)

var fixtures = []string{"fmtcall", "presize", "conv", "copies", "zeroing"}

// TestAnalyzer checks the findings and fixes of every kind on the
// fixtures, and that every finding without a fix says why (and none with
// one says it has none).
func TestAnalyzer(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), idiom.Analyzer, fixtures...)
	fixtest.SaysWhy(t, results)
}

// TestClearBeforeGo121 checks that a module older than Go 1.21, which has
// no clear builtin, is advised the range form that the compiler clears at
// once.
func TestClearBeforeGo121(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "clearold"), idiom.Analyzer, ".")
}

// TestFields checks the fields that rank copies and shared formats: a
// change a person must judge is blocked, one that changes exported API
// says so, and both weigh less than a checked rewrite of the same cost.
func TestFields(t *testing.T) {
	for _, r := range analysistest.Run(t, analysistest.TestData(), idiom.Analyzer, "copies", "fmtcall") {
		for _, d := range r.Diagnostics {
			f, ok := kind.Of(r.Pass, d)
			pos := r.Pass.Fset.Position(d.Pos)
			if !ok || d.Category != string(f.Kind) {
				t.Errorf("%s: category %q, fields %+v", pos, d.Category, f)
				continue
			}
			exported := strings.Contains(d.Message, "exported API")
			switch {
			case f.Kind == idiom.HugeParam || f.Kind == idiom.RangeValCopy:
				if f.Blocked == "" || f.API != exported || len(d.SuggestedFixes) > 0 {
					t.Errorf("%s: %s blocked %q, API %v, %d fixes: %s", pos, f.Kind, f.Blocked, f.API, len(d.SuggestedFixes), d.Message)
				}
			case strings.Contains(d.Message, "the format is the constant"):
				if f.Blocked == "" || len(d.SuggestedFixes) > 0 {
					t.Errorf("%s: shared format blocked %q with %d fixes", pos, f.Blocked, len(d.SuggestedFixes))
				}
			}
			if f.Blocked != "" {
				free := f
				free.Blocked, free.API = "", false
				if kind.Weight(&f) >= kind.Weight(&free) {
					t.Errorf("%s: blocked finding weighs %g, as much as its checked rewrite (%g)", pos, kind.Weight(&f), kind.Weight(&free))
				}
			}
		}
	}
}
