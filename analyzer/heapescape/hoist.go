package heapescape

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// The hoist fix moves an allocation that does not outlive a loop iteration
// before the loop, and resets the value where it was allocated, so that
// every iteration sees what a fresh allocation would have given it:
//
//	buf := make([]T, 64)   ->  buf := make([]T, 64) before the loop; clear(buf)
//	buf := make([]T, n)    ->  var buf []T before the loop; if buf == nil { buf = make([]T, n) } else { clear(buf) }
//	p := &T{...}, new(T)   ->  p := new(T) before the loop; *p = T{...}
//	var x T (moved)        ->  var x T before the loop; x = T{}
//
// A make whose size is not a constant is made in the first iteration that
// reaches it, not before the loop: a negative size must panic where it
// did, and a loop that does not run must not allocate. The fix is built
// only when it is safe by construction: the value is bound to a variable
// declared alone in the loop body, whose every use keeps it in the
// iteration (iterationLocal), that is never assigned again; the size of a
// make is the same in every iteration; the names the moved text uses mean
// the same before the loop; and the hoisted variable's name captures no
// other use of that name (it is renamed otherwise).

// nameMark stands for the hoisted variable's name in the text of a hoist fix
// until the name is chosen: a NUL, which Go source cannot contain.
const nameMark = "\x00"

// hoistFix returns the fix that hoists the finding's allocation out of its
// loop, or why none is offered.
func (fd *finding) hoistFix() (*analysis.SuggestedFix, string) {
	info := fd.pass.TypesInfo
	loop := fd.enclosingLoop()
	if loop == nil {
		return nil, "the loop is not found"
	}
	body := loopBody(loop)
	if rs, ok := loop.(*ast.RangeStmt); ok {
		if _, isFunc := info.TypeOf(rs.X).Underlying().(*types.Signature); isFunc {
			// The body is a function that the iterator calls, from
			// whatever goroutine it likes.
			return nil, "the loop ranges over a function, whose iterator may call the body from other goroutines"
		}
	}

	// The statement that declares the variable, alone.
	var v *types.Var
	var stmt ast.Stmt
	var init ast.Expr     // the value the statement gives v, if any
	var declType ast.Expr // the type the statement spells, if any
	e := fd.allocExpr()
	if mv := fd.movedVar(); mv != nil {
		v = mv
		stmt, init, declType = fd.declOf(mv)
	} else if e != nil {
		switch p := fd.parentOf(e).(type) {
		case *ast.AssignStmt:
			if p.Tok == token.DEFINE && len(p.Lhs) == 1 && len(p.Rhs) == 1 {
				if id, ok := p.Lhs[0].(*ast.Ident); ok {
					v, _ = info.Defs[id].(*types.Var)
					stmt, init = p, p.Rhs[0]
				}
			}
		case *ast.ValueSpec:
			if len(p.Names) == 1 && len(p.Values) == 1 {
				v, _ = info.Defs[p.Names[0]].(*types.Var)
				stmt, init, declType = fd.declStmtOf(p), p.Values[0], p.Type
			}
		}
	}
	if v == nil || stmt == nil {
		return nil, "it is not declared alone in a statement of its own"
	}
	if e != nil && !types.Identical(v.Type(), info.TypeOf(e)) {
		return nil, "its variable has another type"
	}
	list := fd.stmtListOf(stmt)
	if list == nil || !within(stmt, body) {
		return nil, "it is not declared in a statement list of the loop body"
	}
	if why := fd.assignedAgain(v, body, stmt); why != "" {
		return nil, why
	}
	fnBody := fd.funcBody()
	if syntax.HasGoto(fnBody) {
		return nil, "the function uses goto, which a declaration before the loop could break"
	}

	// Where the declaration goes: before the loop (or its label), in a
	// statement list.
	var outer ast.Stmt = loop
	if lab, ok := fd.parentOf(loop).(*ast.LabeledStmt); ok {
		outer = lab
	}
	outerList := fd.parentOf(outer)
	scope := fd.listScope(outerList)
	if scope == nil {
		return nil, "the loop is not in a statement list"
	}

	// The declaration before the loop and the reset in the loop, with
	// nameMark for the variable's name.
	var decl, reset string
	moved := []ast.Expr{} // the expressions that move before the loop
	usesClear := false
	switch {
	case fd.movedVar() != nil:
		if declType == nil {
			if lit, ok := ast.Unparen(init).(*ast.CompositeLit); ok && lit.Type != nil {
				declType = lit.Type
			} else {
				return nil, "its declaration does not spell its type"
			}
		}
		if !fd.spelledType(declType, v.Type()) {
			return nil, "its declared type is not one it can be reset to"
		}
		decl = "var " + nameMark + " " + fd.text(declType)
		moved = append(moved, declType)
		if init != nil {
			reset = nameMark + " = " + fd.text(init)
		} else if z := zeroText(v.Type(), fd.text(declType)); z != "" {
			reset = nameMark + " = " + z
		} else {
			return nil, "its type has no zero value literal"
		}
	case isBuiltinCall(info, e, "make"):
		call := e.(*ast.CallExpr)
		switch info.TypeOf(call).Underlying().(type) {
		case *types.Slice, *types.Map:
		default:
			return nil, "it is not a slice or a map"
		}
		clearArg := nameMark
		if len(call.Args) == 3 {
			// make([]T, n, m) zeroes the capacity too, which a reslice
			// in the loop can reach.
			clearArg = nameMark + "[:cap(" + nameMark + ")]"
		}
		usesClear = true
		switch {
		case fd.constArgs(call.Args[1:]):
			decl = nameMark + " := " + fd.text(call)
			moved = append(moved, call)
			reset = "clear(" + clearArg + ")"
		case fd.sameEachIteration(call.Args[1:], loop, fnBody):
			// Made in the first iteration, where it was.
			decl = "var " + nameMark + " " + fd.text(call.Args[0])
			moved = append(moved, call.Args[0])
			reset = "if " + nameMark + " == nil {\n\t" + nameMark + " = " + fd.text(call) + "\n} else {\n\tclear(" + clearArg + ")\n}"
		default:
			return nil, "its size may change from one iteration to the next"
		}
	case isBuiltinCall(info, e, "new"):
		call := e.(*ast.CallExpr)
		t := info.TypeOf(call).(*types.Pointer).Elem()
		z := zeroText(t, fd.text(call.Args[0]))
		if z == "" {
			return nil, "its type has no zero value literal"
		}
		decl = nameMark + " := " + fd.text(call)
		moved = append(moved, call)
		reset = "*" + nameMark + " = " + z
	default:
		u, ok := e.(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			return nil, "only make, new, &T{...} and variables are hoisted automatically"
		}
		lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
		if !ok || lit.Type == nil {
			return nil, "only make, new, &T{...} and variables are hoisted automatically"
		}
		if !fd.spelledType(lit.Type, info.TypeOf(lit)) {
			return nil, "its type cannot be spelled in new(T)"
		}
		decl = nameMark + " := new(" + fd.text(lit.Type) + ")"
		moved = append(moved, lit.Type)
		reset = "*" + nameMark + " = " + fd.text(lit)
	}
	if why := syntax.TooOld(fd.pass, fd.file, "clear", "go1.21"); usesClear && why != "" {
		return nil, why
	}
	for _, m := range moved {
		if !fd.resolvesBefore(m, scope, outer.Pos()) {
			return nil, "its type or size uses a name declared in the loop"
		}
	}

	// The name: the variable's own if that changes what no other name
	// refers to, a fresh one otherwise (and every use renamed).
	name := v.Name()
	taken := fd.hoisted[fnBody]
	if taken == nil {
		taken = make(map[string]bool)
		fd.hoisted[fnBody] = taken
	}
	renamed := taken[name] || fd.namedResult(name) || !fd.nameFree(name, v, outerList, scope, outer)
	if renamed {
		name = fd.freshName(v.Name(), fnBody, scope, outer.Pos(), taken)
		if name == "" {
			return nil, "no free name is found for it"
		}
	}

	outerIndent, ok1 := fd.indent(outer.Pos())
	stmtIndent, ok2 := fd.indent(stmt.Pos())
	if !ok1 || !ok2 {
		return nil, "its statement shares a line with other code"
	}
	subst := func(s, indent string) string {
		s = strings.ReplaceAll(s, nameMark, name)
		return strings.ReplaceAll(s, "\n", "\n"+indent)
	}
	edits := []analysis.TextEdit{
		{Pos: outer.Pos(), End: outer.Pos(), NewText: []byte(subst(decl, outerIndent) + "\n" + outerIndent)},
		{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(subst(reset, stmtIndent))},
	}
	if renamed {
		ast.Inspect(body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
				edits = append(edits, analysis.TextEdit{Pos: id.Pos(), End: id.End(), NewText: []byte(name)})
			}
			return true
		})
	}
	taken[name] = true
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Hoist %s out of the loop", v.Name()),
		TextEdits: edits,
	}, ""
}

// declOf returns the statement that declares v, a moved variable, with
// the value and the type it spells (nil if none): "var v T", "var v T = x",
// "var v = x" or "v := x", declaring v alone.
func (fd *finding) declOf(v *types.Var) (stmt ast.Stmt, init, typ ast.Expr) {
	if len(fd.path) < 2 {
		return nil, nil, nil
	}
	switch p := fd.path[1].(type) {
	case *ast.ValueSpec:
		if len(p.Names) != 1 || len(p.Values) > 1 {
			return nil, nil, nil
		}
		if len(p.Values) == 1 {
			init = p.Values[0]
		}
		return fd.declStmtOf(p), init, p.Type
	case *ast.AssignStmt:
		if p.Tok == token.DEFINE && len(p.Lhs) == 1 && len(p.Rhs) == 1 && p.Lhs[0] == fd.path[0] {
			return p, p.Rhs[0], nil
		}
	}
	return nil, nil, nil
}

// declStmtOf returns the var statement that holds spec as its only
// specification, or nil.
func (fd *finding) declStmtOf(spec *ast.ValueSpec) ast.Stmt {
	gd, ok := fd.parentOf(spec).(*ast.GenDecl)
	if !ok || len(gd.Specs) != 1 {
		return nil
	}
	ds, ok := fd.parentOf(gd).(*ast.DeclStmt)
	if !ok {
		return nil
	}
	return ds
}

// stmtListOf returns the block or case clause whose statement list holds
// stmt, or nil.
func (fd *finding) stmtListOf(stmt ast.Stmt) ast.Node {
	p := fd.parentOf(stmt)
	if slices.Contains(syntax.StmtList(p), stmt) {
		return p
	}
	return nil
}

// listScope returns the scope of a block or case clause that is a
// statement list, or nil if list is not one.
func (fd *finding) listScope(list ast.Node) *types.Scope {
	info := fd.pass.TypesInfo
	switch list.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return nil
	}
	if s := info.Scopes[list]; s != nil {
		return s
	}
	// A function's body shares the scope of its signature.
	switch f := fd.parentOf(list).(type) {
	case *ast.FuncDecl:
		return info.Scopes[f.Type]
	case *ast.FuncLit:
		return info.Scopes[f.Type]
	}
	return nil
}

func within(n, outer ast.Node) bool {
	return n.Pos() >= outer.Pos() && n.End() <= outer.End()
}

// assignedAgain says why v, declared by decl in body, cannot be one
// variable for every iteration: it is assigned after its declaration
// (the next iteration would start from that value), or "" if it is not.
func (fd *finding) assignedAgain(v *types.Var, body *ast.BlockStmt, decl ast.Stmt) string {
	info := fd.pass.TypesInfo
	why := ""
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if !is(l) {
					continue
				}
				why = "it is assigned again in the loop"
				if len(n.Lhs) == len(n.Rhs) {
					if c, ok := ast.Unparen(n.Rhs[i]).(*ast.CallExpr); ok && syntax.IsBuiltin(info, c.Fun, "append") {
						why = "it is appended to, and append may move it"
					}
				}
			}
		case *ast.IncDecStmt:
			if is(n.X) {
				why = "it is assigned again in the loop"
			}
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN && (n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value)) {
				why = "it is assigned again in the loop"
			}
		}
		return true
	})
	return why
}

func isBuiltinCall(info *types.Info, e ast.Expr, name string) bool {
	call, ok := e.(*ast.CallExpr)
	return ok && syntax.IsBuiltin(info, call.Fun, name)
}

// constArgs reports whether every expression is a constant.
func (fd *finding) constArgs(args []ast.Expr) bool {
	for _, a := range args {
		if fd.pass.TypesInfo.Types[a].Value == nil {
			return false
		}
	}
	return true
}

// sameEachIteration reports whether each expression provably has the same
// value in every iteration of loop: constants, and local variables that
// nothing can assign while the loop runs (not assigned in the loop or in
// any function literal of fnBody, their address never taken), combined by
// arithmetic, conversions, and len and cap of slices, arrays and strings.
// A call, a field, an element or a package-level variable may change.
func (fd *finding) sameEachIteration(args []ast.Expr, loop ast.Stmt, fnBody *ast.BlockStmt) bool {
	info := fd.pass.TypesInfo
	unstable := make(map[types.Object]bool)
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			unstable[info.ObjectOf(id)] = true
		}
	}
	var walk func(n ast.Node, inLoop, inLit bool)
	walk = func(n ast.Node, inLoop, inLit bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if m == nil {
				return false
			}
			if m != n {
				switch m.(type) {
				case *ast.FuncLit:
					walk(m, inLoop, true)
					return false
				}
				if m == loop {
					walk(m, true, inLit)
					return false
				}
			}
			switch m := m.(type) {
			case *ast.UnaryExpr:
				if m.Op == token.AND {
					mark(m.X)
				}
			case *ast.SelectorExpr:
				// A method with a pointer receiver takes the address.
				if sel := info.Selections[m]; sel != nil && sel.Kind() != types.FieldVal {
					mark(m.X)
				}
			}
			if !inLoop && !inLit {
				return true
			}
			switch m := m.(type) {
			case *ast.AssignStmt:
				for _, l := range m.Lhs {
					mark(l)
				}
			case *ast.IncDecStmt:
				mark(m.X)
			case *ast.RangeStmt:
				if m.Tok == token.ASSIGN {
					if m.Key != nil {
						mark(m.Key)
					}
					if m.Value != nil {
						mark(m.Value)
					}
				}
			}
			return true
		})
	}
	if fnBody == nil {
		return false
	}
	walk(fnBody, false, false)
	stable := func(id *ast.Ident) bool {
		v, ok := info.Uses[id].(*types.Var)
		return ok && !unstable[v] && v.Parent() != nil && v.Parent() != fd.pass.Pkg.Scope() &&
			(v.Pos() < loop.Pos() || v.Pos() >= loop.End())
	}
	var same func(e ast.Expr) bool
	same = func(e ast.Expr) bool {
		if info.Types[e].Value != nil {
			return true
		}
		switch e := e.(type) {
		case *ast.ParenExpr:
			return same(e.X)
		case *ast.Ident:
			return stable(e)
		case *ast.BinaryExpr:
			return same(e.X) && same(e.Y)
		case *ast.UnaryExpr:
			return (e.Op == token.SUB || e.Op == token.ADD || e.Op == token.XOR) && same(e.X)
		case *ast.CallExpr:
			if len(e.Args) != 1 && !syntax.IsBuiltin(info, e.Fun, "min") && !syntax.IsBuiltin(info, e.Fun, "max") {
				return false
			}
			if tv, ok := info.Types[e.Fun]; ok && tv.IsType() {
				return same(e.Args[0])
			}
			if syntax.IsBuiltin(info, e.Fun, "min") || syntax.IsBuiltin(info, e.Fun, "max") {
				for _, a := range e.Args {
					if !same(a) {
						return false
					}
				}
				return true
			}
			if syntax.IsBuiltin(info, e.Fun, "len") || syntax.IsBuiltin(info, e.Fun, "cap") {
				id, ok := ast.Unparen(e.Args[0]).(*ast.Ident)
				if !ok || !stable(id) {
					return false
				}
				switch u := info.TypeOf(id).Underlying().(type) {
				case *types.Slice, *types.Array:
					return true
				case *types.Basic:
					return u.Info()&types.IsString != 0
				}
			}
		}
		return false
	}
	for _, a := range args {
		if !same(a) {
			return false
		}
	}
	return true
}

// spelledType reports whether typ, the source of type t, can be written
// in new(typ) and var v typ: not an array type of inferred length
// ([...]T), not a type parameter (whose zero value has no literal).
func (fd *finding) spelledType(typ ast.Expr, t types.Type) bool {
	if at, ok := typ.(*ast.ArrayType); ok {
		if _, ok := at.Len.(*ast.Ellipsis); ok {
			return false
		}
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	return true
}

// zeroText returns the source of the zero value of t, whose source is
// typ, or "" if it has none that does not allocate.
func zeroText(t types.Type, typ string) string {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return typ + "{}"
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsNumeric != 0:
			return "0"
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil"
	}
	return ""
}

// resolvesBefore reports whether every name that e uses refers, at pos in
// scope, to what it refers to in e.
func (fd *finding) resolvesBefore(e ast.Expr, scope *types.Scope, pos token.Pos) bool {
	info := fd.pass.TypesInfo
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			// The selected name is resolved by what precedes the dot.
			ok = ok && fd.resolvesBefore(n.X, scope, pos)
			return false
		case *ast.Ident:
			obj := info.Uses[n]
			if obj == nil {
				return ok // a declared name, such as a struct type's field
			}
			if _, o := scope.LookupParent(n.Name, pos); o != obj {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// nameFree reports whether declaring name in scope, before outer (in
// list), changes what no identifier refers to: the scope does not declare
// it, and no identifier of that name from outer on refers to anything but
// v (an identifier that refers to a variable declared elsewhere, outer or
// inner, could refer to the hoisted variable, or to the variable another
// hoist fix declares).
func (fd *finding) nameFree(name string, v *types.Var, list ast.Node, scope *types.Scope, outer ast.Stmt) bool {
	if scope.Lookup(name) != nil {
		return false
	}
	info := fd.pass.TypesInfo
	free := true
	ast.Inspect(list, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || id.Name != name || id.Pos() < outer.Pos() {
			return free
		}
		obj := info.ObjectOf(id)
		if obj == nil || obj == types.Object(v) {
			return free
		}
		if fv, isVar := obj.(*types.Var); isVar && fv.IsField() {
			return free
		}
		if _, isLabel := obj.(*types.Label); isLabel {
			return free
		}
		free = false
		return false
	})
	return free
}

// namedResult reports whether the function enclosing the record has a
// result named name, which a bare return uses without naming it.
func (fd *finding) namedResult(name string) bool {
	ft, _ := fd.enclosingFunc()
	if ft == nil || ft.Results == nil {
		return false
	}
	for _, f := range ft.Results.List {
		for _, id := range f.Names {
			if id.Name == name {
				return true
			}
		}
	}
	return false
}

// freshName returns a name for a hoisted variable based on base that no
// identifier of the function uses and that refers to nothing at pos, or
// "" if none is found.
func (fd *finding) freshName(base string, fnBody *ast.BlockStmt, scope *types.Scope, pos token.Pos, taken map[string]bool) string {
	used := make(map[string]bool)
	ast.Inspect(fnBody, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	for i := 2; i < 100; i++ {
		name := base + strconv.Itoa(i)
		if _, obj := scope.LookupParent(name, pos); obj == nil && !used[name] && !taken[name] {
			return name
		}
	}
	return ""
}

// text returns the source text of n.
func (fd *finding) text(n ast.Node) string {
	tf := fd.pass.Fset.File(n.Pos())
	content, err := fd.pass.ReadFile(tf.Name())
	if err != nil {
		return types.ExprString(n.(ast.Expr))
	}
	return string(content[tf.Offset(n.Pos()):tf.Offset(n.End())])
}

// indent returns the whitespace that precedes pos on its line, and
// whether only whitespace precedes it.
func (fd *finding) indent(pos token.Pos) (string, bool) {
	tf := fd.pass.Fset.File(pos)
	content, err := fd.pass.ReadFile(tf.Name())
	if err != nil {
		return "", false
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	prefix := string(content[start:tf.Offset(pos)])
	return prefix, strings.TrimLeft(prefix, " \t") == ""
}
