package heapescape

import (
	_ "embed"
	"fmt"
	"github.com/goadvise/goadvise/analyzer/internal/gen"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/escape"
)

//go:embed doc.go
var doc string

// Analyzer reports the compiler's heap allocations with cause and advice.
var Analyzer = &analysis.Analyzer{
	Name:     "heapescape",
	Doc:      docs.Section(doc, "heapescape"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/heapescape",
	Run:      run,
	Requires: []*analysis.Analyzer{escape.Analyzer, hotpath.Analyzer, inspect.Analyzer},
}

var cold bool

func init() {
	Analyzer.Flags.BoolVar(&cold, "cold", true, "also report allocations in cold code and on error paths (with false, only per-item and hot-loop ones)")
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[escape.Analyzer].(*escape.Result)
	hot := pass.ResultOf[hotpath.Analyzer].(*hotpath.Result)
	if !res.Available() {
		// The compiler's decisions are unknown (for example the package
		// does not compile, or -escape.off): report nothing rather than
		// guess.
		return nil, nil
	}
	files := make(map[*token.File]*ast.File)
	byName := make(map[string]*token.File)
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		byName[tf.Name()] = tf
		// Generated files are not the user's to change; the allocations of
		// test files are not the program's.
		if !gen.IsGenerated(pass, f) && !strings.HasSuffix(tf.Name(), "_test.go") {
			files[tf] = f
		}
	}
	r := &resolver{fset: pass.Fset, imports: allImports(pass.Pkg)}
	root := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root()
	for _, rec := range res.Records() {
		if !rec.Kind.IsHeap() || !rec.TokPos.IsValid() {
			continue
		}
		tf := pass.Fset.File(rec.TokPos)
		f := files[tf]
		if f == nil {
			continue // generated, a test, or not a file of the package
		}
		path := enclosing(root, f, rec.TokPos)
		info := hot.At(rec.TokPos)
		fd := &finding{
			pass:   pass,
			rec:    &rec,
			files:  byName,
			root:   root,
			file:   f,
			path:   path,
			res:    r,
			esc:    res,
			tier:   info.Tier,
			reason: info.Reason,
		}
		if onErrorPath(pass.TypesInfo, path) || passedToPanic(&rec) {
			fd.tier, fd.reason = hotpath.Cold, errorPath
		}
		msg, ok := fd.message()
		if !ok || (!cold && fd.tier == hotpath.Cold) {
			continue
		}
		pass.Report(analysis.Diagnostic{
			Pos:      rec.TokPos,
			Category: fd.tier.String(),
			Message:  msg,
		})
	}
	return nil, nil
}

// enclosing returns the nodes of file that enclose the character at pos,
// from the innermost to the file, as astutil.PathEnclosingInterval(file,
// pos, pos+1) does for a position in a token, without walking the file
// from its start each time.
func enclosing(root inspector.Cursor, file *ast.File, pos token.Pos) []ast.Node {
	if pos < file.FileStart || pos >= file.FileEnd {
		return []ast.Node{file}
	}
	cur, ok := root.FindByPos(pos, pos+1)
	if !ok {
		return nil
	}
	var path []ast.Node
	for c := range cur.Enclosing() {
		path = append(path, c.Node())
	}
	return path
}

// passedToPanic reports whether the compiler's flow passes the value to
// panic: it is allocated only when panicking (often in inlined code, such
// as the message of a panic in a callee).
func passedToPanic(rec *escape.Record) bool {
	for _, s := range rec.Flow {
		if expr, reason, ok := s.From(); ok && reason == "call parameter" && strings.HasPrefix(expr, "panic(") {
			return true
		}
	}
	return false
}

// errorPath is the tier reason of allocations on error paths.
const errorPath = "on an error path"

// allImports returns pkg's dependencies, direct and indirect, by path.
func allImports(pkg *types.Package) map[string]*types.Package {
	m := make(map[string]*types.Package)
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		for _, q := range p.Imports() {
			if m[q.Path()] == nil {
				m[q.Path()] = q
				walk(q)
			}
		}
	}
	walk(pkg)
	m[pkg.Path()] = pkg
	return m
}

// A finding is one heap record being turned into a diagnostic.
type finding struct {
	pass   *analysis.Pass
	rec    *escape.Record
	files  map[string]*token.File // the package's files by name
	root   inspector.Cursor       // of the package's syntax
	file   *ast.File              // the record's file
	path   []ast.Node             // from the node at the record's position outwards
	res    *resolver
	esc    *escape.Result // the compiler's decisions for the package
	tier   hotpath.Tier
	reason string
	// inherent is set by explain when the value is what the code keeps
	// and no change in this function would avoid the allocation.
	inherent bool
}

// message returns the diagnostic's message, or false if the record is not
// worth reporting: an allocation that is the purpose of a cold constructor.
//
// The message is one sentence: what allocates and why, then what to do,
// then the tier in brackets.
func (fd *finding) message() (string, bool) {
	rec := fd.rec
	// Generic code is compiled for shapes: "go.shape.string" is string.
	name := strings.ReplaceAll(rec.Name, "go.shape.", "")
	if strings.HasPrefix(name, "~r") {
		// The result of an inlined call, which the compiler names "~r0".
		if call := callAt(fd.path, rec.TokPos); call != nil {
			name = "the result of " + types.ExprString(call)
		}
	} else if strings.Contains(name, "~r") {
		// An expression using such a result: print the source instead.
		if e := fd.exprAt(); e != nil {
			name = types.ExprString(e)
		}
	}
	subject := name + " escapes to heap"
	if rec.Kind == escape.MovedToHeap {
		subject = "variable " + rec.Name + " is moved to heap"
	}
	var prefix string
	fn, inlined, other := fd.inlinedFrom()
	if inlined {
		// The allocation is in a function inlined at this call. If it is
		// another package's code, the user can only change the call.
		name := "an inlined function"
		call := callAt(fd.path, rec.TokPos)
		if call == nil && !other {
			// Not at a call: the body of a generic function inlined
			// into its shaped instantiation, at the declaration. The
			// allocation is also reported at its own line.
			return "", false
		}
		if call != nil && fn == nil {
			name = types.ExprString(call.Fun) // a function value
		}
		if fn != nil {
			name = fd.funcName(fn)
			if other && constructor(fn) && fd.tier == hotpath.Cold {
				return "", false
			}
		}
		prefix = "calling " + name + " allocates (inlined): "
	}
	if fd.zeroSize() || fd.nonAllocating() {
		// A zero-size value (struct{}{}, new(struct{}), a boxed empty
		// struct) is not allocated: the runtime uses one shared address.
		// Constants, single bytes and static literals converted to an
		// interface use read-only data.
		return "", false
	}
	if !other && fd.guarded(fd.allocExpr()) {
		// "if x == nil { x = make(...) }", "if cap(b) < n { b = make(...) }":
		// the code already allocates only when needed.
		return "", false
	}
	ctor, part := fd.constructorAlloc()
	if ctor != nil && fd.tier == hotpath.Cold {
		// "return &T{...}" in a function returning *T: the allocation is
		// the point of the function, and it runs rarely.
		return "", false
	}
	why, advice := fd.explain(ctor, part)
	if inlined && rec.Cause == escape.CauseAppend && strings.HasPrefix(why, "because append grows it and it is stored in ") {
		// The called function grows a slice it keeps (a buffer's own
		// storage): that is what it is for.
		return "", false
	}
	if fd.inherent {
		// The value is what the code keeps (stored in a field, a map, a
		// container that is itself reported): nothing to change here.
		return "", false
	}
	if fd.tier == hotpath.Loop && !other && advice != "" && isAllocName(rec.Name) &&
		rec.Cause != escape.CauseReturnedOrStored && fd.iterationLocal(fd.allocExpr()) {
		advice += ", or hoist the allocation out of the loop and reuse it"
	}
	if other {
		if advice = fd.inlinedAdvice(advice, fn); advice == "" {
			return "", false
		}
		if loc, ok := strings.CutPrefix(why, "because it is stored in "); ok && fn != nil && fd.inlinedName(loc) {
			// "stored in textproto.h[...]" names the callee's
			// variables: say who stores it.
			why = "because " + fd.funcName(fn) + " stores it"
		} else if strings.HasPrefix(why, "because append grows it and it is stored in ") && fn != nil {
			// The callee grows a slice it keeps (a buffer's own
			// storage): that is what it is for.
			return "", false
		}
	}
	if fd.reason == errorPath {
		advice = "this runs only on an error path (returning an error, panicking, exiting or failing a test), which is rarely worth optimizing"
	}
	var b strings.Builder
	b.WriteString(prefix)
	b.WriteString(subject)
	if why != "" {
		b.WriteString(" ")
		b.WriteString(why)
	}
	if advice != "" {
		b.WriteString("; ")
		b.WriteString(advice)
	}
	fmt.Fprintf(&b, " [%s", fd.tier)
	if fd.reason != "" {
		fmt.Fprintf(&b, ": %s", fd.reason)
	}
	b.WriteString("]")
	return b.String(), true
}

// inlinedAdvice adapts the advice for an allocation inlined from another
// package (fn, nil if unknown), whose code the user cannot change.
func (fd *finding) inlinedAdvice(advice string, fn *types.Func) string {
	if strings.Contains(advice, "reflect.DeepEqual") {
		return advice
	}
	hasResult := fn == nil || fn.Type().(*types.Signature).Results().Len() > 0
	if fd.tier == hotpath.Loop {
		// Hoisting is advice only for a result that does not outlive
		// the iteration; a call without a result (h.Add) runs for its
		// effect, and must run per iteration.
		call := callAt(fd.path, fd.rec.TokPos)
		loop := fd.enclosingLoop()
		if call == nil || loop == nil || !hasResult || !fd.iterationLocal(call) {
			return ""
		}
		if t := fd.pass.TypesInfo.TypeOf(call); hasReset(t) {
			name := types.TypeString(t, (*types.Package).Name)
			return "the allocation is inside the called function: create one " + strings.TrimPrefix(name, "*") +
				" before the loop and call its Reset method in each iteration instead"
		}
		if fd.loopInvariant(call, loop) {
			return "the allocation is inside the called function, whose arguments do not change in the loop: hoist the call out of the loop and reuse its result"
		}
		return ""
	}
	switch {
	case fn != nil && constructor(fn):
		if call := callAt(fd.path, fd.rec.TokPos); call != nil && hasReset(fd.pass.TypesInfo.TypeOf(call)) {
			t := fd.pass.TypesInfo.TypeOf(call)
			return "the allocation is inside the called function: create one " + strings.TrimPrefix(types.TypeString(t, (*types.Package).Name), "*") +
				" and call its Reset method for each use instead, if this path is hot"
		}
		// A constructor without Reset: each use needs its own value.
		return ""
	case hasResult:
		return "the allocation is inside the called function: call it less often (reuse its result) if this path is hot"
	}
	return "the allocation is inside the called function: call it less often if this path is hot"
}

// explain returns why the value escapes ("because ...") and what to do.
func (fd *finding) explain(ctor *types.Func, part string) (why, advice string) {
	rec := fd.rec
	detail := explanationDetail(rec)
	switch {
	case ctor != nil && part != "":
		return "because it is part of " + part + ", which " + fd.funcName(ctor) + " returns",
			"let the caller provide the value to fill, or reuse one, so that each call does not allocate"
	case ctor != nil:
		return "because " + fd.funcName(ctor) + " returns it",
			"let the caller provide the value to fill, or reuse one, so that each call does not allocate"
	}
	if fd.deepEqualCall() {
		return "because it is converted to an interface to be passed to reflect.DeepEqual",
			"compare with a type-specific function or == instead (goes away with the deepequal fix)"
	}
	if rec.Name == "func literal" && rec.Cause == escape.CauseReturnedOrStored {
		return "because " + itIs(orDefault(detail, "returned or stored")) + " and outlives the call",
			"its captured variables move to the heap with it: if this runs often, use a method on a struct instead of a closure"
	}
	switch rec.Cause {
	case escape.CauseInterfaceConversion:
		why = "because " + itIs(orDefault(detail, "converted to an interface"))
		if call := fd.flowCall(); call != nil {
			// Name the function the user called, not an inlined helper
			// ("fmt.errorf").
			if fn, ok := typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func); ok {
				why = "because it is converted to an interface and passed to " + fd.funcName(fn)
			}
		}
		if fd.callsPackage("fmt") {
			return why, "in hot code format with strconv or append-style functions instead of fmt, whose ...any arguments box each value"
		}
		return why, "avoid the interface conversion (use the concrete type, a generic function, or a non-interface fast path) so the value need not be boxed"
	case escape.CauseInterfaceMethodCall:
		why = "because " + itIs(orDefault(detail, "passed to a dynamic call")) + ", which the compiler cannot see through"
		return why, fd.dynamicAdvice()
	case escape.CauseReturnedOrStored:
		if l, callee, ok := fd.calleeLeak(); ok {
			return fd.leakText(l, callee, "it")
		}
		if c := containerOf(rec); c != "" {
			// It escapes with its container, whose own finding says why.
			fd.inherent = true
			return "", ""
		}
		why = "because " + itIs(orDefault(detail, "returned or stored outside the function"))
		if hasReason(rec, "interface-converted") && !hasReason(rec, "return") {
			// A pointer stored in an interface that outlives the call: by
			// value, it would be boxed on the heap all the same, and the
			// value kept must be fresh.
			fd.inherent = true
			return "", ""
		}
		target := fd.storeTarget(fd.allocExpr())
		if t := fd.pointee(); t != nil && (target == nil || !fd.sharedElsewhere(target)) {
			if size, ok := byValueOK(t, fd.pass.TypesSizes); ok {
				name := types.TypeString(t, types.RelativeTo(fd.pass.Pkg))
				return why, fmt.Sprintf("%s is small (%d bytes) and may be copied: return or store it by value instead of by pointer", name, size)
			}
		}
		if hasReason(rec, "return") {
			return why, "let the caller provide the memory, or reuse one value across calls"
		}
		// Not small, not to be copied, or shared: the stored value is
		// what the code keeps.
		fd.inherent = true
		return "", ""
	case escape.CauseTooLarge:
		return "because it is too large for the stack", "allocate it once and reuse it, or shrink it below the compiler's stack limit"
	case escape.CauseNonConstantMake:
		return "because its size is not a constant", "preallocate a reusable buffer, or use a fixed-size array when the size is bounded"
	case escape.CauseAppend:
		if fd.presized() || fd.growsField() {
			// make(T, 0, n) before: append grows it only past n, which
			// the code chose.
			fd.inherent = true
			return "", ""
		}
		if c := containerOf(rec); c != "" {
			if strings.HasPrefix(rec.Name, "append(([]") && strings.Contains(rec.Name, ")(nil), ") {
				// append([]T(nil), s...): the idiom for a copy.
				return "because the copy is stored in " + c + ", which escapes", "the copy is needed if the caller may reuse the original; otherwise keep the caller's slice"
			}
			return "because append grows it", "preallocate the slice with make(..., 0, n) when the final size is known"
		}
		why = "because append grows it"
		if detail != "" {
			why += " and " + itIs(detail)
		}
		return why, "preallocate the slice with make(..., 0, n) when the final size is known, or reuse it across calls"
	case escape.CauseAddressStored:
		if l, callee, ok := fd.calleeLeak(); ok {
			return fd.leakText(l, callee, "its address")
		}
		return "because " + orDefault(detail, "its address outlives the function"),
			"do not let the address outlive the function: copy the value instead of storing or returning &" + rec.Name
	case escape.CauseClosure:
		return "because it is captured by a closure that outlives the call", "pass the value to the closure as an argument, or do not let the closure outlive the call (store or return it)"
	case escape.CauseGoDefer:
		return "because a go or defer statement uses it", "move a defer inside a loop into a separate function, and pass values to goroutines as arguments"
	}
	// The compiler's flow did not name a cause goadvise knows.
	if c := containerOf(rec); c != "" {
		// It escapes with its container, whose own finding says why.
		fd.inherent = true
		return "", ""
	}
	if detail != "" {
		return "(compiler: " + detail + ")", ""
	}
	return "(the compiler's escape analysis could not keep it on the stack)", ""
}

// leakText explains a value passed to a static callee that lets it escape.
// what is "it" or "its address".
func (fd *finding) leakText(l leak, callee *types.Func, what string) (why, advice string) {
	name := fd.funcName(callee)
	switch l.kind {
	case leakIfaceCall, leakFuncValue:
		kind := "an interface method"
		if l.kind == leakFuncValue {
			kind = "a function value"
		}
		return "because " + name + " passes " + what + " to " + kind + " (" + l.via + ") the compiler cannot see through", fd.bufferAdvice()
	case leakIfaceRecv:
		return "because " + name + " calls its methods through an interface (" + l.via + ") the compiler cannot see through",
			"reuse one value across calls, or call a function that takes the concrete type"
	case leakIfaceParam:
		return "because " + what + " is passed as an interface value to " + name + ", which lets it escape",
			"passing it by value would box it anyway: reuse one value across calls if this is hot"
	}
	if fd.rec.Name == "... argument" {
		// The callee keeps the slice of its variadic arguments: that
		// is what calling it costs.
		fd.inherent = true
		return "", ""
	}
	return "because " + what + " is passed to " + name + ", which lets it escape", "reuse one value across calls, or let the caller provide the memory"
}

// bufferAdvice is the advice for a value passed to a dynamic call.
func (fd *finding) bufferAdvice() string {
	if fd.isBuffer() {
		return "keep a fixed-size array in the receiver (a field reused across calls) and pass a slice of it, or let the caller provide the buffer"
	}
	return "reuse one value across calls (a field of the receiver), or call a concrete type instead of the dynamic one"
}

// dynamicAdvice is the advice for a value passed directly to an interface
// method or a function value.
func (fd *finding) dynamicAdvice() string {
	if fd.rec.Name == "... argument" {
		return "the variadic arguments are allocated for each call: call a concrete function, or make the call only when it is needed"
	}
	return fd.bufferAdvice()
}

// isBuffer reports whether the record is a slice or array allocation.
func (fd *finding) isBuffer() bool {
	if strings.HasPrefix(fd.rec.Name, "make([]") {
		return true
	}
	var t types.Type
	if fd.rec.Kind == escape.MovedToHeap {
		if id, ok := fd.path[0].(*ast.Ident); ok {
			if obj := fd.pass.TypesInfo.ObjectOf(id); obj != nil {
				t = obj.Type()
			}
		}
	} else if e := fd.allocExpr(); e != nil {
		t = fd.pass.TypesInfo.TypeOf(e)
	}
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Array:
		return true
	}
	return false
}

// explanationDetail returns the escape package's explanation without the
// name: "passed to io.Reader.Read (interface method call)".
func explanationDetail(rec *escape.Record) string {
	_, why, ok := strings.Cut(rec.Explanation, " escapes: ")
	if !ok {
		return ""
	}
	why = strings.Replace(why, "(interface method call)", "(an interface method call)", 1)
	why = strings.Replace(why, "passed to append, which keeps it", "appended to a slice that outlives the call", 1)
	{
		// The escape package says a static callee "keeps" a parameter
		// that leaks; it may as well pass it on.
		why = strings.Replace(why, ", which keeps it", ", which lets it escape", 1)
	}
	return why
}

// itIs makes a clause of an explanation phrase: "it is returned", but "its
// address is taken".
func itIs(phrase string) string {
	if strings.HasPrefix(phrase, "its ") {
		return phrase
	}
	return "it is " + phrase
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// allocExpr returns the allocating expression at the record's position:
// &T{...}, new(T), make(...) or a composite literal; nil if there is none
// (an interface conversion, an inlined call).
func (fd *finding) allocExpr() ast.Expr {
	pos := fd.rec.TokPos
	for _, n := range fd.path {
		if !startsAt(n, pos) {
			if _, ok := n.(*ast.Ident); ok {
				continue
			}
			return nil
		}
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				return n
			}
		case *ast.CompositeLit:
			return n
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if _, ok := fd.pass.TypesInfo.Uses[id].(*types.Builtin); ok && (id.Name == "new" || id.Name == "make") {
					return n
				}
			}
			return nil
		}
	}
	return nil
}

// pointee returns T for an allocation &T{...} or new(T).
func (fd *finding) pointee() types.Type {
	e := fd.allocExpr()
	if e == nil {
		return nil
	}
	if ptr, ok := fd.pass.TypesInfo.TypeOf(e).(*types.Pointer); ok {
		return ptr.Elem()
	}
	return nil
}

// constructorAlloc reports whether the allocation is what a constructor
// returns: the function enclosing it has a result of the allocation's
// pointer type and the compiler's flow returns it, or it is part of the
// composite literal &T{...} a constructor returns (part names it).
func (fd *finding) constructorAlloc() (fn *types.Func, part string) {
	var decl *ast.FuncDecl
	var ret *ast.ReturnStmt
	for _, n := range fd.path {
		if _, ok := n.(*ast.FuncLit); ok {
			return nil, ""
		}
		if r, ok := n.(*ast.ReturnStmt); ok && ret == nil {
			ret = r
		}
		if d, ok := n.(*ast.FuncDecl); ok {
			decl = d
			break
		}
	}
	if decl == nil {
		return nil, ""
	}
	obj, ok := fd.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok {
		return nil, ""
	}
	results := obj.Type().(*types.Signature).Results()
	isResult := func(t types.Type) bool {
		if _, ok := t.(*types.Pointer); !ok {
			return false
		}
		for i := 0; i < results.Len(); i++ {
			if types.Identical(results.At(i).Type(), t) {
				return true
			}
		}
		return false
	}
	if e := fd.allocExpr(); e != nil && hasReason(fd.rec, "return") && isResult(fd.pass.TypesInfo.TypeOf(e)) {
		return obj, ""
	}
	if v := fd.movedVar(); v != nil && isResult(types.NewPointer(v.Type())) && returnsAddrOf(fd.pass.TypesInfo, decl.Body, v) {
		// "var w Writer; ...; return &w": the variable is the result.
		return obj, ""
	}
	if ret == nil {
		return nil, ""
	}
	for _, r := range ret.Results {
		u, ok := ast.Unparen(r).(*ast.UnaryExpr)
		if !ok || u.Op != token.AND || u.Pos() == fd.rec.TokPos || fd.rec.TokPos < u.Pos() || fd.rec.TokPos >= u.End() {
			continue
		}
		if _, ok := ast.Unparen(u.X).(*ast.CompositeLit); ok && isResult(fd.pass.TypesInfo.TypeOf(u)) {
			return obj, "&" + types.ExprString(ast.Unparen(u.X).(*ast.CompositeLit).Type) + "{...}"
		}
	}
	return nil, ""
}

// constructor reports whether fn, a function of another package, returns a
// pointer to a value that typically lives long (NewReader, NewEncoder):
// its name starts with "New" and it has a pointer result.
func constructor(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil || !strings.HasPrefix(fn.Name(), "New") {
		return false
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if _, ok := sig.Results().At(i).Type().(*types.Pointer); ok {
			return true
		}
	}
	return false
}

// inlinedFrom reports whether the allocation is in code inlined at this
// position, whether that code is of another package, and returns the
// function called at the record's position (nil if unknown).
func (fd *finding) inlinedFrom() (fn *types.Func, inlined, other bool) {
	rec := fd.rec
	if len(rec.InlinedFrom) == 0 {
		return nil, false, false
	}
	other = fd.files[rec.InlinedFrom[0].File] == nil
	if call := callAt(fd.path, rec.TokPos); call != nil {
		fn, _ = typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func)
	}
	return fn, true, other
}

// inlinedName reports whether the location loc of the compiler's flow
// ("textproto.h[k]", "*bufio.b") starts with a variable of inlined code:
// the compiler qualifies those with their package's name, which is not a
// name in scope at the record's position.
func (fd *finding) inlinedName(loc string) bool {
	loc = strings.TrimLeft(loc, "*&")
	i := strings.IndexAny(loc, ".[")
	if i <= 0 || loc[i] != '.' {
		return false
	}
	id := loc[:i]
	scope := fd.pass.Pkg.Scope().Innermost(fd.rec.TokPos)
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent(id, fd.rec.TokPos)
	if obj == nil {
		return true
	}
	_, isPkg := obj.(*types.PkgName)
	return isPkg
}

// exprAt returns the outermost expression starting at the record's
// position.
func (fd *finding) exprAt() ast.Expr {
	var e ast.Expr
	for _, n := range fd.path {
		x, ok := n.(ast.Expr)
		if !ok || !startsAt(n, fd.rec.TokPos) {
			break
		}
		e = x
	}
	return e
}

// zeroSize reports whether the escaping value, or the pointee of an
// escaping &T{}/new(T), has size zero.
func (fd *finding) zeroSize() bool {
	if fd.rec.Kind != escape.EscapesToHeap || len(fd.rec.InlinedFrom) > 0 {
		return false
	}
	e := fd.exprAt()
	if e == nil {
		return false
	}
	t := fd.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	if ptr, ok := t.(*types.Pointer); ok && fd.allocExpr() != nil {
		t = ptr.Elem()
	} else if types.IsInterface(t) {
		return false
	}
	return fd.pass.TypesSizes.Sizeof(t) == 0
}

// startsAt reports whether n is at pos as the compiler reports positions:
// its start, or the opening parenthesis of a call or brace of a composite
// literal.
func startsAt(n ast.Node, pos token.Pos) bool {
	switch n := n.(type) {
	case *ast.CallExpr:
		if n.Lparen == pos {
			return true
		}
	case *ast.CompositeLit:
		if n.Lbrace == pos {
			return true
		}
	}
	return n.Pos() == pos
}

// callAt returns the call expression in path whose opening parenthesis is
// at pos (where the compiler places calls).
func callAt(path []ast.Node, pos token.Pos) *ast.CallExpr {
	for _, n := range path {
		if c, ok := n.(*ast.CallExpr); ok && c.Lparen == pos {
			return c
		}
	}
	return nil
}

// funcName formats fn for messages: "decode", "io.ReadFull",
// "(*bufio.Writer).Write", "http.Header.Set".
func (fd *finding) funcName(fn *types.Func) string {
	qual := func(p *types.Package) string {
		if p == fd.pass.Pkg {
			return ""
		}
		return p.Name()
	}
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil {
		t := recv.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			return "(*" + types.TypeString(ptr.Elem(), qual) + ")." + fn.Name()
		}
		return types.TypeString(t, qual) + "." + fn.Name()
	}
	if p := qual(fn.Pkg()); p != "" {
		return p + "." + fn.Name()
	}
	return fn.Name()
}

// flowCall returns the call at the last "call parameter" step of the
// record's flow (not a go or defer statement), resolved in the package's
// syntax.
func (fd *finding) flowCall() *ast.CallExpr {
	var step *escape.Step
	for i := range fd.rec.Flow {
		s := &fd.rec.Flow[i]
		if expr, reason, ok := s.From(); ok && reason == "call parameter" &&
			!strings.HasPrefix(expr, "go ") && !strings.HasPrefix(expr, "defer ") {
			step = s
			if strings.HasPrefix(expr, "panic(") {
				// Passed to panic, maybe in inlined code whose steps
				// are all at the call: not a call to resolve.
				return nil
			}
		}
	}
	if step == nil {
		return nil
	}
	tf := fd.files[step.Pos.File]
	if tf == nil || step.Pos.Line < 1 || step.Pos.Line > tf.LineCount() {
		return nil
	}
	off := tf.Offset(tf.LineStart(step.Pos.Line)) + step.Pos.Col - 1
	if off < 0 || off >= tf.Size() {
		return nil
	}
	pos := tf.Pos(off)
	path := enclosing(fd.root, fd.file, pos)
	call := callAt(path, pos)
	if call == nil {
		return nil
	}
	// In inlined code every step is at the outer call: use the call only
	// if the step's callee is of the same package (fmt.errorf for
	// fmt.Errorf, io.ReadAtLeast for io.ReadFull), not a call inside the
	// inlined body to another package.
	expr, _, _ := step.From()
	if fn, ok := typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func); ok && fn.Pkg() != nil {
		qual, local := stepQualifier(expr)
		if !local {
			if _, isType := fd.pass.Pkg.Scope().Lookup(qual).(*types.TypeName); isType {
				local = true
			}
		}
		if local && fn.Pkg() != fd.pass.Pkg || !local && fn.Pkg().Name() != qual {
			return nil
		}
	}
	return call
}

// stepQualifier returns the package qualifier of the callee of a call as
// the compiler prints it ("fmt" for "fmt.Sprintf(...)", "bufio" for
// "(*bufio.Writer).Write(w, p)"), or local if it has none.
func stepQualifier(expr string) (qual string, local bool) {
	if strings.HasPrefix(expr, "(") {
		end := strings.Index(expr, ").")
		if end < 0 {
			return "", true
		}
		t := strings.TrimLeft(expr[1:end], "*")
		if i := strings.IndexByte(t, '.'); i >= 0 {
			return t[:i], false
		}
		return "", true
	}
	name := expr
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	if i := strings.IndexByte(name, '.'); i >= 0 {
		return name[:i], false
	}
	return "", true
}

// deepEqualCall reports whether the value escapes because it is passed to
// reflect.DeepEqual.
func (fd *finding) deepEqualCall() bool {
	if fd.rec.Cause != escape.CauseInterfaceConversion {
		return false
	}
	for _, s := range fd.rec.Flow {
		// The step names the call as the compiler saw it, also in
		// inlined code.
		if expr, reason, ok := s.From(); ok && reason == "call parameter" && strings.HasPrefix(expr, "reflect.DeepEqual(") {
			return true
		}
	}
	call := fd.flowCall()
	if call == nil {
		return false
	}
	fn, ok := typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "reflect" && fn.Name() == "DeepEqual"
}

// callsPackage reports whether the flow's call is of a function of the
// package with the given path.
func (fd *finding) callsPackage(path string) bool {
	call := fd.flowCall()
	if call == nil {
		return false
	}
	fn, ok := typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == path
}

// calleeLeak finds the static callee that the value is passed to and why
// it lets the value escape.
func (fd *finding) calleeLeak() (leak, *types.Func, bool) {
	call := fd.flowCall()
	if call == nil {
		return leak{}, nil, false
	}
	fn := typeutil.StaticCallee(fd.pass.TypesInfo, call)
	if fn == nil {
		return leak{}, nil, false
	}
	idx := fd.argIndex(call)
	if idx < 0 {
		return leak{}, fn, true
	}
	return fd.res.leakOf(fn, idx), fn, true
}

// argIndex returns the index of the argument of call through which the
// record's value flows: the argument containing the allocation, or naming
// a variable of the flow. It returns -1 if there is none or several.
func (fd *finding) argIndex(call *ast.CallExpr) int {
	names := flowNames(fd.rec)
	found := -1
	for i, arg := range call.Args {
		hit := fd.rec.TokPos >= arg.Pos() && fd.rec.TokPos < arg.End()
		if !hit {
			ast.Inspect(arg, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && names[id.Name] {
					hit = true
				}
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				return !hit
			})
		}
		if hit {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// flowNames returns the plain variable names of the record's flow: the
// record's own name and the locations of "flow: dst ← src" steps that are
// identifiers (not the inlined variables "pkg.v" or "~r0").
func flowNames(rec *escape.Record) map[string]bool {
	names := make(map[string]bool)
	add := func(s string) {
		s = strings.TrimLeft(strings.TrimSpace(s), "&*")
		if token.IsIdentifier(s) {
			names[s] = true
		}
	}
	add(rec.Name)
	for _, s := range rec.Flow {
		rest, ok := strings.CutPrefix(s.Text, "flow: ")
		if !ok {
			continue
		}
		dst, src, _ := strings.Cut(strings.TrimSuffix(rest, ":"), " ← ")
		add(dst)
		add(src)
	}
	return names
}

// containerOf returns the allocation whose storage the record's value is
// stored in, when the flow ends by putting it in a composite literal:
// "&Store{...}" for "flow: {storage for &Store{...}} ← ...".
func containerOf(rec *escape.Record) string {
	last := ""
	for _, s := range rec.Flow {
		if rest, ok := strings.CutPrefix(s.Text, "flow: "); ok {
			last = rest
		}
	}
	dst, _, ok := strings.Cut(last, " ← ")
	if !ok {
		return ""
	}
	if c, ok := strings.CutPrefix(dst, "{storage for "); ok {
		return strings.TrimSuffix(c, "}")
	}
	return ""
}

// hasReason reports whether a step of the record's flow has the reason.
func hasReason(rec *escape.Record, reason string) bool {
	for _, s := range rec.Flow {
		if _, r, ok := s.From(); ok && r == reason {
			return true
		}
	}
	return false
}

// isAllocName reports whether the compiler's name of the record is an
// allocating expression (rather than a converted value).
func isAllocName(name string) bool {
	return strings.HasPrefix(name, "make(") || strings.HasPrefix(name, "new(") ||
		strings.HasPrefix(name, "&") || strings.HasSuffix(name, "{...}") || strings.HasSuffix(name, "{}")
}
