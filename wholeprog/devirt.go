package wholeprog

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/optlog"
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
				if !p.closedSite(fn, site) {
					continue // other programs may pass other types
				}
				if f, ok := p.devirtFinding(fn, site, conc, tier, why); ok {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// closedSite reports whether the receiver of an interface call in fn can
// only hold values made by the program: fn's package is imported by a main
// package of the program, and fn is in a main package (only this program
// runs it) or the receiver is closed whoever imports the package.
func (p *program) closedSite(fn *ssa.Function, site ssa.CallInstruction) bool {
	if p.opts.AssumeClosed {
		return true
	}
	if fn.Pkg == nil || !p.fromMain[fn.Pkg.Pkg] {
		return false
	}
	if fn.Pkg.Pkg.Name() == "main" {
		return true
	}
	if p.open == nil {
		p.open = newOpenness(p, p.all)
	}
	return p.open.closed(site.Common().Value)
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
	var inl *optlog.Record
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
	case inl != nil && inl.Kind == optlog.CanInline:
		gain = fmt.Sprintf("the call can be inlined (the method costs %d)", inl.Cost)
	case inl != nil && inl.Kind == optlog.CannotInline:
		gain = "the call becomes a direct call (the method itself cannot be inlined: " + inl.Reason + ")"
	default:
		gain = "the call becomes a direct call, which the compiler can inline if the method is small enough"
	}
	var escapes []optlog.Record
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
func (p *program) methodFacts(m *ssa.Function, recs []optlog.Record) (*optlog.Record, bool) {
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
	var inl *optlog.Record
	leaks := false
	for i := range recs {
		r := &recs[i]
		if r.Pos.File != start.Filename || r.Pos.Line < start.Line || r.Pos.Line > bodyLine {
			continue
		}
		switch r.Kind {
		case optlog.CanInline, optlog.CannotInline:
			if r.Pos.Line == declLine && inl == nil {
				inl = r
			}
		case optlog.LeakParam, optlog.LeakParamContent, optlog.LeakToResult:
			if params[r.Name] {
				leaks = true
			}
		}
	}
	return inl, leaks
}

// interfaceEscapes returns the compiler's heap records caused by the
// interface call of method at file:line.
func interfaceEscapes(recs []optlog.Record, file string, line int, method string) []optlog.Record {
	var out []optlog.Record
	for _, r := range recs {
		if !r.Kind.IsHeap() || r.Cause != optlog.CauseInterfaceMethodCall {
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

func explanations(recs []optlog.Record) []string {
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

// openness decides whether an interface value in a library package can
// hold a value made by code outside the program. The program's own main
// packages see every caller, but a package that other programs can import
// is also run by them, with their own implementations: its exported
// functions can receive any value, its exported fields and variables can
// be set to any value. A value is closed when every way it is made is
// visible: a conversion of a concrete value, a parameter of a function
// that only visible code calls with closed arguments, a result of a
// static call that returns closed values, or a load of an unexported
// field or variable (or one of a package others cannot import) whose
// every store is closed. Anything else (a parameter of an exported
// function of an importable package, a closure's captured variable, a map
// or slice element, the result of a dynamic call) is open.
type openness struct {
	p          *program
	memo       map[any]bool // closed, by value, field or global
	busy       map[any]bool // being decided: counted open, so cycles end
	fieldAddrs map[*types.Var][]*ssa.FieldAddr
	stores     map[*ssa.Global][]ssa.Value
	leaked     map[ssa.Value]bool // globals and functions used other than loaded, stored to or called
}

func newOpenness(p *program, all map[*ssa.Function]bool) *openness {
	o := &openness{
		p:          p,
		memo:       make(map[any]bool),
		busy:       make(map[any]bool),
		fieldAddrs: make(map[*types.Var][]*ssa.FieldAddr),
		stores:     make(map[*ssa.Global][]ssa.Value),
		leaked:     make(map[ssa.Value]bool),
	}
	var ops []*ssa.Value
	for fn := range all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.FieldAddr:
					if f := fieldOf(instr.X.Type(), instr.Field); f != nil {
						o.fieldAddrs[f] = append(o.fieldAddrs[f], instr)
					}
				case *ssa.Store:
					if g, ok := instr.Addr.(*ssa.Global); ok {
						o.stores[g] = append(o.stores[g], instr.Val)
						o.noteLeak(instr.Val)
						continue
					}
				case *ssa.UnOp:
					if _, ok := instr.X.(*ssa.Global); ok && instr.Op == token.MUL {
						continue
					}
				}
				ops = instr.Operands(ops[:0])
				if c, ok := instr.(ssa.CallInstruction); ok && !c.Common().IsInvoke() && len(ops) > 0 {
					ops = ops[1:] // the callee of a static or dynamic call is not leaked by calling it
				}
				for _, v := range ops {
					if v != nil {
						o.noteLeak(*v)
					}
				}
			}
		}
	}
	return o
}

func (o *openness) noteLeak(v ssa.Value) {
	switch v := v.(type) {
	case *ssa.Global:
		o.leaked[v] = true
	case *ssa.Function:
		// A method value or expression leaks the method its wrapper calls.
		for i := 0; v != nil && i < 4; i++ {
			o.leaked[v] = true
			if !isWrapper(v) {
				break
			}
			v = wrapped(v)
		}
	}
}

// fieldOf returns the origin of field i of the struct that t points to.
func fieldOf(t types.Type, i int) *types.Var {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	return structField(ptr.Elem(), i)
}

func structField(t types.Type, i int) *types.Var {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i).Origin()
}

// importable reports whether code outside the program can import pkg: it
// is not a main package and its path has no "internal" element.
func importable(pkg *types.Package) bool {
	if pkg == nil || pkg.Name() == "main" {
		return false
	}
	for _, elem := range strings.Split(pkg.Path(), "/") {
		if elem == "internal" {
			return false
		}
	}
	return true
}

// closed reports whether every value v can hold is made by code of the
// program, whoever imports v's package.
func (o *openness) closed(v ssa.Value) bool {
	if c, ok := o.memo[v]; ok {
		return c
	}
	if o.busy[v] {
		return false
	}
	o.busy[v] = true
	c := o.decide(v)
	delete(o.busy, v)
	o.memo[v] = c
	return c
}

func (o *openness) decide(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.MakeInterface, *ssa.Const:
		return true // the dynamic type is the static type of the converted value, or nil
	case *ssa.ChangeInterface:
		return o.closed(v.X)
	case *ssa.TypeAssert:
		return o.closed(v.X)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !o.closed(e) {
				return false
			}
		}
		return true
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			return o.results(call, v.Index)
		}
	case *ssa.Call:
		return o.results(v, 0)
	case *ssa.Parameter:
		return o.param(v)
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		switch x := v.X.(type) {
		case *ssa.FieldAddr:
			return o.field(fieldOf(x.X.Type(), x.Field))
		case *ssa.Global:
			return o.global(x)
		}
	case *ssa.Field:
		return o.field(structField(v.X.Type(), v.Field))
	}
	return false
}

// results reports whether result i of a static call is closed.
func (o *openness) results(call *ssa.Call, i int) bool {
	callee := call.Common().StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 {
		return false
	}
	for _, b := range callee.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if i >= len(ret.Results) || !o.closed(ret.Results[i]) {
				return false
			}
		}
	}
	return true
}

// param reports whether a parameter is closed: its function cannot be
// called from outside the program (it is not exported from an importable
// package, and it is not used as a value), and every call in the program
// passes a closed argument.
func (o *openness) param(prm *ssa.Parameter) bool {
	fn := prm.Parent()
	if fn.Parent() != nil || isWrapper(fn) || o.leaked[fn] || o.leaked[fn.Origin()] {
		return false
	}
	obj := fn.Object()
	if obj == nil || (obj.Exported() && importable(obj.Pkg())) {
		return false
	}
	if recv := fn.Signature.Recv(); recv != nil && obj.Exported() {
		// Code outside the program can call an exported method of a
		// value it holds as an interface.
		t := derefType(recv.Type())
		for c := range o.p.converted {
			if types.Identical(derefType(c), t) {
				return false
			}
		}
	}
	idx := -1
	for i, x := range fn.Params {
		if x == prm {
			idx = i
		}
	}
	node := o.p.cg.Nodes[fn]
	if idx < 0 || node == nil {
		return false
	}
	for _, e := range node.In {
		common := e.Site.Common()
		var arg ssa.Value
		switch {
		case !common.IsInvoke():
			if idx < len(common.Args) {
				arg = common.Args[idx]
			}
		case idx > 0:
			arg = common.Args[idx-1]
		default:
			continue // the receiver of an invoked method has a concrete type
		}
		if arg == nil || !o.closed(arg) {
			return false
		}
	}
	return true
}

// field reports whether every value stored in f is closed. A field others
// can set (exported, of an importable package) is open, and so is one
// whose address is used other than to load or store it.
func (o *openness) field(f *types.Var) bool {
	if f == nil || (f.Exported() && importable(f.Pkg())) {
		return false
	}
	if c, ok := o.memo[f]; ok {
		return c
	}
	if o.busy[f] {
		return false
	}
	o.busy[f] = true
	defer delete(o.busy, f)
	c := true
	for _, fa := range o.fieldAddrs[f] {
		for _, r := range *fa.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				c = c && r.Addr == fa && o.closed(r.Val)
			case *ssa.UnOp:
				c = c && r.Op == token.MUL
			case *ssa.DebugRef:
			default:
				c = false
			}
		}
	}
	o.memo[f] = c
	return c
}

// global reports whether every value stored in g is closed, like field.
func (o *openness) global(g *ssa.Global) bool {
	obj := g.Object()
	if obj == nil || (obj.Exported() && importable(obj.Pkg())) || o.leaked[g] {
		return false
	}
	for _, v := range o.stores[g] {
		if !o.closed(v) {
			return false
		}
	}
	return true
}
