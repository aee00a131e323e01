package heapescape

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

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
	var args []string
	for _, a := range call.Args[:rsig.Params().Len()] {
		args = append(args, types.ExprString(a))
	}
	qual, _ := syntax.Qualifier(fd.pass, call.Pos())
	name := types.TypeString(t, qual)
	resetCall := "Reset(" + strings.Join(args, ", ") + ")"
	owner := fd.keptIn(call)
	if owner == "" {
		return fd.keptByCallee(call, args, resetCall)
	}
	return fmt.Sprintf("keep the %s in %s and call its %s instead of %s on every call, since the last one was kept there too: "+
			"Reset reuses the value and what it holds, where %s allocates them anew "+
			"(behaviour change: whatever still holds the previous %s sees it reset)",
			name, owner, resetCall, types.ExprString(call.Fun), types.ExprString(call.Fun), name),
		"where to keep the value (the field it is stored in, or a field of its own type beside it) is a choice of the code's"
}

// keptByCallee returns the change for call, a constructor's value (args
// its arguments, resetCall the Reset that takes them) passed straight to
// a method whose code keeps it in a field of its receiver
// (dec.Reset(bytes.NewReader(b)) with Reset's d.r = r), when that
// receiver is used again across calls: it comes from a sync.Pool, or
// reusedOwner accepts it (a receiver of a method that runs again on one
// value, a parameter, a package-level variable). One value kept beside
// the receiver, reset per call, then serves every call. It returns ""
// when the shape does not hold.
func (fd *finding) keptByCallee(call *ast.CallExpr, args []string, resetCall string) (advice, noFix string) {
	info := fd.pass.TypesInfo
	outer, ok := fd.parentOf(call).(*ast.CallExpr)
	if !ok || outer.Ellipsis.IsValid() {
		return "", ""
	}
	i := slices.IndexFunc(outer.Args, func(a ast.Expr) bool { return ast.Unparen(a) == call })
	sel, ok := ast.Unparen(outer.Fun).(*ast.SelectorExpr)
	if i < 0 || !ok {
		return "", ""
	}
	m := typeutil.StaticCallee(info, outer)
	_, body := fd.enclosingFunc()
	if m == nil || m.Type().(*types.Signature).Recv() == nil || body == nil {
		return "", ""
	}
	owner, reused := types.ExprString(sel.X), ""
	switch {
	case fd.pooled(body, sel.X):
		reused = "comes from a sync.Pool, which gives it out again"
	case fd.reusedOwner(body, sel.X) != "":
		reused = "outlives the call"
	default:
		return "", ""
	}
	// Only then read the method's code (maybe another package's).
	l := fd.res.leakOf(m, i)
	if l.kind != leakRecvField {
		return "", ""
	}
	qual, _ := syntax.Qualifier(fd.pass, call.Pos())
	value := types.TypeString(deref(info.TypeOf(call)), qual)
	where, per := "beside "+owner+" (in what holds it)", owner
	if named, ok := deref(info.TypeOf(sel.X)).(*types.Named); ok && named.Obj().Pkg() == fd.pass.Pkg {
		where, per = "in a field of "+named.Obj().Name(), named.Obj().Name()
	}
	return fmt.Sprintf("keep one %s %s and pass it to %s after its %s, instead of %s per call: %s keeps the value it is given (in its field %s) and %s, "+
			"so one %s per %s serves every call (behaviour change: %s holds %s until the next Reset)",
			value, where, types.ExprString(outer.Fun), resetCall, types.ExprString(call), owner, l.via, reused,
			value, per, owner, strings.Join(args, ", ")),
		"where to keep the value (a field of the owner's type, or a struct that holds both) is a choice of the code's"
}

// pooled reports whether x is a local variable of body that every
// assignment gives a value of a sync.Pool: v := p.Get().(*T), or a call of
// a function of the package whose returns all give one
// (GetDecoder(), return decPool.Get().(*Decoder)).
func (fd *finding) pooled(body *ast.BlockStmt, x ast.Expr) bool {
	info := fd.pass.TypesInfo
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return false
	}
	assigned, all := 0, true
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || !all {
			return all
		}
		for j, l := range as.Lhs {
			if lid, ok := l.(*ast.Ident); ok && info.ObjectOf(lid) == v {
				assigned++
				all = len(as.Lhs) == len(as.Rhs) && fd.poolValue(as.Rhs[j])
			}
		}
		return all
	})
	return all && assigned > 0
}

// poolValue reports whether e is a sync.Pool's Get (asserted to a type), or
// a call of a function of the package each of whose returns is one.
func (fd *finding) poolValue(e ast.Expr) bool {
	info := fd.pass.TypesInfo
	if ta, ok := ast.Unparen(e).(*ast.TypeAssertExpr); ok && ta.Type != nil && isPoolGet(info, ta) {
		return true
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() != fd.pass.Pkg {
		return false
	}
	decl := fd.declOfFunc(fn)
	if decl == nil || decl.Body == nil {
		return false
	}
	// Each return gives the pool's value (p.Get().(*T), or v.(*T) after
	// v := p.Get()) or, when it was empty, a new one (&T{}, new(T)).
	gets := poolGets(info, decl.Body)
	fromPool, all := 0, true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				all = false
				break
			}
			r := ast.Unparen(n.Results[0])
			if ta, ok := r.(*ast.TypeAssertExpr); ok && ta.Type != nil {
				var g poolGet
				got := false
				if id, ok := ast.Unparen(ta.X).(*ast.Ident); ok {
					g, got = gets[info.ObjectOf(id)]
				}
				if isPoolGet(info, ta) || got && !g.isOK {
					fromPool++
					break
				}
			}
			if !allocates(info, r) {
				all = false
			}
		}
		return all
	})
	return all && fromPool > 0
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
	id := rootIdent(owner)
	if id == nil {
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

// rootIdent returns the variable at the root of a field, element or
// dereference (d in d.buf.r, p in (*p)[i].x), or nil.
func rootIdent(x ast.Expr) *ast.Ident {
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.SelectorExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.StarExpr:
			x = e.X
		case *ast.Ident:
			return e
		default:
			return nil
		}
	}
}

// rootName is the name of x's rootIdent, or "".
func rootName(x ast.Expr) string {
	if id := rootIdent(x); id != nil {
		return id.Name
	}
	return ""
}
