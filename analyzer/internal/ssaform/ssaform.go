// Package ssaform provides the SSA form of a package's functions to
// analyzers, built on demand.
//
// It replaces golang.org/x/tools/go/analysis/passes/buildssa, which
// requires the ctrlflow pass: ctrlflow has facts, and an analyzer with
// facts, even indirectly, makes every driver analyse all of a package's
// dependencies from source (go vet runs the tool on every dependency,
// go/packages type-checks them all). The SSA form built here knows fewer
// functions that never return, which only makes the graph of such a call
// less exact, and it is built only when an analyzer asks for a function.
package ssaform

import (
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer provides a *Package. It reports nothing and has no facts,
// and it must never have any (see the package comment).
var Analyzer = &analysis.Analyzer{
	Name:       "ssaform",
	Doc:        "provide the SSA form of a package's functions, built on demand",
	Run:        run,
	ResultType: reflect.TypeFor[*Package](),
}

// A Package is the SSA form of a pass's package, built on first use.
type Package struct {
	pass    *analysis.Pass
	code    form // the package's own files: a test variant's without its tests
	withAll form // all of the pass's files, for a function of a test file
}

// A form is the SSA form of some of a pass's files.
type form struct {
	once  sync.Once
	funcs map[*ast.FuncDecl]*ssa.Function
}

func run(pass *analysis.Pass) (any, error) {
	return &Package{pass: pass}, nil
}

// Func returns the SSA function of the declaration fd of the pass's
// package, or nil if there is none. The first call builds the SSA form of
// the whole package, or, for a function outside its test files, of the
// package without them: the package's own code cannot refer to its tests,
// and in a test variant they can be most of the code (nats-server's
// server package with its tests: 12 MB of source, 7 of them tests).
func (p *Package) Func(fd *ast.FuncDecl) *ssa.Function {
	f := &p.code
	if isTest(p.pass, fd) {
		f = &p.withAll
	}
	f.once.Do(func() { f.funcs = build(p.pass, f == &p.withAll) })
	return f.funcs[fd]
}

// isTest reports whether n is in a _test.go file.
func isTest(pass *analysis.Pass, n ast.Node) bool {
	return strings.HasSuffix(pass.Fset.File(n.Pos()).Name(), "_test.go")
}

// build returns the SSA functions of the declarations of the pass's
// files, with or without its test files.
func build(pass *analysis.Pass, tests bool) map[*ast.FuncDecl]*ssa.Function {
	files, info := pass.Files, pass.TypesInfo
	if !tests {
		files = slices.DeleteFunc(slices.Clone(files), func(f *ast.File) bool { return isTest(pass, f) })
		if len(files) < len(pass.Files) {
			// The package's initializer must not build the tests'
			// variables, whose files it is not given.
			in := *pass.TypesInfo
			in.InitOrder = slices.DeleteFunc(slices.Clone(in.InitOrder), func(i *types.Initializer) bool {
				return isTest(pass, i.Rhs)
			})
			info = &in
		}
	}
	prog := ssa.NewProgram(pass.Fset, 0)
	// The imported packages are created from their types alone: the
	// package's code calls them, it does not need their bodies.
	for _, imp := range pass.Pkg.Imports() {
		prog.CreatePackage(imp, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, files, info, false)
	pkg.Build()
	funcs := make(map[*ast.FuncDecl]*ssa.Function)
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				if fn := prog.FuncValue(obj); fn != nil {
					funcs[fd] = fn
				}
			}
		}
	}
	return funcs
}
