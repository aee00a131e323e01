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
	pass  *analysis.Pass
	once  sync.Once
	funcs map[*ast.FuncDecl]*ssa.Function
}

func run(pass *analysis.Pass) (any, error) {
	return &Package{pass: pass}, nil
}

// Func returns the SSA function of the declaration fd of the pass's
// package, or nil if there is none. The first call builds the SSA form of
// the whole package.
func (p *Package) Func(fd *ast.FuncDecl) *ssa.Function {
	p.once.Do(p.build)
	return p.funcs[fd]
}

func (p *Package) build() {
	pass := p.pass
	prog := ssa.NewProgram(pass.Fset, 0)
	// The imported packages are created from their types alone: the
	// package's code calls them, it does not need their bodies.
	for _, imp := range pass.Pkg.Imports() {
		prog.CreatePackage(imp, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	p.funcs = make(map[*ast.FuncDecl]*ssa.Function)
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				if fn := prog.FuncValue(obj); fn != nil {
					p.funcs[fd] = fn
				}
			}
		}
	}
}
