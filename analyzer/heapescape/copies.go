package heapescape

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// A double copy: bytes copied into a fresh slice that the function then
// only reads, and copies again into another buffer (nats-server's
// storeRawMsg: "hdr = copyBytes(hdr)", then "sm.buf = append(sm.buf,
// hdr...)"). The first copy protects nothing the second does not: the
// reads can use the caller's bytes, and whatever must outlive the call can
// use the second copy.

// doubleCopyAdvice returns the change for an allocation that is the first
// of two copies of the same bytes: "x = clone(y)" (a function of the
// package that only copies its argument, bytes.Clone, slices.Clone, an
// append to nil or an empty literal, or make and copy), where a later
// statement of the function appends x's elements to, or copies them into,
// another slice. Every other use of x after the copy only reads it
// (len, cap, index, slice, range, conversion to string, or an argument of
// a function of the package that does not write it, or of a reading
// function of package bytes); the uses that the compiler says let it
// escape come after the second copy, which they can be given instead.
// Nothing stores, returns, captures or writes x, so dropping the first
// copy changes nothing that the code does with the bytes.
func (fd *finding) doubleCopyAdvice() (advice, noFix string) {
	if fd.tier < hotpath.Unknown {
		return "", ""
	}
	info := fd.pass.TypesInfo
	as, x := fd.copyAssign()
	if as == nil {
		return "", ""
	}
	body := fd.funcBody()
	if body == nil {
		return "", ""
	}
	// The second copy: append(d, x...) or copy(d, x) after the first, in
	// a block that holds the first copy, so that it runs whenever the
	// first copy did (unless the function returns before).
	var second *ast.CallExpr
	var secondStmt ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if second != nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		blk, ok := n.(*ast.BlockStmt)
		if !ok || blk.Pos() > as.Pos() || as.End() > blk.End() {
			return true
		}
		for _, st := range blk.List {
			if st.Pos() <= as.End() {
				continue
			}
			ast.Inspect(st, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok || second != nil {
					return false
				}
				if call, ok := n.(*ast.CallExpr); ok && copiesFrom(info, call, x) {
					second, secondStmt = call, st
				}
				return second == nil
			})
			if second != nil {
				return false
			}
		}
		return true
	})
	if second == nil || fd.inLoopAfter(as) {
		return "", ""
	}
	var keeping []string
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		id, isID := n.(*ast.Ident)
		if !isID || info.Uses[id] != x || id.Pos() < as.End() {
			return true
		}
		if id == second.Args[len(second.Args)-1] {
			return true
		}
		path := syntax.Path(fd.find, id)
		use, kept := fd.readUse(path, false)
		switch {
		case !use:
			ok = false
		case kept != "":
			if id.Pos() < secondStmt.End() {
				ok = false // kept before the second copy exists
			} else if !slices.Contains(keeping, kept) {
				keeping = append(keeping, kept)
			}
		}
		return ok
	})
	if !ok {
		return "", ""
	}
	line := fd.pass.Fset.Position(second.Pos()).Line
	dst := types.ExprString(second.Args[0])
	advice = fmt.Sprintf("%s is copied again into %s at line %d and the function only reads it: drop this copy, which saves an allocation and a copy per call", x.Name(), dst, line)
	if len(keeping) > 0 {
		advice = fmt.Sprintf("%s is copied again into %s at line %d and the function only reads it: drop this copy and give %s, which the compiler says may keep or return it, the bytes of the second copy, which saves an allocation and a copy per call",
			x.Name(), dst, line, strings.Join(keeping, " and "))
	}
	return advice, "dropping a copy is left to the author"
}

// copyAssign returns the assignment "x = clone(...)" (or "x := ...", or
// "x := make([]T, len(y))" followed by "copy(x, y)") whose right side is
// the record's allocation, and x.
func (fd *finding) copyAssign() (*ast.AssignStmt, *types.Var) {
	info := fd.pass.TypesInfo
	var rhs ast.Expr
	if call := callAt(fd.path, fd.rec.TokPos); call != nil && len(fd.rec.InlinedFrom) > 0 {
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil || len(call.Args) != 1 || !fd.clones(fn) {
			return nil, nil
		}
		rhs = call
	} else if e := fd.exprAt(); e != nil {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || !syntax.IsBuiltin(info, call.Fun, "append") || !call.Ellipsis.IsValid() || len(call.Args) != 2 || !emptySlice(info, call.Args[0]) {
			return nil, nil
		}
		rhs = call
	}
	if rhs == nil {
		return nil, nil
	}
	as, ok := fd.parentOf(rhs).(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != rhs {
		return nil, nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, _ := info.ObjectOf(id).(*types.Var)
	if v == nil || v.IsField() || v.Parent() == fd.pass.Pkg.Scope() {
		return nil, nil
	}
	return as, v
}

// clones reports whether fn only copies its one slice argument into a
// fresh slice of the same type and returns it: bytes.Clone, slices.Clone,
// or a function of the package whose body is that (nats-server's
// copyBytes: an optional early return for an empty argument, then make,
// copy and return, or return append(nil, src...)).
func (fd *finding) clones(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.FullName() {
	case "bytes.Clone", "slices.Clone":
		return true
	}
	if fn.Pkg() != fd.pass.Pkg {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return false
	}
	if _, ok := sig.Params().At(0).Type().Underlying().(*types.Slice); !ok || !types.Identical(sig.Params().At(0).Type(), sig.Results().At(0).Type()) {
		return false
	}
	decl := fd.declOfFunc(fn)
	if decl == nil || decl.Body == nil {
		return false
	}
	info := fd.pass.TypesInfo
	src := sig.Params().At(0)
	list := decl.Body.List
	// An early return of nil or of src for an empty argument.
	for len(list) > 0 {
		ifs, ok := list[0].(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 {
			break
		}
		ret, ok := ifs.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 || !pureCalls(info, fd.pass.Files, ifs.Cond) {
			return false
		}
		if r := ret.Results[0]; !syntax.IsNil(info, r) && !isVar(info, r, src) {
			return false
		}
		list = list[1:]
	}
	switch len(list) {
	case 1: // return append([]T(nil), src...)
		ret, ok := list[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return false
		}
		call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
		return ok && syntax.IsBuiltin(info, call.Fun, "append") && call.Ellipsis.IsValid() && len(call.Args) == 2 &&
			emptySlice(info, call.Args[0]) && isVar(info, call.Args[1], src)
	case 3: // dst := make([]T, len(src)); copy(dst, src); return dst
		def, ok := list[0].(*ast.AssignStmt)
		if !ok || def.Tok != token.DEFINE || len(def.Lhs) != 1 || len(def.Rhs) != 1 {
			return false
		}
		mk, ok := def.Rhs[0].(*ast.CallExpr)
		if !ok || !syntax.IsBuiltin(info, mk.Fun, "make") || len(mk.Args) != 2 || !isLenOf(info, mk.Args[1], src) {
			return false
		}
		dst, ok := info.Defs[def.Lhs[0].(*ast.Ident)].(*types.Var)
		if !ok {
			return false
		}
		es, ok := list[1].(*ast.ExprStmt)
		if !ok {
			return false
		}
		cp, ok := es.X.(*ast.CallExpr)
		if !ok || !syntax.IsBuiltin(info, cp.Fun, "copy") || len(cp.Args) != 2 || !isVar(info, cp.Args[0], dst) || !isVar(info, cp.Args[1], src) {
			return false
		}
		ret, ok := list[2].(*ast.ReturnStmt)
		return ok && len(ret.Results) == 1 && isVar(info, ret.Results[0], dst)
	}
	return false
}

// copiesFrom reports whether call is append(d, x...) or copy(d, x): a
// copy of x's elements into another slice.
func copiesFrom(info *types.Info, call *ast.CallExpr, x *types.Var) bool {
	if len(call.Args) != 2 || !isVar(info, call.Args[1], x) || isVar(info, call.Args[0], x) {
		return false
	}
	return (syntax.IsBuiltin(info, call.Fun, "append") && call.Ellipsis.IsValid()) || syntax.IsBuiltin(info, call.Fun, "copy")
}

// inLoopAfter reports whether as is inside a loop of its function: the uses of
// its variable before it, in the loop, would then read the copy too.
func (fd *finding) inLoopAfter(as ast.Stmt) bool {
	for _, n := range syntax.Path(fd.find, as) {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		}
	}
	return false
}

// readUse reports whether the use of a variable at path[0] only reads it:
// it is measured, indexed or ranged over for reading, sliced for such a
// use, converted to a string, or passed to a function that does not write
// it. kept names that function when the compiler says it may keep its
// argument.
func (fd *finding) readUse(path []ast.Node, callee bool) (ok bool, kept string) {
	info := fd.pass.TypesInfo
	cur := path[0].(ast.Expr)
	for i := 1; i < len(path); i++ {
		switch p := path[i].(type) {
		case *ast.ParenExpr:
			cur = p
			continue
		case *ast.SliceExpr:
			if p.X == cur {
				cur = p
				continue
			}
			return true, "" // an index of the slice
		case *ast.IndexExpr:
			if p.X != cur {
				return true, ""
			}
			// A read of an element, unless it is assigned, incremented
			// or has its address taken.
			if i+1 == len(path) {
				return false, ""
			}
			switch q := path[i+1].(type) {
			case *ast.AssignStmt:
				for _, l := range q.Lhs {
					if l == p {
						return false, ""
					}
				}
			case *ast.IncDecStmt:
				return false, ""
			case *ast.UnaryExpr:
				if q.Op == token.AND {
					return false, ""
				}
			}
			return true, ""
		case *ast.RangeStmt:
			return p.X == cur, ""
		case *ast.BinaryExpr:
			return true, "" // compared with nil
		case *ast.AssignStmt:
			// In a callee, storing the argument in a field or a
			// package-level variable keeps it, which the caller asks
			// the compiler about; a local copy of it is not followed.
			if !callee || !slices.Contains(p.Rhs, cur) || len(p.Lhs) != len(p.Rhs) {
				return false, ""
			}
			l := p.Lhs[slices.Index(p.Rhs, cur)]
			v, ok := syntax.VarOf(info, l)
			return ok && (v.IsField() || v.Parent() == fd.pass.Pkg.Scope()), ""
		case *ast.ReturnStmt:
			// In a callee, returning the argument is the caller's to
			// check: the compiler says the parameter leaks to the result.
			return callee, ""
		case *ast.CallExpr:
			if p.Fun == cur {
				return false, ""
			}
			if tv, ok := info.Types[p.Fun]; ok && tv.IsType() {
				return types.Identical(tv.Type.Underlying(), types.Typ[types.String]), "" // string(x) copies
			}
			if syntax.IsBuiltin(info, p.Fun, "len") || syntax.IsBuiltin(info, p.Fun, "cap") {
				return true, ""
			}
			if syntax.IsBuiltin(info, p.Fun, "append") || syntax.IsBuiltin(info, p.Fun, "copy") {
				// A source of a copy is read; a destination is written.
				return len(p.Args) == 2 && p.Args[1] == cur && p.Args[0] != cur, ""
			}
			fn, _ := typeutil.Callee(info, p).(*types.Func)
			idx := -1
			for j, a := range p.Args {
				if a == cur {
					idx = j
				}
			}
			if fn == nil || idx < 0 || p.Ellipsis.IsValid() {
				return false, ""
			}
			if fn.Pkg() != nil && fn.Pkg().Path() == "bytes" && fn.Type().(*types.Signature).Recv() == nil {
				return true, "" // package bytes' functions write no argument
			}
			if fn.Pkg() != fd.pass.Pkg || fn.Type().(*types.Signature).Recv() != nil {
				return false, ""
			}
			if fd.res.writesParam(fd, fn, idx, 0) {
				return false, ""
			}
			if fd.leaks(fn, idx) {
				// Kept, or returned: either way what holds the result
				// may hold the bytes.
				return true, fd.funcName(fn)
			}
			return true, ""
		default:
			return false, ""
		}
	}
	return false, ""
}

// writesParam reports whether fn, a function of the package, may write the
// elements of its parameter idx (a slice): it assigns an element, copies
// or appends into it, or passes it to a function that may (or that
// goadvise cannot see into). depth bounds the calls followed.
func (r *resolver) writesParam(fd *finding, fn *types.Func, idx, depth int) bool {
	key := writeKey{fn, idx}
	if w, ok := r.writes[key]; ok {
		return w
	}
	r.writes[key] = true // a recursive call is assumed to write
	w := fd.writes(fn, idx, depth)
	r.writes[key] = w
	return w
}

// writeKey identifies a parameter of a function of the package.
type writeKey struct {
	fn  *types.Func
	idx int
}

// writes is writesParam's work.
func (fd *finding) writes(fn *types.Func, idx, depth int) bool {
	sig := fn.Type().(*types.Signature)
	if depth > 4 || idx >= sig.Params().Len() {
		return true
	}
	p := sig.Params().At(idx)
	if sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) && fn.Name() == fd.bytesToString() {
		return false // the module's conversion to a string without a copy
	}
	decl := fd.declOfFunc(fn)
	if decl == nil || decl.Body == nil {
		return true
	}
	info := fd.pass.TypesInfo
	written := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if written {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok || info.Uses[id] != p {
			return true
		}
		path := syntax.Path(fd.find, id)
		if len(path) > 1 {
			if as, ok := path[1].(*ast.AssignStmt); ok && slices.Contains(as.Lhs, ast.Expr(id)) {
				return true // p itself reassigned: later uses are not the argument, but see below
			}
		}
		if use, _ := fd.readUseIn(path, depth); !use {
			written = true
		}
		return true
	})
	if written {
		return true
	}
	// A reassigned parameter could alias the argument's elements in ways
	// this walk does not follow: count it as written.
	reassigned := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.Uses[id] == p {
					reassigned = true
				}
			}
		}
		return !reassigned
	})
	return reassigned
}

// readUseIn is readUse inside a callee at the given call depth: a call
// is followed into the package's functions one level deeper, and keeping
// does not matter there (the caller asks the compiler about it).
func (fd *finding) readUseIn(path []ast.Node, depth int) (bool, string) {
	info := fd.pass.TypesInfo
	for i := 1; i < len(path); i++ {
		call, ok := path[i].(*ast.CallExpr)
		if !ok {
			if _, paren := path[i].(*ast.ParenExpr); paren {
				continue
			}
			if sl, slice := path[i].(*ast.SliceExpr); slice && sl.X == path[i-1] {
				continue
			}
			break
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil || fn.Pkg() != fd.pass.Pkg || fn.Type().(*types.Signature).Recv() != nil || call.Ellipsis.IsValid() {
			break
		}
		for j, a := range call.Args {
			if a == path[i-1] {
				return !fd.res.writesParam(fd, fn, j, depth+1), ""
			}
		}
		break
	}
	use, _ := fd.readUse(path, true)
	return use, ""
}

// isVar reports whether e names v.
func isVar(info *types.Info, e ast.Expr, v types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.ObjectOf(id) == v
}

// isLenOf reports whether e is len(v).
func isLenOf(info *types.Info, e ast.Expr, v types.Object) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && syntax.IsBuiltin(info, call.Fun, "len") && len(call.Args) == 1 && isVar(info, call.Args[0], v)
}
