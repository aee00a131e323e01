package heapescape

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/internal/bycopy"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/optlog"
)

// The compiler says where a value is allocated and why; what a developer
// may change about it depends on what the code does with the value. The
// functions of this file read the syntax around an allocation to decide
// which advice is true: whether the value outlives a loop iteration, whether
// the allocation is already lazy or grow-on-demand, and whether the
// compiler's "escapes to heap" is an allocation at all.

// nonAllocating reports whether the escaping value is an interface
// conversion that the compiler implements without allocating (see
// cmd/compile/internal/walk: dataWord and orderState.addrTemp): a constant
// or a composite literal of constants (read-only data), a zero-size value
// (runtime.zerobase), a bool or single-byte integer (runtime.staticuint64s),
// or make of a slice with constant length and capacity 0 (mallocgc of 0
// bytes returns zerobase). TestNonAllocating measures each shape.
func (fd *finding) nonAllocating() bool {
	rec := fd.rec
	if rec.Kind != optlog.EscapesToHeap {
		return false
	}
	// The compiler prints a constant as its value: "\"text\"", "1000",
	// "time.Duration(1000000000)"; also in inlined code.
	if constName(rec.Name) {
		return true
	}
	if len(rec.InlinedFrom) > 0 {
		// An inlined call's allocation is named by the compiler, as
		// its source spells it: context.Background() boxes
		// context.backgroundCtx{}, which has no bytes.
		return fd.zeroSizeName(rec.Name)
	}
	e := fd.convertedExpr()
	if e == nil {
		return false
	}
	info := fd.pass.TypesInfo
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return true
	}
	if call, ok := e.(*ast.CallExpr); ok && syntax.IsBuiltin(info, call.Fun, "make") && len(call.Args) >= 2 {
		for _, a := range call.Args[1:] {
			if v := info.Types[a].Value; v == nil || constant.Sign(v) != 0 {
				return false
			}
		}
		_, isSlice := info.TypeOf(call).Underlying().(*types.Slice)
		return isSlice
	}
	if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok && len(lit.Elts) == 0 {
		// []T{} points at a backing array of no bytes, which the runtime
		// does not allocate.
		if _, isSlice := info.TypeOf(lit).Underlying().(*types.Slice); isSlice {
			return true
		}
	}
	if fd.allocExpr() != nil && !isStaticLit(info, e) {
		// An allocation (&T{}, new(T), make) is not a conversion.
		return false
	}
	t := info.TypeOf(e)
	if t == nil || types.IsInterface(t) {
		return false
	}
	if size, ok := bycopy.Size(t, fd.pass.TypesSizes); ok && size == 0 || isStaticLit(info, e) {
		return true
	}
	return singleByte(t, fd.pass.TypesSizes)
}

// zeroSizeName reports whether the compiler's name of an escaping value
// spells a value of no bytes: an empty composite literal of a slice type
// ([]T{}) or of a zero-size type of the package or one it imports
// (context.backgroundCtx{}, &struct{}{}), or a make of a slice with length
// and capacity 0.
func (fd *finding) zeroSizeName(name string) bool {
	e, err := parser.ParseExpr(name)
	if err != nil {
		return false
	}
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		if len(e.Elts) > 0 {
			return false
		}
		if at, ok := e.Type.(*ast.ArrayType); ok && at.Len == nil {
			return true // []T{}
		}
		t := fd.typeNamed(e.Type)
		if t == nil {
			return false
		}
		size, ok := bycopy.Size(t, fd.pass.TypesSizes)
		return ok && size == 0
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		if !ok || id.Name != "make" || len(e.Args) < 2 {
			return false
		}
		if at, ok := e.Args[0].(*ast.ArrayType); !ok || at.Len != nil {
			return false
		}
		for _, a := range e.Args[1:] {
			if lit, ok := a.(*ast.BasicLit); !ok || lit.Value != "0" {
				return false
			}
		}
		return true
	}
	return false
}

// typeNamed resolves a type the compiler names, T or pkg.T, in the
// package or the one of its imports (direct or not) of that name, when
// exactly one has such a type; struct{} too. It returns nil otherwise.
func (fd *finding) typeNamed(e ast.Expr) types.Type {
	switch e := e.(type) {
	case *ast.StructType:
		if len(e.Fields.List) == 0 {
			return types.NewStruct(nil, nil)
		}
	case *ast.Ident:
		if tn, ok := fd.pass.Pkg.Scope().Lookup(e.Name).(*types.TypeName); ok {
			return tn.Type()
		}
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return nil
		}
		var found types.Type
		for _, p := range fd.res.imports {
			if p.Name() != x.Name {
				continue
			}
			if tn, ok := p.Scope().Lookup(e.Sel.Name).(*types.TypeName); ok {
				if found != nil {
					return nil // two packages of that name have one
				}
				found = tn.Type()
			}
		}
		return found
	}
	return nil
}

// constName reports whether the compiler's name of an escaping value is a
// literal constant, or a conversion of one to a named type.
func constName(name string) bool {
	e, err := parser.ParseExpr(name)
	if err != nil {
		return false
	}
	if c, ok := e.(*ast.CallExpr); ok && len(c.Args) == 1 {
		switch c.Fun.(type) {
		case *ast.Ident, *ast.SelectorExpr:
			e = c.Args[0]
		}
	}
	if u, ok := e.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		e = u.X
	}
	_, ok := e.(*ast.BasicLit)
	return ok
}

// singleByte reports whether t, or its sole component (a struct of one
// field, an array of one element), is a bool or a one-byte integer: the
// runtime boxes those from a static table.
func singleByte(t types.Type, sizes types.Sizes) bool {
	for {
		switch u := t.Underlying().(type) {
		case *types.Basic:
			return u.Info()&types.IsBoolean != 0 || u.Info()&types.IsInteger != 0 && sizes.Sizeof(u) == 1
		case *types.Struct:
			var sole types.Type
			for i := 0; i < u.NumFields(); i++ {
				f := u.Field(i).Type()
				if size, ok := bycopy.Size(f, sizes); !ok {
					return false // its size depends on a type argument
				} else if size == 0 {
					continue
				}
				if sole != nil {
					return false
				}
				sole = f
			}
			if sole == nil {
				return false
			}
			t = sole
		case *types.Array:
			if u.Len() != 1 {
				return false
			}
			t = u.Elem()
		default:
			return false
		}
	}
}

// isStaticLit reports whether e is a struct or array composite literal
// (not its address) of constants and such literals: the compiler puts it in
// read-only data.
func isStaticLit(info *types.Info, e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return false
	}
	switch info.TypeOf(lit).Underlying().(type) {
	case *types.Struct, *types.Array:
	default:
		return false
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			elt = kv.Value
		}
		if info.Types[elt].Value == nil && !isStaticLit(info, elt) {
			return false
		}
	}
	return true
}

// convertedExpr returns the expression at the record's position that the
// compiler names: the innermost one printed as the record's name, or else
// the outermost one starting there.
func (fd *finding) convertedExpr() ast.Expr {
	for _, n := range fd.path {
		e, ok := n.(ast.Expr)
		if !ok || !startsAt(n, fd.rec.TokPos) {
			break
		}
		if types.ExprString(e) == fd.rec.Name {
			return e
		}
	}
	return fd.exprAt()
}

// enclosingLoop returns the innermost for or range statement around the
// record, within its function.
func (fd *finding) enclosingLoop() ast.Stmt {
	for _, n := range fd.path {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return n.(ast.Stmt)
		case *ast.FuncDecl, *ast.FuncLit:
			return nil
		}
	}
	return nil
}

// makerOfLit returns, for a record at a function literal, the body of the
// function that makes the literal, and whether it makes it in a loop.
func (fd *finding) makerOfLit() (body *ast.BlockStmt, inLoop bool) {
	lit := -1
	for i, n := range fd.path {
		if l, ok := n.(*ast.FuncLit); ok && l.Pos() == fd.rec.TokPos {
			lit = i
			break
		}
	}
	if lit < 0 {
		return nil, false
	}
	for _, n := range fd.path[lit+1:] {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			inLoop = true
		case *ast.FuncDecl:
			return n.Body, inLoop
		case *ast.FuncLit:
			return n.Body, inLoop
		}
	}
	return nil, false
}

// sessionFunc reports whether body runs for as long as a session: it has
// an event loop (a for loop without a condition whose body has a select
// statement, or a range over a channel), or it starts goroutines with go
// statements and waits for them ((*sync.WaitGroup).Wait, or an errgroup's
// Wait). What it allocates once per call, outside its loops, is shared
// by all the work of the session.
func sessionFunc(info *types.Info, body *ast.BlockStmt) bool {
	if body == nil {
		return false
	}
	var loop, goes, waits bool
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			goes = true
			return false
		case *ast.ForStmt:
			if n.Cond == nil && hasSelect(n.Body) {
				loop = true
			}
		case *ast.RangeStmt:
			if _, ok := info.TypeOf(n.X).Underlying().(*types.Chan); ok {
				loop = true
			}
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && fn.Name() == "Wait" && fn.Type().(*types.Signature).Recv() != nil {
				waits = true
			}
		}
		return true
	})
	return loop || goes && waits
}

// hasSelect reports whether body has a select statement outside function
// literals.
func hasSelect(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			found = true
		}
		return !found
	})
	return found
}

func loopBody(loop ast.Stmt) *ast.BlockStmt {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return l.Body
	case *ast.RangeStmt:
		return l.Body
	}
	return nil
}

// parentOf returns the node enclosing n in the record's path, skipping
// parentheses, and n's index in the path (-1 if n is not on it).
func (fd *finding) parentOf(n ast.Node) ast.Node {
	for i, p := range fd.path {
		if p == n {
			for _, q := range fd.path[i+1:] {
				if _, ok := q.(*ast.ParenExpr); !ok {
					return q
				}
			}
			return nil
		}
	}
	return nil
}

// iterationLocal reports whether the value of e, an expression on the
// record's path inside a loop, provably does not outlive the iteration:
// it is passed directly to calls that do not keep it, or bound to a
// variable declared in the loop body whose every use keeps it in the
// iteration (no store, append, return, send, capture, go or defer).
// Only then can one value allocated before the loop serve every iteration.
func (fd *finding) iterationLocal(e ast.Expr) bool {
	loop := fd.enclosingLoop()
	if loop == nil {
		return false
	}
	return fd.staysIn(e, loopBody(loop))
}

// staysInIteration reports whether the record's value provably does not
// outlive the iteration of its loop: the allocation's value (see
// iterationLocal), or a variable moved to heap that is declared in the
// loop body and whose every use keeps it in the iteration.
func (fd *finding) staysInIteration() bool {
	if v := fd.movedVar(); v != nil {
		loop := fd.enclosingLoop()
		return loop != nil && fd.usesStayLocal(v, loopBody(loop))
	}
	return fd.iterationLocal(fd.allocExpr())
}

// callLocal reports whether the value of e, an expression on the record's
// path, provably does not outlive the call of the enclosing function, by
// the rules of iterationLocal applied to the function's body.
func (fd *finding) callLocal(e ast.Expr) bool {
	body := fd.funcBody()
	return body != nil && fd.staysIn(e, body)
}

// funcBody returns the body of the innermost function enclosing the
// record.
func (fd *finding) funcBody() *ast.BlockStmt {
	_, body := fd.enclosingFunc()
	return body
}

// enclosingFunc returns the type and body of the innermost function
// enclosing the record, or nils.
func (fd *finding) enclosingFunc() (*ast.FuncType, *ast.BlockStmt) {
	for _, n := range fd.path {
		switch n := n.(type) {
		case *ast.FuncDecl:
			return n.Type, n.Body
		case *ast.FuncLit:
			return n.Type, n.Body
		}
	}
	return nil, nil
}

// staysIn reports whether the value of e, inside body, is passed directly
// to calls that do not keep it or bound to a variable declared in body
// whose every use keeps it there.
func (fd *finding) staysIn(e ast.Expr, body *ast.BlockStmt) bool {
	if e == nil {
		return false
	}
	info := fd.pass.TypesInfo
	switch p := fd.parentOf(e).(type) {
	case *ast.CallExpr:
		return fd.callKeepsNot(p, e, fd.parentOf(p))
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return false
		}
		for i, r := range p.Rhs {
			if ast.Unparen(r) != e {
				continue
			}
			id, ok := p.Lhs[i].(*ast.Ident)
			if !ok {
				return false // a field, an element, a map entry
			}
			return fd.usesStayLocal(info.ObjectOf(id), body)
		}
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if ast.Unparen(v) == e && i < len(p.Names) {
				return fd.usesStayLocal(info.ObjectOf(p.Names[i]), body)
			}
		}
	}
	return false
}

// usesStayLocal reports whether v is declared in body and each of its uses
// there keeps its value within the iteration.
func (fd *finding) usesStayLocal(v types.Object, body *ast.BlockStmt) bool {
	if v == nil || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return false
	}
	info := fd.pass.TypesInfo
	ok := true
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID || info.Uses[id] != v {
			return true
		}
		if !useStaysLocal(fd, v, stack) {
			ok = false
		}
		return true
	})
	return ok
}

// useStaysLocal reports whether the use of v at the top of stack (its
// enclosing nodes, outermost first) keeps v's value in the iteration.
func useStaysLocal(fd *finding, v types.Object, stack []ast.Node) bool {
	for _, n := range stack {
		if _, ok := n.(*ast.FuncLit); ok {
			return false // captured by a closure
		}
	}
	// The value of a variable bound to an allocation refers to it; a
	// variable moved to heap is itself the allocation.
	ref := fd.rec.Kind != optlog.MovedToHeap || fd.movedVar() != v
	return fd.memUse(v, stack, len(stack)-2, stack[len(stack)-1].(ast.Expr), ref)
}

// memUse reports whether the use of cur, an expression at stack[i+1] that
// either refers to v's memory (ref: v bound to an allocation, a slice of
// it, an address in it) or is a location in v's memory (v moved to heap,
// a field, an element, a pointee), keeps what it denotes in the
// iteration. Reading or writing a location copies a value, which shares
// nothing with v's memory (the values stored in it were checked at their
// own uses); a reference is kept unless it goes to a call that does not
// keep it, or to v itself. Taking the address of a location, slicing an
// array in it, and calling its methods with a pointer receiver make
// references.
func (fd *finding) memUse(v types.Object, stack []ast.Node, i int, cur ast.Expr, ref bool) bool {
	info := fd.pass.TypesInfo
	for ; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			cur = p
			continue
		case *ast.SliceExpr:
			if p.X != cur {
				return true // an index: a value
			}
			if _, isArray := info.TypeOf(cur).Underlying().(*types.Array); !ref && !isArray {
				return true // a slice or string stored in v points elsewhere
			}
			cur, ref = p, true
			continue
		case *ast.IndexExpr:
			if p.X != cur {
				// A map key is kept; a value read from v is an index.
				return !ref
			}
			if _, isArray := info.TypeOf(cur).Underlying().(*types.Array); !ref && !isArray {
				return true // an element of a slice stored in v: elsewhere
			}
			cur, ref = p, false
			continue
		case *ast.StarExpr:
			if !ref {
				return true // a pointer stored in v points elsewhere
			}
			cur, ref = p, false
			continue
		case *ast.SelectorExpr:
			sel := info.Selections[p]
			if sel == nil {
				return false
			}
			if sel.Kind() != types.FieldVal {
				return fd.receiverStaysLocal(stack, i, sel, cur, ref)
			}
			if _, isPtr := info.TypeOf(cur).Underlying().(*types.Pointer); !ref && isPtr {
				return true // through a pointer stored in v: elsewhere
			}
			cur, ref = p, false
			continue
		case *ast.UnaryExpr:
			if p.Op != token.AND {
				return true
			}
			if ref {
				return false // the address of a variable that refers to v
			}
			cur, ref = p, true
			continue
		case *ast.CallExpr:
			if !ref || ast.Unparen(p.Fun) == cur {
				return true // a copy passed on, or a function value called
			}
			var parent ast.Node
			if i > 0 {
				parent = stack[i-1]
			}
			return fd.callKeepsNot(p, cur, parent) || isAppendTo(info, p, cur, parent, v)
		case *ast.AssignStmt:
			if !ref {
				return true // a location written, or its value copied
			}
			// v on the left is overwritten, not kept; on the right it is
			// kept unless assigned to itself (v = v[:0]).
			for _, l := range p.Lhs {
				if l == cur {
					return true
				}
			}
			for j, r := range p.Rhs {
				if r == cur && j < len(p.Lhs) {
					if id, ok := p.Lhs[j].(*ast.Ident); ok && info.ObjectOf(id) == v {
						return true
					}
				}
			}
			return false
		case *ast.BinaryExpr, *ast.RangeStmt, *ast.SwitchStmt, *ast.IncDecStmt:
			// A comparison, the elements ranged over: not v itself.
			return true
		}
		// Any other use of a location copies its value; a reference may
		// be kept (returned, sent, stored in a composite literal).
		return !ref
	}
	return false
}

// receiverStaysLocal reports whether the method selected at stack[i],
// whose receiver expression is cur (a reference to v's memory or a
// location in it, as in memUse), keeps the receiver within the call: a
// method called with a copy that shares nothing with v's memory, or a
// method of the package whose receiver the compiler says does not leak. A
// method value, a promoted method, or another package's method that gets
// v's memory's address or a reference to it may keep it.
func (fd *finding) receiverStaysLocal(stack []ast.Node, i int, sel *types.Selection, cur ast.Expr, ref bool) bool {
	m, ok := sel.Obj().(*types.Func)
	if !ok || sel.Kind() != types.MethodVal || len(sel.Index()) != 1 || i == 0 {
		return false
	}
	if call, ok := stack[i-1].(*ast.CallExpr); !ok || ast.Unparen(call.Fun) != stack[i] {
		return false // a method value binds its receiver
	}
	recv := m.Type().(*types.Signature).Recv()
	if recv == nil || types.IsInterface(recv.Type()) {
		return false
	}
	// A pointer receiver gets the address of cur's memory, or cur; a
	// value receiver gets a copy, which shares v's memory if cur is a
	// reference other than a pointer (a slice's backing array).
	_, ptrRecv := recv.Type().(*types.Pointer)
	_, curPtr := fd.pass.TypesInfo.TypeOf(cur).Underlying().(*types.Pointer)
	if !ptrRecv && !(ref && !curPtr) {
		return true
	}
	return m.Pkg() == fd.pass.Pkg && !fd.leaksRecv(m)
}

// leaksRecv reports whether the compiler says that fn, a method of the
// package, lets its receiver (or what it points to) escape, or has no
// name for it.
func (fd *finding) leaksRecv(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil || recv.Name() == "" || recv.Name() == "_" {
		return true
	}
	for _, r := range fd.esc.At(recv.Pos()) {
		switch r.Kind {
		case optlog.LeakParam, optlog.LeakParamContent, optlog.LeakToResult:
			return true
		}
	}
	return false
}

// isAppendTo reports whether call is append(v, ...) assigned back to v.
func isAppendTo(info *types.Info, call *ast.CallExpr, arg ast.Expr, parent ast.Node, v types.Object) bool {
	if !syntax.IsBuiltin(info, call.Fun, "append") || len(call.Args) == 0 || call.Args[0] != arg {
		return false
	}
	as, ok := parent.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	return ok && info.ObjectOf(id) == v
}

// callKeepsNot reports whether call, whose argument (or receiver) is arg,
// is known not to keep it: a builtin that does not store it, a conversion
// to string, a call of an interface method whose contract forbids keeping
// its buffer (see noRetain), or a static callee that the compiler (for this
// package's functions) or the callee's source (passing it on to such a
// method) shows does not keep it. Other dynamic calls (interface methods,
// function values) may keep what they are given. parent encloses the
// call: go and defer keep their arguments.
func (fd *finding) callKeepsNot(call *ast.CallExpr, arg ast.Expr, parent ast.Node) bool {
	switch parent.(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return false
	}
	info := fd.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		// A conversion: to string copies; others alias the value.
		b, ok := tv.Type.Underlying().(*types.Basic)
		return ok && b.Info()&types.IsString != 0
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "copy", "clear", "delete", "min", "max", "print", "println":
				return true
			case "append":
				// Appending the elements (s = append(s, v...)) copies them.
				return call.Ellipsis.IsValid() && len(call.Args) == 2 && call.Args[1] == arg
			}
			return false
		}
	}
	idx := -1
	for i, a := range call.Args {
		if a == arg {
			idx = i
		}
	}
	callee := typeutil.Callee(info, call)
	fn, static := callee.(*types.Func)
	if static && fn.Type().(*types.Signature).Recv() != nil && types.IsInterface(fn.Type().(*types.Signature).Recv().Type()) {
		static = false // an interface method
	}
	if idx < 0 {
		// The value is the receiver of a method: calling its methods
		// does not keep it.
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		return ok && sel.X == arg
	}
	if !static {
		// An interface method whose contract forbids keeping the
		// buffer; a function value or another method may keep it.
		m, ok := callee.(*types.Func)
		return ok && noRetain[m.FullName()]
	}
	if fn.Pkg() == fd.pass.Pkg {
		return !fd.leaks(fn, idx)
	}
	if consumes[fn.FullName()] {
		return true
	}
	if l := fd.res.leakOf(fn, idx); l.kind == leakIfaceCall {
		return noRetain["("+strings.TrimSuffix(l.via, "."+lastElem(l.via))+")."+lastElem(l.via)]
	}
	return false
}

// noRetain are the interface methods whose documentation forbids keeping
// the slice they are given ("Implementations must not retain p"): a buffer
// passed only to them can be reused across iterations.
var noRetain = map[string]bool{
	"(io.Reader).Read":      true,
	"(io.Writer).Write":     true,
	"(io.ReaderAt).ReadAt":  true,
	"(io.WriterAt).WriteAt": true,
}

// consumes are functions of the standard library that use the readers
// and writers they are given only during the call (they read or write
// through them and return): their arguments can be reused afterwards.
var consumes = map[string]bool{
	"io.Copy":        true,
	"io.CopyBuffer":  true,
	"io.CopyN":       true,
	"io.ReadAll":     true,
	"io.ReadAtLeast": true,
	"io.ReadFull":    true,
	"io.WriteString": true,
}

// lastElem returns what follows the last dot of s.
func lastElem(s string) string {
	return s[strings.LastIndexByte(s, '.')+1:]
}

// leaks reports whether the compiler says that fn, a function of the
// package, lets its parameter idx escape to the heap or to its result.
func (fd *finding) leaks(fn *types.Func, idx int) bool {
	params := fn.Type().(*types.Signature).Params()
	if idx >= params.Len() {
		idx = params.Len() - 1
	}
	if idx < 0 {
		return true
	}
	p := params.At(idx)
	if p.Name() == "" || p.Name() == "_" {
		return true // the compiler has no name to report
	}
	for _, r := range fd.esc.At(p.Pos()) {
		if r.Kind == optlog.LeakParam || r.Kind == optlog.LeakToResult {
			return true
		}
	}
	return false
}

// guarded reports whether the allocation is assigned to a location that the
// enclosing if statement's condition tests: the lazy "if x == nil { x =
// make(...) }" and the grow-on-demand "if cap(b.buf) < n { b.buf =
// make([]byte, n) }"; or one that an early return before it finds there
// and big enough (see present): "if c.buf != nil { return c.buf }" or
// "if n <= cap(b) { return b[:n] }" then the allocation. The code already
// allocates only when needed.
func (fd *finding) guarded(e ast.Expr) bool {
	return fd.guardTarget(e) != ""
}

// guardTarget returns the location that a guarded allocation (see
// guarded) fills, as written ("b.buf"), or "".
func (fd *finding) guardTarget(e ast.Expr) string {
	return fd.guard(e, false)
}

// growGuard returns the location that an append e grows only when it is
// too small, as written, or "": the append's result is assigned to what
// it appends to, inside "if cap(b) < n {" or after "if n <= cap(b) {
// return ... }" (see present). Only a test of the capacity says that: an
// append under "if len(dst) > 0 {" grows dst whenever it is full.
func (fd *finding) growGuard(e ast.Expr) string {
	return fd.guard(e, true)
}

// guard is guardTarget, or growGuard when grows is set.
func (fd *finding) guard(e ast.Expr, grows bool) string {
	if e == nil {
		return ""
	}
	as, ok := fd.parentOf(e).(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return ""
	}
	var lhs string
	var lhsExpr ast.Expr
	for i, r := range as.Rhs {
		if ast.Unparen(r) == e {
			lhs, lhsExpr = types.ExprString(as.Lhs[i]), as.Lhs[i]
		}
	}
	if lhs == "" {
		return ""
	}
	info := fd.pass.TypesInfo
	// The variable assigned must be the one the condition tests: m :=
	// make(...) in "if m == nil {" declares another m, which shadows it,
	// and the allocation happens every time the condition holds.
	var target types.Object
	if id, ok := lhsExpr.(*ast.Ident); ok {
		target = info.ObjectOf(id)
	}
	// What the guard before the allocation may test (see below).
	// Both walk the function's body: done once, and only when a
	// condition needs them.
	var local *types.Var // a local variable assigned the allocation
	kept, localSlice := false, false
	switch x := ast.Unparen(lhsExpr).(type) {
	case *ast.SelectorExpr:
		v, ok := info.ObjectOf(x.Sel).(*types.Var)
		kept = ok && (v.IsField() || v.Pkg() != nil && v.Parent() == v.Pkg().Scope())
	case *ast.Ident:
		if v, ok := target.(*types.Var); ok {
			kept = v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
			if !kept {
				local = v
			}
		}
	}
	slotChecked := false
	keptSlot := func() {
		if !slotChecked && local != nil {
			slotChecked = true
			kept = fd.slotLocal(local)
			_, isSlice := local.Type().Underlying().(*types.Slice)
			localSlice = !kept && isSlice
		}
	}
	var copies map[types.Object]bool
	copied := false
	is := func(x ast.Expr) bool {
		id, isID := x.(*ast.Ident)
		if isID && info.ObjectOf(id) != target {
			if !copied {
				copies, copied = fd.copiesOf(lhs, target), true
			}
			if copies[info.ObjectOf(id)] {
				return true
			}
		}
		if types.ExprString(x) != lhs {
			return false
		}
		return !isID || info.ObjectOf(id) == target
	}
	for i, n := range fd.path {
		switch n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return ""
		}
		if i == 0 {
			continue
		}
		if ifs, ok := n.(*ast.IfStmt); ok && fd.path[i-1] == ifs.Body {
			found := false
			if grows {
				found = missing(info, ifs.Cond, is, true)
			} else {
				ast.Inspect(ifs.Cond, func(n ast.Node) bool {
					if x, ok := n.(ast.Expr); ok && is(x) {
						found = true
					}
					return !found
				})
			}
			if found {
				var list []ast.Stmt
				if i+1 < len(fd.path) {
					list = syntax.StmtList(fd.path[i+1])
				}
				if fd.alwaysNil(target, ifs, list) {
					return ""
				}
				return lhs
			}
		}
		// An early return when the location is there and big enough:
		// "if c.buf != nil { return c.buf }" for a field or a
		// package-level variable, which outlives the call; "if
		// cap(b) >= n { return b[:n] }" for a local slice too (a
		// caller's buffer), not "if err != nil { return }" before
		// "err = &E{}", nor "if opts != nil" before a default made
		// whenever the caller passes none.
		list := syntax.StmtList(n)
		for _, s := range list {
			if s == fd.path[i-1] {
				break
			}
			ifs, ok := s.(*ast.IfStmt)
			if !ok || ifs.Else != nil || len(ifs.Body.List) == 0 || !returnsFound(info, ifs.Body.List[len(ifs.Body.List)-1]) {
				continue
			}
			if keptSlot(); !kept && !localSlice {
				break
			}
			if present(info, ifs.Cond, is, grows || !kept) && !fd.alwaysNil(target, ifs, list) {
				return lhs
			}
		}
	}
	return ""
}

// slotLocal reports whether the local variable v stands for a slot that
// outlives the call: the function sets it from a field or package-level
// variable S ("v := c.table") or from what an atomic S holds ("v, _ :=
// c.versions.Load().(T)", "v := c.ptr.Load()"), and stores it back there
// ("c.table = v", "c.versions.Store(v)"). What it makes for v after
// finding S empty fills S, once per owner.
func (fd *finding) slotLocal(v *types.Var) bool {
	body := fd.funcBody()
	if body == nil {
		return false
	}
	info := fd.pass.TypesInfo
	isV := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.ObjectOf(id) == v
	}
	// slot returns S of "S" or "S.Load()" (through a type assertion)
	// when S outlives the call, or "".
	slot := func(e ast.Expr) string {
		e = ast.Unparen(e)
		if ta, ok := e.(*ast.TypeAssertExpr); ok {
			e = ast.Unparen(ta.X)
		}
		if call, ok := e.(*ast.CallExpr); ok {
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Load" || len(call.Args) != 0 || !isAtomic(info.TypeOf(sel.X)) {
				return ""
			}
			e = ast.Unparen(sel.X)
		}
		var obj types.Object
		switch x := e.(type) {
		case *ast.SelectorExpr:
			obj = info.ObjectOf(x.Sel)
		case *ast.Ident:
			obj = info.ObjectOf(x)
		}
		w, ok := obj.(*types.Var)
		if !ok || !w.IsField() && (w.Pkg() == nil || w.Parent() != w.Pkg().Scope()) {
			return ""
		}
		return types.ExprString(e)
	}
	loaded := make(map[string]bool)
	stored := make(map[string]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && len(n.Lhs) >= 1 && isV(n.Lhs[0]) {
				if S := slot(n.Rhs[0]); S != "" {
					loaded[S] = true
				}
			}
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && isV(n.Rhs[0]) {
				if S := slot(n.Lhs[0]); S != "" {
					stored[S] = true
				}
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if ok && sel.Sel.Name == "Store" && len(n.Args) == 1 && isV(n.Args[0]) && isAtomic(info.TypeOf(sel.X)) {
				if S := slot(sel.X); S != "" {
					stored[S] = true
				}
			}
		}
		return true
	})
	for S := range loaded {
		if stored[S] {
			return true
		}
	}
	return false
}

// isAtomic reports whether t is a type of package sync/atomic (Value,
// Pointer[T]), or a pointer to one.
func isAtomic(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync/atomic"
}

// copiesOf returns the local variables that the function sets only to the
// value of the location written loc ("m := *ptr", and "m = *ptr" again
// after filling it), other than target: in "m := *ptr; if m == nil {
// *ptr = make(...) }" the condition tests the location through m.
func (fd *finding) copiesOf(loc string, target types.Object) map[types.Object]bool {
	body := fd.funcBody()
	if body == nil {
		return nil
	}
	info := fd.pass.TypesInfo
	copies := make(map[types.Object]bool)
	other := make(map[types.Object]bool) // set otherwise too
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok {
					continue
				}
				v := info.ObjectOf(id)
				if v == nil || v == target {
					continue
				}
				if len(n.Lhs) == len(n.Rhs) && types.ExprString(n.Rhs[i]) == loc {
					copies[v] = copies[v] || n.Tok == token.DEFINE
				} else {
					other[v] = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				other[info.ObjectOf(id)] = true
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
				other[info.ObjectOf(id)] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					other[info.ObjectOf(id)] = true
				}
			}
		}
		return true
	})
	for v := range copies {
		if !copies[v] || other[v] {
			delete(copies, v)
		}
	}
	return copies
}

// returnsFound reports whether s is a return that may succeed: none of
// its results is an error it makes (errors.New, fmt.Errorf, &E{}); a
// variable may be nil. "if ss.External != nil {
// return errors.New("both set") }" rejects a conflict; it does not find
// what it would otherwise make.
func returnsFound(info *types.Info, s ast.Stmt) bool {
	ret, ok := s.(*ast.ReturnStmt)
	if !ok {
		return false
	}
	iface := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	for _, r := range ret.Results {
		switch ast.Unparen(r).(type) {
		case *ast.Ident, *ast.SelectorExpr:
			// A variable: an error met on the way, nil when the
			// reading went well ("return b, err" after io.ReadFull).
			continue
		}
		if t := info.TypeOf(r); t != nil && types.Implements(t, iface) {
			return false
		}
	}
	return true
}

// present reports whether cond holds only when the location that is
// names exists and is big enough: "x != nil", "cap(x) >= n", "n <=
// cap(x)", "len(x) > 0", an || one of whose operands is such a test, or
// the negation of a test that it is missing or too small ("!(cap(x) <
// n)", "!(x == nil)"). Code after "if cond { return }" then runs only
// when it is missing or too small. With onlyCap, only a test of x's
// capacity counts.
func present(info *types.Info, cond ast.Expr, is func(ast.Expr) bool, onlyCap bool) bool {
	return sizeTest(info, cond, is, onlyCap, true)
}

// missing reports whether cond holds only when the location that is
// names is missing or too small: "x == nil", "cap(x) < n", "len(x) ==
// 0", an && one of whose operands is such a test, or the negation of a
// test that it is there (see present).
func missing(info *types.Info, cond ast.Expr, is func(ast.Expr) bool, onlyCap bool) bool {
	return sizeTest(info, cond, is, onlyCap, false)
}

// sizeTest is present when there is set, missing otherwise.
func sizeTest(info *types.Info, cond ast.Expr, is func(ast.Expr) bool, onlyCap, there bool) bool {
	cond = ast.Unparen(cond)
	if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		return sizeTest(info, u.X, is, onlyCap, !there)
	}
	b, ok := cond.(*ast.BinaryExpr)
	if !ok {
		return false
	}
	// What holds when the location is there, and its operands
	// reversed: "x != nil", "cap(x) >= n", "n <= cap(x)"; when it is
	// not, the opposites.
	join, isNil, left, right := token.LOR, token.NEQ, []token.Token{token.GEQ, token.GTR, token.NEQ}, []token.Token{token.LEQ, token.LSS, token.NEQ}
	if !there {
		join, isNil, left, right = token.LAND, token.EQL, []token.Token{token.LSS, token.LEQ, token.EQL}, []token.Token{token.GTR, token.GEQ, token.EQL}
	}
	switch {
	case b.Op == join:
		return sizeTest(info, b.X, is, onlyCap, there) || sizeTest(info, b.Y, is, onlyCap, there)
	case b.Op == isNil && !onlyCap && (is(ast.Unparen(b.X)) && syntax.IsNil(info, b.Y) || is(ast.Unparen(b.Y)) && syntax.IsNil(info, b.X)):
		return true
	case sizeOf(info, b.X, is, onlyCap):
		return slices.Contains(left, b.Op)
	case sizeOf(info, b.Y, is, onlyCap):
		return slices.Contains(right, b.Op)
	}
	return false
}

// sizeOf reports whether e is cap(x), or len(x) unless onlyCap, of the
// location that is names.
func sizeOf(info *types.Info, e ast.Expr, is func(ast.Expr) bool, onlyCap bool) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !is(ast.Unparen(call.Args[0])) {
		return false
	}
	return syntax.IsBuiltin(info, call.Fun, "cap") || !onlyCap && syntax.IsBuiltin(info, call.Fun, "len")
}

// alwaysNil reports whether the local variable v, which the condition of
// ifs tests, is nil whenever ifs runs: it is declared without a value (or
// nil) in list, the statements that hold ifs, and nothing assigns it between its
// declaration and ifs, so the "lazy" allocation happens on every call.
func (fd *finding) alwaysNil(v types.Object, ifs *ast.IfStmt, list []ast.Stmt) bool {
	if v == nil {
		return false
	}
	info := fd.pass.TypesInfo
	declared := false
	for _, s := range list {
		if s == ifs {
			return declared
		}
		switch s := s.(type) {
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if info.Defs[name] == v {
							declared = len(vs.Values) == 0 || i < len(vs.Values) && syntax.IsNil(info, vs.Values[i])
						}
					}
				}
			}
			continue
		}
		if declared && syntax.Mentions(info, s, v) {
			return false
		}
	}
	return false
}

// storeTarget returns the left-hand side that the allocation e is assigned
// to, or nil.
func (fd *finding) storeTarget(e ast.Expr) ast.Expr {
	if e == nil {
		return nil
	}
	as, ok := fd.parentOf(e).(*ast.AssignStmt)
	if !ok {
		return nil
	}
	return assignedFrom(as, e)
}

// hasReset reports whether values of type t (a pointer) have a Reset
// method, as bytes.Reader, bufio.Writer and gzip.Writer do: one value
// can be reset for each use.
func hasReset(t types.Type) bool {
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Reset")
	_, ok := obj.(*types.Func)
	return ok
}

// loopInvariant reports whether no variable that call uses (its receiver
// and arguments) is declared or assigned inside loop.
func (fd *finding) loopInvariant(call *ast.CallExpr, loop ast.Stmt) bool {
	info := fd.pass.TypesInfo
	assigned := make(map[types.Object]bool)
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					assigned[info.ObjectOf(id)] = true
				}
			}
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if id, ok := x.(*ast.Ident); ok {
					assigned[info.ObjectOf(id)] = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				assigned[info.ObjectOf(id)] = true
			}
		}
		return true
	})
	ok := true
	ast.Inspect(call, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID {
			if v, isVar := info.Uses[id].(*types.Var); isVar && (assigned[v] || v.Pos() >= loop.Pos() && v.Pos() < loop.End()) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// movedVar returns the variable of a "moved to heap" record.
func (fd *finding) movedVar() *types.Var {
	if fd.rec.Kind != optlog.MovedToHeap || len(fd.path) == 0 {
		return nil
	}
	id, ok := fd.path[0].(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := fd.pass.TypesInfo.ObjectOf(id).(*types.Var)
	return v
}

// returnsAddrOf reports whether body returns &v (not inside a closure).
func returnsAddrOf(info *types.Info, body *ast.BlockStmt, v *types.Var) bool {
	return body != nil && returnIn(body, func(r *ast.ReturnStmt) bool {
		for _, e := range r.Results {
			if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
				if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && info.Uses[id] == v {
					return true
				}
			}
		}
		return false
	})
}

// presized reports whether the slice that an append record grows is a
// variable given a capacity by make(T, len, cap) in the enclosing
// function: the code already preallocates it. estimated says that every
// such capacity is computed at run time (len(args), n; or by a function
// of the package given the count), the code's estimate of how many
// elements the slice will hold, not a constant guess.
func (fd *finding) presized() (found, estimated bool) {
	call, ok := fd.exprAt().(*ast.CallExpr)
	if !ok || !syntax.IsBuiltin(fd.pass.TypesInfo, call.Fun, "append") || len(call.Args) == 0 {
		return false, false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return false, false
	}
	info := fd.pass.TypesInfo
	v := info.ObjectOf(id)
	body := fd.funcBody()
	if v == nil || body == nil {
		return false, false
	}
	// capOf returns the capacity of make(T, len, cap), or nil.
	capOf := func(e ast.Expr) ast.Expr {
		m, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || !syntax.IsBuiltin(info, m.Fun, "make") || len(m.Args) != 3 {
			return nil
		}
		return m.Args[2]
	}
	made := func(e ast.Expr) bool {
		// make(T, 0, 0) has no capacity: it is not presized.
		c := capOf(e)
		return c != nil && (info.Types[c].Value == nil || info.Types[c].Value.String() != "0")
	}
	computed := func(e ast.Expr) bool {
		c := capOf(e)
		return c != nil && info.Types[c].Value == nil
	}
	estimated = true
	check := func(e ast.Expr) {
		switch {
		case made(e):
			found = true
			estimated = estimated && computed(e)
		case fd.madeByCallee(e, made):
			found = true
			estimated = estimated && fd.madeByCallee(e, computed)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if lid, ok := l.(*ast.Ident); ok && info.ObjectOf(lid) == v && i < len(n.Rhs) {
					check(n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.ObjectOf(name) == v && i < len(n.Values) {
					check(n.Values[i])
				}
			}
		}
		return true
	})
	return found, found && estimated
}

// madeByCallee reports whether e calls a function of the package that
// makes the slice it returns with a capacity (made): every return of its
// body returns such a make, or a reslice of one of its parameters
// (makeStrings(s, n) returning make([]string, 0, n), or s[:0] when s is
// big enough). The caller presized the slice through it.
func (fd *finding) madeByCallee(e ast.Expr, made func(ast.Expr) bool) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, _ := typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() != fd.pass.Pkg {
		return false
	}
	decl := fd.declOfFunc(fn)
	if decl == nil || decl.Body == nil || decl.Type.Results == nil || decl.Type.Results.NumFields() != 1 {
		return false
	}
	info := fd.pass.TypesInfo
	// A reslice of a parameter: the caller's own slice, given back.
	resliced := func(e ast.Expr) bool {
		sl, ok := ast.Unparen(e).(*ast.SliceExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(sl.X).(*ast.Ident)
		v, isVar := info.Uses[id].(*types.Var)
		return ok && isVar && v.Kind() == types.ParamVar
	}
	one := func(r *ast.ReturnStmt) bool { return len(r.Results) == 1 }
	return returnIn(decl.Body, func(r *ast.ReturnStmt) bool { return one(r) && made(r.Results[0]) }) &&
		!returnIn(decl.Body, func(r *ast.ReturnStmt) bool {
			return !one(r) || !made(r.Results[0]) && !resliced(r.Results[0])
		})
}

// ownStorage is why the growth of a field's own slice is inherent.
const ownStorage = "the slice is the data structure's own storage, kept and grown in place: append allocates only when it outgrows its capacity"

// growsField reports whether the append record grows a slice that is the
// data structure's own storage, kept across uses: "x.f = append(x.f,
// ...)", "x.f = append(x.f[:0], ...)" reusing its capacity for a new
// value, through append-style calls ("x.f = appendLine(x.f, k, v)", "x.f,
// kv = alloc(x.f)", the call inlined here), or where a method of the
// package doing so is inlined ("*s.raw = append(*s.raw, ...)"). x.f is a
// field, an element of one (x.f[i].g) or what a field points to; or what
// a pointer parameter or receiver points to, a slice its caller keeps
// ("*b = append(*b, p...)" of a method on a named slice type, "*key =
// decodeArg(*key, src)").
func (fd *finding) growsField() bool {
	if len(fd.rec.InlinedFrom) == 0 {
		rhs := fd.exprAt()
		return fd.ownStorage(rhs, fd.storeTarget(rhs))
	}
	// An append-style call inlined here, given the structure's storage
	// and assigning the result back to it.
	if call := callAt(fd.path, fd.rec.TokPos); call != nil {
		if fn, ok := typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func); ok && appendStyleSig(fn.Type().(*types.Signature)) &&
			fd.ownStorage(call, fd.storeTarget(call)) {
			return true
		}
	}
	// An append of a function of the package inlined here: look at it
	// where it is written.
	if call, ok := fd.exprAtPos(fd.rec.InlinedFrom[0]).(*ast.CallExpr); ok {
		if cur, ok := fd.find.FindNode(call); ok {
			if as, ok := cur.Parent().Node().(*ast.AssignStmt); ok {
				return fd.ownStorage(call, assignedFrom(as, call))
			}
		}
	}
	return false
}

// ownStorage reports whether rhs, an append or an append-style call,
// appends to what target (a field, an element of one, what a field
// points to, or what a parameter or the receiver points to) holds, and is
// assigned to target.
func (fd *finding) ownStorage(rhs, target ast.Expr) bool {
	if rhs == nil || target == nil {
		return false
	}
	if call, ok := ast.Unparen(rhs).(*ast.CallExpr); !ok || len(call.Args) == 0 {
		return false
	}
	switch t := ast.Unparen(target).(type) {
	case *ast.SelectorExpr:
	case *ast.IndexExpr:
		if _, ok := ast.Unparen(t.X).(*ast.SelectorExpr); !ok {
			return false
		}
	case *ast.StarExpr:
		switch x := ast.Unparen(t.X).(type) {
		case *ast.SelectorExpr:
		case *ast.Ident:
			// *p for a parameter or receiver p: the slice the
			// caller keeps and lends ("*b = append(*b, ...)" of a
			// method on a named slice type).
			v, ok := fd.pass.TypesInfo.Uses[x].(*types.Var)
			if !ok || v.Kind() != types.ParamVar && v.Kind() != types.RecvVar {
				return false
			}
		default:
			return false
		}
	default:
		return false
	}
	base := bufferRoot(fd.pass.TypesInfo, rhs)
	return base != rhs && types.ExprString(ast.Unparen(target)) == types.ExprString(base)
}

// bufferRoot returns the slice that x appends to: the buffer of append(b,
// ...), of an append-style call f(b, ...) (see appendStyleSig), of b[:0]
// or b[:], through any nesting of them; x itself if it is none of these.
func bufferRoot(info *types.Info, x ast.Expr) ast.Expr {
	for {
		x = ast.Unparen(x)
		switch e := x.(type) {
		case *ast.SliceExpr:
			if e.Low == nil && e.Max == nil && (e.High == nil || isZero(info, e.High)) {
				x = e.X
				continue
			}
		case *ast.CallExpr:
			if len(e.Args) > 0 {
				if isAppend(info, e) {
					x = e.Args[0]
					continue
				}
				if sig, ok := info.TypeOf(e.Fun).(*types.Signature); ok && appendStyleSig(sig) {
					x = e.Args[0]
					continue
				}
			}
		}
		return x
	}
}

// assignedFrom returns what as assigns the value of e, one of its right
// sides (the first result, for a call assigned to several), or nil.
func assignedFrom(as *ast.AssignStmt, e ast.Expr) ast.Expr {
	if len(as.Rhs) == 1 && len(as.Lhs) > 1 && ast.Unparen(as.Rhs[0]) == e {
		return as.Lhs[0]
	}
	if len(as.Lhs) != len(as.Rhs) {
		return nil
	}
	for i, r := range as.Rhs {
		if ast.Unparen(r) == e {
			return as.Lhs[i]
		}
	}
	return nil
}

// isZero reports whether e is the constant 0.
func isZero(info *types.Info, e ast.Expr) bool {
	if e == nil {
		return false
	}
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.String() == "0"
}
