// Package suite lists the analyzers that goadvise runs. Every entry point
// (the goadvise command, go vet -vettool, the golangci-lint plugin) takes its
// analyzers from here so that they all run the same checks.
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/deepequal"
	"github.com/goadvise/goadvise/analyzer/directive"
	"github.com/goadvise/goadvise/analyzer/heapescape"
	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/smallalloc"
	"github.com/goadvise/goadvise/escape"
)

// reporting lists the analyzers that report findings, in documentation order.
var reporting = []*analysis.Analyzer{
	deepequal.Analyzer,
	heapescape.Analyzer,
	smallalloc.Analyzer,
}

// wrapped holds the reporting analyzers wrapped so that //goadvise:ignore
// and //nolint directives suppress their diagnostics. Wrapping happens once
// so that every caller gets the same *analysis.Analyzer values.
var wrapped = func() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(reporting))
	for i, a := range reporting {
		out[i] = directive.Wrap(a)
	}
	return out
}()

// Analyzers returns goadvise's analyzers that report findings, in the order
// they are documented, each honouring suppression directives. Helper
// analyzers they require are not listed: drivers run them as dependencies.
func Analyzers() []*analysis.Analyzer {
	return append([]*analysis.Analyzer(nil), wrapped...)
}

// Helpers returns the analyzers that report nothing themselves but compute
// results for the others. Drivers accept their flags too (for example
// -escape.off or -hotpath.profile).
func Helpers() []*analysis.Analyzer {
	return []*analysis.Analyzer{hotpath.Analyzer, escape.Analyzer, directive.Analyzer}
}

// Requires reports whether any of analyzers depends, directly or not, on
// the analyzer dep.
func Requires(analyzers []*analysis.Analyzer, dep *analysis.Analyzer) bool {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer) bool
	visit = func(a *analysis.Analyzer) bool {
		if a == dep {
			return true
		}
		if seen[a] {
			return false
		}
		seen[a] = true
		for _, r := range a.Requires {
			if visit(r) {
				return true
			}
		}
		return false
	}
	for _, a := range analyzers {
		if visit(a) {
			return true
		}
	}
	return false
}
