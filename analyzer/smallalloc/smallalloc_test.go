package smallalloc_test

import (
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/escape"
	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
	"github.com/goadvise/goadvise/analyzer/smallalloc"
)

var update = flag.Bool("update", false, "rewrite the .golden files of TestAnalyzer from the analyzer's fixes")

// updateGolden writes the golden files of pkgs: each file with all fixes
// applied. Review them before committing.
func updateGolden(t *testing.T, pkgs ...string) {
	for _, r := range analysistest.Run(fixtest.IgnoreWants{}, analysistest.TestData(), smallalloc.Analyzer, pkgs...) {
		out, err := applyFixes(r.Pass.Fset, r.Diagnostics)
		if err != nil {
			t.Fatal(err)
		}
		for name, b := range out {
			if err := os.WriteFile(name+".golden", b, 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestMain keeps the escape cache of the tests out of the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "smallalloc-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("GOADVISE_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestAnalyzer checks the findings and fixes on packages a, b and c, with the
// compiler's escape decisions.
func TestAnalyzer(t *testing.T) {
	if *update {
		updateGolden(t, "a", "b", "reuse")
	}
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), smallalloc.Analyzer, "a", "b", "reuse")
}

// TestOldGoVersion runs the analyzer on a module whose go.mod says go
// 1.12: no fix there uses clear, and the message says why.
func TestOldGoVersion(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "go112"), smallalloc.Analyzer, "./...")
}

// TestNoFixSaysWhy checks that every finding without a fix says why in
// its message, which stays one sentence ending in the tier, and that no
// finding with a fix says it has none.
func TestNoFixSaysWhy(t *testing.T) {
	results := analysistest.Run(fixtest.IgnoreWants{}, analysistest.TestData(), smallalloc.Analyzer, "a", "b", "reuse")
	fixtest.SaysWhy(t, results)
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if strings.Count(d.Message, fixtest.Why) > 1 || strings.Contains(d.Message, ". ") || !strings.HasSuffix(d.Message, "]") {
				t.Errorf("%s: not one sentence ending in the tier: %s", r.Pass.Fset.Position(d.Pos), d.Message)
			}
		}
	}
}

// TestHeuristic checks the fallback used when the compiler's decisions
// are switched off.
func TestHeuristic(t *testing.T) {
	setFlag(t, &escape.Analyzer.Flags, "off", "true")
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), smallalloc.Analyzer, "heur")
}

// TestThreshold checks that -threshold bounds the candidates: with 2
// bytes, only the 1- and 2-byte allocations of package a remain.
func TestThreshold(t *testing.T) {
	setFlag(t, &smallalloc.Analyzer.Flags, "threshold", "2")
	var got []string
	for _, r := range analysistest.Run(fixtest.IgnoreWants{}, analysistest.TestData(), smallalloc.Analyzer, "a") {
		for _, d := range r.Diagnostics {
			fn := r.Pass.Fset.Position(d.Pos).Line
			got = append(got, strconv.Itoa(fn))
		}
	}
	// make([]byte, 2) in readTag, make([]byte, 1) in Get, []byte{'\r', '\n'} in Terminate,
	// make([]byte, 2) in Peek.
	if want := []string{"56", "76", "150", "353"}; !slices.Equal(got, want) {
		t.Errorf("with -threshold=2, findings on lines %v, want %v", got, want)
	}
}

// TestGoldenFormatted checks that the fixed files are gofmt-clean as
// written, not only after analysistest formats them.
func TestGoldenFormatted(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(analysistest.TestData(), "src", "*", "*.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if string(got) != string(src) {
			t.Errorf("%s is not gofmt-clean", f)
		}
	}
}

// setFlag sets a flag for the duration of the test.
func setFlag(t *testing.T, fs *flag.FlagSet, name, v string) {
	t.Helper()
	f := fs.Lookup(name)
	if f == nil {
		t.Fatalf("no flag -%s", name)
	}
	old := f.Value.String()
	if err := f.Value.Set(v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
}
