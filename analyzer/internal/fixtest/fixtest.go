// Package fixtest holds what the analyzers' tests share: a check that
// every finding without a fix says why in its message (a user must know
// that a fix was considered), and a run of one analyzer on a fixture
// module as goadvise check runs it.
package fixtest

import (
	"context"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/load"
)

// Why is what a message says before the reason it has no fix.
const Why = "; no automatic fix: "

// SaysWhy reports, as errors of t, the diagnostics of results that have no
// fix and do not say why, and those that have one and say they have none.
// It also fails if no diagnostic is without a fix, since then it checked
// nothing.
func SaysWhy(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	without := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			pos := r.Pass.Fset.Position(d.Pos)
			has := strings.Contains(d.Message, Why)
			switch {
			case len(d.SuggestedFixes) == 0 && !has:
				t.Errorf("%s: no fix, and the message does not say why: %s", pos, d.Message)
			case len(d.SuggestedFixes) > 0 && has:
				t.Errorf("%s: a fix, but the message says there is none: %s", pos, d.Message)
			}
			if len(d.SuggestedFixes) == 0 {
				without++
			}
		}
	}
	if without == 0 {
		t.Error("no finding without a fix in the test data")
	}
}

// IgnoreWants is an analysistest.Testing that ignores the want comments,
// for running an analyzer whose wants another test checks.
type IgnoreWants struct{}

// Errorf does nothing.
func (IgnoreWants) Errorf(string, ...any) {}

// Analyze loads the package in dir (with its test variants if tests), in
// the environment env (nil: the process's), runs a on it and returns the
// diagnostics of the root packages and the file set of their positions.
// A load error or an analyzer error fails the test.
func Analyze(t testing.TB, a *analysis.Analyzer, dir string, env []string, tests bool) ([]analysis.Diagnostic, *token.FileSet) {
	t.Helper()
	pkgs, err := load.Source(context.Background(), load.SourceConfig{Dir: dir, Env: env, Tests: tests, Deps: true}, ".")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("loading the fixture: %v", err)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var diags []analysis.Diagnostic
	for act := range graph.All() {
		if act.IsRoot && act.Analyzer == a {
			if act.Err != nil {
				t.Fatal(act.Err)
			}
			diags = append(diags, act.Diagnostics...)
		}
	}
	return diags, pkgs[0].Fset
}
