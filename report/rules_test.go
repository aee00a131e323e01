package report_test

import (
	"testing"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/wholeprog"
)

// TestEveryCheckHasARule checks that every analyzer and whole-program
// pass has a SARIF rule with a name, so that a new one is not left out.
func TestEveryCheckHasARule(t *testing.T) {
	var names []string
	for _, a := range suite.Analyzers() {
		names = append(names, a.Name)
	}
	for _, p := range wholeprog.Passes() {
		names = append(names, p.Name)
	}
	for _, n := range names {
		if report.RuleName(n) == "" {
			t.Errorf("%s has no SARIF rule name", n)
		}
	}
}
