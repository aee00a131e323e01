package heapescape

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// resetKeptAdvice returns the change for an allocation of another
// package's constructor fn, inlined at a call whose value the code stores
// in a field (or a field of a package-level variable) of a value it did
// not make: the last value made there was kept in the same place. When
// the constructed type has a Reset method that takes what the constructor
// takes first (bufio.NewReader(r) and (*bufio.Reader).Reset(r),
// bytes.NewReader(b), bufio.NewWriterSize(w, n) and Reset(w)), keeping
// one value and resetting it reuses the value and its buffers. It
// returns "" when the shape does not hold.
func (fd *finding) resetKeptAdvice(fn *types.Func) (advice, noFix string) {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == fd.pass.Pkg {
		return "", ""
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil || sig.Results().Len() == 0 || sig.Results().Len() > 2 {
		return "", ""
	}
	if sig.Results().Len() == 2 && !types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type()) {
		return "", ""
	}
	t := sig.Results().At(0).Type()
	if _, ok := t.(*types.Pointer); !ok {
		return "", ""
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), "Reset")
	reset, ok := obj.(*types.Func)
	if !ok || !reset.Exported() {
		return "", ""
	}
	rsig := reset.Type().(*types.Signature)
	if rsig.Params().Len() > sig.Params().Len() || rsig.Variadic() {
		return "", ""
	}
	for i := 0; i < rsig.Params().Len(); i++ {
		if !types.Identical(rsig.Params().At(i).Type(), sig.Params().At(i).Type()) {
			return "", ""
		}
	}
	call := callAt(fd.path, fd.rec.TokPos)
	if call == nil || call.Ellipsis.IsValid() || len(call.Args) < rsig.Params().Len() {
		return "", ""
	}
	owner := fd.keptIn(call)
	if owner == "" {
		return "", ""
	}
	var args []string
	for _, a := range call.Args[:rsig.Params().Len()] {
		args = append(args, types.ExprString(a))
	}
	qual, _ := syntax.Qualifier(fd.pass, call.Pos())
	name := types.TypeString(t, qual)
	resetCall := "Reset(" + strings.Join(args, ", ") + ")"
	return fmt.Sprintf("keep the %s in %s and call its %s instead of %s on every call, since the last one was kept there too: "+
			"Reset reuses the value and what it holds, where %s allocates them anew "+
			"(behaviour change: whatever still holds the previous %s sees it reset)",
			name, owner, resetCall, types.ExprString(call.Fun), types.ExprString(call.Fun), name),
		"where to keep the value (the field it is stored in, or a field of its own type beside it) is a choice of the code's"
}

// keptIn returns the value, as written in the code, in a field of which
// call's value is stored by the statement that makes it, or through the
// local variable that statement assigns, by a later assignment of that
// variable in the same function: "d" for "d.r = br" after
// "br := bufio.NewReader(r)". The value must be one the function did not
// make: a receiver, a parameter, a package-level variable, or a local
// taken from one (a range variable, an element), so that the value stored
// there last time is there to be reset. It returns "" otherwise.
func (fd *finding) keptIn(call *ast.CallExpr) string {
	info := fd.pass.TypesInfo
	_, body := fd.enclosingFunc()
	if body == nil {
		return ""
	}
	stmt, ok := fd.parentOf(call).(*ast.AssignStmt)
	if !ok || len(stmt.Lhs) != len(stmt.Rhs) {
		return ""
	}
	i := -1
	for j, r := range stmt.Rhs {
		if ast.Unparen(r) == call {
			i = j
		}
	}
	if i < 0 {
		return ""
	}
	if owner := fieldOwner(info, stmt.Lhs[i]); owner != nil {
		if fd.decidedBy(types.ExprString(stmt.Lhs[i])) {
			return ""
		}
		return fd.reusedOwner(body, owner)
	}
	// br := bufio.NewReader(r); ...; d.r = br
	id, ok := stmt.Lhs[i].(*ast.Ident)
	if !ok {
		return ""
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return ""
	}
	found := ""
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found != "" || len(as.Lhs) != len(as.Rhs) {
			return found == ""
		}
		for j, r := range as.Rhs {
			if rid, ok := ast.Unparen(r).(*ast.Ident); ok && info.Uses[rid] == v && as.Pos() > stmt.End() {
				if owner := fieldOwner(info, as.Lhs[j]); owner != nil {
					found = fd.reusedOwner(body, owner)
				}
			}
		}
		return found == ""
	})
	return found
}

// fieldOwner returns x of an assignment's left side x.f that selects a
// field, or nil.
func fieldOwner(info *types.Info, lhs ast.Expr) ast.Expr {
	sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s := info.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	return sel.X
}

// reusedOwner returns owner as written when the variable at its root
// holds a value that this function did not make (see keptIn), or "".
func (fd *finding) reusedOwner(body *ast.BlockStmt, owner ast.Expr) string {
	info := fd.pass.TypesInfo
	root := owner
	for {
		switch x := ast.Unparen(root).(type) {
		case *ast.SelectorExpr:
			root = x.X
			continue
		case *ast.IndexExpr:
			root = x.X
			continue
		case *ast.StarExpr:
			root = x.X
			continue
		}
		break
	}
	id, ok := ast.Unparen(root).(*ast.Ident)
	if !ok {
		return ""
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok {
		return ""
	}
	if d := fd.declOutsideLits(); d != nil && d.Recv != nil && len(d.Recv.List) == 1 && len(d.Recv.List[0].Names) == 1 &&
		info.Defs[d.Recv.List[0].Names[0]] == v {
		// The receiver: only a method that may run twice on one value
		// finds the last value there (readFooter, once per reader, finds
		// none).
		if m, ok := info.Defs[d.Name].(*types.Func); !ok || !fd.res.repeatable(fd.pass, m, 0) {
			return ""
		}
		return types.ExprString(owner)
	}
	if v.Parent() == v.Pkg().Scope() || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		// A package-level variable, or a parameter.
		return types.ExprString(owner)
	}
	// A local: only when nothing in the function makes its value.
	made := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for j, l := range n.Lhs {
				if lid, ok := l.(*ast.Ident); ok && info.ObjectOf(lid) == v {
					if j >= len(n.Rhs) || allocates(info, n.Rhs[j]) {
						made = true
					}
				}
			}
		case *ast.ValueSpec:
			for j, name := range n.Names {
				if info.ObjectOf(name) == v && (j >= len(n.Values) || allocates(info, n.Values[j])) {
					made = true // var d T, or var d = &T{}
				}
			}
		case *ast.RangeStmt:
			// A range variable takes the elements of what it ranges
			// over.
		}
		return !made
	})
	if made {
		return ""
	}
	return types.ExprString(owner)
}

// allocates reports whether x may make a new value: a composite literal,
// its address, or a call other than a conversion.
func allocates(info *types.Info, x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			_, ok := ast.Unparen(x.X).(*ast.CompositeLit)
			return ok
		}
	case *ast.CallExpr:
		// new, make, a constructor (exec.Command): a call's result may
		// be fresh, unless it is a conversion.
		return !info.Types[x.Fun].IsType()
	}
	return false
}

// decidedBy reports whether the assignment to lhs (as written) is in a
// branch of an if statement whose condition tests lhs: "if p.buf == nil {
// p.buf = bufio.NewReader(in) } else { p.buf.Reset(in) }" already keeps
// and resets the value.
func (fd *finding) decidedBy(lhs string) bool {
	for i, n := range fd.path {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		ifs, ok := n.(*ast.IfStmt)
		if !ok || i == 0 || (fd.path[i-1] != ifs.Body && fd.path[i-1] != ifs.Else) {
			continue
		}
		found := false
		ast.Inspect(ifs.Cond, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok && types.ExprString(x) == lhs {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
