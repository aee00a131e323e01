// Package escape defines the escape Analyzer, which hands the compiler's
// optimization decisions for a package (see package optlog) to the
// analyzers that need them.
//
// It runs no checks itself. Its -off flag (-escape.off on the command
// line) keeps the compiler from running: the analyzers that need its
// result then report nothing.
package escape

import (
	"errors"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/optlog"
)

// Analyzer runs no checks itself; its result, an *optlog.Result, holds the
// compiler's optimization decisions for pass.Pkg.
var Analyzer = &analysis.Analyzer{
	Name:       "escape",
	Doc:        "collect the compiler's escape-analysis and inlining decisions (used by other goadvise analyzers)",
	URL:        "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/escape",
	Run:        run,
	ResultType: reflect.TypeFor[*optlog.Result](),
}

// off is the value of the Analyzer's -off flag.
var off bool

func init() {
	Analyzer.Flags.BoolVar(&off, "off", false, "do not run the compiler; analyzers that need escape data report nothing")
}

func run(pass *analysis.Pass) (any, error) {
	if off {
		return optlog.Unavailable(errors.New("compiler decisions not collected (-escape.off)")), nil
	}
	return optlog.ForPass(pass), nil
}
