package byvalue_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/byvalue"
	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
	"github.com/goadvise/goadvise/internal/gittest"
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
// not the test files are type-checked; without them the finding says that
// the tests use the function, with them it names the use.
func TestTestFileCallers(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, map[string]string{"go.mod": "module p\n\ngo 1.26\n", "p.go": pointSrc, "p_test.go": pointTest})
	for _, tests := range []bool{false, true} {
		diags, _ := fixtest.Analyze(t, byvalue.Analyzer, dir, nil, tests)
		if tests {
			// The package's own pass, which cannot see the test, says
			// so; goadvise check keeps the test variant's finding.
			diags = slices.DeleteFunc(diags, func(d analysis.Diagnostic) bool { return strings.Contains(d.Message, "not analysed (tests)") })
		}
		msgs := make(map[string]bool)
		for _, d := range diags {
			if len(d.SuggestedFixes) > 0 {
				t.Errorf("tests=%v: a fix is offered although a test compares with nil: %s", tests, d.Message)
			}
			msgs[d.Message] = true
		}
		switch {
		case !tests && len(msgs) != 1:
			t.Errorf("without the tests: %v, want one finding", msgs)
		case !tests:
			for m := range msgs {
				if !strings.Contains(m, "files of the package that were not analysed (tests) call it") {
					t.Errorf("without the tests: %s", m)
				}
			}
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

// TestTwoTrees checks that one process analysing two trees whose packages
// have the same path reports each tree's own findings: the compiler's
// decisions for the first are not used for the second.
func TestTwoTrees(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	for _, pad := range []string{"", "\n\n\n"} {
		src := strings.Replace(pointSrc, "\n//go:noinline", pad+"\n//go:noinline", 1)
		dir := gittest.NewTree(t, map[string]string{"go.mod": "module p\n\ngo 1.26\n", "p.go": src})
		diags, fset := fixtest.Analyze(t, byvalue.Analyzer, dir, nil, false)
		want := 7 + strings.Count(pad, "\n")
		if len(diags) != 1 || fset.Position(diags[0].Pos).Line != want {
			var got []string
			for _, d := range diags {
				got = append(got, fset.Position(d.Pos).String())
			}
			t.Errorf("tree with the constructor's return at line %d: findings at %v, want one there", want, got)
		}
	}
}
