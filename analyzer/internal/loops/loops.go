// Package loops reads loops that append to a slice: how many times they
// run, and how many elements they append to it, known before they start.
// The idiom analyzer presizes such slices with it; heapescape proves with
// it that a presized slice's appends cannot outgrow it.
package loops

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// Bound returns how many elements loop appends to v, at most, as an
// expression valid before the loop, with the appends, and whether some
// iterations may append fewer; ok is false if that is not known, or if
// the loop uses v otherwise than to append to it, read its length or
// index it.
func Bound(info *types.Info, loop ast.Stmt, v *types.Var, terminal func(*ast.CallExpr) bool) (bound string, appends []*ast.CallExpr, cond, ok bool) {
	if l, isLabeled := loop.(*ast.LabeledStmt); isLabeled {
		loop = l.Stmt
	}
	var body *ast.BlockStmt
	switch l := loop.(type) {
	case *ast.RangeStmt:
		// A call's result (range c.Headers()) has a length too, which
		// the caller must take once (see rangedCall).
		if syntax.Mentions(info, l.X, v) {
			return "", nil, false, false
		}
		body = l.Body
	case *ast.ForStmt:
		if l.Cond != nil && syntax.Mentions(info, l.Cond, v) || l.Post != nil && syntax.Mentions(info, l.Post, v) || l.Init != nil && syntax.Mentions(info, l.Init, v) {
			return "", nil, false, false
		}
		body = l.Body
	default:
		return "", nil, false, false
	}
	count := TripCount(info, loop)
	if count == "" {
		return "", nil, false, false
	}
	appends, per, cond, ok := Appends(info, body, v, terminal)
	if !ok || len(appends) == 0 {
		return "", nil, false, false
	}
	bound = count
	if per > 1 {
		bound = fmt.Sprintf("%d*%s", per, paren(count))
	}
	return bound, appends, cond, true
}

// Appends returns the appends to v in a loop's body, when every use
// of v there is "v = append(v, x, ...)" (not in a nested loop or a
// function literal), len(v) or an index v[i]; per is how many elements an
// iteration appends at most, and cond whether some iterations may append
// fewer (an append under a condition, a branch or return in the loop, a
// call that terminal says ends the iteration or the function: panic,
// os.Exit, t.Fatal).
func Appends(info *types.Info, body *ast.BlockStmt, v *types.Var, terminal func(*ast.CallExpr) bool) (appends []*ast.CallExpr, per int, cond, ok bool) {
	ok = true
	allowed := make(map[*ast.Ident]bool)
	var walk func(n ast.Node, depth int, conditional bool)
	walk = func(n ast.Node, depth int, conditional bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if !ok {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				if syntax.Mentions(info, m, v) {
					ok = false
				}
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, depth+1, true)
					return false
				}
			case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, depth, true)
					return false
				}
			case *ast.BranchStmt, *ast.ReturnStmt:
				cond = true
			case *ast.CallExpr:
				if terminal(m) {
					cond = true
				}
				if syntax.IsBuiltin(info, m.Fun, "len") && len(m.Args) == 1 {
					if id, isID := ast.Unparen(m.Args[0]).(*ast.Ident); isID && info.Uses[id] == v {
						allowed[id] = true
					}
				}
			case *ast.IndexExpr:
				if id, isID := ast.Unparen(m.X).(*ast.Ident); isID && info.Uses[id] == v {
					allowed[id] = true
				}
			case *ast.AssignStmt:
				if len(m.Lhs) != 1 || len(m.Rhs) != 1 {
					return true
				}
				lhs, isID := m.Lhs[0].(*ast.Ident)
				if !isID || info.Uses[lhs] != v {
					return true
				}
				app, isCall := ast.Unparen(m.Rhs[0]).(*ast.CallExpr)
				if m.Tok != token.ASSIGN || !isCall || !syntax.IsBuiltin(info, app.Fun, "append") || app.Ellipsis.IsValid() || len(app.Args) < 2 {
					ok = false
					return false
				}
				first, isID := ast.Unparen(app.Args[0]).(*ast.Ident)
				if !isID || info.Uses[first] != v || depth > 0 {
					ok = false
					return false
				}
				for _, a := range app.Args[1:] {
					if syntax.Mentions(info, a, v) {
						ok = false
						return false
					}
				}
				allowed[lhs], allowed[first] = true, true
				appends = append(appends, app)
				per += len(app.Args) - 1
				if conditional {
					cond = true
				}
			}
			return true
		})
	}
	walk(body, 0, false)
	if !ok {
		return nil, 0, false, false
	}
	for _, id := range uses(info, body, v) {
		if !allowed[id] {
			return nil, 0, false, false
		}
	}
	return appends, per, cond, true
}

// TripCount returns the number of iterations of loop as an expression
// valid before it ("len(xs)", "n"), or "" if it is not known at the start.
func TripCount(info *types.Info, loop ast.Stmt) string {
	switch l := loop.(type) {
	case *ast.RangeStmt:
		t := info.TypeOf(l.X)
		if t == nil {
			return ""
		}
		if lit, ok := ast.Unparen(l.X).(*ast.CompositeLit); ok {
			// A literal's length is the number of its elements, unless
			// keys place them.
			for _, e := range lit.Elts {
				if _, keyed := e.(*ast.KeyValueExpr); keyed {
					return ""
				}
			}
			return fmt.Sprint(len(lit.Elts))
		}
		switch u := t.Underlying().(type) {
		case *types.Slice, *types.Map:
			return "len(" + types.ExprString(l.X) + ")"
		case *types.Array:
			return fmt.Sprint(u.Len())
		case *types.Pointer:
			if a, ok := u.Elem().Underlying().(*types.Array); ok {
				return fmt.Sprint(a.Len())
			}
		case *types.Basic:
			if u.Info()&types.IsInteger != 0 {
				return types.ExprString(l.X)
			}
		}
		return ""
	case *ast.ForStmt:
		// for i := 0; i < n; i++, with n not assigned in the loop.
		init, ok := l.Init.(*ast.AssignStmt)
		if !ok || len(init.Lhs) != 1 || len(init.Rhs) != 1 || init.Tok != token.DEFINE {
			return ""
		}
		i, ok := init.Lhs[0].(*ast.Ident)
		if c := info.Types[init.Rhs[0]].Value; !ok || c == nil || c.Kind() != constant.Int || constant.Sign(c) != 0 {
			return ""
		}
		cond, ok := l.Cond.(*ast.BinaryExpr)
		if !ok || cond.Op != token.LSS {
			return ""
		}
		if x, ok := cond.X.(*ast.Ident); !ok || info.ObjectOf(x) != info.ObjectOf(i) {
			return ""
		}
		post, ok := l.Post.(*ast.IncDecStmt)
		if !ok || post.Tok != token.INC {
			return ""
		}
		if x, ok := post.X.(*ast.Ident); !ok || info.ObjectOf(x) != info.ObjectOf(i) {
			return ""
		}
		// Neither i nor what the bound uses is assigned in the body.
		assigned := false
		ast.Inspect(l.Body, func(n ast.Node) bool {
			var lhs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				lhs = n.Lhs
			case *ast.IncDecStmt:
				lhs = []ast.Expr{n.X}
			}
			for _, e := range lhs {
				id, ok := ast.Unparen(e).(*ast.Ident)
				if !ok {
					continue
				}
				obj := info.ObjectOf(id)
				if obj == info.ObjectOf(i) {
					assigned = true
				}
				ast.Inspect(cond.Y, func(m ast.Node) bool {
					if y, ok := m.(*ast.Ident); ok && info.ObjectOf(y) == obj {
						assigned = true
					}
					return true
				})
			}
			return !assigned
		})
		if assigned {
			return ""
		}
		if _, ok := ast.Unparen(cond.Y).(*ast.CallExpr); ok && !strings.HasPrefix(types.ExprString(cond.Y), "len(") {
			return ""
		}
		return types.ExprString(cond.Y)
	}
	return ""
}

// uses returns the identifiers in n that refer to obj.
func uses(info *types.Info, n ast.Node, obj types.Object) []*ast.Ident {
	var out []*ast.Ident
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && info.Uses[id] == obj {
			out = append(out, id)
		}
		return true
	})
	return out
}

// paren parenthesizes an expression that is not an operand.
func paren(s string) string {
	if strings.ContainsAny(s, " +-*/") {
		return "(" + s + ")"
	}
	return s
}
