package wholeprog

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/internal/funcname"
)

// loopBlocks returns the blocks of fn that are part of a cycle of the
// control-flow graph: they run once per iteration of a loop.
func loopBlocks(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	in := make(map[*ssa.BasicBlock]bool)
	for b := range loopComponents(fn) {
		in[b] = true
	}
	return in
}

// loopComponents maps each block of fn that is part of a cycle to the
// number (from 1) of its strongly connected component: blocks of one loop
// nest share a number.
func loopComponents(fn *ssa.Function) map[*ssa.BasicBlock]int {
	// Tarjan's strongly connected components.
	index := make(map[*ssa.BasicBlock]int)
	low := make(map[*ssa.BasicBlock]int)
	onStack := make(map[*ssa.BasicBlock]bool)
	var stack []*ssa.BasicBlock
	in := make(map[*ssa.BasicBlock]int)
	next, comps := 0, 0
	var visit func(b *ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		index[b], low[b] = next, next
		next++
		stack = append(stack, b)
		onStack[b] = true
		for _, s := range b.Succs {
			if _, ok := index[s]; !ok {
				visit(s)
				low[b] = min(low[b], low[s])
			} else if onStack[s] {
				low[b] = min(low[b], index[s])
			}
		}
		if low[b] == index[b] {
			var comp []*ssa.BasicBlock
			for {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[x] = false
				comp = append(comp, x)
				if x == b {
					break
				}
			}
			cyclic := len(comp) > 1
			if !cyclic {
				for _, s := range b.Succs {
					cyclic = cyclic || s == b
				}
			}
			if cyclic {
				comps++
				for _, x := range comp {
					in[x] = comps
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		if _, ok := index[b]; !ok {
			visit(b)
		}
	}
	return in
}

// perItemFuncs computes which functions of reported packages run per
// item: named like per-item work, called from a loop, or called from a
// per-item function, through the whole-program call graph (calls with a
// single callee only, so a widely implemented interface does not make
// everything hot).
func (p *program) perItemFuncs(all map[*ssa.Function]bool) map[*ssa.Function]string {
	why := make(map[*ssa.Function]string)
	type item struct {
		fn  *ssa.Function
		why string
	}
	var work []item
	for fn := range all {
		if fn.Pkg == nil || !p.reported[fn.Pkg.Pkg] || len(fn.Blocks) == 0 {
			continue
		}
		if fn.Parent() == nil && hotpath.PerItemName(fn.Name()) {
			work = append(work, item{fn, "function " + fn.Name() + " runs per item"})
		}
		loops := loopBlocks(fn)
		for b := range loops {
			for _, instr := range b.Instrs {
				if site, ok := instr.(ssa.CallInstruction); ok {
					if callee := p.singleCallee(site); callee != nil {
						work = append(work, item{callee, "called in a loop in " + funcname.InPackageOf(funcname.OfSSA(fn))})
					}
				}
			}
		}
	}
	for len(work) > 0 {
		it := work[0]
		work = work[1:]
		if _, ok := why[it.fn]; ok || it.fn.Pkg == nil || !p.reported[it.fn.Pkg.Pkg] {
			continue
		}
		why[it.fn] = it.why
		for _, b := range it.fn.Blocks {
			for _, instr := range b.Instrs {
				if site, ok := instr.(ssa.CallInstruction); ok {
					if callee := p.singleCallee(site); callee != nil {
						work = append(work, item{callee, "called from " + funcname.InPackageOf(funcname.OfSSA(it.fn)) + ", which runs per item"})
					}
				}
			}
		}
		for _, anon := range it.fn.AnonFuncs {
			work = append(work, item{anon, it.why})
		}
	}
	return why
}

// singleCallee returns the only callee of a call site by the call graph,
// or nil. Synthetic wrappers are replaced by the function they call.
func (p *program) singleCallee(site ssa.CallInstruction) *ssa.Function {
	var only *ssa.Function
	if c := site.Common().StaticCallee(); c != nil {
		only = c
	} else {
		node := p.cg.Nodes[site.Parent()]
		if node == nil {
			return nil
		}
		for _, e := range node.Out {
			if e.Site != site {
				continue
			}
			if only != nil && only != e.Callee.Func {
				return nil
			}
			only = e.Callee.Func
		}
	}
	for i := 0; only != nil && isWrapper(only) && i < 3; i++ {
		only = wrapped(only)
	}
	return only
}

// soleCallee is singleCallee for claims that the call always goes to the
// callee (loopalloc's "on every iteration"). The call graph does not see
// the values that code without a body makes, so for a call through a
// function value the value must be made by code with a body, and for a
// call through an interface either so must the receiver, or the receiver
// type must be the only implementation of a sealed interface (as devirt
// requires).
func (p *program) soleCallee(site ssa.CallInstruction) *ssa.Function {
	c := p.singleCallee(site)
	common := site.Common()
	if c == nil || common.StaticCallee() != nil {
		return c
	}
	if common.IsInvoke() {
		iface, _ := common.Value.Type().Underlying().(*types.Interface)
		if conc := p.receiverType(site); iface != nil && conc != nil && p.sealed(iface) && p.onlyImplementation(iface, conc) {
			return c
		}
	}
	if !p.visible(common.Value) {
		return nil
	}
	return c
}

// isWrapper reports whether fn is a synthetic wrapper (of a promoted or
// bound method, a method expression or a generic function), as opposed to
// code of the source (including generic instances and range-over-func
// loop bodies).
func isWrapper(fn *ssa.Function) bool {
	return strings.Contains(fn.Synthetic, "wrapper") || strings.HasPrefix(fn.Synthetic, "thunk")
}

// wrapped returns the function a synthetic wrapper calls, if it makes
// exactly one static call.
func wrapped(fn *ssa.Function) *ssa.Function {
	var callee *ssa.Function
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if callee != nil {
					return nil
				}
				callee = c.Common().StaticCallee()
				if callee == nil {
					return nil
				}
			}
		}
	}
	return callee
}

// tier rates the hotness of an instruction in block b of fn.
func (p *program) tier(fn *ssa.Function, b *ssa.BasicBlock, loops map[*ssa.BasicBlock]bool) (hotpath.Tier, string) {
	if loops[b] {
		return hotpath.Loop, "inside a loop"
	}
	if why, ok := p.perItem[fn]; ok {
		return hotpath.PerItem, why
	}
	return hotpath.Unknown, "no loop or per-item code of the module calls it"
}
