package optional_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
	"github.com/goadvise/goadvise/analyzer/optional"
	"github.com/goadvise/goadvise/internal/gittest"
)

const connSrc = `package p

type conn struct {
	timeout *int
	buf     []byte
}

//go:noinline
func (c *conn) setTimeout(ms int) {
	c.timeout = &ms
}

func Serve(xs []int) int {
	t := 0
	for _, x := range xs {
		c := &conn{}
		c.setTimeout(x)
		if c.timeout != nil {
			t += *c.timeout
		}
	}
	return t
}
`

const connTest = `package p

import "testing"

func TestConn(t *testing.T) {
	c := &conn{}
	c.setTimeout(3)
	if *c.timeout != 3 {
		t.Fatal("timeout")
	}
}
`

// TestTestFiles checks that an in-package test that uses the field counts:
// without the tests type-checked the field is reported without a fix,
// saying that tests use it; with them it is reported with a fix that
// rewrites the test's use too.
func TestTestFiles(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, map[string]string{"go.mod": "module p\n\ngo 1.26\n", "p.go": connSrc, "p_test.go": connTest})
	for _, tests := range []bool{false, true} {
		diags, fset := fixtest.Analyze(t, optional.Analyzer, dir, nil, tests)
		if tests {
			// The package's own pass, which cannot see the test, says
			// so; goadvise check keeps the test variant's finding.
			diags = slices.DeleteFunc(diags, func(d analysis.Diagnostic) bool { return strings.Contains(d.Message, "not analysed (tests)") })
		}
		switch {
		case !tests && (len(diags) != 1 || len(diags[0].SuggestedFixes) != 0 || !strings.Contains(diags[0].Message, "files of the package that were not analysed (tests) use the field")):
			t.Errorf("without the tests: %v, want one finding without a fix that says tests use the field", diags)
		case tests && len(diags) != 1:
			t.Errorf("with the tests: %d diagnostics %v, want one", len(diags), diags)
		case tests:
			d := diags[0]
			if !strings.Contains(d.Message, "field conn.timeout holds an optional int by pointer") || len(d.SuggestedFixes) != 1 {
				t.Fatalf("with the tests: %s (%d fixes), want a fix of conn.timeout", d.Message, len(d.SuggestedFixes))
			}
			inTest := false
			for _, e := range d.SuggestedFixes[0].TextEdits {
				if strings.HasSuffix(fset.File(e.Pos).Name(), "p_test.go") {
					inTest = true
				}
			}
			if !inTest {
				t.Errorf("with the tests: the fix does not rewrite the test's *c.timeout")
			}
		}
	}
}
