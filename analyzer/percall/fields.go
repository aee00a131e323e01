package percall

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// A fieldWrites records where a package changes the fields of its values
// after they are built: the fields assigned (or whose address is taken)
// outside a constructor, and the types of which a whole value is
// overwritten outside a constructor (*p = T{...}).
type fieldWrites struct {
	fields map[*types.Var]bool
	whole  []types.Type
}

// writes returns the field writes of the package, computed on first use.
func (st *state) writes() *fieldWrites {
	if st.fw != nil {
		return st.fw
	}
	info := st.pass.TypesInfo
	fw := &fieldWrites{fields: make(map[*types.Var]bool)}
	for _, f := range st.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			builds := constructs(info, fd)
			target := func(e ast.Expr) {
				e = ast.Unparen(e)
				if t := info.TypeOf(e); t != nil && !builds(t) {
					switch e := e.(type) {
					case *ast.Ident:
						if v, ok := info.ObjectOf(e).(*types.Var); !ok || v.Parent() != st.pass.Pkg.Scope() {
							break // a local variable: a new value, not a change of one
						}
						fw.whole = append(fw.whole, deref(t))
					default:
						fw.whole = append(fw.whole, deref(t))
					}
				}
				sel, ok := e.(*ast.SelectorExpr)
				if !ok {
					return
				}
				s := info.Selections[sel]
				if s == nil || s.Kind() != types.FieldVal {
					return
				}
				if root := chainRoot(info, sel); root != nil && builds(info.TypeOf(root)) {
					return
				}
				fw.fields[s.Obj().(*types.Var).Origin()] = true
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if n.Tok != token.DEFINE {
						for _, l := range n.Lhs {
							target(l)
						}
					}
				case *ast.IncDecStmt:
					target(n.X)
				case *ast.RangeStmt:
					if n.Tok == token.ASSIGN {
						for _, e := range []ast.Expr{n.Key, n.Value} {
							if e != nil {
								target(e)
							}
						}
					}
				case *ast.UnaryExpr:
					if n.Op == token.AND {
						if _, lit := ast.Unparen(n.X).(*ast.CompositeLit); !lit {
							target(n.X)
						}
					}
				}
				return true
			})
		}
	}
	st.fw = fw
	return fw
}

// constructs returns a predicate telling whether fd builds values of a
// type: fd is init, its name starts with "init" (an initialiser), or one
// of its results is the type or a pointer to it.
func constructs(info *types.Info, fd *ast.FuncDecl) func(types.Type) bool {
	if strings.HasPrefix(strings.ToLower(fd.Name.Name), "init") {
		return func(types.Type) bool { return true }
	}
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return func(types.Type) bool { return false }
	}
	res := fn.Signature().Results()
	return func(t types.Type) bool {
		t = deref(t)
		for i := 0; i < res.Len(); i++ {
			if types.Identical(deref(res.At(i).Type()), t) {
				return true
			}
		}
		return false
	}
}

// deref returns the element type of a pointer type, or t.
func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// chainRoot returns the expression a chain of field selections x.f.g
// starts from.
func chainRoot(info *types.Info, sel *ast.SelectorExpr) ast.Expr {
	var e ast.Expr = sel
	for {
		s, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return e
		}
		if k := info.Selections[s]; k == nil || k.Kind() != types.FieldVal {
			return e
		}
		e = s.X
	}
}

// stableField reports whether the field selected by sel (one link of a
// chain from the receiver) keeps its value between calls: it is
// unexported, untagged and declared in this package, so that neither
// another package nor a decoder such as encoding/json sets it, and the
// package assigns it only in constructors and initialisers.
func (st *state) stableField(sel *ast.SelectorExpr) bool {
	info := st.pass.TypesInfo
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return false
	}
	fw := st.writes()
	t := info.TypeOf(sel.X)
	for _, i := range s.Index() {
		u, ok := deref(t).Underlying().(*types.Struct)
		if !ok || i >= u.NumFields() {
			return false
		}
		f := u.Field(i)
		if f.Exported() || u.Tag(i) != "" || f.Pkg() != st.pass.Pkg || fw.fields[f.Origin()] {
			return false
		}
		t = f.Type()
	}
	root := deref(info.TypeOf(sel.X))
	for _, w := range fw.whole {
		if types.Identical(w, root) {
			return false
		}
	}
	return true
}
