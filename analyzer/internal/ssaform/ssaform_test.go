package ssaform_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/internal/ssaform"
)

// probe reports, for each function of the package, which SSA form Func
// gave it: of the package's own code, without the test files' functions,
// or of all its files.
var probe = &analysis.Analyzer{
	Name:     "probe",
	Doc:      "report which SSA form each function gets",
	Requires: []*analysis.Analyzer{ssaform.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		form := pass.ResultOf[ssaform.Analyzer].(*ssaform.Package)
		if pass.Pkg.Name() == "main" {
			return nil, nil // the generated test main package
		}
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				fn := form.Func(fd)
				switch {
				case fn == nil:
					pass.Reportf(fd.Pos(), "%s: no SSA function", fd.Name.Name)
				case fn.Pkg.Members["TestSum"] != nil:
					pass.Reportf(fd.Pos(), "%s: SSA with the tests", fd.Name.Name)
				default:
					pass.Reportf(fd.Pos(), "%s: SSA of the package's own code", fd.Name.Name)
				}
			}
		}
		return nil, nil
	},
}

// TestForms checks that a function of a test variant's own files gets the
// SSA form built without the test files (whose package-level variables
// the package's initialiser must then leave out), and a function of a
// test file the one built with them.
func TestForms(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), probe, "p")
}
