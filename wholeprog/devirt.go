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
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/optlog"
	"github.com/goadvise/goadvise/report"
)

// devirt reports hot interface method calls whose receiver can only be
// one concrete type.
func (p *program) devirt(funcs []*ssa.Function) []report.Finding {
	var out []report.Finding
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
				if tier < hotpath.PerItem {
					continue // a dynamic call costs a few nanoseconds: only where it runs often
				}
				p.stats.HotSingleType++
				iface, _ := site.Common().Value.Type().Underlying().(*types.Interface)
				if iface == nil || !p.onlyImplementation(iface, conc) {
					continue
				}
				p.stats.Candidates++
				if !p.closedSite(fn, site, iface) {
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
// package of the program, which is the closed world whole-program advice
// is for; with Options.OpenWorld, fn must also be in a main package (only
// this program runs it) or the receiver closed whoever imports the
// package. In every case, unless the interface is sealed, the receiver
// must not come from code without a body, which the call graph does not
// see.
func (p *program) closedSite(fn *ssa.Function, site ssa.CallInstruction, iface *types.Interface) bool {
	v := site.Common().Value
	if !p.opts.AssumeClosed && (fn.Pkg == nil || !p.fromMain[fn.Pkg.Pkg]) {
		return false
	}
	if !p.sealed(iface) && !p.visible(v) {
		return false
	}
	if p.opts.AssumeClosed || !p.opts.OpenWorld || fn.Pkg.Pkg.Name() == "main" {
		return true
	}
	if p.open == nil {
		p.open = newOpenness(p, p.all, false)
	}
	return p.open.closed(v)
}

// onlyImplementation reports whether conc is the one type implementing
// iface whose values can exist: no other implementation is converted to
// an interface in code with a body or handed to code without one as a
// type argument, and no type declared in a package without bodies
// implements iface.
func (p *program) onlyImplementation(iface *types.Interface, conc types.Type) bool {
	return !p.otherConverted(iface, conc) && !p.depImplements(iface)
}

// sealed reports whether only types declared in packages with bodies (and
// instances of generic types) can implement iface: one of its methods is
// unexported from such a package, or names in its signature a type
// declared in one, which a package without bodies cannot refer to (it
// does not import packages with bodies). The values of a sealed interface
// that code without a body returns or passes were then made by code with
// a body (otherConverted sees those conversions) or by reflection.
func (p *program) sealed(iface *types.Interface) bool {
	if c, ok := p.sealedMemo[iface]; ok {
		return c
	}
	seen := make(map[types.Type]bool)
	var names func(t types.Type) bool // t names a type of a package with bodies
	names = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			if obj := t.Obj(); obj.Pkg() != nil && p.bodies[obj.Pkg()] {
				return true
			}
			targs := t.TypeArgs()
			for i := 0; i < targs.Len(); i++ {
				if names(targs.At(i)) {
					return true
				}
			}
		case *types.Pointer:
			return names(t.Elem())
		case *types.Slice:
			return names(t.Elem())
		case *types.Array:
			return names(t.Elem())
		case *types.Chan:
			return names(t.Elem())
		case *types.Map:
			return names(t.Key()) || names(t.Elem())
		case *types.Signature:
			return names(t.Params()) || names(t.Results())
		case *types.Tuple:
			for i := 0; i < t.Len(); i++ {
				if names(t.At(i).Type()) {
					return true
				}
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if names(t.Field(i).Type()) {
					return true
				}
			}
		case *types.Interface:
			for i := 0; i < t.NumMethods(); i++ {
				if names(t.Method(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	c := false
	for i := 0; i < iface.NumMethods() && !c; i++ {
		m := iface.Method(i)
		c = (!m.Exported() && m.Pkg() != nil && p.bodies[m.Pkg()]) || names(m.Type())
	}
	if p.sealedMemo == nil {
		p.sealedMemo = make(map[*types.Interface]bool)
	}
	p.sealedMemo[iface] = c
	return c
}

// visible reports whether every value v can hold is made by code with a
// body, which the call graph sees: not returned by a function without a
// body (a dependency's function or method, or a call through an
// interface or function value, which may be one), nor read from a
// dependency's variable or struct field, nor passed by a dependency to a
// callback, nor taken from a map, slice or channel.
func (p *program) visible(v ssa.Value) bool {
	if p.allBodies {
		return true
	}
	if p.seen == nil {
		p.seen = newOpenness(p, p.all, true)
	}
	return p.seen.closed(v)
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
func (p *program) otherConverted(iface *types.Interface, conc types.Type) bool {
	if p.impls == nil {
		p.impls = make(map[*types.Interface][]types.Type)
	}
	memo := p.impls
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

// depImplements reports whether a type declared in a package without
// bodies (read from export data) implements iface, or might: the
// conversions of its values to interfaces are in code that is not loaded,
// so otherConverted cannot rule them out. A generic type counts if it has
// methods of the interface's names.
func (p *program) depImplements(iface *types.Interface) bool {
	if c, ok := p.depImpl[iface]; ok {
		return c
	}
	if p.depTypes == nil {
		p.depTypes = p.declaredWithoutBodies()
	}
	c := false
	for _, t := range p.depTypes {
		if mayImplement(t, iface) {
			c = true
			break
		}
	}
	if p.depImpl == nil {
		p.depImpl = make(map[*types.Interface]bool)
	}
	p.depImpl[iface] = c
	return c
}

// declaredWithoutBodies returns the types declared at package level in the
// packages without bodies that the program's packages import, directly or
// not, as far as export data describes them.
func (p *program) declaredWithoutBodies() []types.Type {
	out := []types.Type{}
	seen := make(map[*types.Package]bool)
	var visit func(pkg *types.Package)
	visit = func(pkg *types.Package) {
		if seen[pkg] {
			return
		}
		seen[pkg] = true
		if !p.bodies[pkg] {
			scope := pkg.Scope()
			for _, name := range scope.Names() {
				if tn, ok := scope.Lookup(name).(*types.TypeName); ok {
					if _, isIface := tn.Type().Underlying().(*types.Interface); !isIface {
						out = append(out, tn.Type())
					}
				}
			}
		}
		for _, imp := range pkg.Imports() {
			visit(imp)
		}
	}
	for pkg := range p.bodies {
		visit(pkg)
	}
	return out
}

// mayImplement reports whether t or *t implements iface; for a generic
// type, whether *t has methods of all of iface's names.
func mayImplement(t types.Type, iface *types.Interface) bool {
	if named, ok := types.Unalias(t).(*types.Named); ok && named.TypeParams().Len() > 0 {
		for i := 0; i < iface.NumMethods(); i++ {
			m := iface.Method(i)
			obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), false, m.Pkg(), m.Name())
			if _, ok := obj.(*types.Func); !ok {
				return false
			}
		}
		return true
	}
	if types.Implements(t, iface) {
		return true
	}
	_, isPtr := t.Underlying().(*types.Pointer)
	return !isPtr && types.Implements(types.NewPointer(t), iface)
}

// convertedTypes returns the types converted to an interface in code with
// a body, and the types handed as type arguments to generic functions or
// types declared without bodies, whose code may convert them unseen.
func (p *program) convertedTypes() map[types.Type]bool {
	conv := make(map[types.Type]bool)
	walked := make(map[types.Type]bool)
	var arg func(t types.Type)
	// walk finds instances of generic types declared without bodies.
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || walked[t] {
			return
		}
		walked[t] = true
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			if targs := t.TypeArgs(); targs.Len() > 0 {
				if !p.bodies[t.Origin().Obj().Pkg()] {
					for i := 0; i < targs.Len(); i++ {
						arg(targs.At(i))
					}
				}
				for i := 0; i < targs.Len(); i++ {
					walk(targs.At(i))
				}
			}
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Signature:
			walk(t.Params())
			walk(t.Results())
		case *types.Tuple:
			for i := 0; i < t.Len(); i++ {
				walk(t.At(i).Type())
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				walk(t.Field(i).Type())
			}
		}
	}
	// arg notes a type argument, and the types it is made of that the
	// generic code could reach without reflection.
	arg = func(t types.Type) {
		if conv[t] {
			return
		}
		conv[t] = true
		switch u := types.Unalias(t).(type) {
		case *types.Named:
			targs := u.TypeArgs()
			for i := 0; i < targs.Len(); i++ {
				arg(targs.At(i))
			}
		case *types.Pointer:
			arg(u.Elem())
		case *types.Slice:
			arg(u.Elem())
		case *types.Array:
			arg(u.Elem())
		case *types.Chan:
			arg(u.Elem())
		case *types.Map:
			arg(u.Key())
			arg(u.Elem())
		case *types.Signature:
			for _, tup := range []*types.Tuple{u.Params(), u.Results()} {
				for i := 0; i < tup.Len(); i++ {
					arg(tup.At(i).Type())
				}
			}
		}
		walk(t)
	}
	var ops []*ssa.Value
	for fn := range p.all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					conv[mi.X.Type()] = true
				}
				if c, ok := instr.(ssa.CallInstruction); ok {
					if callee := c.Common().StaticCallee(); callee != nil && len(callee.Blocks) == 0 {
						for _, t := range callee.TypeArgs() {
							arg(t)
						}
					}
				}
				if v, ok := instr.(ssa.Value); ok {
					walk(v.Type())
				}
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if op != nil && *op != nil {
						walk((*op).Type())
					}
				}
			}
		}
	}
	return conv
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
				if recs, ok := p.recordsOf(m.Pkg.Pkg.Path()); ok {
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
		recs, _ := p.recordsOf(fn.Pkg.Pkg.Path())
		escapes = interfaceEscapes(recs, ps.Filename, ps.Line, method)
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
	text := fmt.Sprintf("%s.%s is an interface call whose receiver is always %s in the whole program (by the call graph): call it on a %s (a field or variable of that type, or a type switch with a fast path for it), so %s",
		iname, method, cname, cname, gain)
	return p.finding(fn, pos, kind.Fields{Kind: SingleImplementation, Tier: tier.String(), TierReason: why, Text: text, Callee: iname + "." + method}), true
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
//
// In bodies mode (see [program.visible]) the question is instead whether
// every value is made by code with a body, which the call graph sees:
// there "outside" means the packages read from export data, whose code
// is not loaded, rather than other programs.
type openness struct {
	p          *program
	bodies     bool         // bodies mode
	memo       map[any]bool // closed, by value, field or global
	busy       map[any]bool // being decided: counted open, so cycles end
	fieldAddrs map[*types.Var][]*ssa.FieldAddr
	stores     map[*ssa.Global][]ssa.Value
	leaked     map[ssa.Value]bool // globals and functions used other than loaded, stored to or called
	closures   map[*ssa.Function][]*ssa.MakeClosure
}

func newOpenness(p *program, all map[*ssa.Function]bool, bodies bool) *openness {
	o := &openness{
		p:          p,
		bodies:     bodies,
		memo:       make(map[any]bool),
		busy:       make(map[any]bool),
		fieldAddrs: make(map[*types.Var][]*ssa.FieldAddr),
		stores:     make(map[*ssa.Global][]ssa.Value),
		leaked:     make(map[ssa.Value]bool),
		closures:   make(map[*ssa.Function][]*ssa.MakeClosure),
	}
	var ops []*ssa.Value
	for fn := range all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.MakeClosure:
					if fn, ok := instr.Fn.(*ssa.Function); ok {
						o.closures[fn] = append(o.closures[fn], instr)
					}
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
	case *ssa.Function, *ssa.MakeClosure:
		return true // a function value names its function
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
		case *ssa.Alloc:
			// A local variable that a closure captures (in bodies
			// mode; for other programs, a captured value counts as
			// open).
			return o.bodies && o.cell(x)
		case *ssa.FreeVar:
			return o.bodies && o.captured(x)
		}
	case *ssa.Field:
		return o.field(structField(v.X.Type(), v.Field))
	}
	return false
}

// captured reports whether every value stored in the variable that fv,
// a free variable of a closure, captures is closed.
func (o *openness) captured(fv *ssa.FreeVar) bool {
	fn := fv.Parent()
	idx := -1
	for i, x := range fn.FreeVars {
		if x == fv {
			idx = i
		}
	}
	makers := o.closures[fn]
	if idx < 0 || len(makers) == 0 {
		return false
	}
	for _, mc := range makers {
		if idx >= len(mc.Bindings) {
			return false
		}
		switch b := mc.Bindings[idx].(type) {
		case *ssa.Alloc:
			if !o.cell(b) {
				return false
			}
		case *ssa.FreeVar: // captured again by a nested closure
			if !o.captured(b) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// cell reports whether every value stored in the local variable a,
// directly or through the free variables of the closures that capture
// it, is closed, and its address is used for nothing else.
func (o *openness) cell(a *ssa.Alloc) bool {
	if c, ok := o.memo[a]; ok {
		return c
	}
	if o.busy[a] {
		return false
	}
	o.busy[a] = true
	c := o.cellUses(a)
	delete(o.busy, a)
	o.memo[a] = c
	return c
}

func (o *openness) cellUses(addr ssa.Value) bool {
	for _, r := range *addr.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != addr || !o.closed(r.Val) {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			fn, ok := r.Fn.(*ssa.Function)
			if !ok {
				return false
			}
			for i, b := range r.Bindings {
				if b == addr && (i >= len(fn.FreeVars) || !o.cellUses(fn.FreeVars[i])) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
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
	if obj == nil || (!o.bodies && obj.Exported() && importable(obj.Pkg())) {
		return false
	}
	if recv := fn.Signature.Recv(); recv != nil && (obj.Exported() || o.bodies) {
		// Code outside the program (or without a body) can call an
		// exported method of a value it holds as an interface, or of
		// a type argument. In bodies mode any method of such a type
		// counts: an interface call whose receiver comes from code
		// without a body has no edge in the call graph.
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
	if f == nil || o.outside(f) {
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

// outside reports whether code that the analysis does not see can set
// a field or variable: other programs, if it is exported from an
// importable package; in bodies mode, code without a body, if it is
// declared in a package read from export data.
func (o *openness) outside(obj types.Object) bool {
	if o.bodies {
		return !o.p.bodies[obj.Pkg()]
	}
	return obj.Exported() && importable(obj.Pkg())
}

// global reports whether every value stored in g is closed, like field.
func (o *openness) global(g *ssa.Global) bool {
	obj := g.Object()
	if obj == nil || o.outside(obj) || o.leaked[g] {
		return false
	}
	for _, v := range o.stores[g] {
		if !o.closed(v) {
			return false
		}
	}
	return true
}
