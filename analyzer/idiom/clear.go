package idiom

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/internal/loops"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
)

// clearLoop reports a counted loop that only stores the zero value in each
// element of a slice or array (clear-loop): for i := 0; i < len(s); i++
// { s[i] = 0 }. The compiler turns only the range form of that loop into
// one memory clear; this form runs element by element.
func (c *checker) clearLoop(loop *ast.ForStmt) {
	// tripCount checks the counter: i := 0, i < bound, i++, and neither
	// i nor the bound assigned in the body.
	if loops.TripCount(c.info, loop) == "" || len(loop.Body.List) != 1 {
		return
	}
	i := c.info.ObjectOf(loop.Init.(*ast.AssignStmt).Lhs[0].(*ast.Ident))
	lenCall, ok := ast.Unparen(loop.Cond.(*ast.BinaryExpr).Y).(*ast.CallExpr)
	if !ok || len(lenCall.Args) != 1 || !syntax.IsBuiltin(c.info, lenCall.Fun, "len") {
		return
	}
	x := ast.Unparen(lenCall.Args[0])
	if !plainPath(x) {
		return
	}
	as, ok := loop.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return
	}
	ix, ok := as.Lhs[0].(*ast.IndexExpr)
	if !ok || types.ExprString(ast.Unparen(ix.X)) != types.ExprString(x) {
		return
	}
	if id, ok := ast.Unparen(ix.Index).(*ast.Ident); !ok || c.info.ObjectOf(id) != i {
		return
	}
	var elem types.Type
	arg := types.ExprString(x)
	switch t := c.info.TypeOf(x).Underlying().(type) {
	case *types.Slice:
		elem = t.Elem()
	case *types.Array:
		elem, arg = t.Elem(), arg+"[:]"
	case *types.Pointer:
		a, ok := t.Elem().Underlying().(*types.Array)
		if !ok {
			return
		}
		elem, arg = a.Elem(), arg+"[:]"
	default:
		return
	}
	if !c.isZero(as.Rhs[0], elem) {
		return
	}
	repl := "clear(" + arg + ")"
	if v := c.info.FileVersions[c.file]; v != "" && version.Compare(v, "go1.21") < 0 {
		repl = "for " + i.Name() + " := range " + types.ExprString(x) + " {\n" + c.text(as) + "\n}"
	}
	fd := finding{
		Fields: kind.Fields{Kind: ClearLoop,
			Advice: "write " + oneLine(repl) + ", which the compiler compiles to one memory clear"},
		What: "the loop stores the zero value in each element of " + types.ExprString(x) + " one at a time",
		Fix: &analysis.SuggestedFix{Message: "Clear the elements at once", TextEdits: []analysis.TextEdit{
			{Pos: loop.Pos(), End: loop.End(), NewText: []byte(repl)}}},
	}
	c.report(loop.Pos(), loop.Body.Lbrace, fd)
}

// plainPath reports whether e is a variable or a chain of field
// selections from one: evaluating it twice gives the same value.
func plainPath(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return plainPath(e.X)
	}
	return false
}

// isZero reports whether e is the zero value of t: a constant zero, nil,
// or an empty composite literal of a struct or array type.
func (c *checker) isZero(e ast.Expr, t types.Type) bool {
	tv, ok := c.info.Types[e]
	if !ok {
		return false
	}
	if tv.IsNil() {
		return true
	}
	if types.IsInterface(t) {
		return false // 0 stored in an interface is not a nil interface
	}
	if tv.Value != nil {
		switch tv.Value.Kind() {
		case constant.Bool:
			return !constant.BoolVal(tv.Value)
		case constant.String:
			return constant.StringVal(tv.Value) == ""
		case constant.Int, constant.Float, constant.Complex:
			return constant.Sign(tv.Value) == 0
		}
		return false
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || len(lit.Elts) != 0 {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}
