// Package suite lists the analyzers that goadvise runs. Every entry point
// (the goadvise command, go vet -vettool, the golangci-lint plugin) takes its
// analyzers from here so that they all run the same checks.
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/deepequal"
	"github.com/goadvise/goadvise/analyzer/hotpath"
)

// Analyzers returns goadvise's analyzers that report findings, in the order
// they are documented. Helper analyzers they require (such as hotpath) are
// not listed: drivers run them as dependencies.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{deepequal.Analyzer}
}

// Helpers returns the analyzers that report nothing themselves but compute
// results for the others. Their flags are still accepted by the drivers.
func Helpers() []*analysis.Analyzer {
	return []*analysis.Analyzer{hotpath.Analyzer}
}
