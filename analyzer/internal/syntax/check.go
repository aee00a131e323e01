package syntax

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// HasGoto reports whether body has a goto statement, or is nil (a body
// not seen, which may have one).
func HasGoto(body *ast.BlockStmt) bool {
	if body == nil {
		return true
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO {
			found = true
		}
		return !found
	})
	return found
}

// InClosure reports whether the use at path[0] (see [Path]) is in a
// function literal that does not also contain the declaration of v.
func InClosure(path []ast.Node, v *types.Var) bool {
	for _, n := range path {
		if fl, ok := n.(*ast.FuncLit); ok {
			return v.Pos() < fl.Pos() || v.Pos() >= fl.End()
		}
	}
	return false
}

// PtrMethod reports whether sel selects a method with a pointer receiver.
func PtrMethod(info *types.Info, sel *ast.SelectorExpr) bool {
	s := info.Selections[sel]
	if s == nil || s.Kind() == types.FieldVal {
		return false
	}
	recv := s.Obj().(*types.Func).Signature().Recv()
	if recv == nil {
		return false
	}
	_, ptr := recv.Type().(*types.Pointer)
	return ptr
}

// IsNil reports whether e is the predeclared nil.
func IsNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// VarOf returns the variable or field that e names, as x or as x.f.
func VarOf(info *types.Info, e ast.Expr) (*types.Var, bool) {
	var id *ast.Ident
	switch e := e.(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return nil, false
	}
	v, ok := info.Uses[id].(*types.Var)
	return v, ok
}

// Changes reports whether n may change a variable that is reports about:
// it assigns it, increments it, takes its address, is a range loop over
// it as key or value, or calls a method on it (x.m(...)) that method says
// may change it (nil: no method does).
func Changes(n ast.Node, is func(ast.Expr) bool, method func(*ast.SelectorExpr) bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			found = slices.ContainsFunc(n.Lhs, is)
		case *ast.IncDecStmt:
			found = is(n.X)
		case *ast.UnaryExpr:
			found = n.Op == token.AND && is(n.X)
		case *ast.RangeStmt:
			found = n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value)
		case *ast.SelectorExpr:
			found = method != nil && is(n.X) && method(n)
		}
		return !found
	})
	return found
}

// HasTypeParam reports whether t mentions a type parameter, whose size
// is not known.
func HasTypeParam(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		for a := range t.TypeArgs().Types() {
			if HasTypeParam(a) {
				return true
			}
		}
		return t.TypeParams().Len() > 0 && t.TypeArgs().Len() == 0
	case *types.Pointer:
		return HasTypeParam(t.Elem())
	case *types.Slice:
		return HasTypeParam(t.Elem())
	case *types.Array:
		return HasTypeParam(t.Elem())
	case *types.Map:
		return HasTypeParam(t.Key()) || HasTypeParam(t.Elem())
	case *types.Chan:
		return HasTypeParam(t.Elem())
	case *types.Struct:
		for f := range t.Fields() {
			if HasTypeParam(f.Type()) {
				return true
			}
		}
	}
	return false
}

// IsBuiltin reports whether fun names the builtin function name.
func IsBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = info.Uses[id].(*types.Builtin)
	return ok
}

// IsSyncPool reports whether t is sync.Pool or a pointer to it.
func IsSyncPool(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "sync" && obj.Name() == "Pool"
}

// Mentions reports whether n uses the object obj.
func Mentions(info *types.Info, n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}
