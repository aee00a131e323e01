package program

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/escape"
	"github.com/goadvise/goadvise/report"
)

// devirt reports hot interface method calls whose receiver can only be
// one concrete type.
func (p *program) devirt(funcs []*ssa.Function) []report.Finding {
	var out []report.Finding
	impls := make(map[*types.Interface][]types.Type) // memo: all implementations in the program
	for _, fn := range funcs {
		loops := loopBlocks(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				site, ok := instr.(ssa.CallInstruction)
				if !ok || !site.Common().IsInvoke() {
					continue
				}
				p.stats.InvokeSites++
				conc := p.receiverType(site)
				if conc == nil {
					continue
				}
				p.stats.SingleType++
				tier, why := p.tier(fn, b, loops)
				if tier == hotpath.Cold {
					continue
				}
				p.stats.HotSingleType++
				iface, _ := site.Common().Value.Type().Underlying().(*types.Interface)
				if iface == nil || p.otherConverted(iface, conc, impls) {
					continue
				}
				p.stats.Candidates++
				if !p.closed {
					continue // a library: importers may pass other types
				}
				if f, ok := p.devirtFinding(fn, site, conc, tier, why); ok {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// receiverType returns the one concrete receiver type of an interface
// call site by the call graph, or nil if there are none or several.
func (p *program) receiverType(site ssa.CallInstruction) types.Type {
	node := p.cg.Nodes[site.Parent()]
	if node == nil {
		return nil
	}
	var conc types.Type
	for _, e := range node.Out {
		if e.Site != site {
			continue
		}
		sig := e.Callee.Func.Signature
		if sig.Recv() == nil {
			return nil // a bound or synthetic function: do not guess
		}
		t := sig.Recv().Type()
		if conc != nil && !types.Identical(conc, t) {
			return nil
		}
		conc = t
	}
	return conc
}

// otherConverted reports whether a type implementing iface other than conc
// (or a pointer to conc, which has the same methods) is converted to an
// interface anywhere in the program: a value of it could then reach the
// call by a path the call graph does not see (reflection, unsafe).
func (p *program) otherConverted(iface *types.Interface, conc types.Type, memo map[*types.Interface][]types.Type) bool {
	list, ok := memo[iface]
	if !ok {
		for t := range p.converted {
			if _, isIface := t.Underlying().(*types.Interface); isIface {
				continue
			}
			// reflect.New of a T's type makes a *T: count both.
			if types.Implements(t, iface) {
				list = append(list, t)
			} else if _, isPtr := t.Underlying().(*types.Pointer); !isPtr && types.Implements(types.NewPointer(t), iface) {
				list = append(list, types.NewPointer(t))
			}
		}
		memo[iface] = list
	}
	for _, t := range list {
		if types.Identical(t, conc) {
			continue
		}
		return true
	}
	return false
}

// devirtFinding describes what calling conc directly buys. It reports
// false when the advice cannot be followed: conc is unexported in another
// package.
func (p *program) devirtFinding(fn *ssa.Function, site ssa.CallInstruction, conc types.Type, tier hotpath.Tier, why string) (report.Finding, bool) {
	common := site.Common()
	if named, ok := types.Unalias(derefType(conc)).(*types.Named); ok {
		obj := named.Obj()
		if !obj.Exported() && fn.Pkg != nil && obj.Pkg() != fn.Pkg.Pkg {
			return report.Finding{}, false
		}
	}
	qual := func(pkg *types.Package) string {
		if fn.Pkg != nil && pkg == fn.Pkg.Pkg {
			return ""
		}
		return pkg.Name()
	}
	iname := types.TypeString(common.Value.Type(), qual)
	cname := types.TypeString(conc, qual)
	method := common.Method.Name()
	pos := site.Pos()
	ps := p.position(pos)

	// What the compiler says about the concrete method, when its package
	// is one whose decisions were collected.
	var inl *escape.Record
	leaks := false
	known := false
	if sel := p.prog.MethodSets.MethodSet(conc).Lookup(common.Method.Pkg(), method); sel != nil {
		if m := p.prog.MethodValue(sel); m != nil {
			for i := 0; m != nil && isWrapper(m) && i < 3; i++ {
				m = wrapped(m)
			}
			if m != nil && m.Pkg != nil && m.Syntax() != nil {
				if recs, ok := p.records[m.Pkg.Pkg.Path()]; ok {
					known = true
					inl, leaks = p.methodFacts(m, recs)
				}
			}
		}
	}

	var gain string
	switch {
	case inl != nil && inl.Kind == escape.CanInline:
		gain = fmt.Sprintf("the call can be inlined (the method costs %d)", inl.Cost)
	case inl != nil && inl.Kind == escape.CannotInline:
		gain = "the call becomes a direct call (the method itself cannot be inlined: " + inl.Reason + ")"
	default:
		gain = "the call becomes a direct call, which the compiler can inline if the method is small enough"
	}
	var escapes []escape.Record
	if fn.Pkg != nil {
		escapes = interfaceEscapes(p.records[fn.Pkg.Pkg.Path()], ps.Filename, ps.Line, method)
	}
	if len(escapes) > 0 {
		list := strings.Join(explanations(escapes), "; ")
		switch {
		case known && !leaks:
			gain += ", and what escapes only because the callee is unknown can stay on the stack (" + list + ")"
		case known && leaks:
			gain += "; the method keeps a parameter, so this still escapes: " + list
		default:
			gain += ", and what escapes only because the callee is unknown may stay on the stack (" + list + ")"
		}
	}
	msg := fmt.Sprintf("%s.%s is an interface call whose receiver is always %s in the whole program (by the call graph): call it on a %s (a field or variable of that type, or a type switch with a fast path for it), so %s [%s: %s]",
		iname, method, cname, cname, gain, tier, why)
	return p.finding(Devirt, fn, pos, tier, msg), true
}

func derefType(t types.Type) types.Type {
	if ptr, ok := t.(*types.Pointer); ok {
		return ptr.Elem()
	}
	return t
}

// methodFacts returns the compiler's inlining record of m and whether any
// of its parameters leaks (to the heap or to a result).
func (p *program) methodFacts(m *ssa.Function, recs []escape.Record) (*escape.Record, bool) {
	syn := m.Syntax()
	start := p.position(syn.Pos())
	bodyLine := start.Line
	if fd, ok := syn.(*ast.FuncDecl); ok && fd.Body != nil {
		bodyLine = p.position(fd.Body.Lbrace).Line
	}
	declLine := p.position(m.Pos()).Line
	params := make(map[string]bool)
	for _, prm := range m.Params {
		params[prm.Name()] = true
	}
	if len(m.Params) > 0 && m.Signature.Recv() != nil {
		delete(params, m.Params[0].Name()) // the receiver: it leaks through the interface anyway
	}
	var inl *escape.Record
	leaks := false
	for i := range recs {
		r := &recs[i]
		if r.Pos.File != start.Filename || r.Pos.Line < start.Line || r.Pos.Line > bodyLine {
			continue
		}
		switch r.Kind {
		case escape.CanInline, escape.CannotInline:
			if r.Pos.Line == declLine && inl == nil {
				inl = r
			}
		case escape.LeakParam, escape.LeakParamContent, escape.LeakToResult:
			if params[r.Name] {
				leaks = true
			}
		}
	}
	return inl, leaks
}

// interfaceEscapes returns the compiler's heap records caused by the
// interface call of method at file:line.
func interfaceEscapes(recs []escape.Record, file string, line int, method string) []escape.Record {
	var out []escape.Record
	for _, r := range recs {
		if !r.Kind.IsHeap() || r.Cause != escape.CauseInterfaceMethodCall {
			continue
		}
		for _, s := range r.Flow {
			if s.Pos.File == file && s.Pos.Line == line && strings.Contains(s.Text, "."+method+"(") && strings.Contains(s.Text, "call parameter") {
				out = append(out, r)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos.Col < out[j].Pos.Col })
	return out
}

func explanations(recs []escape.Record) []string {
	var out []string
	for _, r := range recs {
		if r.Explanation != "" {
			out = append(out, r.Explanation)
		} else {
			out = append(out, r.Name+" escapes: "+r.Cause.String())
		}
	}
	return out
}
