package smallalloc

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/goadvise/goadvise/analyzer/internal/ssaform"
)

// reassigned reports whether v is assigned again after its declaration
// in fd.
func reassigned(info *types.Info, fd *ast.FuncDecl, v *types.Var) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found {
			return !found
		}
		for _, l := range as.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.Uses[id] == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// valueFlow follows the value of the constant-size make cand, by itself,
// through fd's SSA form: where checkVar follows the variable, which may
// later hold another allocation that is kept, this follows the one value
// and where it may flow (phis included). ok is false if the value cannot
// be found in the SSA form.
func (c *checker) valueFlow(fd *ast.FuncDecl, cand *candidate, self *types.Var) (fl flow, ok bool) {
	form, _ := c.pass.ResultOf[ssaform.Analyzer].(*ssaform.Package)
	if form == nil {
		return flow{}, false
	}
	fn := form.Func(fd)
	if fn == nil {
		return flow{}, false
	}
	calls := make(map[token.Pos]*ast.CallExpr)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			calls[call.Lparen] = call
		}
		return true
	})
	// make([]T, n) with a constant n is new([n]T) sliced: find the slice.
	var start ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			a, isAlloc := instr.(*ssa.Alloc)
			if !isAlloc || a.Pos() != cand.heapPos {
				continue
			}
			for _, r := range *a.Referrers() {
				if s, isSlice := r.(*ssa.Slice); isSlice && s.X == a {
					start = s
				}
			}
		}
	}
	if start == nil {
		return flow{}, false
	}
	f := &ssaFollower{c: c, self: self, calls: calls, seen: make(map[ssa.Value]bool)}
	return f.follow(start), true
}

// ssaFollower follows one value through a function's SSA form.
type ssaFollower struct {
	c     *checker
	self  *types.Var
	calls map[token.Pos]*ast.CallExpr // the function's calls, by Lparen
	seen  map[ssa.Value]bool
}

// follow returns where the slice value v (or a value that shares its
// memory) may go.
func (f *ssaFollower) follow(v ssa.Value) flow {
	var fl flow
	if f.seen[v] {
		return fl
	}
	f.seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return fl
	}
	for _, r := range *refs {
		if fl.retained != "" {
			break
		}
		switch r := r.(type) {
		case *ssa.Slice:
			fl.merge(f.follow(r))
		case *ssa.Phi:
			fl.merge(f.follow(r)) // the value may be the phi's
		case *ssa.ChangeType:
			fl.merge(f.follow(r))
		case *ssa.Convert:
			if b, ok := r.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
				fl.merge(flow{retained: "converted"})
			} // string(b) copies
		case *ssa.IndexAddr:
			fl.merge(f.element(r))
		case *ssa.BinOp:
			// A comparison with nil.
		case *ssa.DebugRef:
		case *ssa.Store:
			fl.merge(flow{retained: "stored"})
		case *ssa.Return:
			fl.merge(flow{retained: "returned"})
		case *ssa.MakeInterface:
			fl.merge(flow{retained: "converted to an interface"})
		case *ssa.MakeClosure:
			fl.merge(flow{retained: "captured by a closure"})
		case *ssa.Send:
			fl.merge(flow{retained: "sent on a channel"})
		case *ssa.Go, *ssa.Defer:
			fl.merge(flow{retained: "used by a go or defer statement"})
		case *ssa.Call:
			fl.merge(f.call(r, v))
		default:
			fl.merge(flow{retained: "used in an unsupported way"})
		}
	}
	return fl
}

// element checks the uses of the address of an element: reading and
// writing it are fine, keeping the address is not.
func (f *ssaFollower) element(addr *ssa.IndexAddr) flow {
	for _, r := range *addr.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != addr {
				return flow{retained: "its address is taken"}
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return flow{retained: "its address is taken"}
			}
		case *ssa.DebugRef:
		default:
			return flow{retained: "its address is taken"}
		}
	}
	return flow{}
}

// call follows v passed to the call c: builtins are known, other calls
// are decided as checkCallee decides them on the call's syntax.
func (f *ssaFollower) call(c *ssa.Call, v ssa.Value) flow {
	common := c.Common()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "len", "cap", "copy", "clear", "print", "println":
			return flow{}
		case "append":
			if len(common.Args) > 0 && common.Args[0] == v {
				return f.follow(c) // the result may share v's memory
			}
			return flow{} // the elements are copied
		}
		return flow{retained: "passed to " + b.Name()}
	}
	call := f.calls[c.Pos()]
	if call == nil {
		return flow{retained: "passed to a call the analysis cannot see"}
	}
	// The index of v among the call's arguments in its syntax (-1: the
	// receiver).
	idx := -2
	switch {
	case common.IsInvoke():
		if common.Value == v {
			idx = -1
		}
		for i, a := range common.Args {
			if a == v {
				idx = i
			}
		}
	default:
		shift := 0
		if fn := common.StaticCallee(); fn != nil && fn.Signature.Recv() != nil {
			shift = 1
		}
		for i, a := range common.Args {
			if a == v {
				idx = i - shift
			}
		}
		if common.Value == v {
			return flow{retained: "called"}
		}
	}
	if idx == -2 {
		return flow{retained: "used in an unsupported way"}
	}
	if idx >= 0 && idx >= len(call.Args) {
		return flow{retained: "passed as a variadic argument"}
	}
	return f.c.checkCallee(call, idx, f.self, 0, map[*types.Var]bool{})
}
