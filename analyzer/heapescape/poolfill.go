package heapescape

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// poolFill reports whether the allocation is made where a sync.Pool's Get
// gave nothing, the pool being empty: in the body of "if v == nil" or
// "if !ok", in the else of "if v != nil" or "if ok", or after an "if v !=
// nil" whose body returns, where v holds what Get returned (v :=
// p.Get(), or v, ok := p.Get().(*T)). This is the pool's fill, what a
// New function would make: it runs only when the pool has nothing to
// give, and what it makes is given out again after Put. For a copy
// inlined from a function of the package, the function's own code is
// read.
func (fd *finding) poolFill() bool {
	pos := fd.rec.TokPos
	if len(fd.rec.InlinedFrom) > 0 {
		pos = fd.tokenPos(fd.rec.InlinedFrom[0])
	}
	if !pos.IsValid() {
		return false
	}
	cur, ok := fd.find.FindByPos(pos, pos)
	if !ok {
		return false
	}
	var path []ast.Node
	for c := range cur.Enclosing() {
		path = append(path, c.Node())
	}
	return poolFillPath(fd.pass.TypesInfo, path)
}

// poolFillPath is poolFill for the path from the allocation outwards.
func poolFillPath(info *types.Info, path []ast.Node) bool {
	var body *ast.BlockStmt
	for _, n := range path {
		if fd, ok := n.(*ast.FuncDecl); ok {
			body = fd.Body
		} else if fl, ok := n.(*ast.FuncLit); ok {
			body = fl.Body
		}
		if body != nil {
			break
		}
	}
	if body == nil {
		return false
	}
	gets := poolGets(info, body)
	if len(gets) == 0 {
		return false
	}
	for i := 1; i < len(path); i++ {
		child := path[i-1]
		switch n := path[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if child == n.Body && empty(info, gets, n.Cond, true) ||
				child == n.Else && empty(info, gets, n.Cond, false) {
				return true
			}
		case *ast.BlockStmt:
			// After "if v != nil { ...; return ... }".
			for _, s := range n.List {
				if s == child {
					break
				}
				if is, ok := s.(*ast.IfStmt); ok && is.Else == nil && empty(info, gets, is.Cond, false) && returns(is.Body) {
					return true
				}
			}
		}
	}
	return false
}

// A poolGet is what a variable holds of a sync.Pool's Get: its value
// (nil when the pool is empty) or the ok of a type assertion of it (false
// when the pool is empty).
type poolGet struct{ isOK bool }

// poolGets returns the variables assigned, in body, what a sync.Pool's Get
// returns: v := p.Get(), or v, ok := p.Get().(T). (v := p.Get().(T)
// panics when the pool is empty.)
func poolGets(info *types.Info, body *ast.BlockStmt) map[types.Object]poolGet {
	gets := make(map[types.Object]poolGet)
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || !isPoolGet(info, as.Rhs[0]) {
			return true
		}
		_, asserted := ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr)
		if asserted && len(as.Lhs) != 2 {
			return true
		}
		obj := func(e ast.Expr) types.Object {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok {
				return info.ObjectOf(id)
			}
			return nil
		}
		if o := obj(as.Lhs[0]); o != nil {
			gets[o] = poolGet{}
		}
		if asserted {
			if o := obj(as.Lhs[1]); o != nil {
				gets[o] = poolGet{isOK: true}
			}
		}
		return true
	})
	return gets
}

// isPoolGet reports whether e is a call of a sync.Pool's Get, or a type
// assertion of one.
func isPoolGet(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if ta, ok := e.(*ast.TypeAssertExpr); ok {
		e = ast.Unparen(ta.X)
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Get" && syntax.IsSyncPool(info.TypeOf(sel.X))
}

// empty reports whether cond, true (want) or false (!want), says that the
// pool was empty: v == nil or !ok when true, v != nil or ok when false.
func empty(info *types.Info, gets map[types.Object]poolGet, cond ast.Expr, want bool) bool {
	get := func(e ast.Expr, isOK bool) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		g, ok := gets[info.ObjectOf(id)]
		return ok && g.isOK == isOK
	}
	switch c := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if (c.Op == token.EQL) != want || c.Op != token.EQL && c.Op != token.NEQ {
			return false
		}
		x, y := c.X, c.Y
		if syntax.IsNil(info, x) {
			x, y = y, x
		}
		return syntax.IsNil(info, y) && get(x, false)
	case *ast.UnaryExpr:
		return want && c.Op == token.NOT && get(c.X, true)
	case *ast.Ident:
		return !want && get(c, true)
	}
	return false
}

// returns reports whether the block ends in a return statement.
func returns(b *ast.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}
