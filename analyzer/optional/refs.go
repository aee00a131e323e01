package optional

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// refKind is what one use of the field does.
type refKind int

const (
	storeAmp   refKind = iota // s.f = &x
	storeNil                  // s.f = nil
	litAmp                    // S{f: &x}
	litNil                    // S{f: nil}
	storeOther                // another value is stored: not an optional value
	isNil                     // s.f == nil
	notNil                    // s.f != nil
	deref                     // *s.f, read
	through                   // s.f.x or s.f.m(), read through the pointer
	bad                       // anything else; why says what
)

// A ref is one use of the field.
type ref struct {
	kind  refKind
	id    *ast.Ident        // the field's name at the use
	sel   *ast.SelectorExpr // s.f, for a use by selector
	path  []ast.Node        // the nodes enclosing id, from id outwards
	node  ast.Node          // the assignment, key-value pair, comparison or dereference
	lhs   ast.Expr          // for a store: the assignment's left side (s.f, maybe in parentheses)
	value ast.Expr          // for a store: the value stored (&x or nil, without parentheses)
	local *types.Var        // for &x: x
	amp   *ast.UnaryExpr    // for &x: the & expression
	star  int               // for deref: the index of *s.f in path
	why   string            // for bad: why the fix cannot handle it
	pos   token.Pos         // where
}

// classify returns what the use id of the field does.
func (c *checker) classify(id *ast.Ident) *ref {
	path := syntax.Path(c.find, id)
	r := &ref{id: id, path: path, pos: id.Pos()}
	switch p := syntax.Parent(path, 0).(type) {
	case *ast.KeyValueExpr:
		if p.Key == id {
			r.node = p
			c.storeValue(r, p.Value, litAmp, litNil)
			return r
		}
	case *ast.SelectorExpr:
		if p.Sel == id {
			r.sel = p
			c.selection(r)
			return r
		}
	}
	r.kind, r.why = bad, fmt.Sprintf("the field is used at %s", c.where(id.Pos()))
	return r
}

// storeValue classifies the store of v in the field.
func (c *checker) storeValue(r *ref, v ast.Expr, amp, nilKind refKind) {
	v = ast.Unparen(v)
	r.value = v
	if syntax.IsNil(c.pass.TypesInfo, v) {
		r.kind = nilKind
		return
	}
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		if x, ok := ast.Unparen(u.X).(*ast.Ident); ok {
			if lv, ok := c.pass.TypesInfo.Uses[x].(*types.Var); ok && !lv.IsField() && lv.Parent() != nil && lv.Parent() != c.pass.Pkg.Scope() {
				r.kind, r.local, r.amp = amp, lv, u
				return
			}
		}
	}
	r.kind = storeOther
}

// selection classifies a use s.f of the field.
func (c *checker) selection(r *ref) {
	path := r.path
	k := syntax.ClimbParens(path, 1)
	cur := path[k]
	at := c.where(r.id.Pos())
	switch p := syntax.Parent(path, k).(type) {
	case *ast.AssignStmt:
		for i, l := range p.Lhs {
			if l != cur {
				continue
			}
			if len(p.Lhs) != len(p.Rhs) {
				r.kind = storeOther // the value of a call, a map index or a type assertion
				return
			}
			r.node, r.lhs = p, l
			c.storeValue(r, p.Rhs[i], storeAmp, storeNil)
			if r.kind != storeOther && len(p.Lhs) > 1 {
				r.kind, r.why = bad, fmt.Sprintf("it is assigned in a multiple assignment at %s", at)
			}
			return
		}
		r.kind, r.why = bad, fmt.Sprintf("the pointer is copied at %s", at)
		return
	case *ast.RangeStmt:
		if p.Key == cur || p.Value == cur {
			r.kind = storeOther
			return
		}
	case *ast.BinaryExpr:
		if p.Op == token.EQL || p.Op == token.NEQ {
			other := p.Y
			if other == cur {
				other = p.X
			}
			if syntax.IsNil(c.pass.TypesInfo, other) {
				r.node, r.kind = p, isNil
				if p.Op == token.NEQ {
					r.kind = notNil
				}
				return
			}
			r.kind, r.why = bad, fmt.Sprintf("the pointer is compared with another pointer at %s", at)
			return
		}
	case *ast.StarExpr:
		if why := c.readOnly(path, k+1); why != "" {
			r.kind, r.why = bad, fmt.Sprintf("the value is %s through the pointer at %s", why, at)
			return
		}
		r.node, r.kind, r.star = p, deref, k+1
		return
	case *ast.SelectorExpr:
		if p.X != cur {
			break
		}
		s := c.pass.TypesInfo.Selections[p]
		if s == nil {
			break
		}
		if s.Kind() != types.FieldVal {
			if syntax.PtrMethod(c.pass.TypesInfo, p) {
				r.kind, r.why = bad, fmt.Sprintf("pointer method %s is called through it at %s", p.Sel.Name, at)
				return
			}
			r.kind = through
			return
		}
		if why := c.readOnly(path, k+1); why != "" {
			r.kind, r.why = bad, fmt.Sprintf("the value is %s through the pointer at %s", why, at)
			return
		}
		r.kind = through
		return
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			r.kind, r.why = bad, fmt.Sprintf("the address of the field is taken at %s", at)
			return
		}
	case *ast.CallExpr:
		for _, a := range p.Args {
			if a == cur {
				r.kind, r.why = bad, fmt.Sprintf("the pointer is passed to %s at %s", calleeName(p), at)
				return
			}
		}
	case *ast.ReturnStmt:
		r.kind, r.why = bad, fmt.Sprintf("the pointer is returned at %s", at)
		return
	case *ast.KeyValueExpr, *ast.CompositeLit, *ast.ValueSpec, *ast.SendStmt:
		r.kind, r.why = bad, fmt.Sprintf("the pointer is stored at %s", at)
		return
	}
	r.kind, r.why = bad, fmt.Sprintf("the pointer is used at %s", at)
}

// readOnly checks that the value at path[k] (the pointed-to value or a
// part of it) is only read, and otherwise says what is done: "written",
// "addressed", "sliced" or "changed by a pointer method".
func (c *checker) readOnly(path []ast.Node, k int) string {
	k = c.climb(path, k)
	cur := path[k]
	switch p := syntax.Parent(path, k).(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == cur {
				return "written"
			}
		}
	case *ast.IncDecStmt:
		return "written"
	case *ast.RangeStmt:
		if p.Key == cur || p.Value == cur {
			return "written"
		}
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return "addressed"
		}
	case *ast.SliceExpr:
		if _, ok := c.pass.TypesInfo.TypeOf(p.X).Underlying().(*types.Array); ok {
			return "sliced"
		}
	case *ast.SelectorExpr:
		if syntax.PtrMethod(c.pass.TypesInfo, p) {
			return "changed by a pointer method"
		}
	}
	return ""
}

// calleeName names the function a call calls, for a message.
func calleeName(call *ast.CallExpr) string {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return types.ExprString(call.Fun)
}

// climb returns the index of the outermost expression around path[k] that
// denotes a part of the same variable: parentheses, field selections and
// indexes of arrays.
func (c *checker) climb(path []ast.Node, k int) int {
	for {
		k = syntax.ClimbParens(path, k)
		switch p := syntax.Parent(path, k).(type) {
		case *ast.SelectorExpr:
			if s := c.pass.TypesInfo.Selections[p]; s != nil && s.Kind() == types.FieldVal && p.X == path[k] && !s.Indirect() {
				k++
				continue
			}
		case *ast.IndexExpr:
			if t := c.pass.TypesInfo.TypeOf(p.X); t != nil && p.X == path[k] {
				if _, ok := t.Underlying().(*types.Array); ok {
					k++
					continue
				}
			}
		}
		return k
	}
}
