package heapescape

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/bycopy"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/optlog"
)

// Every heap allocation the compiler reports is classified by what would
// remove it. It is avoidable when the code around it shows a specific
// change (a fix kind): the finding's advice names that change. Otherwise
// it is inherent to what the code is for (a constructor's result, data
// returned or kept by design, a value a callee keeps): it is reported
// only with -all, with the category "<tier>,inherent".

// message returns the diagnostic's message, or false if the record is not
// an allocation (a conversion that does not allocate) or is reported
// elsewhere. It sets fd.fix when the allocation is avoidable.
//
// The message is one sentence: what allocates and why, then what to do
// (or why nothing is to be done), then the tier in brackets.
func (fd *finding) message() (string, bool) {
	rec := fd.rec
	name := rec.Name
	if strings.HasPrefix(name, "~r") {
		// The result of an inlined call, which the compiler names "~r0".
		if call := callAt(fd.path, rec.TokPos); call != nil {
			name = "the result of " + types.ExprString(call)
		}
	} else if strings.HasPrefix(name, ".autotmp_") {
		// A compiler temporary holding a result passed on whole.
		if n := fd.tempName(); n != "" {
			name = n
		}
	} else if strings.Contains(name, "~r") || strings.Contains(name, ".dict[") ||
		strings.Contains(name, "go.shape.") || strings.Contains(name, "<node ") ||
		strings.Contains(name, ".(") {
		// An expression using such a result, a generic call through its
		// dictionary ("f[*uint8]((*[3]uintptr)(.dict[0]), x)"), generic
		// code as compiled for a shape ("pair[go.shape.int]{...}" for
		// pair[T]{...}), an expression the compiler prints as its own
		// node ("new(<node DYNAMICTYPE>)" for new(T)), or a method call
		// it made direct ("(*iter).next(it.(*iter))" for it.next(), it
		// an interface): print the source instead, that of the inlined
		// function if it is there.
		e := fd.exprAt()
		if len(rec.InlinedFrom) > 0 {
			e = fd.exprAtPos(rec.InlinedFrom[0])
		}
		if e != nil {
			name = strings.ReplaceAll(types.ExprString(e), "{…}", "{...}")
		}
	} else if call, ok := fd.exprAt().(*ast.CallExpr); ok && len(rec.InlinedFrom) == 0 && strings.HasSuffix(name, ")") {
		// A method call's result, which the compiler writes as a call
		// of the method expression: "time.Time.Format(time.Now(),
		// layout)" for time.Now().Format(layout).
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fd.pass.TypesInfo.Selections[sel] != nil {
			name = types.ExprString(call)
		}
	}
	// Generic code is compiled for shapes: "go.shape.string" is string.
	name = strings.ReplaceAll(name, "go.shape.", "")
	subject := name + " escapes to heap"
	if rec.Kind == optlog.MovedToHeap {
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
		}
		prefix = "calling " + name + " allocates (inlined): "
		fd.callee = name
	}
	if fd.zeroSize() || fd.nonAllocating() || fd.outgrowsNever() {
		// A zero-size value (struct{}{}, new(struct{}), a boxed empty
		// struct) is not allocated: the runtime uses one shared address.
		// Constants, single bytes and static literals converted to an
		// interface use read-only data. An append that stays within
		// the capacity its slice was made with never grows it.
		return "", false
	}
	bodyFn, gone := fd.inlinedAway()
	// The compiled body that allocates is never called: every call is
	// inlined, and a copy that escapes is reported there; this line is
	// reported only for a change to make here (below). (A profile
	// charges the copies' samples to this line, which is kept to say
	// which callers they come from.)
	gone = gone && !fd.hot.Profiled()
	if !gone && bodyFn != nil && fd.tier == hotpath.PerItem && fd.hot.ByCallers(bodyFn) {
		// The calls that make the function per-item run inlined
		// copies, not this body.
		fd.tier, fd.reason = hotpath.Unknown, outOfLine
	}
	ctor, part := fd.constructorAlloc()
	why, advice := fd.explain(ctor, part)
	if fd.inherent != "" && !other {
		if a, noFix := fd.rarePathAdvice(); a != "" {
			fix := fd.suggested
			advice = fd.avoid(RarePath, a, noFix)
			fd.suggested = fix
		} else if a, noFix := fd.doubleCopyAdvice(); a != "" {
			advice = fd.avoid(DoubleCopy, a, noFix)
		} else if a, noFix := fd.sinkAdvice(); a != "" {
			advice = fd.avoid(LateAlloc, a, noFix)
		} else if a, noFix := fd.lazyMapAdvice(); a != "" {
			advice = fd.avoid(LazyMap, a, noFix)
		}
	}
	inBody := fd.bodyView()
	if target := inBody.guardTarget(inBody.allocExpr()); !other && target != "" {
		// "if x == nil { x = make(...) }", "if cap(b) < n { b = make(...) }":
		// the code already allocates only when needed.
		advice = fd.keep("it is allocated lazily, only when needed")
		fd.amortize(lazyReason(target))
	} else if ctor == nil && fd.tier == hotpath.Loop && !other && (optlog.IsAllocName(rec.Name) || fd.movedVar() != nil) &&
		(rec.Cause != optlog.CauseReturnedOrStored || hasReason(rec, "call parameter")) && fd.staysInIteration() {
		// A value the compiler says is stored only because a callee's
		// parameter leaks (io.ReadFull's, through io.Reader.Read) stays
		// in the iteration when staysInIteration finds that every call
		// it is given keeps it not.
		if fd.sizedAtRunTime() {
			// make([]T, n) with n set per iteration: one buffer
			// reused, grown when an iteration needs more.
			grow := "buf = slices.Grow(buf[:0], n)[:n]"
			if !syntax.FileVersionAtLeast(fd.pass, fd.file, "go1.21") {
				grow = "if cap(buf) < n { buf = make([]T, n) }; buf = buf[:n]" // package slices came with go1.21
			}
			advice = fd.avoid(ReuseLoopBuffer, "declare one buffer before the loop and reuse it, growing it when an iteration needs more ("+grow+"), since it does not outlive an iteration, which saves the allocation of most iterations",
				"the size changes per iteration")
		} else {
			advice = fd.avoid(HoistLoop, "hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration", "")
			fd.suggested, fd.noFix = fd.hoistFix()
		}
	}
	if other {
		// Only the call can change: the callee's own allocation is
		// avoidable only by calling it differently.
		fd.fix = ""
		if fd.grownKept || rec.Cause == optlog.CauseAppend && fd.storedIn() != "" {
			// The callee grows a slice it keeps (a buffer's own
			// storage): that is what it is for.
			advice = fd.proven("the called function grows the slice it keeps, its own storage")
			fd.amortize(growReason)
		} else if a, noFix := fd.doubleCopyAdvice(); a != "" {
			advice = fd.avoid(DoubleCopy, a, noFix) // bytes.Clone, slices.Clone
		} else if a, noFix := fd.inMemoryReaderAdvice(fn); a != "" {
			advice = fd.avoid(InMemoryReader, a, noFix)
		} else if fd.growsCallerBuffer() {
			advice = fd.proven(appendStyle)
		} else if a, noFix := fd.resetKeptAdvice(fn); a != "" {
			advice = fd.avoid(ResetKept, a, noFix)
		} else if a, noFix := fd.inlinedAdvice(fn); a != "" {
			advice = fd.avoid(LoopCall, a, noFix)
		} else if a, noFix := fd.memReaderCallAdvice(fn); a != "" {
			advice = fd.avoid(InMemoryReader, a, noFix)
		} else {
			advice = fd.keep(fd.funcKind(fn))
		}
		if loc := fd.storedIn(); loc != "" && fn != nil && fd.inlinedName(loc) {
			// "stored in textproto.h[...]" names the callee's
			// variables: say who stores it.
			why = "because " + fd.funcName(fn) + " stores it"
		}
	} else if inlined && fd.grownKept {
		fd.fix, advice = "", fd.proven("the called function grows the slice it keeps, its own storage")
		fd.amortize(growReason)
	}
	if fd.fix == "" && fd.inherent == "" {
		advice = fd.keep("no change in this code is identified that removes it")
	}
	if fd.kind == NoRewrite && !other && fd.poolNew() {
		advice = fd.proven("it is what the sync.Pool's New function makes when the pool is empty, the value the pool exists to keep")
	} else if fd.kind == NoRewrite && !other && fd.poolFill() {
		advice = fd.proven("it is made only when the sync.Pool's Get gives nothing, as a New function would make it, and the pool gives it out again after Put")
	}
	if fd.fix != "" && fd.reason == errorPath {
		advice = "this runs only on an error path (returning an error, panicking, exiting or failing a test), which is rarely worth optimizing"
		fd.suggested = nil
	} else if fd.fix != "" && fd.suggested == nil {
		// Say why the change is left to the user, so that a finding
		// without a fix is known to have been considered for one.
		advice += "; no automatic fix: " + orDefault(fd.noFix, "none is implemented for this change")
	}
	if gone {
		if fd.fix == "" || fd.reason == errorPath {
			return "", false
		}
		// The change is made here, in the one body of all the inlined
		// copies: it is reported here, once, for the copies at the
		// calls (which run uses to drop theirs), with the tier the
		// callers give it.
		fd.res.inlinedBodies[fd.rec.TokPos] = true
	}
	if why == "" {
		why = "because " + orDefault(fd.explanationDetail(), "the compiler's escape analysis could not keep it on the stack")
	}
	fd.advice = advice
	return prefix + subject + " " + why + "; " + advice, true
}

// avoid records that the allocation is avoidable by the change that
// advice describes, and why no fix makes that change (noFix, "" when a
// fix may), and returns advice.
func (fd *finding) avoid(id kind.ID, advice, noFix string) string {
	fd.kind, fd.class = id, ""
	fd.fix, fd.inherent, fd.noFix, fd.suggested = advice, "", noFix, nil
	return advice
}

// avoidFix is avoid for advice whose fix, if any, is set already in
// fd.suggested.
func (fd *finding) avoidFix(id kind.ID, advice, noFix string) string {
	fix := fd.suggested
	fd.avoid(id, advice, noFix)
	fd.suggested = fix
	return advice
}

// keep records that no rewrite is known for the allocation, for the
// reason given, and returns the advice that says so.
func (fd *finding) keep(reason string) string {
	fd.kind, fd.class = NoRewrite, ""
	fd.fix, fd.inherent, fd.noFix, fd.suggested = "", reason, "", nil
	fd.blocked, fd.costNS = "", 0
	return "no known rewrite: " + reason
}

// proven records that the allocation is inherent, for a reason proven in
// the code (it is the value the function exists to return, or it is kept
// in a container that outlives the call), and returns the advice that
// says so.
func (fd *finding) proven(reason string) string {
	fd.kind, fd.class = Inherent, "inherent"
	fd.fix, fd.inherent, fd.noFix, fd.suggested = "", reason, "", nil
	fd.blocked, fd.costNS = "", 0
	return "inherent: " + reason
}

// funcKind says why an allocation inside fn, a function of another
// package called here, is inherent.
func (fd *finding) funcKind(fn *types.Func) string {
	if fn != nil && constructor(fn) {
		return "the called constructor allocates the value it returns"
	}
	return "the allocation is inside the called function"
}

// inlinedAdvice returns the change that avoids an allocation inlined from
// another package (fn, nil if unknown), whose code the user cannot change,
// and why no fix makes it, or "" if none is identified: only a call in a
// loop is changed, by resetting one value (a result type with a Reset
// method, such as bytes.Reader) or hoisting a call whose arguments do not
// change.
func (fd *finding) inlinedAdvice(fn *types.Func) (advice, noFix string) {
	if fd.tier != hotpath.Loop {
		return "", ""
	}
	hasResult := fn == nil || fn.Type().(*types.Signature).Results().Len() > 0
	// A call without a result (h.Add) runs for its effect, and must run
	// per iteration; a result kept beyond the iteration must be fresh.
	call := callAt(fd.path, fd.rec.TokPos)
	loop := fd.enclosingLoop()
	if call == nil || loop == nil || !hasResult || !fd.iterationLocal(call) {
		return "", ""
	}
	if t := fd.pass.TypesInfo.TypeOf(call); hasReset(t) {
		name := strings.TrimPrefix(types.TypeString(t, (*types.Package).Name), "*")
		return "the allocation is inside the called function: create one " + name +
				" before the loop and call its Reset method in each iteration instead, which saves one allocation per iteration",
			"what Reset takes need not be what the constructor takes"
	}
	if fd.loopInvariant(call, loop) {
		return "the allocation is inside the called function, whose arguments do not change in the loop: hoist the call out of the loop and reuse its result, which saves one allocation per iteration",
			"whether one result can serve every iteration depends on what the called function does"
	}
	return "", ""
}

// scratchAdvice returns the advice for a struct variable whose address is
// passed, as a scratch value to fill in, to a method of an interface of
// the package's module, when the code reads only scalar fields of it, or
// of the pointer of its type that the method returns: through an
// interface every argument escapes, so the scratch value is moved to the
// heap on every call; a method returning those scalars alone takes no
// pointer.
func (fd *finding) scratchAdvice() (advice, noFix string) {
	v := fd.movedVar()
	body := fd.funcBody()
	if v == nil || body == nil || fd.tier < hotpath.PerItem {
		return "", ""
	}
	if _, ok := v.Type().Underlying().(*types.Struct); !ok {
		return "", ""
	}
	info := fd.pass.TypesInfo
	ptr := types.NewPointer(v.Type())
	// The one call &v is passed to, and the variables its results of
	// type *T are assigned to.
	var call *ast.CallExpr
	var method *types.Func
	results := make(map[types.Object]bool)
	fields := make(map[string]bool)
	bodyCur, ok := fd.find.FindNode(body)
	if !ok {
		return "", ""
	}
	for c := range bodyCur.Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		if info.Defs[id] != nil {
			continue // a declaration
		}
		obj := info.Uses[id]
		parent := ancestor(c, 1)
		if v != obj && !results[obj] {
			continue
		}
		if sel, isSel := parent.(*ast.SelectorExpr); isSel && sel.X == id && scalarField(info, sel) {
			fields[sel.Sel.Name] = true
			if as, isAs := ancestor(c, 2).(*ast.AssignStmt); isAs && slices.Contains(as.Lhs, ast.Expr(sel)) {
				return "", "" // written, not read
			}
			continue
		}
		if results[obj] {
			if b, isB := parent.(*ast.BinaryExpr); isB && (b.Op == token.EQL || b.Op == token.NEQ) {
				continue // compared with nil
			}
			return "", ""
		}
		// &v, passed to one interface method of the module.
		u, isU := parent.(*ast.UnaryExpr)
		cl, isCall := ancestor(c, 2).(*ast.CallExpr)
		if !isU || u.Op != token.AND || call != nil || !isCall || !slices.Contains(cl.Args, ast.Expr(u)) {
			return "", ""
		}
		m, isFn := typeutil.Callee(info, cl).(*types.Func)
		if !isFn {
			return "", "" // a function value
		}
		sig, _ := m.Type().(*types.Signature)
		if sig == nil || sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || m.Pkg() == nil || !fd.inModule(m.Pkg()) {
			return "", ""
		}
		call, method = cl, m
		// The results of type *T.
		if as, isAs := ancestor(c, 3).(*ast.AssignStmt); isAs && len(as.Rhs) == 1 && as.Rhs[0] == cl {
			for i, l := range as.Lhs {
				if i < sig.Results().Len() && types.Identical(sig.Results().At(i).Type(), ptr) {
					if lid, isLid := l.(*ast.Ident); isLid && lid.Name != "_" {
						results[info.ObjectOf(lid)] = true
					}
				}
			}
		}
	}
	if call == nil || len(fields) == 0 || len(fields) > 3 {
		return "", ""
	}
	names := slices.Sorted(maps.Keys(fields))
	qual, _ := syntax.Qualifier(fd.pass, fd.rec.TokPos)
	var api string
	if iface := exportedInterface(method); iface != "" {
		// Other modules may implement it: the new method breaks them.
		fd.api = true
		api = " (API change: " + iface + " is exported, and its implementations in other modules lack the method)"
	}
	return fmt.Sprintf("only %s of the %s that %s fills in is read: a method that returns %s alone would take no pointer, and through an interface every pointer argument escapes, which saves moving %s to the heap per call%s",
			strings.Join(names, ", "), types.TypeString(v.Type(), qual), fd.funcName(method), map[bool]string{true: "it", false: "them"}[len(names) == 1], v.Name(), api),
		"the change adds a method to the interface and to its implementations"
}

// exportedInterface returns the name of the interface type that declares
// the interface method m when other modules can implement it: it is
// exported, from a package they can import (not internal to the module,
// not a main); "" otherwise.
func exportedInterface(m *types.Func) string {
	recv := m.Type().(*types.Signature).Recv()
	named, ok := recv.Type().(*types.Named)
	if !ok || !named.Obj().Exported() || named.Obj().Pkg() == nil {
		return ""
	}
	if !importable(named.Obj().Pkg()) {
		return ""
	}
	return named.Obj().Name()
}

// importable reports whether other modules can import pkg: it is not a
// main package, nor internal to its module.
func importable(pkg *types.Package) bool {
	return pkg.Name() != "main" && !slices.Contains(strings.Split(pkg.Path(), "/"), "internal")
}

// ancestor returns the node k levels above c's (its parent for 1), or nil
// above the root.
func ancestor(c inspector.Cursor, k int) ast.Node {
	for range k {
		if c.Node() == nil {
			return nil
		}
		c = c.Parent()
	}
	return c.Node()
}

// scalarField reports whether sel selects a field of a basic type.
func scalarField(info *types.Info, sel *ast.SelectorExpr) bool {
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return false
	}
	_, basic := s.Type().Underlying().(*types.Basic)
	return basic
}

// inModule reports whether pkg is of the module of the package being
// analysed (its own package when the driver does not say the module).
func (fd *finding) inModule(pkg *types.Package) bool {
	if pkg == fd.pass.Pkg {
		return true
	}
	m := fd.pass.Module
	return m != nil && m.Path != "" && (pkg.Path() == m.Path || strings.HasPrefix(pkg.Path(), m.Path+"/"))
}

// callerBufferAdvice returns the advice for a string or []byte that an
// unexported function builds and returns (the compiler's flow ends in a
// return) when every call of the function in the package only appends
// the result to something longer: an operand of +, WriteString's or
// Write's argument, append(b, s...)'s, copy's source. The result lives for
// one statement; an append-style function (appending to the caller's
// buffer and returning it, as strconv.AppendInt does) writes it in place.
func (fd *finding) callerBufferAdvice() (advice, noFix string) {
	if fd.rec.Sink != optlog.SinkReturn {
		return "", ""
	}
	var decl *ast.FuncDecl
	for _, n := range fd.path {
		if _, ok := n.(*ast.FuncLit); ok {
			return "", ""
		}
		if d, ok := n.(*ast.FuncDecl); ok {
			decl = d
			break
		}
	}
	if decl == nil || decl.Name.IsExported() || decl.Type.Results.NumFields() != 1 {
		return "", ""
	}
	info := fd.pass.TypesInfo
	fn, _ := info.Defs[decl.Name].(*types.Func)
	if fn == nil {
		return "", ""
	}
	res := fn.Signature().Results().At(0).Type()
	what := ""
	switch {
	case syntax.IsString(res):
		what = "string"
	case syntax.IsByteSlice(res):
		what = "byte slice"
	default:
		return "", ""
	}
	where, seen := fd.res.extended[fn]
	if !seen {
		where = fd.extendedAt(fn)
		if fd.res.extended == nil {
			fd.res.extended = make(map[*types.Func]string)
		}
		fd.res.extended[fn] = where
	}
	if where == "" {
		return "", ""
	}
	return fmt.Sprintf("every call of %s appends the %s it returns to something longer (%s): have it append to the caller's buffer instead (a []byte it appends to and returns, as strconv.AppendInt does, or a *bytes.Buffer or *strings.Builder parameter), which saves building this %s per call", decl.Name.Name, what, where, what),
		"the change touches the function's signature and its callers"
}

// extendedAt returns where the first call of fn is, when every use of fn
// in the package calls it and appends the result to something longer
// (see appendedTo); "" otherwise.
func (fd *finding) extendedAt(fn *types.Func) string {
	info := fd.pass.TypesInfo
	var where string
	for c := range fd.find.Root().Preorder((*ast.Ident)(nil)) {
		id := c.Node().(*ast.Ident)
		if info.Uses[id] != fn {
			continue
		}
		// The use must be the callee of a call (f(x), or x.f(y) through
		// its selector) whose result is appended.
		callee := c
		if sel, isSel := ancestor(c, 1).(*ast.SelectorExpr); isSel && sel.Sel == id {
			callee = c.Parent()
		}
		call, isCall := ancestor(callee, 1).(*ast.CallExpr)
		if !isCall || ast.Unparen(call.Fun) != callee.Node() || !appendedTo(info, call, ancestor(callee, 2)) {
			return ""
		}
		if where == "" {
			where = fd.pass.Fset.Position(call.Pos()).String()
			where = where[strings.LastIndexByte(where, '/')+1:]
		}
	}
	return where
}

// appendedTo reports whether call, a call of a string or []byte result
// whose parent node is parent, is only appended to something longer: an
// operand of string concatenation (or +=), the argument of a WriteString
// or Write method, the elements of append(b, x...), the source of copy.
func appendedTo(info *types.Info, call *ast.CallExpr, parent ast.Node) bool {
	t := info.TypeOf(call)
	str, bytes := syntax.IsString(t), syntax.IsByteSlice(t)
	if !str && !bytes {
		return false
	}
	switch p := parent.(type) {
	case *ast.BinaryExpr:
		return str && p.Op == token.ADD
	case *ast.AssignStmt:
		return str && p.Tok == token.ADD_ASSIGN && len(p.Rhs) == 1 && p.Rhs[0] == call
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(p.Fun).(*ast.SelectorExpr); ok && len(p.Args) == 1 && p.Args[0] == call {
			if str && sel.Sel.Name == "WriteString" || bytes && sel.Sel.Name == "Write" {
				return true
			}
		}
		if syntax.IsBuiltin(info, p.Fun, "append") && p.Ellipsis.IsValid() && len(p.Args) == 2 && p.Args[1] == call {
			return true
		}
		return syntax.IsBuiltin(info, p.Fun, "copy") && len(p.Args) == 2 && p.Args[1] == call
	}
	return false
}

// capturedLitAdvice returns the advice for a function literal that is
// allocated only because another closure, which outlives the call,
// captures it: when the variables it captures are never reassigned, a
// function (or method) taking them as parameters computes the same, and
// a declared function is not allocated. The literal is allocated on every
// call, whether or not the closure that captures it ever runs.
func (fd *finding) capturedLitAdvice() (advice, noFix string) {
	var lit *ast.FuncLit
	for _, n := range fd.path {
		if l, ok := n.(*ast.FuncLit); ok && l.Pos() == fd.rec.TokPos {
			lit = l
			break
		}
	}
	body := fd.funcBody()
	if lit == nil || body == nil || fd.tier < hotpath.Unknown {
		return "", ""
	}
	as, ok := fd.parentOf(lit).(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || as.Tok != token.DEFINE {
		return "", ""
	}
	name, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return "", ""
	}
	info := fd.pass.TypesInfo
	// The variables of the enclosing function that the literal uses.
	var captured []*types.Var
	seen := make(map[*types.Var]bool)
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || seen[v] || v.Pos() >= lit.Pos() && v.Pos() < lit.End() || v.Parent() == v.Pkg().Scope() {
			return true
		}
		seen[v] = true
		captured = append(captured, v)
		return true
	})
	if len(captured) == 0 || len(captured) > 4 {
		return "", ""
	}
	// Each must keep its value: no assignment after its declaration, no
	// address taken, inside the literal or out.
	outer := fd.outermostBody()
	if !onlyCalled(info, outer, info.Defs[name]) {
		return "", "" // passed on as a value: its type is fixed
	}
	for _, v := range captured {
		if assignedOrAddressed(info, outer, v) {
			return "", ""
		}
	}
	var names []string
	for _, v := range captured {
		names = append(names, v.Name())
	}
	return fmt.Sprintf("%s is allocated on every call only because a closure that outlives the call captures it, and what it captures (%s) is never reassigned: declare it as a function or method taking %s as parameters, which is not allocated",
			name.Name, strings.Join(names, ", "), strings.Join(names, ", ")),
		"the rewrite changes every call of " + name.Name
}

// onlyCalled reports whether every use of obj in body calls it.
func onlyCalled(info *types.Info, body *ast.BlockStmt, obj types.Object) bool {
	if body == nil || obj == nil {
		return false
	}
	called := make(map[*ast.Ident]bool)
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID {
				called[id] = true
			}
		case *ast.Ident:
			if info.Uses[n] == obj && !called[n] {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// outermostBody returns the body of the declared function enclosing the
// record, through any function literals, or nil.
func (fd *finding) outermostBody() *ast.BlockStmt {
	for i := len(fd.path) - 1; i >= 0; i-- {
		if d, ok := fd.path[i].(*ast.FuncDecl); ok {
			return d.Body
		}
	}
	return fd.funcBody()
}

// assignedOrAddressed reports whether v is assigned in body other than
// by its declaration, incremented, or has its address taken, explicitly or
// by a call of a method with a pointer receiver.
func assignedOrAddressed(info *types.Info, body *ast.BlockStmt, v *types.Var) bool {
	if body == nil {
		return true
	}
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	_, ptrVar := v.Type().Underlying().(*types.Pointer)
	return syntax.Changes(body, is, func(sel *ast.SelectorExpr) bool {
		// A method with a pointer receiver called on the variable takes
		// its address (once.Do, value.Store): passed by value instead,
		// the copy would be what the method changes.
		s, ok := info.Selections[sel]
		if !ok || s.Kind() == types.FieldVal {
			return false
		}
		sig, ok := s.Obj().Type().(*types.Signature)
		if !ok || sig.Recv() == nil {
			return false
		}
		_, ptrRecv := sig.Recv().Type().(*types.Pointer)
		return ptrRecv && !ptrVar
	})
}

// inMemoryReaderAdvice returns the advice for the reader or the buffer of
// bufio.NewReader, bufio.NewReaderSize or textproto.NewReader over
// bytes.NewReader or strings.NewReader of data already in memory: the
// buffered reader copies the bytes into a buffer of its own only to hand
// them back, where slicing the data itself (bytes.IndexByte, bytes.Cut)
// allocates nothing. fn is the inlined function that allocates.
func (fd *finding) inMemoryReaderAdvice(fn *types.Func) (advice, noFix string) {
	if fn == nil || fn.Pkg() == nil || fd.tier < hotpath.PerItem {
		return "", ""
	}
	call := callAt(fd.path, fd.rec.TokPos)
	if call == nil {
		return "", ""
	}
	info := fd.pass.TypesInfo
	name := fn.Pkg().Path() + "." + fn.Name()
	var src *ast.CallExpr // bytes.NewReader(data) or strings.NewReader(s)
	switch name {
	case "bytes.NewReader", "strings.NewReader":
		// The reader itself, when bufio wraps it at once.
		if outer, ok := fd.parentOf(call).(*ast.CallExpr); ok && isBuffering(info, outer) {
			src = call
		}
	case "bufio.NewReader", "bufio.NewReaderSize":
		if len(call.Args) > 0 {
			if c, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr); ok && isMemReader(info, c) {
				src = c
			}
		}
	default:
		// A line read through a reader parameter that every call of the
		// function builds over data in memory (nats.go's readMIMEHeader,
		// given textproto.NewReader(bufio.NewReaderSize(bytes.NewReader(data)))).
		if strings.HasPrefix(fn.FullName(), "(*net/textproto.Reader).Read") || strings.HasPrefix(fn.FullName(), "(*bufio.Reader).Read") {
			if m := fd.memReaderParam(call); m != nil && len(m.Args) == 1 {
				r := types.ExprString(ast.Unparen(call.Fun).(*ast.SelectorExpr).X)
				return "every call of this function passes " + r + " over " + types.ExprString(m) + ", data already in memory, which the readers copy into buffers of their own only to hand it back: pass the data and split it itself (bytes.IndexByte, bytes.Cut, strings.Cut), which saves the copies per line",
					"the rewrite replaces the code that reads through the reader"
			}
		}
	}
	if src == nil || len(src.Args) != 1 {
		return "", ""
	}
	data := types.ExprString(src.Args[0])
	// The reader and the buffered reader over it go with one change:
	// one finding.
	fd.group = "in-memory reader at " + fd.pass.Fset.Position(src.Pos()).String()
	return "the data is already in memory: bufio copies " + data + " into a buffer of its own only to hand it back; split " + data +
			" itself (bytes.IndexByte, bytes.Cut, strings.Cut), which saves the reader and its buffer per call",
		"the rewrite replaces the code that reads through the reader"
}

// memReaderParam returns, when call is a method call on a parameter of
// the unexported function enclosing it and every call of that function in
// the package passes a reader built over data in memory
// (textproto.NewReader or bufio.NewReader of bytes.NewReader(x), through
// local variables), the bytes.NewReader or strings.NewReader call of the
// first; nil otherwise.
func (fd *finding) memReaderParam(call *ast.CallExpr) *ast.CallExpr {
	info := fd.pass.TypesInfo
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	var decl *ast.FuncDecl
	for _, n := range fd.path {
		if d, isDecl := n.(*ast.FuncDecl); isDecl {
			decl = d
		}
	}
	if decl == nil || decl.Name.IsExported() || decl.Recv != nil {
		return nil
	}
	idx, i := -1, 0
	for _, field := range decl.Type.Params.List {
		for _, name := range field.Names {
			if info.Defs[name] == info.Uses[id] {
				idx = i
			}
			i++
		}
	}
	fn, _ := info.Defs[decl.Name].(*types.Func)
	if idx < 0 || fn == nil {
		return nil
	}
	var first *ast.CallExpr
	ok = true
	calls := 0
	for _, f := range fd.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if !ok {
				return false
			}
			switch n := n.(type) {
			case *ast.Ident:
				if info.Uses[n] == fn {
					calls++ // every use must be one of the calls below
				}
			case *ast.CallExpr:
				if cid, isID := ast.Unparen(n.Fun).(*ast.Ident); isID && info.Uses[cid] == fn {
					calls--
					if idx >= len(n.Args) {
						ok = false
						return false
					}
					m := memSource(info, f, n.Args[idx], 0)
					if m == nil {
						ok = false
						return false
					}
					if first == nil {
						first = m
					}
				}
			}
			return true
		})
	}
	if !ok || calls != 0 || first == nil {
		return nil
	}
	return first
}

// memSource follows e, a reader, through textproto.NewReader,
// bufio.NewReader(Size) and local variables defined once in file, to a
// bytes.NewReader or strings.NewReader call, which it returns; nil if e
// is not such a reader.
func memSource(info *types.Info, file *ast.File, e ast.Expr, depth int) *ast.CallExpr {
	if depth > 4 {
		return nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if isMemReader(info, e) {
			return e
		}
		fn, ok := typeutil.Callee(info, e).(*types.Func)
		if !ok || fn.Pkg() == nil || len(e.Args) == 0 {
			return nil
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "net/textproto.NewReader", "bufio.NewReader", "bufio.NewReaderSize":
			return memSource(info, file, e.Args[0], depth+1)
		}
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		if !ok {
			return nil
		}
		var def ast.Expr
		n := 0
		ast.Inspect(file, func(x ast.Node) bool {
			if as, isAs := x.(*ast.AssignStmt); isAs {
				for i, l := range as.Lhs {
					if lid, isID := l.(*ast.Ident); isID && info.ObjectOf(lid) == v {
						n++
						if len(as.Lhs) == len(as.Rhs) {
							def = as.Rhs[i]
						}
					}
				}
			}
			return true
		})
		if n != 1 || def == nil {
			return nil
		}
		return memSource(info, file, def, depth+1)
	}
	return nil
}

// isBuffering reports whether call is bufio.NewReader or
// bufio.NewReaderSize.
func isBuffering(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "bufio" && (fn.Name() == "NewReader" || fn.Name() == "NewReaderSize")
}

// isMemReader reports whether call is bytes.NewReader or
// strings.NewReader.
func isMemReader(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Pkg() != nil && (fn.Pkg().Path() == "bytes" || fn.Pkg().Path() == "strings") && fn.Name() == "NewReader"
}

// explain returns why the value escapes ("because ...") and the advice,
// setting fd.fix when a change is identified that removes the allocation.
func (fd *finding) explain(ctor *types.Func, part string) (why, advice string) {
	rec := fd.rec
	detail := fd.explanationDetail()
	if a, noFix := fd.deadAdvice(); a != "" {
		why := "because the variable it initialises escapes"
		if detail != "" {
			why += " (" + detail + ")"
		}
		return why, fd.avoidFix(DeadAlloc, a, noFix)
	}
	switch {
	case ctor != nil && part != "":
		why := "because it is part of " + part + ", which " + fd.funcName(ctor) + " returns"
		if a, noFix := fd.byValueAdvice(); a != "" {
			return why, fd.avoid(FieldByValue, a, noFix)
		}
		return why, fd.proven("it is part of the value the function returns")
	case ctor != nil:
		if then := fd.afterReturn(ctor); then != "" {
			// The compiler analyses the function with its caller (they
			// call each other) and its flow goes on past the return.
			return "because " + fd.funcName(ctor) + " returns it and " + then, fd.proven("it is the value the function returns, and a caller keeps it")
		}
		return "because " + fd.funcName(ctor) + " returns it", fd.proven("it is the value the function returns")
	}
	if fd.deepEqualCall() {
		return "because it is converted to an interface to be passed to reflect.DeepEqual",
			fd.avoid(TypedCompare, "compare with a function written for the type instead, which boxes nothing (no direct comparison means the same as DeepEqual here, so the deepequal analyzer proposes none)",
				"what equality means for the type is for its author to decide")
	}
	if rec.Name == "func literal" && rec.Cause == optlog.CauseInterfaceMethodCall {
		if a, noFix := fd.closureAdvice(); a != "" {
			return "because " + itIs(orDefault(detail, "passed to a dynamic call")) + ", which the compiler cannot see through", fd.avoid(ClosureOnce, a, noFix)
		}
	}
	if rec.Name == "func literal" && rec.Cause == optlog.CauseReturnedOrStored {
		why := "because " + itIs(orDefault(detail, "returned or stored")) + " and outlives the call"
		if rec.Sink == optlog.SinkReturn && fd.inlinableIterator() {
			return why, fd.proven(iteratorClosure)
		}
		if a, noFix := fd.closureAdvice(); a != "" {
			return why, fd.avoid(ClosureOnce, a, noFix)
		}
		if rec.Sink == optlog.SinkReturn {
			return why, fd.proven("the closure is the value the function returns")
		}
		return why, fd.keep("the closure is what the code keeps")
	}
	switch rec.Cause {
	case optlog.CauseInterfaceConversion:
		why = "because " + itIs(orDefault(detail, "converted to an interface"))
		if call := fd.flowCall(); call != nil {
			// Name the function the user called, not an inlined helper
			// ("fmt.errorf").
			if fn, ok := typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func); ok {
				why = "because it is converted to an interface and passed to " + fd.funcName(fn)
			}
		}
		if a, noFix := fd.sortAdvice(); a != "" {
			return why, fd.avoidFix(SlicesSort, a, noFix)
		}
		return why, fd.keep("the interface value is what the code passes on or keeps")
	case optlog.CauseInterfaceMethodCall:
		why = "because " + itIs(orDefault(detail, "passed to a dynamic call")) + ", which the compiler cannot see through"
		if rec.Name == "... argument" {
			return why, fd.keep("the variadic arguments of a dynamic call are allocated for each call")
		}
		if a, noFix := fd.bufferAdvice(); a != "" {
			return why, fd.avoid(FieldBuffer, a, noFix)
		}
		return why, fd.keep("the dynamic call may keep it")
	case optlog.CauseReturnedOrStored:
		if l, callee, ok := fd.calleeLeak(); ok && fd.sinkIsCall() {
			return fd.leakText(l, callee, "it")
		}
		why = "because " + itIs(orDefault(detail, "returned or stored outside the function"))
		if c := containerOf(rec); c != "" {
			if a, noFix := fd.byValueAdvice(); a != "" {
				return "because it is stored in " + c + ", which escapes", fd.avoid(FieldByValue, a, noFix)
			}
			return "because it is stored in " + c + ", which escapes", fd.proven("it escapes with its container")
		}
		if a, noFix := fd.reuseAdvice(); a != "" {
			return why, fd.avoidFix(ReuseField, a, noFix)
		}
		if hasReason(rec, "interface-converted") && !hasReason(rec, "return") {
			// A pointer stored in an interface that outlives the call: by
			// value, it would be boxed on the heap all the same, and the
			// value kept must be fresh.
			return why, fd.keep("it is kept in an interface")
		}
		if hasReason(rec, "return") {
			if a, noFix := fd.callerBufferAdvice(); a != "" {
				return why, fd.avoid(AppendAPI, a, noFix)
			}
			return why, fd.keep("the function returns it")
		}
		// Storing it by value would change the type of what holds it
		// (a map's values, a field), and with it every use: writes
		// through the pointer, identity. Not shown unless that is
		// checked (see the byvalue kinds of issue #23).
		return why, fd.keep("the code keeps it; storing it by value would change every use of what holds it")
	case optlog.CauseTooLarge:
		why = "because it is too large for the stack"
		if fd.callLocal(fd.allocExpr()) {
			return why, fd.avoid(ReuseLargeBuffer, "it does not outlive the call: reuse one buffer across calls (a field of the receiver or a sync.Pool), which saves allocating and zeroing it per call",
				"where to keep the buffer, and how concurrent calls share it, is a design choice")
		}
		return why, fd.keep("it outlives the call")
	case optlog.CauseNonConstantMake:
		return "because its size is not a constant", fd.keep("its size is known only at run time")
	case optlog.CauseAppend:
		if a, noFix := fd.resetFieldAdvice(); a != "" {
			return "because append grows it", fd.avoidFix(ResetSlice, a, noFix)
		}
		if fd.growsField() {
			// x.f = append(x.f, ...), x.f = append(x.f[:0], ...): the
			// data structure's own storage, kept and grown in place.
			fd.amortize(growReason)
			return "because append grows it", fd.proven(ownStorage)
		}
		if target := fd.growGuard(fd.exprAt()); target != "" {
			// "if n <= cap(b) { return b[:n] }" before: append
			// grows b only when the code found it too small.
			fd.amortize(lazyReason(target))
			return "because append grows it", fd.keep("it grows only when its capacity is short")
		}
		if found, estimated := fd.presized(); found {
			// make(T, 0, n) before: append grows it only past n, which
			// the code chose. With n computed from the input
			// (len(args)), growth is the exception: amortized.
			if estimated {
				fd.amortize(presizeReason)
			}
			return "because append grows it", fd.keep("the slice is presized")
		}
		if c := containerOf(rec); c != "" {
			if strings.HasPrefix(rec.Name, "append(([]") && strings.Contains(rec.Name, ")(nil), ") {
				// append([]T(nil), s...): the idiom for a copy.
				return "because the copy is stored in " + c + ", which escapes", fd.keep("the copy is kept")
			}
			fd.grownKept = true
			return "because append grows it and it is stored in " + c + ", which escapes", fd.proven("it escapes with its container")
		}
		why = "because append grows it"
		if detail != "" {
			why += " and " + itIs(detail)
		}
		if a, noFix := fd.startCapAdvice(); a != "" {
			return why, fd.avoid(StackCapacity, a, noFix)
		}
		if a, noFix := fd.callerBufferAdvice(); a != "" {
			return why, fd.avoid(AppendAPI, a, noFix)
		}
		if fd.growsCallerBuffer() {
			return why, fd.proven(appendStyle)
		}
		return why, fd.keep("its final size is not known before the appends")
	case optlog.CauseAddressStored:
		if l, callee, ok := fd.calleeLeak(); ok && fd.sinkIsCall() {
			return fd.leakText(l, callee, "its address")
		}
		why = "because " + orDefault(detail, "its address outlives the function")
		if a, noFix := fd.scratchAdvice(); a != "" {
			return why, fd.avoid(NarrowResult, a, noFix)
		}
		// Storing the value instead (x.f = v) would change the type of
		// what holds it and every use of it: not shown (see the
		// byvalue kinds of issue #23).
		return why, fd.keep("its address is what the code keeps or passes on")
	case optlog.CauseClosure:
		if body, inLoop := fd.makerOfLit(); body != nil && body == fd.outermostBody() && !inLoop && sessionFunc(fd.pass.TypesInfo, body) {
			// badger's doWrites and go-redis's full-duplex session make
			// their closures once, then serve until the session ends.
			return "because it is captured by a closure that outlives the call", fd.keep("it is made once per call of a function that then runs an event loop or waits for the goroutines it starts, a small share of what such a call costs")
		}
		if a, noFix := fd.capturedLitAdvice(); a != "" {
			return "because it is captured by a closure that outlives the call", fd.avoid(NamedFunc, a, noFix)
		}
		return "because it is captured by a closure that outlives the call", fd.keep("the closure shares it")
	case optlog.CauseGoDefer:
		return "because a go or defer statement uses it", fd.keep("the goroutine or deferred call uses it")
	}
	// The compiler's flow did not name a cause goadvise knows.
	if c := containerOf(rec); c != "" {
		return "because it is stored in " + c + ", which escapes", fd.proven("it escapes with its container")
	}
	if detail != "" {
		return "(compiler: " + detail + ")", fd.keep("no change in this code is identified that removes it")
	}
	return "(the compiler's escape analysis could not keep it on the stack)", fd.keep("no change in this code is identified that removes it")
}

// sinkIsCall reports whether the compiler's flow ends in a call that the
// value is passed to: only then is the callee why it escapes (a value
// passed to a function that keeps nothing and then returned escapes by
// the return).
func (fd *finding) sinkIsCall() bool {
	switch fd.rec.Sink {
	case optlog.SinkCallee, optlog.SinkDynamicCall, optlog.SinkUnknown:
		return true
	}
	return false
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
		why = "because " + name + " passes " + what + " to " + kind + " (" + l.via + ") the compiler cannot see through"
		if a, noFix := fd.bufferAdvice(); a != "" {
			return why, fd.avoid(FieldBuffer, a, noFix)
		}
		return why, fd.keep("the dynamic call may keep it")
	case leakIfaceRecv:
		return "because " + name + " calls its methods through an interface (" + l.via + ") the compiler cannot see through",
			fd.keep(name + " takes it as an interface")
	case leakIfaceParam:
		return "because " + what + " is passed as an interface value to " + name + ", which lets it escape",
			fd.keep(name + " takes it as an interface and needs it")
	case leakRecvField:
		return "because " + what + " is passed to " + name + ", which keeps it in its receiver's field " + l.via,
			fd.keep(name + " keeps it")
	}
	why = "because " + what + " is passed to " + name + ", which lets it escape"
	if fd.rec.Name == "... argument" {
		// The callee keeps the slice of its variadic arguments: that
		// is what calling it costs.
		return why, fd.keep(name + " keeps its variadic arguments")
	}
	if readsOnly[callee.FullName()] {
		if a := fd.zeroCopyAdvice(name); a != "" {
			return why, fd.avoid(ZeroCopyString, a, "the module's conversion shares the bytes; they must not change while "+name+" runs")
		}
		return why, fd.keep(name + " only reads it, but the compiler cannot see that; only an unsafe conversion would avoid the copy")
	}
	// The compiler says only that the callee lets it escape: why is in
	// the callee's own code, which its log, not this package's, explains.
	return why, fd.keep(name + " lets it escape, for a reason in its own code")
}

// readsOnly are functions of the standard library that the compiler says
// leak a string argument (they read it through an interface) although
// they keep nothing of it once they return.
var readsOnly = map[string]bool{
	"(*math/big.Int).SetString":   true,
	"(*math/big.Float).SetString": true,
	"(*math/big.Rat).SetString":   true,
	"(*math/big.Float).Parse":     true,
	"math/big.ParseFloat":         true,
}

// zeroCopyAdvice returns the advice for a conversion string(b) passed to a
// function that only reads it (name), when the module already has a
// zero-copy conversion of []byte to string (a function of that signature
// in this package or one it imports from the module, in a package that
// imports unsafe): the maintainers' own idiom removes the copy.
func (fd *finding) zeroCopyAdvice(name string) string {
	// The conversion: the compiler places it at its argument.
	info := fd.pass.TypesInfo
	var conv *ast.CallExpr
	for _, n := range fd.path {
		if c, isCall := n.(*ast.CallExpr); isCall {
			if tv, isType := info.Types[c.Fun]; isType && tv.IsType() {
				conv = c
			}
			break
		}
	}
	ok := conv != nil
	if !ok || len(conv.Args) != 1 {
		return ""
	}
	if tv, isType := info.Types[conv.Fun]; !isType || !tv.IsType() || !types.Identical(tv.Type.Underlying(), types.Typ[types.String]) {
		return ""
	}
	if _, isSlice := info.TypeOf(conv.Args[0]).Underlying().(*types.Slice); !isSlice {
		return ""
	}
	helper := fd.bytesToString()
	if helper == "" {
		return ""
	}
	return fmt.Sprintf("pass %s(%s) instead, the module's conversion without a copy, since %s only reads it, which saves copying the bytes per call",
		helper, types.ExprString(conv.Args[0]), name)
}

// bytesToString returns the name, as this package spells it, of a
// function of the module that converts a []byte to a string without a
// copy: func([]byte) string in this package, whose files import unsafe,
// with "str" in its name, or in a package of the module this one imports,
// with one of the names such conversions go by (BytesToString, B2S, ...).
// It returns "" if there is none.
func (fd *finding) bytesToString() string {
	own := slices.ContainsFunc(fd.pass.Files, func(f *ast.File) bool {
		return slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Path.Value == `"unsafe"` })
	})
	for _, p := range append([]*types.Package{fd.pass.Pkg}, fd.pass.Pkg.Imports()...) {
		if p == fd.pass.Pkg && !own || !fd.inModule(p) {
			continue
		}
		for _, n := range p.Scope().Names() {
			fn, ok := p.Scope().Lookup(n).(*types.Func)
			if !ok {
				continue
			}
			lower := strings.ToLower(fn.Name())
			if p == fd.pass.Pkg && !strings.Contains(lower, "str") || p != fd.pass.Pkg && !conversionNames[lower] {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if sig.Params().Len() != 1 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
				continue
			}
			if s, ok := sig.Params().At(0).Type().(*types.Slice); !ok || !types.Identical(s.Elem(), types.Typ[types.Byte]) {
				continue
			}
			if p == fd.pass.Pkg {
				return fn.Name()
			}
			return p.Name() + "." + fn.Name()
		}
	}
	return ""
}

// conversionNames are the names, in lower case, that zero-copy conversions
// of []byte to string go by in Go modules.
var conversionNames = map[string]bool{
	"bytestostring": true, "bytes2string": true, "b2s": true, "btos": true,
	"unsafestring": true, "bytestostr": true, "tostring": true, "unsafebytestostring": true,
}

// Why the changes that no fix of heapescape makes are left to the user.
const (
	bufferNoFix = "a field shared by calls would make the method unsafe for concurrent calls on one receiver"
	callerNoFix = "where the buffer lives is a choice of the callers"
)

// smallBuffer is the largest size in bytes of a buffer that heapescape
// advises to keep in the receiver.
const smallBuffer = 1 << 10

// bufferAdvice returns the fix for a buffer passed to a dynamic call that
// must not keep it (io.Reader.Read and the like, see noRetain): a buffer
// of constant, small size that does not outlive the call of a method with
// a pointer receiver can be an array field of the receiver, reused across
// calls; elsewhere (a function, a method on a value, a function literal
// run elsewhere) the caller can lend it, or a concrete reader can take the
// interface's place. It returns "" for anything else, and with the advice
// why heapescape makes no fix.
func (fd *finding) bufferAdvice() (advice, noFix string) {
	n, elem := fd.constBuffer()
	if n <= 0 {
		return "", ""
	}
	if v := fd.movedVar(); v != nil {
		if !fd.usesStayLocalIn(v) {
			return "", ""
		}
	} else if !fd.callLocal(fd.allocExpr()) {
		return "", ""
	}
	arr := fmt.Sprintf("[%d]%s", n, elem)
	pass := " and pass %s.buf[:]"
	if _, ok := fd.allocExpr().(*ast.CompositeLit); ok {
		pass = ", store the literal's elements in it and pass %s.buf[:]"
	}
	recv, typ, ptr := fd.methodReceiver()
	switch {
	case recv != "" && ptr:
		return fmt.Sprintf("keep a %s array field in %s"+pass+" (a name of your choice), which saves one allocation per call", arr, typ, recv), bufferNoFix
	case recv != "":
		// A copy of the receiver would hold the array: the method needs
		// the value itself. Other modules' uses of an exported type's
		// value change with its method set.
		fd.api = token.IsExported(typ) && importable(fd.pass.Pkg)
		change := "a method on *%s is not in %s's method set, so its users take a pointer"
		if fd.api {
			change = "API change: " + change
		}
		return fmt.Sprintf("give the method a pointer receiver (*%s), keep a %s array field in %s"+pass+" (a name of your choice), which saves one allocation per call ("+change+")", typ, arr, typ, recv, typ, typ), bufferNoFix
	}
	return fmt.Sprintf("the method's contract says it must not keep the buffer, but the compiler cannot see that: take the %s buffer from a caller that reuses it, which saves one allocation per call", arr), callerNoFix
}

// constBuffer returns the length and element type of the record's value
// when it is a slice made with a constant length (and capacity), or an
// array, of at most smallBuffer bytes; 0 otherwise.
func (fd *finding) constBuffer() (int64, string) {
	info := fd.pass.TypesInfo
	var t types.Type
	var n int64
	if v := fd.movedVar(); v != nil {
		arr, ok := v.Type().Underlying().(*types.Array)
		if !ok {
			return 0, ""
		}
		t, n = arr.Elem(), arr.Len()
	} else if lit, ok := fd.allocExpr().(*ast.CompositeLit); ok {
		// []byte{c}: a buffer as long as its elements.
		s, ok := info.TypeOf(lit).Underlying().(*types.Slice)
		if !ok {
			return 0, ""
		}
		for _, e := range lit.Elts {
			if _, ok := e.(*ast.KeyValueExpr); ok {
				return 0, ""
			}
		}
		t, n = s.Elem(), int64(len(lit.Elts))
	} else {
		call, ok := fd.allocExpr().(*ast.CallExpr)
		if !ok || !syntax.IsBuiltin(info, call.Fun, "make") || len(call.Args) < 2 {
			return 0, ""
		}
		s, ok := info.TypeOf(call).Underlying().(*types.Slice)
		if !ok {
			return 0, ""
		}
		for _, a := range call.Args[1:] {
			v := info.Types[a].Value
			if v == nil {
				return 0, ""
			}
			if m, ok := constant.Int64Val(v); ok && m > n {
				n = m
			}
		}
		t = s.Elem()
	}
	size, ok := bycopy.Size(t, fd.pass.TypesSizes)
	if n <= 0 || !ok || n*size > smallBuffer {
		return 0, ""
	}
	qual, _ := syntax.Qualifier(fd.pass, fd.rec.TokPos)
	return n, types.TypeString(t, qual)
}

// usesStayLocalIn reports whether every use of v, a variable of the
// enclosing function, keeps its value within the call.
func (fd *finding) usesStayLocalIn(v *types.Var) bool {
	body := fd.funcBody()
	return body != nil && fd.usesStayLocal(v, body)
}

// methodReceiver returns the name of the receiver of the method enclosing
// the record, its type's name and whether it is a pointer; "" if it is not
// such a method, or its receiver's type is not a named type of the
// package.
func (fd *finding) methodReceiver() (recv, typ string, ptr bool) {
	var decl *ast.FuncDecl
	for _, n := range fd.path {
		if lit, ok := n.(*ast.FuncLit); ok {
			if !fd.calledInPlace(lit) {
				return "", "", false
			}
			continue // it runs while the method does: a field serves it too
		}
		if d, ok := n.(*ast.FuncDecl); ok {
			decl = d
			break
		}
	}
	if decl == nil || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return "", "", false
	}
	name := decl.Recv.List[0].Names[0]
	if name.Name == "_" {
		return "", "", false
	}
	v := fd.pass.TypesInfo.Defs[name]
	if v == nil {
		return "", "", false
	}
	t := v.Type()
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != fd.pass.Pkg {
		return "", "", false
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return "", "", false // no field to hold the array
	}
	return name.Name, n.Obj().Name(), ptr
}

// calledInPlace reports whether the function literal lit runs only while
// the function that makes it does, and not at once with another call of
// it: it is called where it is written (func() {...}()), or bound to a
// local variable that the function only calls (read := func() {...};
// read()), never in a go or defer statement.
func (fd *finding) calledInPlace(lit *ast.FuncLit) bool {
	info := fd.pass.TypesInfo
	switch p := fd.parentOf(lit).(type) {
	case *ast.CallExpr:
		if ast.Unparen(p.Fun) != lit {
			return false
		}
		switch fd.parentOf(p).(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return false
		}
		return true
	case *ast.AssignStmt:
		if len(p.Lhs) != 1 || len(p.Rhs) != 1 || p.Tok != token.DEFINE {
			return false
		}
		id, ok := p.Lhs[0].(*ast.Ident)
		if !ok {
			return false
		}
		v := info.Defs[id]
		var body ast.Node
		for _, n := range fd.path {
			if d, ok := n.(*ast.FuncDecl); ok {
				body = d.Body
			}
		}
		if v == nil || body == nil {
			return false
		}
		ok = true
		var stack []ast.Node
		ast.Inspect(body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			use, isID := n.(*ast.Ident)
			if !isID || info.Uses[use] != v {
				return ok
			}
			// The use must be the function of a call that is not a go
			// or defer statement's.
			if len(stack) < 3 {
				ok = false
				return false
			}
			call, isCall := stack[len(stack)-2].(*ast.CallExpr)
			if !isCall || call.Fun != use {
				ok = false
				return false
			}
			switch stack[len(stack)-3].(type) {
			case *ast.GoStmt, *ast.DeferStmt:
				ok = false
			}
			return ok
		})
		return ok
	}
	return false
}

// sizedAtRunTime reports whether the allocation is a make whose size
// changes from one iteration of its loop to the next.
func (fd *finding) sizedAtRunTime() bool {
	call, ok := fd.allocExpr().(*ast.CallExpr)
	loop := fd.enclosingLoop()
	if !ok || loop == nil || !syntax.IsBuiltin(fd.pass.TypesInfo, call.Fun, "make") {
		return false
	}
	return !fd.loopInvariant(call, loop)
}

// poolNew reports whether the allocation is what the New function of a
// sync.Pool returns: it is in a function literal given as New in a
// sync.Pool literal, or assigned to a pool's New field, and the
// compiler's flow returns it (or it is in a return statement of the
// literal). The pool calls New only when it has nothing to give, and
// keeps what it makes for later Gets.
func (fd *finding) poolNew() bool {
	info := fd.pass.TypesInfo
	returned := hasReason(fd.rec, "return") || fd.rec.Sink == optlog.SinkReturn
	for i, n := range fd.path {
		switch n.(type) {
		case *ast.ReturnStmt:
			returned = true
		case *ast.FuncLit:
			if !returned || i+1 >= len(fd.path) {
				return false
			}
			switch p := fd.path[i+1].(type) {
			case *ast.KeyValueExpr:
				key, ok := p.Key.(*ast.Ident)
				if !ok || key.Name != "New" || i+2 >= len(fd.path) {
					return false
				}
				lit, ok := fd.path[i+2].(*ast.CompositeLit)
				return ok && syntax.IsSyncPool(info.TypeOf(lit))
			case *ast.AssignStmt:
				if len(p.Lhs) != len(p.Rhs) {
					return false
				}
				for j, r := range p.Rhs {
					if r != n {
						continue
					}
					sel, ok := ast.Unparen(p.Lhs[j]).(*ast.SelectorExpr)
					return ok && sel.Sel.Name == "New" && syntax.IsSyncPool(info.TypeOf(sel.X))
				}
			}
			return false
		case *ast.FuncDecl:
			return false
		}
	}
	return false
}

// amortize records that the allocation runs only when what it fills is
// missing or too small, not each time its code runs (kind.Fields.Amortized):
// how often that is depends on how long its owner lives, which the code
// does not say, so without a profile its tier is at most unknown, for
// reason. A profile measures it.
func (fd *finding) amortize(reason string) {
	fd.amortized = true
	if fd.tier > hotpath.Unknown && !fd.hot.Profiled() {
		fd.tier, fd.reason = hotpath.Unknown, reason
	}
}

// growReason is the tier reason of the growth of a slice that its owner
// keeps: append allocates only when it outgrows its capacity.
const growReason = "append allocates only when the kept slice outgrows its capacity, not each time the code runs"

// presizeReason is the tier reason of the growth of a slice made with a
// capacity the code computed for it.
const presizeReason = "append allocates only when the slice outgrows the capacity the code computed for it, not each time the code runs"

// lazyReason is the tier reason of an allocation that fills target only
// when the condition around it, which tests target, holds.
func lazyReason(target string) string {
	return "allocated only when the condition on " + target + " holds, not each time the code runs"
}

// afterReturn says where the compiler's flow goes after ctor returns the
// value, when it goes on into a caller analysed with it: "(*conn).grow
// passes it on at conn.go:27", or "a caller inlined at conn.go:15 stores
// it" when the step is in ctor's own body; "" when the flow ends at the
// return.
func (fd *finding) afterReturn(ctor *types.Func) string {
	var verb string
	switch fd.rec.Sink {
	case optlog.SinkReturn, optlog.SinkUnknown, optlog.SinkSize:
		return ""
	case optlog.SinkCallee, optlog.SinkDynamicCall, optlog.SinkGoDefer:
		verb = "passes it on"
	case optlog.SinkChannel:
		verb = "sends it on a channel"
	case optlog.SinkClosure:
		verb = "captures it in a closure"
	default:
		verb = "stores it"
	}
	pos := fd.sinkPos()
	if !pos.IsValid() {
		return ""
	}
	p := fd.pass.Fset.Position(pos)
	at := fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
	if cur, ok := fd.find.FindByPos(pos, pos+1); ok {
		for c := range cur.Enclosing((*ast.FuncDecl)(nil)) {
			d := c.Node().(*ast.FuncDecl)
			if fn, ok := fd.pass.TypesInfo.Defs[d.Name].(*types.Func); ok && fn != ctor {
				return fmt.Sprintf("%s %s at %s", fd.funcName(fn), verb, at)
			}
			break
		}
	}
	// The step is in the function itself: in a caller's code that the
	// compiler inlined there.
	return fmt.Sprintf("a caller inlined at %s %s", at, verb)
}
