package optional

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// localWhy checks that the value stored by r, the store of &x in the
// field, equals what the pointer showed wherever it is read: x is a
// parameter or local of the function that stores its address, its
// address is taken only by the field's stores (amps), no closure uses it,
// and it is not assigned after its address is stored. It returns why not,
// or "".
func (c *checker) localWhy(r *ref, amps map[*ast.UnaryExpr]bool) string {
	v := r.local
	ampPath := syntax.Path(c.find, r.amp)
	fn := innermostFunc(ampPath)
	if fn == nil || v.Pos() < fn.Pos() || v.Pos() >= fn.End() {
		return fmt.Sprintf("%s is not a local of the function that stores its address at %s", v.Name(), c.where(r.amp.Pos()))
	}
	var ftype *ast.FuncType
	var body *ast.BlockStmt
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		ftype, body = fn.Type, fn.Body
	case *ast.FuncLit:
		ftype, body = fn.Type, fn.Body
	}
	if ftype.Results != nil && v.Pos() >= ftype.Results.Pos() && v.Pos() < ftype.Results.End() {
		return fmt.Sprintf("%s is a named result, which a return can change", v.Name())
	}
	if syntax.HasGoto(body) {
		return fmt.Sprintf("the function that stores &%s has a goto", v.Name())
	}
	if why := c.loopVar(v, fn); why != "" {
		return why
	}
	// The stores of &x in the field.
	var stores []*ast.UnaryExpr
	for a := range amps {
		if id, ok := ast.Unparen(a.X).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v {
			stores = append(stores, a)
		}
	}
	for _, id := range c.uses[v] {
		path := syntax.Path(c.find, id)
		if u, ok := syntax.Parent(path, syntax.ClimbParens(path, 0)).(*ast.UnaryExpr); ok && amps[u] {
			continue
		}
		if syntax.InClosure(path, v) {
			return fmt.Sprintf("a closure uses %s at %s", v.Name(), c.where(id.Pos()))
		}
		k := c.climb(path, 0)
		cur := path[k]
		var assign ast.Node
		switch p := syntax.Parent(path, k).(type) {
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == cur {
					assign = p
				}
			}
		case *ast.IncDecStmt:
			assign = p
		case *ast.RangeStmt:
			if p.Key == cur || p.Value == cur {
				assign = p
			}
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return fmt.Sprintf("the address of %s is also taken at %s", v.Name(), c.where(id.Pos()))
			}
		case *ast.SliceExpr:
			if t := c.pass.TypesInfo.TypeOf(p.X); t != nil {
				if _, ok := t.Underlying().(*types.Array); ok {
					return fmt.Sprintf("%s is sliced at %s", v.Name(), c.where(id.Pos()))
				}
			}
		case *ast.SelectorExpr:
			if syntax.PtrMethod(c.pass.TypesInfo, p) {
				return fmt.Sprintf("pointer method %s is called on %s at %s", p.Sel.Name, v.Name(), c.where(id.Pos()))
			}
		}
		if assign == nil {
			continue
		}
		for _, a := range stores {
			if id.Pos() > a.Pos() {
				return fmt.Sprintf("%s is assigned at %s after its address is stored", v.Name(), c.where(id.Pos()))
			}
			if l := c.sharedLoop(path, a, v); l != nil {
				return fmt.Sprintf("%s is assigned at %s in a loop that also stores its address", v.Name(), c.where(id.Pos()))
			}
		}
	}
	return ""
}

// loopVar rejects a loop variable declared in a for or range clause when
// the file's Go version shares it between iterations (before Go 1.22):
// the loop assigns it after its address is stored.
func (c *checker) loopVar(v *types.Var, fn ast.Node) string {
	f := c.file(v.Pos())
	why := syntax.TooOld(c.pass, f, "a variable per iteration", "go1.22")
	if why == "" {
		return ""
	}
	shared := false
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			if n.Init != nil && v.Pos() >= n.Init.Pos() && v.Pos() < n.Init.End() {
				shared = true
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE && (within(n.Key, v.Pos()) || within(n.Value, v.Pos())) {
				shared = true
			}
		}
		return !shared
	})
	if shared {
		return fmt.Sprintf("%s is a loop variable shared by the iterations (%s)", v.Name(), why)
	}
	return ""
}

// sharedLoop returns the innermost loop that contains both the assignment
// at path[0] and the store a but not the declaration of v, or nil: the
// next iteration's assignment would then change the value stored.
func (c *checker) sharedLoop(path []ast.Node, a *ast.UnaryExpr, v *types.Var) ast.Node {
	for _, n := range path {
		var body *ast.BlockStmt
		switch l := n.(type) {
		case *ast.ForStmt:
			body = l.Body
		case *ast.RangeStmt:
			body = l.Body
		case *ast.FuncDecl, *ast.FuncLit:
			return nil
		default:
			continue
		}
		if a.Pos() >= n.Pos() && a.End() <= n.End() && (v.Pos() < body.Pos() || v.Pos() >= body.End()) {
			return n
		}
	}
	return nil
}

// file returns the syntax of the file that holds pos.
func (c *checker) file(pos token.Pos) *ast.File {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// within reports whether n is not nil and holds pos.
func within(n ast.Node, pos token.Pos) bool {
	return n != nil && pos >= n.Pos() && pos < n.End()
}

// innermostFunc returns the innermost function declaration or literal in
// path, or nil.
func innermostFunc(path []ast.Node) ast.Node {
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return n
		}
	}
	return nil
}
