package inlinebudget

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// An edit replaces the bytes [start, end) of a file with text. The advice
// is verified by compiling the package with these edits applied, so each
// advice kind is implemented as the edits a developer would make.
type edit struct {
	start, end int
	text       string
}

// A namer hands out the names of the declarations the edits add; they
// must not collide with the package's names.
type namer struct {
	pkg *types.Package
	n   int
}

func (nm *namer) next(prefix string) string {
	for {
		nm.n++
		name := prefix + strconv.Itoa(nm.n)
		if nm.pkg.Scope().Lookup(name) == nil {
			return name
		}
	}
}

func offset(pass *analysis.Pass, pos token.Pos) int { return pass.Fset.Position(pos).Offset }

func text(pass *analysis.Pass, src []byte, n ast.Node) string {
	return string(src[offset(pass, n.Pos()):offset(pass, n.End())])
}

// walkType calls visit for t and, where visit returns true, for the
// types t is written with: elements, keys, parameters and results,
// struct fields and type arguments, each type once.
func walkType(t types.Type, visit func(types.Type) bool) {
	seen := make(map[types.Type]bool)
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if !visit(t) {
			return
		}
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			for a := range t.TypeArgs().Types() {
				walk(a)
			}
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Signature:
			for v := range t.Params().Variables() {
				walk(v.Type())
			}
			for v := range t.Results().Variables() {
				walk(v.Type())
			}
		case *types.Struct:
			for f := range t.Fields() {
				walk(f.Type())
			}
		}
	}
	walk(t)
}

// typeText writes t as source in the file of pos, or reports that it
// cannot be written there (a package the file does not import, or an
// unexported type of another package).
func typeText(pass *analysis.Pass, pos token.Pos, t types.Type) (string, bool) {
	q, bad := syntax.Qualifier(pass, pos)
	s := types.TypeString(t, q)
	ok := !bad()
	walkType(t, func(t types.Type) bool {
		switch t := t.(type) {
		case *types.Named:
			if o := t.Obj(); o.Pkg() != nil && o.Pkg() != pass.Pkg && !o.Exported() {
				ok = false
			}
			if o := t.Obj(); o.Parent() != nil && o.Parent() != o.Pkg().Scope() && o.Pkg() == pass.Pkg {
				ok = false // a type declared in a function
			}
		case *types.TypeParam:
			ok = false
		}
		return ok
	})
	return s, ok
}

// formatters are the calls whose value can be built later, by the Error
// method of a struct that holds their arguments, with the same result.
var formatters = map[string]string{"Sprintf": "Sprintf", "Sprint": "Sprint", "Sprintln": "Sprintln", "Errorf": "Sprintf"}

// valueWithoutCall proposes to replace call (fmt.Sprintf and the like,
// building a panic value or an error) by a pointer to a struct literal
// that holds its arguments, with an Error method that formats them. The
// arguments must be of basic types without methods, so that formatting
// them later gives what formatting them now gives. It returns the edit, the declarations
// to add, and the list of values held.
func valueWithoutCall(pass *analysis.Pass, names *namer, fd *ast.FuncDecl, call *ast.CallExpr, src []byte) (edit, string, string, bool) {
	fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return edit{}, "", "", false
	}
	method, ok := formatters[fn.Name()]
	if !ok {
		return edit{}, "", "", false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return edit{}, "", "", false
	}
	qual := text(pass, src, sel.X)
	allConst := true
	for _, a := range call.Args {
		allConst = allConst && pass.TypesInfo.Types[a].Value != nil
	}
	if allConst {
		// The value is the same on every call: build it once.
		name := names.next("goadviseValue")
		ed := edit{offset(pass, call.Pos()), offset(pass, call.End()), name}
		return ed, fmt.Sprintf("var %s = %s\n", name, text(pass, src, call)), "", true
	}
	args := call.Args
	var format string
	if method == "Sprintf" {
		format, args = text(pass, src, args[0]), args[1:]
	}
	typ := names.next("goadviseError")
	var fields, vals, held, uses []string
	for i, a := range args {
		t := types.Default(pass.TypesInfo.TypeOf(a))
		if t == nil {
			return edit{}, "", "", false
		}
		if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) == 0 {
			return edit{}, "", "", false
		}
		if types.NewMethodSet(t).Len() > 0 {
			return edit{}, "", "", false // a String method could format it differently later
		}
		ts, ok := typeText(pass, call.Pos(), t)
		if !ok {
			return edit{}, "", "", false
		}
		fields = append(fields, fmt.Sprintf("a%d %s", i, ts))
		vals = append(vals, text(pass, src, a))
		uses = append(uses, fmt.Sprintf("e.a%d", i))
		held = append(held, text(pass, src, a))
	}
	if format != "" {
		uses = append([]string{format}, uses...)
	}
	decl := fmt.Sprintf("type %s struct{ %s }\n\nfunc (e *%s) Error() string { return %s.%s(%s) }\n",
		typ, strings.Join(fields, "; "), typ, qual, method, strings.Join(uses, ", "))
	ed := edit{offset(pass, call.Pos()), offset(pass, call.End()), fmt.Sprintf("&%s{%s}", typ, strings.Join(vals, ", "))}
	return ed, decl, strings.Join(held, ", "), true
}

// nameLiteral proposes to make the function literal lit, which uses no
// local variables, a function declared at package level.
func nameLiteral(pass *analysis.Pass, names *namer, fd *ast.FuncDecl, lit *ast.FuncLit, src []byte) (edit, string, bool) {
	if outer, ok := outerRefs(pass, fd, lit, lit.Body); !ok || len(outer) > 0 {
		return edit{}, "", false
	}
	if _, ok := typeText(pass, lit.Pos(), pass.TypesInfo.TypeOf(lit)); !ok {
		return edit{}, "", false
	}
	name := names.next("goadviseFunc")
	lt := text(pass, src, lit)
	decl := "func " + name + strings.TrimPrefix(lt, "func") + "\n"
	return edit{offset(pass, lit.Pos()), offset(pass, lit.End()), name}, decl, true
}

// outerRefs returns the local variables of fd declared outside span that
// node uses. It reports false if node uses something of fd that cannot be
// passed as an argument: a local type or constant, a label.
func outerRefs(pass *analysis.Pass, fd *ast.FuncDecl, span ast.Node, node ast.Node) ([]*types.Var, bool) {
	var vars []*types.Var
	seen := make(map[*types.Var]bool)
	ok := true
	inFunc := func(p token.Pos) bool { return p >= fd.Pos() && p < fd.End() }
	inSpan := func(p token.Pos) bool { return p >= span.Pos() && p < span.End() }
	ast.Inspect(node, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || !ok {
			return ok
		}
		switch o := pass.TypesInfo.Uses[id].(type) {
		case *types.Var:
			if !o.IsField() && inFunc(o.Pos()) && !inSpan(o.Pos()) && !seen[o] {
				seen[o] = true
				vars = append(vars, o)
			}
		case *types.TypeName, *types.Const, *types.Label:
			if inFunc(o.Pos()) && !inSpan(o.Pos()) {
				ok = false
			}
		}
		return true
	})
	return vars, ok
}

// moveColdPath proposes to move the statements of the cold path cp, and
// the building of its panic value or error, into one function marked
// //go:noinline that returns the value: the path then costs one call.
// The function gets the local variables the path uses as parameters, so
// the path must not assign them, take their address, return early or
// branch out of itself, or defer.
func moveColdPath(pass *analysis.Pass, names *namer, fd *ast.FuncDecl, cp coldPath, src []byte) ([]edit, string, bool) {
	stmts := cp.block.List
	first, last := stmts[0], stmts[len(stmts)-1]
	outer, ok := outerRefs(pass, fd, cp.block, cp.block)
	if !ok || !movable(pass, outer, stmts[:len(stmts)-1], cp.final) {
		return nil, "", false
	}
	var params, args []string
	byName := make(map[string]bool)
	for _, v := range outer {
		if byName[v.Name()] {
			return nil, "", false
		}
		byName[v.Name()] = true
		ts, ok := typeText(pass, first.Pos(), v.Type())
		if !ok {
			return nil, "", false
		}
		params = append(params, v.Name()+" "+ts)
		args = append(args, v.Name())
	}
	name := names.next("goadviseCold")
	result := "any"
	for _, f := range pass.Files {
		if f.FileStart <= fd.Pos() && fd.Pos() < f.FileEnd && !syntax.FileVersionAtLeast(pass, f, "go1.18") {
			result = "interface{}" // any came with go1.18
		}
	}
	call := fmt.Sprintf("%s(%s)", name, strings.Join(args, ", "))
	replacement := "panic(" + call + ")"
	if !cp.panics {
		result = "error"
		ret := last.(*ast.ReturnStmt)
		var rs []string
		for _, r := range ret.Results[:len(ret.Results)-1] {
			if !stable(pass, outer, r) {
				return nil, "", false
			}
			rs = append(rs, text(pass, src, r))
		}
		replacement = "return " + strings.Join(append(rs, call), ", ")
	}
	var body string
	if len(stmts) > 1 {
		body = string(src[offset(pass, first.Pos()):offset(pass, stmts[len(stmts)-2].End())]) + "\n\t"
	}
	decl := fmt.Sprintf("//go:noinline\nfunc %s(%s) %s {\n\t%sreturn %s\n}\n", name, strings.Join(params, ", "), result, body, text(pass, src, cp.final))
	return []edit{{offset(pass, first.Pos()), offset(pass, last.End()), replacement}}, decl, true
}

// stable reports whether the result expression r of a return has the
// same value whether it is evaluated before or after the moved path:
// a constant, nil, or a local variable the path cannot change.
func stable(pass *analysis.Pass, outer []*types.Var, r ast.Expr) bool {
	tv := pass.TypesInfo.Types[r]
	if tv.Value != nil || tv.IsNil() {
		return true
	}
	if id, ok := ast.Unparen(r).(*ast.Ident); ok {
		v, ok := pass.TypesInfo.Uses[id].(*types.Var)
		return ok && !v.IsField() && v.Parent() != v.Pkg().Scope()
	}
	if cl, ok := ast.Unparen(r).(*ast.CompositeLit); ok {
		return len(cl.Elts) == 0
	}
	return false
}

// movable reports whether stmts and final can run in a function that
// gets the variables outer by value: they neither change outer's
// variables nor take their address, and they neither return nor branch
// out nor defer.
func movable(pass *analysis.Pass, outer []*types.Var, stmts []ast.Stmt, final ast.Expr) bool {
	isOuter := make(map[*types.Var]bool)
	for _, v := range outer {
		isOuter[v] = true
	}
	// storedIn reports whether writing to or taking the address of e
	// writes to or exposes a variable of outer.
	var storedIn func(e ast.Expr) bool
	storedIn = func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, ok := pass.TypesInfo.Uses[e].(*types.Var)
			return ok && isOuter[v]
		case *ast.SelectorExpr:
			if _, ok := pass.TypesInfo.TypeOf(e.X).Underlying().(*types.Pointer); ok {
				return false
			}
			if s := pass.TypesInfo.Selections[e]; s == nil {
				return false // a qualified identifier
			}
			return storedIn(e.X)
		case *ast.IndexExpr:
			if _, ok := pass.TypesInfo.TypeOf(e.X).Underlying().(*types.Array); ok {
				return storedIn(e.X)
			}
			return false
		}
		return false
	}
	ok := true
	var visit func(n ast.Node, inLit bool) bool
	visit = func(n ast.Node, inLit bool) bool {
		ast.Inspect(n, func(n ast.Node) bool {
			if !ok {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				visit(n.Body, true)
				return false
			case *ast.ReturnStmt, *ast.BranchStmt, *ast.LabeledStmt, *ast.DeferStmt:
				if !inLit {
					ok = false
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if storedIn(l) {
						ok = false
					}
				}
			case *ast.IncDecStmt:
				ok = ok && !storedIn(n.X)
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN {
					ok = ok && (n.Key == nil || !storedIn(n.Key)) && (n.Value == nil || !storedIn(n.Value))
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND && storedIn(n.X) {
					ok = false
				}
			case *ast.SliceExpr:
				if _, isArr := pass.TypesInfo.TypeOf(n.X).Underlying().(*types.Array); isArr && storedIn(n.X) {
					ok = false
				}
			case *ast.SelectorExpr:
				// A method with a pointer receiver called on a variable
				// takes its address.
				if s := pass.TypesInfo.Selections[n]; s != nil && s.Kind() == types.MethodVal {
					if sig, isSig := s.Obj().Type().(*types.Signature); isSig && sig.Recv() != nil {
						if _, ptr := sig.Recv().Type().(*types.Pointer); ptr && storedIn(n.X) {
							ok = false
						}
					}
				}
			case *ast.CallExpr:
				if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID && id.Name == "recover" {
					if _, builtin := pass.TypesInfo.Uses[id].(*types.Builtin); builtin {
						ok = false
					}
				}
			}
			return ok
		})
		return ok
	}
	for _, s := range stmts {
		visit(s, false)
	}
	visit(final, false)
	return ok
}
