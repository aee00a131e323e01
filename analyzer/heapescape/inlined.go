package heapescape

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/optlog"
)

// outOfLine is the tier reason of an allocation in the body of a function
// that the compiler inlines at each of its calls in the package.
const outOfLine = "inlined at each of its calls in the package, where a copy that escapes is reported at the call: this body allocates only when called out of line, from another package or as a function value"

// inlinedAway says whether the allocation is in the body of a function of
// the package (directly, or a function literal there) that the compiler
// inlines at every one of its calls in the package: the compiler's record
// is of the function's own compiled body, which only calls that are not
// inlined run. Where an inlined copy escapes, the compiler reports it, and
// goadvise with it, at the call ("calling f allocates (inlined)"). gone is
// true when nothing else can call that body (an unexported function, or a
// method no interface of the package declares, never used as a value):
// the body's allocation never happens. It reports false, false otherwise.
func (fd *finding) inlinedAway() (fn *types.Func, gone bool) {
	if len(fd.rec.InlinedFrom) > 0 || !fd.esc.Available() || !fd.stackWhenInlined() {
		return nil, false
	}
	var decl *ast.FuncDecl
	for _, n := range fd.path {
		switch f := n.(type) {
		case *ast.FuncLit:
			// The allocation of the literal itself counts; what runs in
			// its body runs when the closure is called.
			if f.Pos() != fd.rec.TokPos {
				return nil, false
			}
		case *ast.FuncDecl:
			decl = f
		}
		if decl != nil {
			break
		}
	}
	if decl == nil || decl.Body == nil || !fd.esc.CanInlineIn(decl.Pos(), decl.Body.Lbrace) {
		return nil, false
	}
	fn, ok := fd.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return nil, false
	}
	use := fd.res.callUses(fd.pass, fd.esc, fn)
	if use.calls == 0 || use.other {
		return nil, false
	}
	if !fn.Exported() && decl.Recv != nil && fd.res.ifaces == nil {
		fd.res.ifaces = hotpath.InterfaceMethods(fd.pass)
	}
	gone = !fn.Exported() && (decl.Recv == nil || !fd.res.ifaces[fn.Name()])
	return fn, gone
}

// stackWhenInlined reports whether the allocation, where it does not
// escape, is on the stack: a variable, a composite literal, its address,
// new, a function literal, a boxed value, a make of constant size. A
// string concatenation or conversion that does not escape still
// allocates when it outgrows a small stack buffer, and so may a make of
// a size known at run time or an append: not these.
func (fd *finding) stackWhenInlined() bool {
	rec := fd.rec
	if rec.Kind == optlog.MovedToHeap {
		return true
	}
	switch rec.Cause {
	case optlog.CauseAppend, optlog.CauseNonConstantMake, optlog.CauseTooLarge:
		return false
	case optlog.CauseInterfaceConversion:
		return true
	}
	name := rec.Name
	switch {
	case strings.HasPrefix(name, "&"), strings.HasPrefix(name, "new("),
		strings.HasPrefix(name, "func literal"), strings.HasPrefix(name, "make("),
		strings.HasSuffix(name, "{...}"):
		return true
	}
	return false
}

// callUse is how the package refers to one of its functions: the number
// of its calls, and whether any reference is not a call the compiler
// inlines (a call it does not, a function or method value).
type callUse struct {
	calls int
	other bool
}

// callUses returns how the package's files refer to fn, computed for all
// its functions on the first question.
func (r *resolver) callUses(pass *analysis.Pass, esc *optlog.Result, fn *types.Func) callUse {
	if r.uses == nil {
		r.uses = make(map[*types.Func]*callUse)
		var counted []*ast.Ident
		deferred := make(map[*ast.CallExpr]bool) // go and defer statements' calls, which run out of line
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch s := n.(type) {
				case *ast.GoStmt:
					deferred[s.Call] = true
				case *ast.DeferStmt:
					deferred[s.Call] = true
				}
				call, ok := n.(*ast.CallExpr)
				var id *ast.Ident
				if ok {
					switch fun := ast.Unparen(call.Fun).(type) {
					case *ast.Ident:
						id = fun
					case *ast.SelectorExpr:
						id = fun.Sel
					}
				}
				if id != nil {
					if f, isFunc := pass.TypesInfo.Uses[id].(*types.Func); isFunc && f.Pkg() == pass.Pkg {
						u := r.use(f.Origin()) // a generic function's or method's instances are its calls too
						u.calls++
						if deferred[call] || !inlinedCall(esc, call) {
							u.other = true
						}
						counted = append(counted, id)
					}
				}
				return true
			})
		}
		isCall := make(map[*ast.Ident]bool, len(counted))
		for _, id := range counted {
			isCall[id] = true
		}
		for id, obj := range pass.TypesInfo.Uses {
			if f, isFunc := obj.(*types.Func); isFunc && f.Pkg() == pass.Pkg && !isCall[id] {
				r.use(f.Origin()).other = true // a function or method value
			}
		}
	}
	if u := r.uses[fn]; u != nil {
		return *u
	}
	return callUse{}
}

func (r *resolver) use(f *types.Func) *callUse {
	u := r.uses[f]
	if u == nil {
		u = &callUse{}
		r.uses[f] = u
	}
	return u
}

// inlinedCall reports whether the compiler inlined call, a static call of
// a function it can inline: its optimization log records each call of
// such a function that it does not inline ("cannotInlineCall", at the
// call's opening parenthesis: a caller too large, recursion), and not
// those it does.
func inlinedCall(esc *optlog.Result, call *ast.CallExpr) bool {
	for _, r := range esc.At(call.Lparen) {
		if r.Kind == optlog.CannotInlineCall {
			return false
		}
	}
	return true
}

// iteratorClosure is why the closure an inlinable iterator returns is
// inherent.
const iteratorClosure = "it is the iterator the function returns, and the compiler inlines the function: a range loop over it makes the closure on the stack, and only calls that are not inlined allocate it"

// inlinableIterator reports whether the function declaration enclosing
// the finding returns a range-over-func iterator (its one result a
// function of one yield function that returns bool, as iter.Seq and
// iter.Seq2 are) and the compiler can inline it: range loops then inline
// it and keep its closure on the stack.
func (fd *finding) inlinableIterator() bool {
	var decl *ast.FuncDecl
	for _, n := range fd.path {
		if d, ok := n.(*ast.FuncDecl); ok {
			decl = d
		}
	}
	if decl == nil || decl.Body == nil || !fd.esc.CanInlineIn(decl.Pos(), decl.Body.Lbrace) {
		return false
	}
	fn, ok := fd.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	if res.Len() != 1 {
		return false
	}
	seq, ok := res.At(0).Type().Underlying().(*types.Signature)
	if !ok || seq.Params().Len() != 1 || seq.Results().Len() != 0 {
		return false
	}
	yield, ok := seq.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok || yield.Results().Len() != 1 {
		return false
	}
	b, ok := yield.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// bodyView returns the finding as seen in the code that allocates: for an
// allocation inlined from a body of the package, a copy of fd whose
// record's position and path are the allocation's in that body, so that
// what is decided from the code around it (is it guarded, what does it
// fill) is decided there, where it is written; otherwise fd itself.
func (fd *finding) bodyView() *finding {
	if len(fd.rec.InlinedFrom) == 0 {
		return fd
	}
	pos := fd.tokenPos(fd.rec.InlinedFrom[0])
	if !pos.IsValid() {
		return fd
	}
	f := syntax.FileAt(fd.pass.Files, pos)
	if f == nil {
		return fd
	}
	rec := *fd.rec
	rec.TokPos, rec.InlinedFrom = pos, nil
	body := *fd
	body.rec, body.file, body.path = &rec, f, enclosing(fd.find, f, pos)
	return &body
}
