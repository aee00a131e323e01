package heapescape_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/heapescape"
)

// TestAnalyzer runs heapescape on a fixture module. The Analyzer gets the
// compiler's decisions by building the fixture (the escape fallback path),
// so the expectations are the compiler's real decisions.
func TestAnalyzer(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := filepath.Join(analysistest.TestData(), "src", "a")
	analysistest.Run(t, dir, heapescape.Analyzer, "./...")
}

// TestAdvice checks that the advice fits the type (locks, noCopy, atomic
// values, size), the callee (interface method calls through io.ReadFull),
// constructors, allocations inlined from other packages, error paths and
// reflect.DeepEqual arguments.
func TestAdvice(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := filepath.Join(analysistest.TestData(), "src", "advice")
	analysistest.Run(t, dir, heapescape.Analyzer, "./...")
}

// TestHotOnly checks that -cold=false hides findings in cold code and on
// error paths.
func TestHotOnly(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	if err := heapescape.Analyzer.Flags.Set("cold", "false"); err != nil {
		t.Fatal(err)
	}
	defer heapescape.Analyzer.Flags.Set("cold", "true")
	dir := filepath.Join(analysistest.TestData(), "src", "hot")
	analysistest.Run(t, dir, heapescape.Analyzer, "./...")
}

// TestShapes checks that the advice follows from what the code around each
// allocation does: hoisting only values that do not outlive the iteration,
// nothing for lazy or grow-on-demand allocation, for a constructor's or a
// parser's product, for calls that must run per item, or for conversions
// that do not allocate.
func TestShapes(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := filepath.Join(analysistest.TestData(), "src", "shapes")
	analysistest.Run(t, dir, heapescape.Analyzer, "./...")
}
