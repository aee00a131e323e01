package heapescape

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/loops"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// outgrowsNever reports whether the append of an append record can never
// grow its slice, so that the growth the compiler reports never runs: the
// slice, a local variable, is made empty with a capacity, make(T, 0, c),
// in the statement list that holds a loop, before it, and the loop runs
// at most c times and appends at most one element to the slice per
// iteration (every use of the slice in it is such an append, a len or an
// index: loops.Bound), c being the loop's trip count as written (len(xs)
// for range xs, n for i < n), and the statements between the make and
// the loop do not mention the slice or change what c reads. The appends then
// stay within the capacity the code chose.
func (fd *finding) outgrowsNever() bool {
	info := fd.pass.TypesInfo
	call, ok := fd.exprAt().(*ast.CallExpr)
	if !ok || !syntax.IsBuiltin(info, call.Fun, "append") || len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	// The innermost loop around the append (not in a function literal
	// inside it), and the statement list that holds it.
	k := slices.IndexFunc(fd.path, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit, *ast.FuncDecl:
			return true
		}
		return false
	})
	if k < 0 {
		return false
	}
	loop, ok := fd.path[k].(ast.Stmt)
	if !ok {
		return false // a function literal or the declaration
	}
	if l, ok := fd.parentOf(loop).(*ast.LabeledStmt); ok {
		loop = l
	}
	list := syntax.StmtList(fd.parentOf(loop))
	bound, appends, _, ok := loops.Bound(info, loop, v, func(c *ast.CallExpr) bool { return hotpath.Terminal(info, c) })
	if !ok || !slices.Contains(appends, call) {
		return false
	}
	at := slices.Index(list, loop)
	if at < 0 {
		return false
	}
	// The last statement before the loop that assigns the slice makes it.
	for j := at - 1; j >= 0; j-- {
		c := madeWithCap(info, list[j], v)
		if c == nil {
			if syntax.Mentions(info, list[j], v) {
				return false
			}
			continue
		}
		if types.ExprString(c) != bound {
			return false
		}
		// What c reads keeps its value: local variables that nothing
		// assigns, increments or takes the address of; a field or a
		// package-level variable only if nothing mentions it, nor the
		// variable a field is reached from.
		read := objectsIn(info, c)
		for _, s := range list[j+1 : at] {
			if mentionsRoot(info, s, c) {
				return false
			}
			for _, obj := range read {
				w, ok := obj.(*types.Var)
				switch {
				case !ok:
					// len, a constant, a function
				case w.IsField() || w.Parent() == w.Pkg().Scope():
					if syntax.Mentions(info, s, w) {
						return false
					}
				case syntax.Changes(s, func(e ast.Expr) bool {
					id, ok := ast.Unparen(e).(*ast.Ident)
					return ok && info.Uses[id] == w
				}, nil):
					return false
				}
			}
		}
		return true
	}
	return false
}

// madeWithCap returns c when s is "v := make(T, 0, c)", "v = make(T, 0,
// c)" or "var v = make(T, 0, c)"; nil otherwise.
func madeWithCap(info *types.Info, s ast.Stmt, v *types.Var) ast.Expr {
	var rhs ast.Expr
	switch s := s.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) == 1 && len(s.Rhs) == 1 {
			if id, ok := s.Lhs[0].(*ast.Ident); ok && info.ObjectOf(id) == v {
				rhs = s.Rhs[0]
			}
		}
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok && len(g.Specs) == 1 {
			if vs, ok := g.Specs[0].(*ast.ValueSpec); ok && len(vs.Names) == 1 && len(vs.Values) == 1 && info.Defs[vs.Names[0]] == v {
				rhs = vs.Values[0]
			}
		}
	}
	m, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if rhs == nil || !ok || !syntax.IsBuiltin(info, m.Fun, "make") || len(m.Args) != 3 {
		return nil
	}
	if l := info.Types[m.Args[1]].Value; l == nil || l.Kind() != constant.Int || constant.Sign(l) != 0 {
		return nil
	}
	return m.Args[2]
}

// objectsIn returns the objects that the identifiers of e refer to.
func objectsIn(info *types.Info, e ast.Expr) []types.Object {
	var objs []types.Object
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := info.Uses[id]; obj != nil {
				objs = append(objs, obj)
			}
		}
		return true
	})
	return objs
}

// mentionsRoot reports whether s mentions the variable at the root of a
// field selection in c (fs in len(fs.List)).
func mentionsRoot(info *types.Info, s ast.Stmt, c ast.Expr) bool {
	found := false
	ast.Inspect(c, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && !found {
			if id := rootIdent(sel); id != nil && info.Uses[id] != nil && syntax.Mentions(info, s, info.Uses[id]) {
				found = true
			}
		}
		return !found
	})
	return found
}
