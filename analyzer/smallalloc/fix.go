package smallalloc

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/bycopy"
	"github.com/goadvise/goadvise/analyzer/internal/gen"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
)

// reportHoist reports an allocation made directly in a loop body, with a
// fix that declares it once before the loop, or with the reason no fix is
// offered.
func (c *checker) reportHoist(par parents, cand *candidate, v *types.Var, stmt, loop ast.Stmt, because string, hot hotpath.Info) {
	var outer ast.Stmt = loop
	if lab, ok := par[loop].(*ast.LabeledStmt); ok {
		outer = lab
	}
	diag := analysis.Diagnostic{Pos: cand.expr.Pos(), End: cand.expr.End()}
	name := v.Name()
	if cand.kind != kindMake {
		diag.Message = fmt.Sprintf("%s escapes to the heap %s in every iteration; allocate %s once before the loop and reset it in each iteration, which saves 1 allocation per iteration (all but the first)",
			cand.desc, because, name)
		c.report(diag, HoistLoop, cand, noFixNotMake, hot)
		return
	}

	reset, how := c.resetStmts(v, stmt, cand, name)
	diag.Message = fmt.Sprintf("%s escapes to the heap %s in every iteration; declare %s once before the loop and %s, which saves 1 allocation per iteration (all but the first)",
		cand.desc, because, name, how)
	why := c.hoistBlocked(par, cand, v, outer)
	switch {
	case why != "":
	case c.inCommentBlock(stmt.Pos()):
		why = noFixComments
	case slices.Contains(reset, "") && c.tooOld(stmt.Pos(), "clear", "go1.21") != "":
		why = c.tooOld(stmt.Pos(), "clear", "go1.21") + ", and the elements have no zero constant to write in a loop"
	default:
		indent, ok1 := c.indent(outer.Pos())
		_, ok2 := c.indent(stmt.Pos())
		if !ok1 || !ok2 {
			why = "the loop or the statement shares its line with other code"
			break
		}
		edits := []analysis.TextEdit{{
			Pos:     outer.Pos(),
			End:     outer.Pos(),
			NewText: []byte(c.source(stmt) + "\n" + indent),
		}}
		if len(reset) == 0 {
			edits = append(edits, c.deleteLine(stmt))
		} else {
			stmtIndent, _ := c.indent(stmt.Pos())
			edits = append(edits, analysis.TextEdit{
				Pos:     stmt.Pos(),
				End:     stmt.End(),
				NewText: []byte(strings.Join(reset, "\n"+stmtIndent)),
			})
		}
		diag.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Declare %s before the loop", name),
			TextEdits: edits,
		}}
	}
	c.report(diag, HoistLoop, cand, why, hot)
}

// Reasons shared by several kinds of finding for offering no fix.
const (
	noFixNotMake  = "fixes are offered for make([]T, n) buffers only"
	noFixComments = "gofmt would have to realign the trailing comments of the lines around it"
)

// report reports diag, a finding of kind id about cand, its message
// ended by why no fix is offered (when why is not empty) and by the
// hot-path tier, in one sentence.
func (c *checker) report(diag analysis.Diagnostic, id kind.ID, cand *candidate, why string, hot hotpath.Info) {
	text := diag.Message
	if why != "" {
		text += "; no automatic fix: " + why
	}
	f := kind.Fields{Kind: id, Tier: hot.Tier.String(), TierReason: hot.Reason, Text: text}
	if rec := c.esc.Heap(cand.heapPos); rec != nil {
		f.Cause, f.Sink, f.Flow = rec.Cause.String(), rec.Sink.String(), rec.Explanation
	}
	if size, ok := bycopy.Size(cand.typ, c.pass.TypesSizes); ok && cand.kind != kindMake {
		f.Size = size
	} else if cand.kind == kindMake {
		if es, ok := bycopy.Size(cand.typ.Underlying().(*types.Slice).Elem(), c.pass.TypesSizes); ok {
			f.Size = es * cand.capacity
		}
	}
	kind.Report(c.pass, diag, f)
}

// resetStmts returns the statements that reset a reused buffer where it
// was made, and describes them.
func (c *checker) resetStmts(v *types.Var, stmt ast.Stmt, cand *candidate, name string) ([]string, string) {
	var reset []string
	var how []string
	if cand.length < cand.capacity {
		reset = append(reset, fmt.Sprintf("%s = %s[:%d]", name, name, cand.length))
		how = append(how, fmt.Sprintf("reset it with %s = %s[:%d] in each iteration", name, name, cand.length))
	}
	if cand.length > 0 {
		if why := c.overwritten(v, stmt, cand); why != "" {
			how = append(how, "reuse its contents as is ("+why+")")
		} else {
			z := c.zeroing(stmt.Pos(), name, cand)
			reset = append(reset, z)
			if z == "" {
				z = "clear(" + name + ")"
			}
			how = append(how, "call "+z+" in each iteration to keep make's zeroing")
		}
	}
	return reset, strings.Join(how, " and ")
}

// hoistBlocked returns why the declaration of v cannot move before
// outer without changing what a name refers to, or "" if it can.
func (c *checker) hoistBlocked(par parents, cand *candidate, v *types.Var, outer ast.Stmt) string {
	info := c.pass.TypesInfo
	// The size and element type must not use names declared in the loop.
	inLoop := false
	ast.Inspect(cand.expr, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := info.Uses[id]; obj != nil && obj.Pos() >= outer.Pos() && obj.Pos() < outer.End() {
				inLoop = true
			}
		}
		return true
	})
	if inLoop {
		return "its size or element type is declared inside the loop"
	}
	// The loop must sit in a statement list, whose scope must not declare
	// the name already, and no use of an outer variable of that name may
	// follow the loop's start in that list.
	var list ast.Node = par[outer]
	switch list.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return "the loop is not a statement of a block"
	}
	clash := fmt.Sprintf("declaring %s before the loop would clash with another declaration of %s", v.Name(), v.Name())
	scope := info.Scopes[list]
	if fd, ok := par[list].(*ast.FuncDecl); ok {
		scope = info.Scopes[fd.Type] // a function body shares the function's scope
	}
	if scope == nil || scope.Lookup(v.Name()) != nil {
		return clash
	}
	clashes := false
	ast.Inspect(list, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || id.Name != v.Name() || id.Pos() < outer.Pos() {
			return true
		}
		if obj := info.Uses[id]; obj != nil && obj != types.Object(v) && obj.Pos() < outer.Pos() {
			clashes = true
		}
		return true
	})
	if clashes {
		return clash
	}
	return ""
}

// reportField reports an allocation in a method with a pointer receiver,
// with a fix that adds a fixed-size array field to the receiver's struct,
// or with the reason no fix is offered.
func (c *checker) reportField(fd *ast.FuncDecl, cand *candidate, v *types.Var, stmt ast.Stmt, because, saves string, hot hotpath.Info) {
	info := c.pass.TypesInfo
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return
	}
	recvName := fd.Recv.List[0].Names[0].Name
	if recvName == "_" {
		return
	}
	ptr, ok := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer)
	if !ok {
		return // a value receiver is a copy: a field would not be reused
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok {
		return
	}
	td, ok := c.types[named.Obj()]
	if !ok {
		return
	}
	if f := c.fileOf(td.spec.Pos()); f == nil || gen.IsGenerated(c.pass, f) {
		return // the struct cannot get a field
	}
	if c.goFns[fn] || !c.locksOrSerial(fd, recvName, named) {
		return // the method may run concurrently on one receiver
	}
	if c.reentrant(fn) {
		return // a nested call would overwrite the field while it is in use
	}
	fname := c.fieldName(named, fd.Name.Name, v.Name())
	diag := analysis.Diagnostic{Pos: cand.expr.Pos(), End: cand.expr.End()}
	fnName := funcname.InPackage(fn)
	recvType := named.Obj().Name()

	if cand.kind != kindMake {
		what := typeString(c.pass.Pkg, cand.typ)
		if cand.kind == kindSliceLit {
			what = fmt.Sprintf("[%d]%s array", len(cand.expr.(*ast.CompositeLit).Elts), typeString(c.pass.Pkg, cand.typ.Underlying().(*types.Slice).Elem()))
		}
		diag.Message = fmt.Sprintf("%s escapes to the heap %s on every call; keep a reusable %s in a field %s of %s and reset it at the start of each call, which %s but makes %s unsafe for concurrent calls on the same receiver",
			cand.desc, because, what, fname, recvType, saves, fnName)
		c.report(diag, FieldBuffer, cand, noFixNotMake, hot)
		return
	}

	call := cand.expr.(*ast.CallExpr)
	lenText := c.constText(call.Args[len(call.Args)-1], cand.capacity)
	elemText := c.source(cand.elemType)
	use := recvName + "." + fname + "[:]"
	if cand.length < cand.capacity {
		use = fmt.Sprintf("%s.%s[:%d]", recvName, fname, cand.length)
	}
	zero, zeroText := "", ""
	clear := cand.length > 0
	if clear {
		if why := c.overwritten(v, stmt, cand); why != "" {
			zero = " (" + why + ")"
			clear = false
		} else {
			z := c.zeroing(stmt.Pos(), v.Name(), cand)
			if z == "" {
				zeroText = ""
				z = "clear(" + v.Name() + ")"
			} else {
				zeroText = z
			}
			zero = ", then " + z + " to keep make's zeroing"
		}
	}
	diag.Message = fmt.Sprintf("%s escapes to the heap %s on every call; add a field %s [%s]%s to %s and use %s%s, which %s but makes %s unsafe for concurrent calls on the same receiver",
		cand.desc, because, fname, lenText, elemText, recvType, use, zero, saves, fnName)

	var why string
	switch {
	case clear && zeroText == "":
		why = c.tooOld(stmt.Pos(), "clear", "go1.21") + ", and the elements have no zero constant to write in a loop"
	case c.inCommentBlock(stmt.Pos()):
		why = noFixComments
	default:
		var fix analysis.SuggestedFix
		if fix, why = c.fieldFix(td, cand, stmt, fname, lenText, elemText, use, fnName, zeroText); why == "" {
			diag.SuggestedFixes = []analysis.SuggestedFix{fix}
			c.added[named.Obj()] = append(c.added[named.Obj()], fname)
		}
	}
	c.report(diag, FieldBuffer, cand, why, hot)
}

// fieldFix builds the edits that add the field and use it, or returns why
// it cannot.
func (c *checker) fieldFix(td typeDecl, cand *candidate, stmt ast.Stmt, fname, lenText, elemText, use, fnName, zero string) (fix analysis.SuggestedFix, why string) {
	tname := td.spec.Name.Name
	// The element type must be spelled the same in the struct's file.
	qualified := false
	ast.Inspect(cand.elemType, func(n ast.Node) bool {
		if _, ok := n.(*ast.SelectorExpr); ok {
			qualified = true
		}
		return true
	})
	if qualified {
		return fix, "its element type names another package, which the file of " + tname + " may not import"
	}
	// Never break an unkeyed literal of the struct.
	if c.unkeyedLiteral(td) {
		return fix, "the package builds " + tname + " with an unkeyed literal, which a new field would break"
	}
	fields := td.st.Fields
	tf := c.pass.Fset.File(fields.Closing)
	if tf.Line(fields.Opening) == tf.Line(fields.Closing) {
		return fix, "the fields of " + tname + " are declared on one line"
	}
	indent, ok := c.indent(fields.Closing)
	if !ok {
		return fix, "the closing brace of " + tname + " shares its line with other code"
	}
	lineStart := tf.LineStart(tf.Line(fields.Closing))
	stmtIndent, ok := c.indent(stmt.Pos())
	if !ok {
		return fix, "the statement shares its line with other code"
	}
	edits := []analysis.TextEdit{
		{
			Pos:     lineStart,
			End:     lineStart,
			NewText: []byte(fmt.Sprintf("\n%s\t%s [%s]%s // scratch space for %s\n", indent, fname, lenText, elemText, fnName)),
		},
		{Pos: cand.expr.Pos(), End: cand.expr.End(), NewText: []byte(use)},
	}
	if zero != "" {
		eol := c.lineEnd(stmt.End())
		edits = append(edits, analysis.TextEdit{Pos: eol, End: eol, NewText: []byte("\n" + stmtIndent + zero)})
	}
	fix.Message = fmt.Sprintf("Add field %s to reuse the buffer", fname)
	fix.TextEdits = edits
	return fix, ""
}

// unkeyedLiteral reports whether the package has a composite literal of
// td's type with unkeyed fields, which a new field would break.
func (c *checker) unkeyedLiteral(td typeDecl) bool {
	obj := c.pass.TypesInfo.Defs[td.spec.Name]
	found := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || found || len(lit.Elts) == 0 {
				return !found
			}
			if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); keyed {
				return true
			}
			t := c.pass.TypesInfo.TypeOf(lit)
			if p, ok := t.(*types.Pointer); ok { // &T{...} elided in a literal
				t = p.Elem()
			}
			if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj() == obj {
				found = true
			}
			return !found
		})
	}
	return found
}

// locksOrSerial reports whether a method may use a scratch field of its
// receiver: the struct holds no mutex or atomic value (which would mean it
// is shared between goroutines), the method calls Lock on it, or the
// method already writes a field of the receiver without a lock (outside
// function literals), so that it is not safe for concurrent calls on one
// receiver today and a scratch field changes nothing (an atomic reference
// count beside a reader's state, as in arrow's message reader).
func (c *checker) locksOrSerial(fd *ast.FuncDecl, recvName string, named *types.Named) bool {
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	shared := false
	for f := range st.Fields() {
		t := f.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
			switch n.Obj().Pkg().Path() {
			case "sync":
				shared = shared || n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex"
			case "sync/atomic":
				shared = true
			}
		}
	}
	if !shared || c.writesReceiver(fd, recvName) {
		return true
	}
	locked := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := staticCallee(c.pass.TypesInfo, call)
		if fn == nil || fn.Name() != "Lock" || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
			return true
		}
		// The lock must be the receiver's: r.mu.Lock() or r.Lock().
		sel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		x := sel.X
		for {
			if s, ok := ast.Unparen(x).(*ast.SelectorExpr); ok {
				x = s.X
				continue
			}
			break
		}
		if id, ok := ast.Unparen(x).(*ast.Ident); ok && id.Name == recvName {
			locked = true
		}
		return true
	})
	return locked
}

// writesReceiver reports whether the body of fd assigns to a field of its
// receiver recvName, or to what is reachable through one (r.pos = n,
// r.buf[i] = b, r.stats.n++), other than in a function literal: state
// that concurrent calls on one receiver would race on.
func (c *checker) writesReceiver(fd *ast.FuncDecl, recvName string) bool {
	info := c.pass.TypesInfo
	var recv types.Object
	if id := fd.Recv.List[0].Names; len(id) == 1 {
		recv = info.Defs[id[0]]
	}
	if recv == nil {
		return false
	}
	// underRecv reports whether e denotes a location reached from the
	// receiver by fields and indexes: r.f, r.f.g, r.f[i].g.
	underRecv := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		for ok {
			if id, isID := ast.Unparen(sel.X).(*ast.Ident); isID {
				return info.Uses[id] == recv
			}
			x := ast.Unparen(sel.X)
			if ix, isIndex := x.(*ast.IndexExpr); isIndex {
				x = ast.Unparen(ix.X)
			}
			sel, ok = x.(*ast.SelectorExpr)
		}
		return false
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
					l = ix.X
				}
				found = found || underRecv(l)
			}
		case *ast.IncDecStmt:
			found = found || underRecv(n.X)
		}
		return !found
	})
	return found
}

// reentrant reports whether fn may call itself through functions of the
// package.
func (c *checker) reentrant(fn *types.Func) bool {
	seen := map[*types.Func]bool{}
	work := []*types.Func{fn}
	for len(work) > 0 {
		f := work[0]
		work = work[1:]
		decl := c.decls[f]
		if decl == nil || decl.Body == nil {
			continue
		}
		found := false
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return !found
			}
			callee := staticCallee(c.pass.TypesInfo, call)
			if callee == fn {
				found = true
			} else if callee != nil && callee.Pkg() == c.pass.Pkg && !seen[callee] {
				seen[callee] = true
				work = append(work, callee)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// fieldName returns the name of the scratch field for variable name in
// method method: lowerFirst(method) + upperFirst(name), made unique.
func (c *checker) fieldName(named *types.Named, method, name string) string {
	base := lowerFirst(method) + upperFirst(name)
	for i := 1; ; i++ {
		fname := base
		if i > 1 {
			fname += strconv.Itoa(i)
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, c.pass.Pkg, fname)
		taken := obj != nil
		for _, a := range c.added[named.Obj()] {
			taken = taken || a == fname
		}
		if !taken {
			return fname
		}
	}
}

// overwritten reports why every element of the buffer made by stmt is
// written before it is read, or "" if that is not evident. It accepts an
// io.ReadFull of the whole buffer whose error ends the call or iteration,
// and a binary byte order PutUintN that covers the whole buffer.
func (c *checker) overwritten(v *types.Var, stmt ast.Stmt, cand *candidate) string {
	info := c.pass.TypesInfo
	list := stmtList(stmt, c)
	var next []ast.Stmt
	for i, s := range list {
		if s == stmt {
			next = list[i+1:]
		}
	}
	mentions := func(n ast.Node) bool { return syntax.Mentions(info, n, v) }
	for i, s := range next {
		if !mentions(s) {
			continue
		}
		switch s := s.(type) {
		case *ast.IfStmt:
			if as, ok := s.Init.(*ast.AssignStmt); ok && c.readFull(as, v) && c.errExits(as, s) {
				return "io.ReadFull fills it completely"
			}
		case *ast.AssignStmt:
			if c.readFull(s, v) && i+1 < len(next) {
				if ifs, ok := next[i+1].(*ast.IfStmt); ok && ifs.Init == nil && c.errExits(s, ifs) {
					return "io.ReadFull fills it completely"
				}
			}
		case *ast.ExprStmt:
			call, ok := s.X.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || !isIdentOf(info, call.Args[0], v) {
				break
			}
			fn := typeutilCallee(info, call)
			if fn != nil && byteOrder(fn) && strings.HasPrefix(fn.Name(), "PutUint") {
				if bits, err := strconv.Atoi(strings.TrimPrefix(fn.Name(), "PutUint")); err == nil && int64(bits/8) == cand.length && cand.length == cand.capacity {
					return fn.Name() + " fills it completely"
				}
			}
		}
		return ""
	}
	return ""
}

// readFull reports whether as is "_, err := io.ReadFull(x, v)" (or with =,
// or n instead of _).
func (c *checker) readFull(as *ast.AssignStmt, v *types.Var) bool {
	if len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return false
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || len(call.Args) != 2 || !isIdentOf(c.pass.TypesInfo, call.Args[1], v) {
		return false
	}
	fn := typeutilCallee(c.pass.TypesInfo, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "io" && fn.Name() == "ReadFull"
}

// errExits reports whether ifs is "if err != nil { ...; return }" for the
// error that as assigns.
func (c *checker) errExits(as *ast.AssignStmt, ifs *ast.IfStmt) bool {
	info := c.pass.TypesInfo
	errID, ok := as.Lhs[1].(*ast.Ident)
	if !ok || errID.Name == "_" {
		return false
	}
	errObj := info.ObjectOf(errID)
	cond, ok := ifs.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ {
		return false
	}
	x, ok := cond.X.(*ast.Ident)
	if !ok || info.Uses[x] != errObj {
		return false
	}
	if y, ok := cond.Y.(*ast.Ident); !ok || y.Name != "nil" {
		return false
	}
	if len(ifs.Body.List) == 0 {
		return false
	}
	switch last := ifs.Body.List[len(ifs.Body.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return last.Tok == token.CONTINUE || last.Tok == token.BREAK
	}
	return false
}

// stmtList returns the statement list that holds stmt.
func stmtList(stmt ast.Stmt, c *checker) []ast.Stmt {
	var list []ast.Stmt
	for _, f := range c.pass.Files {
		if f.Pos() > stmt.Pos() || stmt.Pos() >= f.End() {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if list != nil {
				return false
			}
			l := syntax.StmtList(n)
			for _, s := range l {
				if s == stmt {
					list = l
				}
			}
			return n.Pos() <= stmt.Pos() && stmt.Pos() < n.End()
		})
	}
	return list
}

func isIdentOf(info *types.Info, e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// typeutilCallee is like staticCallee but also resolves interface
// methods, which is enough for byte orders and package functions.
func typeutilCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	if fn := staticCallee(info, call); fn != nil {
		return fn
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if fn, ok := info.Uses[sel.Sel].(*types.Func); ok {
			return fn
		}
	}
	return nil
}

// constText spells the constant array length: the source text when it is
// a literal or a package-level constant, the value otherwise.
func (c *checker) constText(e ast.Expr, n int64) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return e.Value
	case *ast.Ident:
		if k, ok := c.pass.TypesInfo.Uses[e].(*types.Const); ok && k.Parent() == c.pass.Pkg.Scope() {
			return e.Name
		}
	}
	return strconv.FormatInt(n, 10)
}

// indent returns the whitespace that precedes pos on its line, and
// whether only whitespace precedes it.
func (c *checker) indent(pos token.Pos) (string, bool) {
	tf := c.pass.Fset.File(pos)
	content, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return "", false
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	prefix := string(content[start:tf.Offset(pos)])
	return prefix, strings.TrimLeft(prefix, " \t") == ""
}

// lineEnd returns the position of the newline that ends pos's line (after
// any trailing comment).
func (c *checker) lineEnd(pos token.Pos) token.Pos {
	tf := c.pass.Fset.File(pos)
	line := tf.Line(pos)
	if line == tf.LineCount() {
		return token.Pos(tf.Base() + tf.Size())
	}
	return tf.LineStart(line+1) - 1
}

// deleteLine returns the edit that deletes stmt's line, or only stmt when
// something else shares its line.
func (c *checker) deleteLine(stmt ast.Stmt) analysis.TextEdit {
	tf := c.pass.Fset.File(stmt.Pos())
	content, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End()}
	}
	line := tf.Line(stmt.Pos())
	start := tf.LineStart(line)
	end := tf.Offset(stmt.End())
	if end < len(content) && content[end] == '\n' && tf.Line(stmt.End()) == line {
		if prefix := string(content[tf.Offset(start):tf.Offset(stmt.Pos())]); strings.TrimLeft(prefix, " \t") == "" {
			return analysis.TextEdit{Pos: start, End: stmt.End() + 1}
		}
	}
	// Delete the blanks up to a trailing comment too.
	for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
		end++
	}
	return analysis.TextEdit{Pos: stmt.Pos(), End: tf.Pos(end)}
}

// zeroing returns the statement that zeroes the slice name, which cand
// makes, in the file at pos: clear(name), or before go1.21, which brought
// clear, the loop that the compiler turns into the same call, when the
// elements have a zero constant: for i := range name { name[i] = 0 }.
// It returns "" when neither can be written.
func (c *checker) zeroing(pos token.Pos, name string, cand *candidate) string {
	if c.tooOld(pos, "clear", "go1.21") == "" {
		return "clear(" + name + ")"
	}
	s, ok := cand.typ.Underlying().(*types.Slice)
	if !ok {
		return ""
	}
	var zero string
	switch u := s.Elem().Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsNumeric != 0:
			zero = "0"
		case u.Info()&types.IsString != 0:
			zero = `""`
		case u.Info()&types.IsBoolean != 0:
			zero = "false"
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		zero = "nil"
	}
	if zero == "" {
		return ""
	}
	i := "i"
	if name == i {
		i = "j"
	}
	return fmt.Sprintf("for %s := range %s { %s[%s] = %s }", i, name, name, i, zero)
}

// tooOld returns why the file at pos may not use feature, which came
// with Go version v, or "" if it may.
func (c *checker) tooOld(pos token.Pos, feature, v string) string {
	return syntax.TooOld(c.pass, c.fileOf(pos), feature, v)
}

// inCommentBlock reports whether pos's line ends in a comment aligned
// with a trailing comment of the line above or below: changing the line's
// length would leave gofmt something to realign, so no fix is offered.
func (c *checker) inCommentBlock(pos token.Pos) bool {
	f := c.fileOf(pos)
	if f == nil {
		return true
	}
	tf := c.pass.Fset.File(pos)
	content, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return true
	}
	trailing := make(map[int]bool) // lines with code then a comment
	for _, cg := range f.Comments {
		for _, cm := range cg.List {
			line := tf.Line(cm.Pos())
			start := tf.Offset(tf.LineStart(line))
			if strings.TrimLeft(string(content[start:tf.Offset(cm.Pos())]), " \t") != "" {
				trailing[line] = true
			}
		}
	}
	line := tf.Line(pos)
	return trailing[line] && (trailing[line-1] || trailing[line+1])
}

// fileOf returns the file that holds pos.
func (c *checker) fileOf(pos token.Pos) *ast.File {
	return syntax.FileAt(c.pass.Files, pos)
}

// tierSuffix formats the hot-path tier that ends every message.
func tierSuffix(hot hotpath.Info) string {
	return fmt.Sprintf(" [%s: %s]", hot.Tier, hot.Reason)
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
