package byvalue_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/analyzer/byvalue"
)

const pointSrc = `package p

type point struct{ x, y int }

//go:noinline
func newPoint(x, y int) *point {
	return &point{x, y}
}

func Sum(xs []int) int {
	t := 0
	for i, x := range xs {
		p := newPoint(x, i)
		t += p.x
	}
	return t
}
`

const pointTest = `package p

import "testing"

func TestPoint(t *testing.T) {
	if p := newPoint(1, 2); p == nil {
		t.Fatal("nil")
	}
}
`

// TestTestFileCallers checks that a caller in a test file is one: a fix
// is not offered when a test compares the pointer with nil, whether or
// not the test files are type-checked, and the function is reported once,
// with the reason, by the pass that sees the test.
func TestTestFileCallers(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := t.TempDir()
	for name, src := range map[string]string{"go.mod": "module p\n\ngo 1.26\n", "p.go": pointSrc, "p_test.go": pointTest} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, tests := range []bool{false, true} {
		pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: tests}, ".")
		if err != nil || packages.PrintErrors(pkgs) > 0 {
			t.Fatalf("loading the fixture: %v", err)
		}
		graph, err := checker.Analyze([]*analysis.Analyzer{byvalue.Analyzer}, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		msgs := make(map[string]bool)
		for act := range graph.All() {
			if !act.IsRoot || act.Analyzer != byvalue.Analyzer {
				continue
			}
			for _, d := range act.Diagnostics {
				if len(d.SuggestedFixes) > 0 {
					t.Errorf("tests=%v: a fix is offered although a test compares with nil: %s", tests, d.Message)
				}
				msgs[d.Message] = true
			}
		}
		switch {
		case !tests && len(msgs) != 0:
			t.Errorf("without the tests: %v, want nothing", msgs)
		case tests && len(msgs) != 1:
			t.Errorf("with the tests: %d distinct messages %v, want one", len(msgs), msgs)
		case tests:
			for m := range msgs {
				if !strings.Contains(m, "a caller compares it with nil at p_test.go:6") {
					t.Errorf("with the tests: %s", m)
				}
			}
		}
	}
}
