package directive_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/directive"
)

// flagbad reports every call of a function named bad.
var flagbad = &analysis.Analyzer{
	Name: "flagbad",
	Doc:  "report calls of bad",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "bad" {
						pass.Reportf(call.Pos(), "bad call")
					}
				}
				return true
			})
		}
		return nil, nil
	},
}

func TestWrap(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), directive.Wrap(flagbad), "d")
	for _, r := range results {
		if r.Pass.Pkg.Name() != "d" {
			continue
		}
		dirs := r.Pass.ResultOf[directive.Analyzer].(*directive.Result)
		if got := dirs.Suppressed(); got != 8 {
			t.Errorf("Suppressed() = %d, want 8", got)
		}
	}
}
