// Package fixtest checks, for the analyzers' tests, that every finding
// without a fix says why in its message (issue: a user must know that a
// fix was considered).
package fixtest

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
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
