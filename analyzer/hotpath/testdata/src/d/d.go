// Package d is an analyzer's code: what builds and reports a diagnostic
// runs once per finding, not per node visited.
package d

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
)

func mark(...any) int { return 0 }

// emit is a helper given a diagnostic.
func emit(pass *analysis.Pass, d *analysis.Diagnostic) { pass.Report(*d) }

// reportf is a helper given the pass, as staticcheck's report.Report.
func reportf(pass *analysis.Pass, format string, args ...any) {}

// reportCount is not given the pass: it reports no diagnostic.
func reportCount(name string) {}

// tracker has a Report method of its own, which reports no diagnostic.
type tracker struct{}

func (tracker) Report(s string) {}

func run(pass *analysis.Pass, names []string, t tracker) {
	for _, n := range names {
		mark() // want `hot-loop: inside a loop`
		if n == "" {
			msg := fmt.Sprint("empty", mark()) // want `cold: only when it reports a diagnostic`
			pass.Report(analysis.Diagnostic{
				Message: msg,
				SuggestedFixes: []analysis.SuggestedFix{{
					Message: fmt.Sprint("remove", mark()), // want `cold: only when it reports a diagnostic`
				}},
			})
		}
		switch len(n) {
		case 1:
			pass.Reportf(0, "short %s %d", n, mark()) // want `cold: only when it reports a diagnostic`
			continue
		case 2:
			t.Report(fmt.Sprint(n, mark())) // want `hot-loop: inside a loop`
		}
		emit(pass, &analysis.Diagnostic{Message: fmt.Sprint(n, mark())}) // want `cold: only when it reports a diagnostic`
		if n == "x" {
			reportf(pass, "x %d", mark()) // want `cold: only when it reports a diagnostic`
		}
		reportCount(fmt.Sprint(n, mark())) // want `hot-loop: inside a loop`
		mark()                             // want `hot-loop: inside a loop`
	}
}

// switches reports in every clause of a switch that ends the block.
func switches(pass *analysis.Pass, v any, ok bool) {
	for range 3 {
		if ok {
			msg := fmt.Sprint("value", mark()) // want `cold: only when it reports a diagnostic`
			switch v.(type) {
			case int:
				pass.Reportf(0, "int %s", msg)
			default:
				pass.Reportf(0, "other %s", msg)
			}
		}
		if !ok {
			msg := fmt.Sprint("value", mark()) // want `hot-loop: inside a loop`
			switch v.(type) {
			case int:
				pass.Reportf(0, "int %s", msg)
			default:
				println(msg)
			}
		}
	}
}

// checker builds diagnostics in methods, as perfsprint's reportConcatLoop
// does: called only where a diagnostic is reported, they are as cold.
type checker struct{ pass *analysis.Pass }

func (c *checker) concatLoop(names []string) *analysis.Diagnostic {
	for _, n := range names {
		mark(fmt.Sprint(n)) // want `cold: called only when reporting a diagnostic`
	}
	return &analysis.Diagnostic{}
}

// visit is named by the interface visitor below: it may be called through
// it, so its callers do not decide how often it runs.
func (c *checker) visit(names []string) *analysis.Diagnostic {
	for _, n := range names {
		mark(fmt.Sprint(n)) // want `hot-loop: inside a loop`
	}
	return nil
}

type visitor interface {
	visit([]string) *analysis.Diagnostic
}

// valued is used as a method value: who calls it is not known.
func (c *checker) valued(names []string) *analysis.Diagnostic {
	for _, n := range names {
		mark(fmt.Sprint(n)) // want `hot-loop: inside a loop`
	}
	return nil
}

func (c *checker) run(groups [][]string) func([]string) *analysis.Diagnostic {
	for _, names := range groups {
		// What runs in this block runs once per diagnostic: it ends by
		// reporting one, whatever happens before.
		if len(names) > 1 {
			c.visit(names)
			c.valued(names)
			c.pass.Report(*c.concatLoop(names))
		}
	}
	return c.valued
}

// tail ends its loop body with an if that may report: the body runs for
// every name, reported or not; only the if's block is cold.
func tail(pass *analysis.Pass, names []string, ok bool) {
	for _, n := range names {
		m := fmt.Sprint(n, mark()) // want `hot-loop: inside a loop`
		if m == "" {
			pass.Reportf(0, "empty %d", mark()) // want `cold: only when it reports a diagnostic`
		} else if len(m) > 9 {
			pass.Reportf(0, "long %d", mark()) // want `cold: only when it reports a diagnostic`
		}
	}
	for _, n := range names {
		if ok {
			v := fmt.Sprint(n, mark()) // want `hot-loop: inside a loop`
			if v == "" {
				pass.Reportf(0, "empty %d", mark()) // want `cold: only when it reports a diagnostic`
			}
		}
	}
}
