package heapescape

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/optlog"
)

// appendStyle is why an append that grows the buffer its function's
// caller passed in, and returns, is inherent: that is what an
// append-style function (strconv.AppendInt's shape) is for, and the
// caller, by the buffer it passes, decides how often it grows.
const appendStyle = "an append-style function grows the buffer its caller passes in and returns it; it allocates only when that buffer is too small, which the caller decides"

// appendAt returns the call of the builtin append that the record names,
// or nil.
func (fd *finding) appendAt() *ast.CallExpr {
	for _, n := range fd.path {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Pos() > fd.rec.TokPos || fd.rec.TokPos >= call.End() || len(call.Args) == 0 {
			continue
		}
		if isAppend(fd.pass.TypesInfo, call) {
			return call
		}
		return nil // the innermost call is another one
	}
	return nil
}

// callerBuffer reports whether x (or a slice of it, x[:0]) is a slice
// parameter of the function enclosing the finding, a function whose
// first result has the parameter's type: the buffer of an append-style
// function, func(dst []byte, ...) []byte.
func (fd *finding) callerBuffer(x ast.Expr) bool {
	// What the appends start from: the buffer of append(dst, ...),
	// strconv.AppendBool(append(dst, ','), v), dst[:0].
	id, ok := bufferRoot(fd.pass.TypesInfo, x).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := fd.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	ftype, _ := fd.enclosingFunc()
	if ftype == nil || ftype.Results == nil || len(ftype.Results.List) == 0 {
		return false
	}
	res := fd.pass.TypesInfo.TypeOf(ftype.Results.List[0].Type)
	if res == nil || !types.Identical(res, v.Type()) {
		return false
	}
	for _, field := range ftype.Params.List {
		for _, name := range field.Names {
			if fd.pass.TypesInfo.Defs[name] == v {
				return true
			}
		}
	}
	return false
}

// growsCallerBuffer reports whether the allocation is an append's growth
// of the buffer of an append-style function enclosing it, which returns
// it (see callerBuffer): in an append in this function, or in an
// append-style function inlined here and given that buffer (zerolog's
// dst = enc.AppendKey(dst, key), return strconv.AppendBool(dst, v)).
func (fd *finding) growsCallerBuffer() bool {
	if fd.rec.Cause != optlog.CauseAppend || !hasReason(fd.rec, "return") {
		return false
	}
	if call := fd.appendAt(); call != nil {
		return fd.callerBuffer(call.Args[0])
	}
	call := callAt(fd.path, fd.rec.TokPos)
	if call == nil || len(call.Args) == 0 || len(fd.rec.InlinedFrom) == 0 {
		return false
	}
	fn, ok := typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func)
	return ok && appendStyleSig(fn.Type().(*types.Signature)) && fd.callerBuffer(call.Args[0])
}

// isAppend reports whether call calls the builtin append.
func isAppend(info *types.Info, call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "append"
}

// appendStyleSig reports whether sig is that of an append-style function:
// its first parameter is a slice of the type of its first result.
func appendStyleSig(sig *types.Signature) bool {
	if sig.Params().Len() == 0 || sig.Results().Len() == 0 {
		return false
	}
	p := sig.Params().At(0).Type()
	_, ok := p.Underlying().(*types.Slice)
	return ok && types.Identical(p, sig.Results().At(0).Type())
}
