package heapescape

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A reader over bytes the code already holds (bytes.NewReader,
// strings.NewReader) exists to hand them to code that takes an
// io.Reader or io.ByteReader. When the compiler moves the reader to the
// heap only because the callee reads it through that interface (the
// callee calls its methods through an interface, or passes it to an
// interface method: a use, not a store; see leakOf), the reader is all
// the allocation is, and reading the bytes themselves (a form of the
// callee that takes the slice and returns how much it consumed, as
// binary.Uvarint does beside binary.ReadUvarint; json.Unmarshal beside
// a json.Decoder) allocates nothing. A reader that the code returns,
// stores or captures, or that the callee keeps, is not this case.

// memReaderCallAdvice returns the advice for the reader that fn
// (bytes.NewReader or strings.NewReader, inlined) allocates when its only
// uses are calls and the callee it escapes through reads it through an
// interface without keeping it.
func (fd *finding) memReaderCallAdvice(fn *types.Func) (advice, noFix string) {
	if fn == nil || fn.Pkg() == nil || fn.Name() != "NewReader" ||
		fn.Pkg().Path() != "bytes" && fn.Pkg().Path() != "strings" {
		return "", ""
	}
	call := callAt(fd.path, fd.rec.TokPos)
	if call == nil || len(call.Args) != 1 || !fd.onlyCalled(call) {
		return "", ""
	}
	l, callee, ok := fd.calleeLeak()
	if !ok || callee == nil {
		return "", ""
	}
	switch l.kind {
	case leakIfaceCall, leakIfaceRecv:
	default:
		return "", "" // kept, or not known not to be
	}
	data := types.ExprString(call.Args[0])
	name := fd.funcName(callee)
	advice = "the data is already in memory, and the reader only carries " + data + " to " + name + ": "
	noFix = "the rewrite changes the code that reads through the reader"
	fd.costNS = allocNS // the reader alone, no buffer
	if fd.inModule(callee.Pkg()) {
		advice += "give " + name + " a form that takes the bytes and returns how many it consumed (as binary.Uvarint does beside binary.ReadUvarint), which saves the reader per call"
		if callee.Exported() {
			// Other packages may pass it a stream: the reader's form
			// stays, and the change writes a second one beside it (a
			// PutBytes that wraps Put is that second form already).
			fd.blocked = name + " is exported, and other callers may pass it a stream: the change adds a form over bytes beside it"
		}
	} else {
		advice += "read " + data + " with a function that takes the bytes (the destination's Write for io.Copy, json.Unmarshal for a json.Decoder, binary.Decode or the byte order's methods for binary.Read), which saves the reader per call"
		fd.blocked = name + " is another module's: the change replaces the call by code that reads the bytes"
	}
	if fd.blocked != "" {
		noFix = fd.blocked
	}
	return advice, noFix
}

// onlyCalled reports whether the value of call reaches only calls: it is
// itself an argument of a call, or it initialises a local variable whose
// every use is an argument of a call or the receiver of a method call
// (r.Len()). A value returned, stored, assigned on or captured by a
// function literal would outlive the change.
func (fd *finding) onlyCalled(call *ast.CallExpr) bool {
	switch p := fd.parentOf(call).(type) {
	case *ast.CallExpr:
		return p.Fun != call
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE || len(p.Lhs) != 1 || len(p.Rhs) != 1 {
			return false
		}
		id, ok := p.Lhs[0].(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := fd.pass.TypesInfo.Defs[id].(*types.Var)
		if !ok {
			return false
		}
		body := fd.funcBody()
		if body == nil {
			return false
		}
		uses, good := 0, true
		var stack []ast.Node
		ast.Inspect(body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if use, isID := n.(*ast.Ident); isID && fd.pass.TypesInfo.Uses[use] == v {
				uses++
				if !readerCallUse(use, stack) {
					good = false
				}
			}
			stack = append(stack, n)
			return good
		})
		return good && uses > 0
	}
	return false
}

// readerCallUse reports whether id, whose enclosing nodes are stack (innermost
// last), is an argument of a call or the receiver of a method call
// outside any function literal.
func readerCallUse(id *ast.Ident, stack []ast.Node) bool {
	for _, n := range stack {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
	}
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.CallExpr:
		return p.Fun != ast.Expr(id)
	case *ast.SelectorExpr:
		if len(stack) < 2 || p.X != ast.Expr(id) {
			return false
		}
		c, ok := stack[len(stack)-2].(*ast.CallExpr)
		return ok && c.Fun == ast.Expr(p)
	}
	return false
}
