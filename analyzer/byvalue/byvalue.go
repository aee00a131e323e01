package byvalue

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/goadvise/goadvise/analyzer/escape"
	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/bycopy"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/optlog"
)

//go:embed doc.go
var doc string

// Analyzer reports small structs returned by pointer whose callers only
// read them, and proposes returning them by value.
var Analyzer = &analysis.Analyzer{
	Name:     "byvalue",
	Doc:      docs.Section(doc, "byvalue"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/byvalue",
	Run:      run,
	Requires: []*analysis.Analyzer{inspect.Analyzer, hotpath.Analyzer, escape.Analyzer, kind.Analyzer},
}

// checker holds the state of one pass.
type checker struct {
	pass      *analysis.Pass
	esc       *optlog.Result
	hot       *hotpath.Result
	root      inspector.Cursor
	find      *syntax.Finder
	uses      map[types.Object][]*ast.Ident // uses of the package's objects, in source order
	iface     map[string]bool               // method names of the package's interfaces
	other     []*ast.File                   // files of the package outside the pass, parsed on demand
	otherName map[*ast.File]string          // their names
	read      bool                          // other has been read

	// While fixable checks one function: the functions the change
	// passes the value up through (see passUp), whether a caller
	// calls a pointer method on a local holding the value, which the
	// compiler must confirm keeps nothing, whether a caller stores the
	// pointer (see passedOn; after the call sites, whether every one
	// does), and whether what stands in the way is an exported function
	// that the value would pass up through.
	chain    []*ast.FuncDecl
	ptrCalls bool
	stored   bool
	api      bool
}

// maxChain bounds the functions a value is passed up through.
const maxChain = 3

func run(pass *analysis.Pass) (any, error) {
	esc := pass.ResultOf[escape.Analyzer].(*optlog.Result)
	if !esc.Available() {
		// Without the compiler's decisions there is no escape to remove
		// that the analyzer could name.
		return nil, nil
	}
	c := &checker{
		pass:  pass,
		esc:   esc,
		hot:   pass.ResultOf[hotpath.Analyzer].(*hotpath.Result),
		root:  pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root(),
		find:  syntax.NewFinder(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)),
		uses:  make(map[types.Object][]*ast.Ident),
		iface: make(map[string]bool),
	}
	for id, obj := range pass.TypesInfo.Uses {
		if obj.Pkg() == pass.Pkg {
			c.uses[obj] = append(c.uses[obj], id)
		}
	}
	// In source order, so that the use a message names (the first that
	// rules out the change) is the same on every run.
	for _, ids := range c.uses {
		slices.SortFunc(ids, func(a, b *ast.Ident) int { return int(a.Pos() - b.Pos()) })
	}
	for _, tv := range pass.TypesInfo.Types {
		c.addInterface(tv.Type)
	}
	for _, obj := range pass.TypesInfo.Defs {
		if tn, ok := obj.(*types.TypeName); ok {
			c.addInterface(tn.Type())
		}
	}
	for _, f := range pass.Files {
		if hotpath.Skip(pass, f) || strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				c.funcDecl(fd)
			}
		}
	}
	return nil, nil
}

func (c *checker) addInterface(t types.Type) {
	if t == nil {
		return
	}
	if it, ok := t.Underlying().(*types.Interface); ok {
		for i := 0; i < it.NumMethods(); i++ {
			c.iface[it.Method(i).Name()] = true
		}
	}
}

// A ret is one return of the function: &v or &T{...}.
type ret struct {
	amp   *ast.UnaryExpr
	local *types.Var // v, or nil for &T{...}
}

// funcDecl reports fd if it returns a small struct by pointer that the
// compiler allocates on the heap.
func (c *checker) funcDecl(fd *ast.FuncDecl) {
	info := c.pass.TypesInfo
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	sig := fn.Signature()
	if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 || sig.Results().Len() != 1 {
		return
	}
	ptr, ok := sig.Results().At(0).Type().(*types.Pointer)
	if !ok {
		return
	}
	elem := ptr.Elem()
	size, ok := bycopy.Small(elem, c.pass.TypesSizes)
	if !ok {
		return
	}
	rets, ok := c.returns(fd)
	if !ok {
		return
	}
	// The compiler's escape: the first return whose struct is on the heap.
	var rec *optlog.Record
	var at ast.Node
	for _, r := range rets {
		var n ast.Node = r.amp
		if r.local != nil {
			n = c.declIdent(fd, r.local)
		}
		if rec = c.heap(n.Pos(), c.inlinable(fd)); rec != nil {
			at = n
			break
		}
	}
	if rec == nil {
		return // the struct stays on the stack (for example, f is always inlined)
	}
	hot := c.hot.At(at.Pos())
	if hot.Tier == hotpath.Cold {
		return
	}
	tname := types.TypeString(elem, func(p *types.Package) string {
		if p == c.pass.Pkg {
			return ""
		}
		return p.Name()
	})
	head := fmt.Sprintf("%s returns %s %d-byte %s by pointer, so it is allocated on the heap on every call (the compiler: %s)",
		funcname.InPackage(fn), article(size), size, tname, rec.Message)
	diag := analysis.Diagnostic{Pos: at.Pos(), End: at.End()}
	edits, why := c.fixable(fd, fn, rets)
	if c.stored {
		// Every caller keeps the pointer: each needs the struct on the
		// heap whatever the function returns, and a value result would
		// move the allocation there. The allocation is heapescape's to
		// report.
		return
	}
	f := kind.Fields{Kind: ReturnByValue, Tier: hot.Tier.String(), TierReason: hot.Reason, Cause: rec.Cause.String(), Sink: "return", Size: size}
	if why != "" {
		// Considered and not offered as a fix: the reason says what
		// stands in the way.
		f.Blocked, f.API = why, fn.Exported() || c.api
		f.Advice = fmt.Sprintf("returning %s by value would avoid it, but %s", tname, why)
		f.Text = head + "; " + f.Advice
		kind.Report(c.pass, diag, f)
		return
	}
	f.Advice = fmt.Sprintf("its callers only read it: return %s by value, which removes 1 allocation per call", tname)
	if c.ptrCalls {
		f.Advice = fmt.Sprintf("its callers only read it or call methods on a variable of their own holding it, which the compiler keeps on the stack: return %s by value, which removes 1 allocation per call", tname)
	}
	f.Text = head + "; " + f.Advice
	diag.SuggestedFixes = []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Return %s by value", tname),
		TextEdits: edits,
	}}
	kind.Report(c.pass, diag, f)
}

// returns returns fd's returns if each is &v of a local v or &T{...}.
func (c *checker) returns(fd *ast.FuncDecl) ([]ret, bool) {
	var rets []ret
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				ok = false // a bare return of a named result
				return false
			}
			u, isAmp := ast.Unparen(n.Results[0]).(*ast.UnaryExpr)
			if !isAmp || u.Op != token.AND {
				ok = false
				return false
			}
			switch x := ast.Unparen(u.X).(type) {
			case *ast.CompositeLit:
				rets = append(rets, ret{amp: u})
			case *ast.Ident:
				v, isVar := c.pass.TypesInfo.Uses[x].(*types.Var)
				if !isVar || v.Pos() < fd.Pos() || v.Pos() >= fd.End() {
					ok = false
					return false
				}
				rets = append(rets, ret{amp: u, local: v})
			default:
				ok = false
			}
		}
		return ok
	})
	return rets, ok && len(rets) > 0
}

// declIdent returns the identifier that declares v in fd.
func (c *checker) declIdent(fd *ast.FuncDecl, v *types.Var) ast.Node {
	var found ast.Node
	ast.Inspect(fd, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.pass.TypesInfo.Defs[id] == v {
			found = id
		}
		return found == nil
	})
	if found == nil {
		return fd.Name
	}
	return found
}

// inlinable reports whether the compiler can inline fd.
func (c *checker) inlinable(fd *ast.FuncDecl) bool {
	return c.esc.CanInlineIn(fd.Pos(), fd.Body.Lbrace)
}

// heap returns the compiler's heap record of the allocation at pos, in the
// function's own body or where it is inlined; nil if there is none. For a
// function that is inlined (its callers are all in the package) only the
// inlined copies count: its own body's record describes calls that do not
// happen.
//
// Only a record whose flow ends at the return counts: when the compiler's
// flow shows another way out (a closure or a go statement that captures
// the variable, a caller that stores the pointer it got from an inlined
// call), a value result would not keep the struct off the heap.
func (c *checker) heap(pos token.Pos, inlined bool) *optlog.Record {
	if rec := c.esc.Heap(pos); rec != nil && !inlined {
		if returned(rec) {
			return rec
		}
		return nil
	}
	for _, r := range c.esc.InlinedAt(c.pass.Fset.Position(pos)) {
		if r.Kind.IsHeap() && returned(r) {
			return r
		}
	}
	return nil
}

// returned reports whether the escape flow of rec ends at a return, or
// names no sink.
func returned(rec *optlog.Record) bool {
	return rec.Sink == optlog.SinkReturn || rec.Sink == optlog.SinkUnknown
}

func sameFile(a, b string) bool {
	return a == b || filepath.Clean(a) == filepath.Clean(b)
}

// fixable returns the edits that make fd return its struct by value, or
// why that is not offered.
func (c *checker) fixable(fd *ast.FuncDecl, fn *types.Func, rets []ret) ([]analysis.TextEdit, string) {
	if fn.Exported() {
		return nil, "that needs an API change: exported result type"
	}
	if fd.Recv != nil && c.iface[fn.Name()] {
		return nil, fmt.Sprintf("an interface of the package has a method %s, which the change could break", fn.Name())
	}
	star := fd.Type.Results.List[0].Type.(*ast.StarExpr)
	if len(fd.Type.Results.List[0].Names) > 0 {
		return nil, "its result is named"
	}
	edits := []analysis.TextEdit{syntax.Delete(star.Pos(), star.X.Pos())}
	amps := make(map[*ast.UnaryExpr]bool)
	for _, r := range rets {
		amps[r.amp] = true
		edits = append(edits, syntax.Delete(r.amp.Pos(), r.amp.X.Pos()))
	}
	// A local whose address is also taken, or whose pointer methods are
	// called, may still escape once returned by value, or may not (the
	// callee keeps nothing): the compiler decides, on the edited code.
	var ask []*types.Var
	var asked string
	for _, r := range rets {
		if r.local == nil {
			continue
		}
		if why, compiler := c.localOnlyReturned(r.local, amps); why != "" {
			if !compiler {
				return nil, why
			}
			ask, asked = append(ask, r.local), why
		}
	}
	c.chain, c.ptrCalls, c.stored, c.api = nil, false, false, false
	e, why := c.sites(c.uses[fn], 0)
	if why != "" {
		return nil, why
	}
	edits = append(edits, e...)
	// Files of the package the pass did not type-check (its tests,
	// without -tests) that use a function the change edits cannot be
	// judged or rewritten here; the allocation is real all the same.
	const elsewhere = "files of the package that were not analysed (tests) call it; they change with it (goadvise check -tests judges them)"
	if c.otherCallers(fn) {
		return nil, elsewhere
	}
	for _, g := range c.chain {
		if obj, ok := c.pass.TypesInfo.Defs[g.Name].(*types.Func); ok && c.otherCallers(obj) {
			return nil, elsewhere
		}
	}
	if len(ask) > 0 || c.ptrCalls {
		if why := c.stillEscapes(fd, fn, edits, ask); why != "" {
			if asked == "" {
				asked = "a caller calls a pointer method on it"
			}
			return nil, asked + "; " + why
		}
	}
	return edits, ""
}

// stillEscapes compiles the package with edits applied and returns why
// the change is not offered if the compiler still moves a local of vars
// (declared in fd) to the heap, if the functions the change edits (fd,
// those it passes the value up through, their callers) do not allocate
// less on the heap than before, or if the compile fails; "" otherwise.
// The edits delete text within lines, so every line keeps its number.
func (c *checker) stillEscapes(fd *ast.FuncDecl, fn *types.Func, edits []analysis.TextEdit, vars []*types.Var) string {
	byFile := make(map[string][]analysis.TextEdit)
	for _, e := range edits {
		name := c.pass.Fset.File(e.Pos).Name()
		byFile[name] = append(byFile[name], e)
	}
	replace := make(map[string][]byte)
	for name, es := range byFile {
		src, err := c.pass.ReadFile(name)
		if err != nil {
			return "its source could not be read to compile the change"
		}
		tf := c.pass.Fset.File(es[0].Pos)
		slices.SortFunc(es, func(a, b analysis.TextEdit) int { return cmp.Compare(a.Pos, b.Pos) })
		var b []byte
		at := 0
		for _, e := range es {
			start, end := tf.Offset(e.Pos), tf.Offset(e.End)
			b = append(b, src[at:start]...)
			b = append(b, e.NewText...)
			at = end
		}
		replace[name] = append(b, src[at:]...)
	}
	// The functions whose decisions the change may alter: fd, and every
	// function declaration holding an edit.
	type span struct {
		file        string
		first, last int
	}
	var spans []span
	keep := []*types.Func{fn}
	addFunc := func(d *ast.FuncDecl) {
		p, q := c.pass.Fset.Position(d.Pos()), c.pass.Fset.Position(d.End())
		for _, sp := range spans {
			if sp.file == p.Filename && sp.first == p.Line {
				return
			}
		}
		spans = append(spans, span{p.Filename, p.Line, q.Line})
		if obj, ok := c.pass.TypesInfo.Defs[d.Name].(*types.Func); ok && obj != fn {
			keep = append(keep, obj)
		}
	}
	addFunc(fd)
	for _, e := range edits {
		cur, ok := c.root.FindByPos(e.Pos, e.Pos)
		if !ok {
			continue
		}
		for up := range cur.Enclosing((*ast.FuncDecl)(nil)) {
			addFunc(up.Node().(*ast.FuncDecl))
			break
		}
	}
	in := func(pos optlog.Position) bool {
		for _, sp := range spans {
			if sameFile(pos.File, sp.file) && pos.Line >= sp.first && pos.Line <= sp.last {
				return true
			}
		}
		return false
	}
	recs, err := optlog.CompileEdited(context.Background(), c.pass, replace, keep)
	if err != nil {
		return "the change did not compile: " + err.Error()
	}
	file := c.pass.Fset.Position(fd.Pos()).Filename
	first, last := c.pass.Fset.Position(fd.Pos()).Line, c.pass.Fset.Position(fd.End()).Line
	after := 0
	for _, r := range recs {
		if !r.Kind.IsHeap() || len(r.InlinedFrom) > 0 || !in(r.Pos) {
			continue
		}
		after++
		for _, v := range vars {
			if r.Kind == optlog.MovedToHeap && r.Name == v.Name() && sameFile(r.Pos.File, file) && r.Pos.Line >= first && r.Pos.Line <= last {
				return "compiled with the change, the compiler still moves " + v.Name() + " to the heap"
			}
		}
	}
	before := 0
	for _, r := range c.esc.Records() {
		if r.Kind.IsHeap() && len(r.InlinedFrom) == 0 && in(r.Pos) {
			before++
		}
	}
	if after >= before {
		return fmt.Sprintf("compiled with the change, the functions it edits still make %d heap allocations (%d before)", after, before)
	}
	return ""
}

// localOnlyReturned checks that the address of the local v is taken only
// by the returns and that no closure or pointer method sees it. When its
// address is also taken, or a pointer method called, compiler is true:
// whether v stays on the stack once returned by value is the compiler's
// to say, on the edited code (see stillEscapes).
func (c *checker) localOnlyReturned(v *types.Var, amps map[*ast.UnaryExpr]bool) (why string, compiler bool) {
	for _, id := range c.uses[v] {
		path := syntax.Path(c.find, id)
		if syntax.InClosure(path, v) {
			return fmt.Sprintf("a closure captures %s at %s", v.Name(), c.where(id)), false
		}
	}
	for _, id := range c.uses[v] {
		path := syntax.Path(c.find, id)
		k := c.climb(path, 0)
		switch p := syntax.Parent(path, k).(type) {
		case *ast.UnaryExpr:
			if p.Op == token.AND && !amps[p] {
				return fmt.Sprintf("the address of %s is also taken at %s", v.Name(), c.where(id)), true
			}
		case *ast.SelectorExpr:
			if syntax.PtrMethod(c.pass.TypesInfo, p) {
				return fmt.Sprintf("pointer method %s is called on %s at %s", p.Sel.Name, v.Name(), c.where(id)), true
			}
		}
	}
	return "", false
}

// callSite checks one use of the function and returns the edits that
// adapt it to a value result, or why it cannot be adapted.
func (c *checker) callSite(id *ast.Ident, res int) ([]analysis.TextEdit, string) {
	path := syntax.Path(c.find, id)
	i := 0
	if sel, ok := syntax.Parent(path, 0).(*ast.SelectorExpr); ok && sel.Sel == id {
		i = 1
	}
	call, ok := syntax.Parent(path, i).(*ast.CallExpr)
	if !ok || call.Fun != path[i] {
		return nil, fmt.Sprintf("it is used as a function value at %s", c.where(id))
	}
	k := syntax.ClimbParens(path, i+1)
	switch p := syntax.Parent(path, k).(type) {
	case *ast.ExprStmt:
		return nil, ""
	case *ast.AssignStmt:
		if p.Tok == token.DEFINE && len(p.Rhs) == 1 && res < len(p.Lhs) && (len(p.Lhs) == 1 || res > 0 || len(p.Lhs) > 1) {
			if lid, ok := p.Lhs[res].(*ast.Ident); ok {
				if lid.Name == "_" {
					return nil, ""
				}
				if v, ok := c.pass.TypesInfo.Defs[lid].(*types.Var); ok {
					return c.localUses(v)
				}
			}
		}
		if p.Tok == token.ASSIGN && len(p.Lhs) == len(p.Rhs) {
			for j, r := range p.Rhs {
				if r == path[k] {
					if lid, ok := p.Lhs[j].(*ast.Ident); ok && lid.Name == "_" {
						return nil, ""
					}
				}
			}
		}
	case *ast.ValueSpec:
		if p.Type == nil && len(p.Names) == 1 && len(p.Values) == 1 {
			if v, ok := c.pass.TypesInfo.Defs[p.Names[0]].(*types.Var); ok {
				return c.localUses(v)
			}
		}
	case *ast.StarExpr:
		if why := c.readOnly(path, k+1, id); why != "" {
			return nil, why
		}
		return syntax.DerefEdits(path, k+1), ""
	case *ast.SelectorExpr:
		if why := c.selection(path, k+1, p, id); why != "" {
			return nil, why
		}
		return nil, ""
	case *ast.ReturnStmt:
		for i, r := range p.Results {
			if r == path[k] {
				return c.passUp(path, p, i, id)
			}
		}
	}
	return nil, c.passedOn(path, k, id)
}

// passUp checks a return of the value (at index i of ret's results, ret
// at path's end) by the function enclosing it, which then passes the
// pointer on to its own callers: the change goes up through it when it is
// an unexported function or method of the package (not one an interface
// of the package names), declared with an unnamed result of the same
// pointer type, whose callers only read the value in turn (its result
// becomes a value too), up to maxChain functions.
func (c *checker) passUp(path []ast.Node, ret *ast.ReturnStmt, i int, id *ast.Ident) ([]analysis.TextEdit, string) {
	var g *ast.FuncDecl
	for _, n := range path {
		if _, ok := n.(*ast.FuncLit); ok {
			break
		}
		if d, ok := n.(*ast.FuncDecl); ok {
			g = d
			break
		}
	}
	keeps := fmt.Sprintf("a caller returns the pointer at %s", c.where(id))
	if g == nil || g.Type.Results == nil || len(c.chain) >= maxChain || slices.Contains(c.chain, g) {
		return nil, keeps
	}
	obj, ok := c.pass.TypesInfo.Defs[g.Name].(*types.Func)
	if ok && i < obj.Signature().Results().Len() && types.IsInterface(obj.Signature().Results().At(i).Type()) && !isTypeParam(obj.Signature().Results().At(i).Type()) {
		// Returned as an interface: a value would be boxed, and
		// allocated, there.
		c.stored = true
		return nil, fmt.Sprintf("a caller returns it as an interface at %s", c.where(id))
	}
	if ok && obj.Exported() {
		// Its callers are not all known: they get the pointer.
		c.api = true
		return nil, fmt.Sprintf("exported %s returns the pointer at %s: an API change", funcname.InPackage(obj), c.where(id))
	}
	if !ok || g.Recv != nil && c.iface[obj.Name()] || obj.Signature().TypeParams().Len() > 0 {
		return nil, keeps
	}
	// The result field declaring result i, unnamed and a pointer.
	var field *ast.Field
	n := 0
	for _, f := range g.Type.Results.List {
		if len(f.Names) > 0 {
			return nil, keeps
		}
		if n == i {
			field = f
		}
		n++
	}
	star, isStar := field.Type.(*ast.StarExpr)
	if field == nil || !isStar {
		return nil, keeps
	}
	// Every return of g gives the value at i from the same source: the
	// checks on the uses of the source cover them all only if each
	// return is of that variable or call.
	c.chain = append(c.chain, g)
	if len(c.uses[obj]) == 0 {
		return nil, keeps
	}
	e, why := c.sites(c.uses[obj], i)
	if why != "" {
		return nil, why
	}
	return append([]analysis.TextEdit{syntax.Delete(star.Pos(), star.X.Pos())}, e...), ""
}

// sites checks uses, the call sites of a function whose result i is the
// value, all of them past the first that stands in the way, and sets
// c.stored when every one stores the pointer: then no caller gains from
// a value result.
func (c *checker) sites(uses []*ast.Ident, i int) ([]analysis.TextEdit, string) {
	var edits []analysis.TextEdit
	var blocked string
	api := false // whether the blocker is an exported function's result
	stores := 0
	for _, id := range uses {
		c.stored, c.api = false, false
		e, why := c.callSite(id, i)
		if why != "" && blocked == "" {
			blocked, api = why, c.api
		}
		if c.stored {
			stores++
		}
		edits = append(edits, e...)
	}
	c.stored, c.api = stores > 0 && stores == len(uses), api
	if blocked != "" {
		return nil, blocked
	}
	return edits, ""
}

// localUses checks the uses of the local v that holds the result of a call
// and returns the edits that adapt them to a value. Past the first use
// that stands in the way, the others are only checked for a store (see
// passedOn).
func (c *checker) localUses(v *types.Var) ([]analysis.TextEdit, string) {
	var edits []analysis.TextEdit
	var blocked string
	for _, id := range c.uses[v] {
		path := syntax.Path(c.find, id)
		k := syntax.ClimbParens(path, 0)
		if blocked != "" {
			if c.storedAt(path, k) || c.boxedAt(path, k) {
				c.stored = true
				break
			}
			continue
		}
		e, why := c.localUse(v, path, k, id)
		blocked = why
		edits = append(edits, e...)
	}
	if blocked != "" {
		return nil, blocked
	}
	return edits, ""
}

// localUse checks one use of the local v (path[k] is the use, out of its
// parentheses).
func (c *checker) localUse(v *types.Var, path []ast.Node, k int, id *ast.Ident) ([]analysis.TextEdit, string) {
	if syntax.InClosure(path, v) {
		return nil, fmt.Sprintf("a closure captures the result at %s", c.where(id))
	}
	switch p := syntax.Parent(path, k).(type) {
	case *ast.StarExpr:
		if why := c.readOnly(path, k+1, id); why != "" {
			return nil, why
		}
		return syntax.DerefEdits(path, k+1), ""
	case *ast.SelectorExpr:
		if syntax.PtrMethod(c.pass.TypesInfo, p) {
			// v is addressable: the method gets &v. Whether that
			// keeps v on the heap is the compiler's to say.
			c.ptrCalls = true
			return nil, ""
		}
		return nil, c.selection(path, k+1, p, id)
	case *ast.ReturnStmt:
		var edits []analysis.TextEdit
		for i, r := range p.Results {
			if r == path[k] {
				e, why := c.passUp(path, p, i, id)
				if why != "" {
					return nil, why
				}
				edits = append(edits, e...)
			}
		}
		return edits, ""
	}
	return nil, c.passedOn(path, k, id)
}

// selection checks a selection x.f or x.m on the result (path[k] is the
// selector expression).
func (c *checker) selection(path []ast.Node, k int, sel *ast.SelectorExpr, id *ast.Ident) string {
	s := c.pass.TypesInfo.Selections[sel]
	if s == nil {
		return fmt.Sprintf("a caller uses it in an unexpected way at %s", c.where(id))
	}
	if s.Kind() != types.FieldVal {
		if syntax.PtrMethod(c.pass.TypesInfo, sel) {
			return fmt.Sprintf("a caller calls pointer method %s on it at %s", sel.Sel.Name, c.where(id))
		}
		return ""
	}
	return c.readOnly(path, k, id)
}

// readOnly checks that the value at path[k] (the struct or a field of it)
// is only read: not assigned, incremented, addressed, sliced if an array,
// or the receiver of a pointer method.
func (c *checker) readOnly(path []ast.Node, k int, id *ast.Ident) string {
	k = c.climb(path, k)
	cur := path[k]
	switch p := syntax.Parent(path, k).(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == cur {
				return fmt.Sprintf("a caller mutates through it at %s", c.where(id))
			}
		}
	case *ast.IncDecStmt:
		return fmt.Sprintf("a caller mutates through it at %s", c.where(id))
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return fmt.Sprintf("a caller keeps a pointer into it at %s", c.where(id))
		}
	case *ast.SliceExpr:
		if _, ok := c.pass.TypesInfo.TypeOf(p.X).Underlying().(*types.Array); ok {
			return fmt.Sprintf("a caller slices an array in it at %s", c.where(id))
		}
	case *ast.RangeStmt:
		if p.Key == cur || p.Value == cur {
			return fmt.Sprintf("a caller mutates through it at %s", c.where(id))
		}
	case *ast.SelectorExpr:
		if syntax.PtrMethod(c.pass.TypesInfo, p) {
			return fmt.Sprintf("a caller calls pointer method %s on it at %s", p.Sel.Name, c.where(id))
		}
	}
	return ""
}

// passedOn says why the pointer at path[k] cannot become a value. A
// caller that stores it (in a field, an element, a map, a package-level
// variable, a composite literal, a channel or an append) or converts it
// to an interface, where a value would be boxed and allocated instead,
// sets c.stored.
func (c *checker) passedOn(path []ast.Node, k int, id *ast.Ident) string {
	if c.storedAt(path, k) {
		c.stored = true
		return fmt.Sprintf("a caller stores the pointer at %s", c.where(id))
	}
	if c.boxedAt(path, k) {
		c.stored = true
		return fmt.Sprintf("a caller converts it to an interface at %s", c.where(id))
	}
	switch p := syntax.Parent(path, k).(type) {
	case *ast.BinaryExpr:
		if syntax.IsNil(c.pass.TypesInfo, p.X) || syntax.IsNil(c.pass.TypesInfo, p.Y) {
			return fmt.Sprintf("a caller compares it with nil at %s", c.where(id))
		}
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == path[k] {
				return fmt.Sprintf("a caller reassigns the variable at %s", c.where(id))
			}
		}
	}
	return fmt.Sprintf("a caller passes the pointer on at %s", c.where(id))
}

// storedAt reports whether the pointer at path[k] is stored where a
// value would not do: assigned to a field, an element, a map entry, what
// a pointer points to or a package-level variable, put in a composite
// literal, sent on a channel or appended to a slice.
func (c *checker) storedAt(path []ast.Node, k int) bool {
	cur := path[k]
	switch p := syntax.Parent(path, k).(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return false
		}
		for j, r := range p.Rhs {
			if r != cur {
				continue
			}
			switch l := ast.Unparen(p.Lhs[j]).(type) {
			case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
				return true
			case *ast.Ident:
				v, ok := c.pass.TypesInfo.Uses[l].(*types.Var)
				return ok && v.Parent() == c.pass.Pkg.Scope()
			}
		}
	case *ast.CompositeLit:
		return true
	case *ast.KeyValueExpr:
		if p.Value == cur {
			_, inLit := syntax.Parent(path, k+1).(*ast.CompositeLit)
			return inLit
		}
	case *ast.SendStmt:
		return p.Value == cur
	case *ast.CallExpr:
		if fn, ok := ast.Unparen(p.Fun).(*ast.Ident); ok && p.Fun != cur {
			b, isBuiltin := c.pass.TypesInfo.Uses[fn].(*types.Builtin)
			return isBuiltin && b.Name() == "append" && len(p.Args) > 1 && p.Args[0] != cur
		}
	}
	return false
}

// boxedAt reports whether the pointer at path[k] is converted to an
// interface: assigned to a variable of interface type, or passed as an
// argument of interface type.
func (c *checker) boxedAt(path []ast.Node, k int) bool {
	cur := path[k]
	info := c.pass.TypesInfo
	switch p := syntax.Parent(path, k).(type) {
	case *ast.AssignStmt:
		if p.Tok != token.ASSIGN || len(p.Lhs) != len(p.Rhs) {
			return false
		}
		for j, r := range p.Rhs {
			if r == cur {
				t := info.TypeOf(p.Lhs[j])
				return t != nil && types.IsInterface(t)
			}
		}
	case *ast.ValueSpec:
		return p.Type != nil && types.IsInterface(info.TypeOf(p.Type))
	case *ast.CallExpr:
		sig, ok := info.TypeOf(p.Fun).(*types.Signature)
		if !ok || p.Fun == cur {
			return false
		}
		for j, a := range p.Args {
			if a != cur {
				continue
			}
			params := sig.Params()
			var t types.Type
			switch {
			case sig.Variadic() && j >= params.Len()-1:
				if p.Ellipsis.IsValid() {
					return false
				}
				t = params.At(params.Len() - 1).Type().(*types.Slice).Elem()
			case j < params.Len():
				t = params.At(j).Type()
			default:
				return false
			}
			return types.IsInterface(t) && !isTypeParam(t)
		}
	}
	return false
}

// isTypeParam reports whether t is a type parameter, whose core may be
// an interface constraint without boxing.
func isTypeParam(t types.Type) bool {
	_, ok := t.(*types.TypeParam)
	return ok
}

// otherCallers reports whether files of the package that the pass did not
// type-check (in-package test files when tests are not analysed, files
// excluded by build constraints) use the function other than in a call
// whose result is discarded. The function is then not reported by this
// pass: without types the use cannot be judged, and the pass of the
// package with its tests, when there is one, reports it with the reason.
func (c *checker) otherCallers(fn *types.Func) bool {
	for _, f := range c.otherFiles() {
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if found {
				return false
			}
			var id *ast.Ident
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if fn.Signature().Recv() != nil && n.Sel.Name == fn.Name() {
					id = n.Sel
				}
			case *ast.Ident:
				if fn.Signature().Recv() == nil && n.Name == fn.Name() {
					id = n
				}
			}
			found = id != nil && !discarded(f, id)
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// discarded reports whether id, in a file parsed without types, names the
// function of a call statement or of _ = call.
func discarded(f *ast.File, id *ast.Ident) bool {
	ok := false
	ast.Inspect(f, func(n ast.Node) bool {
		var call ast.Expr
		switch n := n.(type) {
		case *ast.ExprStmt:
			call = n.X
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if l, isID := n.Lhs[0].(*ast.Ident); isID && l.Name == "_" {
					call = n.Rhs[0]
				}
			}
		}
		if ce, isCall := call.(*ast.CallExpr); isCall {
			fun := ce.Fun
			if sel, isSel := fun.(*ast.SelectorExpr); isSel {
				fun = sel.Sel
			}
			if fun == id {
				ok = true
			}
		}
		return !ok
	})
	return ok
}

// otherFiles returns the package's files the pass does not hold, parsed
// on first use (see syntax.OtherFiles).
func (c *checker) otherFiles() []*ast.File {
	if !c.read {
		c.read = true
		c.other = syntax.OtherFiles(c.pass)
	}
	return c.other
}

// climb returns the index of the outermost expression around path[k] that
// denotes a part of the same variable: parentheses, field selections and
// indexes of arrays.
func (c *checker) climb(path []ast.Node, k int) int {
	for {
		k = syntax.ClimbParens(path, k)
		switch p := syntax.Parent(path, k).(type) {
		case *ast.SelectorExpr:
			if s := c.pass.TypesInfo.Selections[p]; s != nil && s.Kind() == types.FieldVal && p.X == path[k] {
				k++
				continue
			}
		case *ast.IndexExpr:
			if _, ok := c.pass.TypesInfo.TypeOf(p.X).Underlying().(*types.Array); ok && p.X == path[k] {
				k++
				continue
			}
		}
		return k
	}
}

func (c *checker) where(n ast.Node) string {
	p := c.pass.Fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// article returns the indefinite article for the number n as it is read
// aloud: "an" for eight, eleven, eighteen, eighty and eight hundred and
// their thousands, "a" otherwise.
func article(n int64) string {
	s := strconv.FormatInt(n, 10)
	if s[0] == '8' || (len(s)%3 == 2 && (s[:2] == "11" || s[:2] == "18")) {
		return "an"
	}
	return "a"
}

// ReturnByValue is the kind of this analyzer's findings.
const ReturnByValue kind.ID = "byvalue/return-by-value"

func init() {
	kind.Register(kind.Kind{
		ID:    ReturnByValue,
		Title: "a small struct returned by pointer only to be read",
		Doc: "A function that returns a pointer to a struct it allocates makes the compiler move the struct to the heap, " +
			"since the pointer outlives the call. When the struct is small and every caller only reads it, returning it by " +
			"value copies a few words instead and leaves it on the caller's stack.",
		Scoring:    kind.ScoreAlloc,
		CostNS:     30,
		Rewrite:    true,
		Mechanical: true,
		Owns:       true,
	})
}
