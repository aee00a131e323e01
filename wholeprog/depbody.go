package wholeprog

import (
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/goadvise/goadvise/load"
)

// depBody returns fn, a function without a body in a package read from
// export data, as built from source, or nil if it cannot be. loopalloc
// needs the body of a dependency's function to which a buffer is passed
// (io.ReadFull, binary.BigEndian.Uint32) to tell that the function does
// not keep it. The function's package is type-checked from source on its
// own, with its imports read from export data, into an SSA program of
// its own: its functions (and their parameters) are not those of the
// program, but their instructions tell what they do with their
// parameters, which is all localOnly asks. Calls from them to other
// packages are followed the same way. Generic functions and their
// instances are not (nil).
func (p *program) depBody(fn *ssa.Function) *ssa.Function {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || fn.Origin() != nil || fn.TypeParams().Len() > 0 || p.bodies[obj.Pkg()] {
		return nil
	}
	path := obj.Pkg().Path()
	sp, ok := p.deps[path]
	if !ok {
		sp = p.loadDep(path)
		p.deps[path] = sp
	}
	if sp == nil {
		return nil
	}
	scope := sp.Pkg.Scope()
	recv := obj.Signature().Recv()
	if recv == nil {
		f, _ := scope.Lookup(obj.Name()).(*types.Func)
		if f == nil {
			return nil
		}
		return sp.Prog.FuncValue(f)
	}
	named, _ := types.Unalias(derefType(recv.Type())).(*types.Named)
	if named == nil {
		return nil
	}
	tn, _ := scope.Lookup(named.Obj().Name()).(*types.TypeName)
	if tn == nil {
		return nil
	}
	local, _ := types.Unalias(tn.Type()).(*types.Named)
	if local == nil {
		return nil
	}
	for i := 0; i < local.NumMethods(); i++ {
		if m := local.Method(i); m.Name() == obj.Name() {
			return sp.Prog.FuncValue(m)
		}
	}
	return nil
}

// loadDep type-checks the package with the given import path from source
// and builds its SSA, or returns nil if it does not load.
func (p *program) loadDep(path string) *ssa.Package {
	listed, err := load.List(p.ctx, load.Config{Dir: p.opts.Dir, Env: p.opts.Env}, path)
	if err != nil || len(listed.Roots) != 1 || len(listed.Roots[0].Errors) > 0 {
		return nil
	}
	r := listed.Roots[0]
	roots := []*packages.Package{r}
	load.Check(roots)
	defer load.Release(roots)
	if r.IllTyped || r.Types == nil {
		return nil
	}
	prog := ssa.NewProgram(r.Fset, 0)
	for _, imp := range r.Types.Imports() {
		prog.CreatePackage(imp, nil, nil, true)
	}
	sp := prog.CreatePackage(r.Types, r.Syntax, r.TypesInfo, true)
	sp.Build()
	p.stats.DepBodies++
	return sp
}
