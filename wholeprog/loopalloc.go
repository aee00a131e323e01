package wholeprog

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/optlog"
	"github.com/goadvise/goadvise/report"
)

// loopalloc reports allocations made on every call of functions that loops
// call, attributed to the loops.
func (p *program) loopalloc(funcs []*ssa.Function) []report.Finding {
	var out []report.Finding
	allocs := make(map[*ssa.Function][]optlog.Record) // memo
	for _, fn := range funcs {
		comps := loopComponents(fn)
		if len(comps) == 0 {
			continue
		}
		seen := make(map[string]bool) // allocation positions already reported for fn
		for _, b := range fn.Blocks {
			if comps[b] == 0 || !everyIteration(b, comps) {
				continue
			}
			for _, instr := range b.Instrs {
				site, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				callee := p.soleCallee(site)
				if callee == nil {
					continue
				}
				out = append(out, p.followLoopCall(fn, site, callee, allocs, seen)...)
			}
		}
	}
	return out
}

// followLoopCall walks the single-callee calls from the loop call site, to
// the configured depth, and reports the allocations of each callee.
func (p *program) followLoopCall(fn *ssa.Function, site ssa.CallInstruction, callee *ssa.Function, memo map[*ssa.Function][]optlog.Record, seen map[string]bool) []report.Finding {
	type step struct {
		fn   *ssa.Function
		path []*ssa.Function
	}
	var out []report.Finding
	visited := map[*ssa.Function]bool{fn: true}
	queue := []step{{callee, []*ssa.Function{callee}}}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if visited[s.fn] || s.fn.Pkg == nil || !p.reported[s.fn.Pkg.Pkg] || len(s.fn.Blocks) == 0 {
			continue
		}
		visited[s.fn] = true
		recs, ok := memo[s.fn]
		if !ok {
			recs = p.everyCallAllocs(s.fn)
			memo[s.fn] = recs
		}
		for _, r := range recs {
			key := r.Pos.String() + "\x00" + r.Name
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, p.loopAllocFinding(fn, site, s.path, r))
		}
		if len(s.path) >= p.opts.Depth {
			continue
		}
		for _, b := range s.fn.Blocks {
			if !mustPass(s.fn, b) {
				continue // a call made only on some calls of s.fn
			}
			for _, instr := range b.Instrs {
				if cs, ok := instr.(ssa.CallInstruction); ok {
					if c := p.soleCallee(cs); c != nil {
						queue = append(queue, step{c, append(append([]*ssa.Function(nil), s.path...), c)})
					}
				}
			}
		}
	}
	return out
}

func (p *program) loopAllocFinding(fn *ssa.Function, site ssa.CallInstruction, path []*ssa.Function, r optlog.Record) report.Finding {
	var via []string
	for _, f := range path {
		via = append(via, funcname.InPackageOf(funcname.OfSSA(f)))
	}
	g := path[len(path)-1]
	gname := funcname.InPackageOf(funcname.OfSSA(g))
	expl := r.Explanation
	if expl == "" {
		expl = r.Name + " escapes: " + r.Cause.String()
	}
	text := fmt.Sprintf("%s in %s (%s:%d) allocates on every call, once per iteration of the loop in %s via %s (%s); its size is constant and it does not outlive the call, so %s can reuse one allocated before the loop in %s and passed down (cleared where the code reads what it did not write), to save a heap allocation, its zeroing and its garbage collection per iteration",
		r.Name, gname, shortFile(r.Pos.File), r.Pos.Line, funcname.InPackageOf(funcname.OfSSA(fn)), strings.Join(via, " -> "), expl, gname, funcname.InPackageOf(funcname.OfSSA(fn)))
	return p.finding(fn, site.Pos(), kind.Fields{Kind: PassBuffer, Tier: hotpath.Loop.String(), TierReason: "inside a loop", Text: text,
		Cause: r.Cause.String(), Sink: r.Sink.String(), Flow: expl, Callee: gname})
}

// everyCallAllocs returns the compiler's heap records of fn (not of its
// function literals) that are made on every call of fn. It returns none if
// the compiler can inline fn, since inlined into a loop the allocation may
// not escape.
func (p *program) everyCallAllocs(fn *ssa.Function) []optlog.Record {
	syn := fn.Syntax()
	if syn == nil || fn.Parent() != nil {
		return nil
	}
	recs, _ := p.recordsOf(fn.Pkg.Pkg.Path())
	if len(recs) == 0 {
		return nil
	}
	start, end := p.position(syn.Pos()), p.position(syn.End())
	declLine := p.position(fn.Pos()).Line
	type span struct{ from, to int }
	var lits []span
	for _, a := range fn.AnonFuncs {
		if s := a.Syntax(); s != nil {
			lits = append(lits, span{p.position(s.Pos()).Line, p.position(s.End()).Line})
		}
	}
	var out []optlog.Record
	for _, r := range recs {
		if r.Pos.File != start.Filename || r.Pos.Line < start.Line || r.Pos.Line > end.Line {
			continue
		}
		if r.Kind == optlog.CanInline && r.Pos.Line == declLine {
			return nil
		}
		if !r.Kind.IsHeap() || r.Cause == optlog.CauseAppend || strings.HasPrefix(r.Name, "append(") || isLiteral(r.Name) {
			continue // append grows only when full; constants are static data
		}
		if len(r.InlinedFrom) > 0 || strings.Contains(r.Explanation, "panic") {
			// Inside an inlined call, the line does not tell on which
			// branch of the callee the allocation is; a panic value is
			// allocated once.
			continue
		}
		inLit := false
		for _, l := range lits {
			inLit = inLit || (r.Pos.Line >= l.from && r.Pos.Line <= l.to)
		}
		if inLit || !p.onEveryCall(fn, r.Pos.Line) || !p.reusable(fn, r) {
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pos.Line != out[j].Pos.Line {
			return out[i].Pos.Line < out[j].Pos.Line
		}
		return out[i].Pos.Col < out[j].Pos.Col
	})
	return out
}

// reusable reports whether the allocation of record r in fn could be made
// once and reused by every call: it is a make of a slice with a constant
// length and capacity, a new or a composite literal's address (so its size
// does not depend on the call), and its value does not outlive the call
// (it is not returned, stored, appended, captured, sent or passed to code
// that may keep it; it is only indexed, sliced, read, written into, copied
// and measured). Work that depends on the iteration's values, such as a
// conversion to an interface or a formatted string, is not reusable.
func (p *program) reusable(fn *ssa.Function, r optlog.Record) bool {
	var match []ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if instr.Pos() == token.NoPos || p.position(instr.Pos()).Line != r.Pos.Line {
				continue
			}
			switch v := instr.(type) {
			case *ssa.MakeSlice:
				if strings.HasPrefix(r.Name, "make([]") {
					_, constLen := v.Len.(*ssa.Const)
					_, constCap := v.Cap.(*ssa.Const)
					if !constLen || !constCap {
						return false
					}
					match = append(match, v)
				}
			case *ssa.Alloc:
				// SSA makes a slice of constant size as the array it slices.
				if v.Heap && (strings.HasPrefix(r.Name, "new(") || strings.HasPrefix(r.Name, "&") || strings.HasPrefix(r.Name, "make([]")) {
					match = append(match, v)
				}
			}
		}
	}
	return len(match) == 1 && p.localOnly(match[0], 0)
}

// localOnly reports whether the memory v points to is used only within
// its function: read, written, indexed, sliced, copied and measured.
func (p *program) localOnly(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || depth > 8 {
		return false
	}
	for _, instr := range *refs {
		switch instr := instr.(type) {
		case *ssa.Slice, *ssa.IndexAddr, *ssa.FieldAddr:
			if !p.localOnly(instr.(ssa.Value), depth+1) {
				return false
			}
		case *ssa.Index, *ssa.Field, *ssa.DebugRef:
		case *ssa.UnOp:
			if instr.Op != token.MUL {
				return false
			}
		case *ssa.Store:
			if instr.Addr != v {
				return false // the address itself is stored
			}
		case *ssa.Call:
			if !p.localCall(instr.Common(), v, depth) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// localCall reports whether a call that is passed v keeps it only for the
// call: the builtins len, cap and copy, a function whose parameter is
// only used locally (by localOnly), or the Read or Write method of an
// io.Reader or io.Writer, whose implementations must not retain the slice.
// A function of a package without bodies is read from source for this
// (see depBody).
func (p *program) localCall(common *ssa.CallCommon, v ssa.Value, depth int) bool {
	if common.IsInvoke() {
		if common.Value == v {
			return false
		}
		m := common.Method
		sig := m.Type().(*types.Signature)
		isRW := (m.Name() == "Read" || m.Name() == "Write") && sig.Params().Len() == 1 && sig.Results().Len() == 2 &&
			types.Identical(sig.Params().At(0).Type(), types.NewSlice(types.Typ[types.Byte])) &&
			types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) &&
			types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
		return isRW
	}
	if b, ok := common.Value.(*ssa.Builtin); ok {
		return b.Name() == "len" || b.Name() == "cap" || b.Name() == "copy"
	}
	callee := common.StaticCallee()
	if callee != nil && len(callee.Blocks) == 0 {
		callee = p.depBody(callee)
	}
	if callee == nil || len(callee.Blocks) == 0 || len(callee.Params) != len(common.Args) {
		return false
	}
	for i, a := range common.Args {
		if a == v && !p.localOnly(callee.Params[i], depth+1) {
			return false
		}
	}
	return true
}

// onEveryCall reports whether the instructions of fn on the given line are
// all in blocks that every path from the entry to a return goes through.
// It is false if no instruction is on that line.
func (p *program) onEveryCall(fn *ssa.Function, line int) bool {
	blocks := make(map[*ssa.BasicBlock]bool)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if pos := instr.Pos(); pos != token.NoPos && p.position(pos).Line == line {
				blocks[b] = true
			}
		}
	}
	if len(blocks) == 0 {
		return false
	}
	for b := range blocks {
		if !mustPass(fn, b) {
			return false
		}
	}
	return true
}

// mustPass reports whether every path from fn's entry to a return goes
// through b, and some path reaches a return (a function that always
// panics runs only once).
func mustPass(fn *ssa.Function, b *ssa.BasicBlock) bool {
	if !reachesReturn(fn, nil) {
		return false
	}
	return !reachesReturn(fn, b)
}

// reachesReturn reports whether a return is reachable from fn's entry
// without going through avoid (nil: avoid nothing).
func reachesReturn(fn *ssa.Function, avoid *ssa.BasicBlock) bool {
	if fn.Blocks[0] == avoid {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{fn.Blocks[0]: true}
	if avoid != nil {
		seen[avoid] = true
	}
	stack := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n := len(x.Instrs); n > 0 {
			if _, ok := x.Instrs[n-1].(*ssa.Return); ok {
				return true
			}
		}
		for _, s := range x.Succs {
			if !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return false
}

// everyIteration reports whether block b, part of a loop, runs on every
// iteration: every cycle among the blocks of its loop nest goes through b.
// A block of an inner loop or of a branch inside the loop does not.
func everyIteration(b *ssa.BasicBlock, comps map[*ssa.BasicBlock]int) bool {
	c := comps[b]
	for start, sc := range comps {
		if sc != c || start == b {
			continue
		}
		// Is there a path from start back to start that avoids b?
		seen := map[*ssa.BasicBlock]bool{b: true}
		stack := []*ssa.BasicBlock{start}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, s := range x.Succs {
				if s == start {
					return false
				}
				if comps[s] == c && !seen[s] {
					seen[s] = true
					stack = append(stack, s)
				}
			}
		}
	}
	return true
}

// isLiteral reports whether an escaping value, as the compiler names it,
// is a constant: converting a constant to an interface does not allocate.
func isLiteral(name string) bool {
	if name == "" {
		return false
	}
	c := name[0]
	return c == '"' || c == '`' || c == '\'' || (c >= '0' && c <= '9') || name == "true" || name == "false"
}
