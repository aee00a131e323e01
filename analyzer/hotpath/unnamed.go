package hotpath

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// Unnamed is the reason of the code of a String method that runs only for
// a value the method has no name for.
const Unnamed = "only for a value its String method has no name for"

// unnamedWho names that code in the reasons of its callees.
const unnamedWho = "a String method's fallback for unnamed values"

// unnamedRegions returns, for each String method (func() string,
// fmt.Stringer's) of a named integer type in file, an enumeration, the
// code that runs only when the receiver's value has no name: what the
// method does when a lookup by the receiver fails. An enumeration's
// values are normally those it names; the fallback (often
// fmt.Sprintf("T(%d)", v)) formats the others. These are fallbacks:
//   - the statements after an if whose body returns the name, looked up
//     by the receiver: "if s, ok := names[v]; ok { return s }", "if int(v)
//     < len(names) { return names[v] }";
//   - the default clause of a switch on the receiver that names at least
//     two values;
//   - the body of an if that compares the receiver with bounds and
//     returns, followed by a return of the name looked up by the
//     receiver, as stringer's generated code does: "if i < 0 || i >=
//     T(len(_T_index)-1) { return "T(" + ... + ")" }; return
//     _T_name[_T_index[i]:_T_index[i+1]]".
//
// A quantity's String (a size, a duration) compares its value with
// bounds too, but formats every value and looks none up: it has no
// fallback.
func unnamedRegions(info *types.Info, file *ast.File) []region {
	var regs []region
	add := func(pos, end token.Pos) {
		regs = append(regs, region{span: span{pos, end}, kind: errPath, who: unnamedWho, reason: Unnamed})
	}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Recv == nil || fd.Name.Name != "String" || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
			continue
		}
		obj, ok := info.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		sig := obj.Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
			continue
		}
		recv := info.Defs[fd.Recv.List[0].Names[0]]
		if recv == nil {
			continue
		}
		// An enumeration: a named integer type.
		if b, ok := recv.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			continue
		}
		uses := func(e ast.Node) bool { return syntax.Mentions(info, e, recv) }
		isRecv := func(e ast.Expr) bool { return isValueOf(info, e, recv) }
		list := fd.Body.List
		for i, s := range list {
			switch s := s.(type) {
			case *ast.IfStmt:
				if s.Else != nil || !endsInReturn(s.Body.List) {
					continue
				}
				switch {
				case returnsLookup(info, s, uses):
					if i+1 < len(list) {
						add(list[i+1].Pos(), fd.Body.End())
					}
				case comparesBounds(s.Cond, isRecv) && returnsLookupAfter(list[i+1:], uses):
					add(s.Body.Pos(), s.Body.End())
				}
			case *ast.SwitchStmt:
				if s.Tag == nil || !uses(s.Tag) || namedCases(s) < 2 {
					continue
				}
				for _, c := range s.Body.List {
					if cc := c.(*ast.CaseClause); cc.List == nil {
						add(cc.Colon+1, cc.End())
					}
				}
			}
		}
	}
	return regs
}

// returnsLookup reports whether the if's body returns a lookup by the
// receiver: an index expression whose index uses it, or a variable its
// init assigns from one ("if s, ok := names[v]; ok { return s }").
func returnsLookup(info *types.Info, s *ast.IfStmt, uses func(ast.Node) bool) bool {
	lookup := func(e ast.Expr) bool {
		ix, ok := ast.Unparen(e).(*ast.IndexExpr)
		return ok && uses(ix.Index)
	}
	ret := s.Body.List[len(s.Body.List)-1].(*ast.ReturnStmt)
	if len(ret.Results) != 1 {
		return false
	}
	r := ast.Unparen(ret.Results[0])
	if lookup(r) {
		return true
	}
	id, ok := r.(*ast.Ident)
	as, isAssign := s.Init.(*ast.AssignStmt)
	if !ok || !isAssign || len(as.Rhs) != 1 || !lookup(as.Rhs[0]) || len(as.Lhs) == 0 {
		return false
	}
	lhs, ok := as.Lhs[0].(*ast.Ident)
	return ok && info.ObjectOf(lhs) == info.ObjectOf(id)
}

// returnsLookupAfter reports whether one of the statements list (those
// after a bounds check) returns a lookup by the receiver: an index or a
// slice expression whose indexes use it.
func returnsLookupAfter(list []ast.Stmt, uses func(ast.Node) bool) bool {
	for _, s := range list {
		ret, ok := s.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		switch r := ast.Unparen(ret.Results[0]).(type) {
		case *ast.IndexExpr:
			if uses(r.Index) {
				return true
			}
		case *ast.SliceExpr:
			if r.Low != nil && uses(r.Low) || r.High != nil && uses(r.High) {
				return true
			}
		}
	}
	return false
}

// namedCases returns the number of values the switch's cases list.
func namedCases(s *ast.SwitchStmt) int {
	n := 0
	for _, c := range s.Body.List {
		n += len(c.(*ast.CaseClause).List)
	}
	return n
}

// comparesBounds reports whether cond compares the receiver (isRecv) with
// bounds (<, <=, >, >=, alone or joined by ||).
func comparesBounds(cond ast.Expr, isRecv func(ast.Expr) bool) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case token.LOR:
		return comparesBounds(b.X, isRecv) && comparesBounds(b.Y, isRecv)
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		return isRecv(b.X) || isRecv(b.Y)
	}
	return false
}

// isValueOf reports whether e is the variable obj, or a conversion of it
// ("int(v)").
func isValueOf(info *types.Info, e ast.Expr, obj types.Object) bool {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
			return isValueOf(info, call.Args[0], obj)
		}
		return false
	}
	id, ok := e.(*ast.Ident)
	return ok && info.Uses[id] == obj
}
