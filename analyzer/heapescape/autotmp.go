package heapescape

import (
	"go/ast"
	"go/types"
	"regexp"
	"slices"
)

// tempName returns how a message names the value the compiler calls
// ".autotmp_N": a temporary it makes for a result of a call whose results
// are passed on whole (return f(), g(f()), a, b = f()), where a result
// converted to an interface is copied to the heap. The message names the
// result by its type and the call ("the []int result of two()") when
// which result it is can be told: the only one converted, or, when
// several are, by its place among the temporaries that the compiler's
// flow passes on in the order of the results. It returns "" when the
// record is at no such statement.
func (fd *finding) tempName() string {
	call, dst := fd.forwarded()
	if call == nil {
		return ""
	}
	info := fd.pass.TypesInfo
	src, ok := info.TypeOf(call).(*types.Tuple)
	if !ok || src.Len() != len(dst) {
		return ""
	}
	// The results converted to an interface: those that need the
	// compiler's temporary.
	var converted []int
	for i := range src.Len() {
		if dst[i] != nil && types.IsInterface(dst[i]) && !types.IsInterface(src.At(i).Type()) {
			converted = append(converted, i)
		}
	}
	text := types.ExprString(call)
	which := -1
	switch {
	case len(converted) == 1:
		which = converted[0]
	case len(converted) > 1:
		// The compiler's flow passes the temporaries on in the order of
		// the results: "from return .autotmp_3, .autotmp_4 (return)".
		for _, st := range fd.rec.Flow {
			temps := tempRE.FindAllString(st.Text, -1)
			if i := slices.Index(temps, fd.rec.Name); i >= 0 && len(temps) == src.Len() {
				which = i
				break
			}
		}
	}
	if which < 0 {
		return "a result of " + text
	}
	qual := types.RelativeTo(fd.pass.Pkg)
	return "the " + types.TypeString(src.At(which).Type(), qual) + " result of " + text
}

// tempRE matches the names of the compiler's temporaries.
var tempRE = regexp.MustCompile(`\.autotmp_[0-9]+\b`)

// forwarded returns the multi-valued call whose results the statement or
// call at the record's position passes on whole, and the types they are
// passed to, one per result (nil where it is not known): the enclosing
// function's results for a return, the parameters for a call, the
// variables for an assignment or declaration.
func (fd *finding) forwarded() (*ast.CallExpr, []types.Type) {
	info := fd.pass.TypesInfo
	multi := func(es []ast.Expr) *ast.CallExpr {
		if len(es) != 1 {
			return nil
		}
		c, ok := ast.Unparen(es[0]).(*ast.CallExpr)
		if !ok {
			return nil
		}
		if t, ok := info.TypeOf(c).(*types.Tuple); !ok || t.Len() < 2 {
			return nil
		}
		return c
	}
	pos := fd.rec.TokPos
	for _, n := range fd.path {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if n.Return != pos {
				return nil, nil
			}
			c := multi(n.Results)
			ft, _ := fd.enclosingFunc()
			if c == nil || ft == nil || ft.Results == nil {
				return nil, nil
			}
			var dst []types.Type
			for _, f := range ft.Results.List {
				t := info.TypeOf(f.Type)
				for range max(1, len(f.Names)) {
					dst = append(dst, t)
				}
			}
			return c, dst
		case *ast.CallExpr:
			if n.Lparen != pos {
				continue
			}
			c := multi(n.Args)
			sig, ok := info.TypeOf(n.Fun).Underlying().(*types.Signature)
			if c == nil || !ok {
				return nil, nil
			}
			var dst []types.Type
			ps := sig.Params()
			res, _ := info.TypeOf(c).(*types.Tuple)
			for i := range res.Len() {
				switch {
				case sig.Variadic() && i >= ps.Len()-1:
					dst = append(dst, ps.At(ps.Len()-1).Type().(*types.Slice).Elem())
				case i < ps.Len():
					dst = append(dst, ps.At(i).Type())
				default:
					dst = append(dst, nil)
				}
			}
			return c, dst
		case *ast.AssignStmt:
			if n.TokPos != pos {
				return nil, nil
			}
			c := multi(n.Rhs)
			if c == nil {
				return nil, nil
			}
			var dst []types.Type
			for _, l := range n.Lhs {
				dst = append(dst, info.TypeOf(l))
			}
			return c, dst
		case ast.Stmt:
			return nil, nil
		}
	}
	return nil, nil
}
