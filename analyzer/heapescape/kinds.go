package heapescape

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/ssaform"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// The fix kinds of this file are changes that remove an allocation which
// the code's shape alone used to call inherent: sort.Sort boxing its
// slice, a field re-made for each item, a make whose value nothing uses,
// a closure built per call from the receiver alone, a pointer field
// allocated with its container.

// sortReplacements maps the functions of package sort that take their
// data as an interface (boxing the slice on every call) to the function
// of package slices that takes the slice itself.
var sortReplacements = map[string]string{
	"Sort":          "SortFunc",
	"Stable":        "SortStableFunc",
	"IsSorted":      "IsSortedFunc",
	"Slice":         "SortFunc",
	"SliceStable":   "SortStableFunc",
	"SliceIsSorted": "IsSortedFunc",
}

// sortAdvice returns the change for a slice boxed to be passed to a
// function of package sort: the generic function of package slices takes
// the slice as it is, and calls its comparison directly. It returns ""
// for any other boxing.
func (fd *finding) sortAdvice() (advice, noFix string) {
	call := fd.flowCall()
	if call == nil || len(call.Args) == 0 {
		return "", ""
	}
	fn, ok := typeutil.Callee(fd.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sort" {
		return "", ""
	}
	repl, ok := sortReplacements[fn.Name()]
	arg := call.Args[0]
	if !ok || fd.rec.TokPos < arg.Pos() || fd.rec.TokPos >= arg.End() {
		return "", ""
	}
	what := "its methods"
	if strings.HasPrefix(fn.Name(), "Slice") {
		what = "its less function"
	}
	natural := ""
	if repl != "IsSortedFunc" {
		natural = " (slices.Sort for elements in their natural order)"
	}
	advice = fmt.Sprintf("call slices.%s with a comparison of two elements%s instead of sort.%s: sort takes the slice as an interface, which allocates on every call, and calls %s dynamically, where slices calls the comparison directly",
		repl, natural, fn.Name(), what)
	if why := syntax.TooOld(fd.pass, fd.file, "package slices", "go1.21"); why != "" {
		return advice, why
	}
	fix, noFix := fd.sortFix(call, fn.Name())
	fd.suggested = fix
	return advice, noFix
}

// sortFix returns the fix that calls package slices instead of the sort
// call, when the comparison is one the fix can write as a comparison of
// two elements: a Less method, or the less function of sort.Slice, whose
// body is "return x[i] < x[j]", or compares one field path of both
// elements (x[i].f.g < x[j].f.g; > sorts in reverse), of an integer or
// string type (with floats, cmp.Compare orders NaNs where < does not).
func (fd *finding) sortFix(call *ast.CallExpr, name string) (*analysis.SuggestedFix, string) {
	info := fd.pass.TypesInfo
	arg := ast.Unparen(call.Args[0])
	var slice ast.Expr // the slice the fix passes
	var ret *ast.ReturnStmt
	var iName, jName string
	var recvName string // the name of the slice in the comparison
	switch {
	case strings.HasPrefix(name, "Slice"):
		if len(call.Args) != 2 {
			return nil, ""
		}
		lit, ok := ast.Unparen(call.Args[1]).(*ast.FuncLit)
		if !ok {
			return nil, "the less function is not a literal the fix can rewrite"
		}
		id, ok := arg.(*ast.Ident)
		if !ok {
			return nil, "the slice is not a variable the less function can index"
		}
		slice, recvName = id, id.Name
		ret, iName, jName = lessBody(lit.Type, lit.Body)
	default:
		t := info.TypeOf(arg)
		if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 && info.Types[conv.Fun].IsType() {
			slice = conv.Args[0]
		} else {
			slice = arg
		}
		if t == nil {
			return nil, ""
		}
		less, _, _ := types.LookupFieldOrMethod(t, false, fd.pass.Pkg, "Less")
		m, ok := less.(*types.Func)
		if !ok || m.Pkg() != fd.pass.Pkg {
			return nil, "the Less method is not the package's"
		}
		decl := fd.declOfFunc(m)
		if decl == nil || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
			return nil, "the Less method is not one the fix can read"
		}
		recvName = decl.Recv.List[0].Names[0].Name
		ret, iName, jName = lessBody(decl.Type, decl.Body)
	}
	if ret == nil {
		return nil, "the comparison is more than one < or > of two elements"
	}
	st, ok := info.TypeOf(slice).Underlying().(*types.Slice)
	if !ok {
		return nil, ""
	}
	cmpExpr, direct, ok := elementCompare(ret.Results[0], recvName, iName, jName)
	if !ok {
		return nil, "the comparison is more than one < or > of two elements"
	}
	if !orderedNoFloat(info, ret.Results[0]) {
		return nil, "the elements compared are not integers or strings"
	}
	qual, _ := syntax.Qualifier(fd.pass, call.Pos())
	elem := types.TypeString(st.Elem(), qual)
	slicesName, ok1 := syntax.ImportName(fd.pass, fd.file, call.Pos(), "slices")
	cmpName, ok2 := syntax.ImportName(fd.pass, fd.file, call.Pos(), "cmp")
	if !ok1 || !ok2 || strings.Contains(elem, "struct{") {
		return nil, "the names slices or cmp are taken in the file"
	}
	var add []string
	if slicesName == "" {
		slicesName, add = "slices", append(add, "slices")
	}
	src := types.ExprString(slice)
	var text string
	switch {
	case direct && !strings.Contains(name, "IsSorted") && cmpExpr == "a,b":
		text = slicesName + ".Sort(" + src + ")" // elements in order: stable or not alike
	case direct && cmpExpr == "a,b":
		text = slicesName + ".IsSorted(" + src + ")"
	default:
		if cmpName == "" {
			cmpName, add = "cmp", append(add, "cmp")
		}
		a, b, _ := strings.Cut(cmpExpr, ",")
		text = fmt.Sprintf("%s.%s(%s, func(a, b %s) int { return %s.Compare(%s, %s) })", slicesName, sortReplacements[name], src, elem, cmpName, a, b)
	}
	edits := []analysis.TextEdit{{Pos: call.Pos(), End: call.End(), NewText: []byte(text)}}
	edits = append(edits, syntax.AddImports(fd.file, add...)...)
	return &analysis.SuggestedFix{Message: "Call slices instead of sort." + name, TextEdits: edits}, ""
}

// lessBody returns the return statement of a less function of type ft
// and body body when it is its only statement, with the names of its two
// int parameters.
func lessBody(ft *ast.FuncType, body *ast.BlockStmt) (ret *ast.ReturnStmt, i, j string) {
	if body == nil || len(body.List) != 1 {
		return nil, "", ""
	}
	var names []string
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	r, ok := body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 || len(names) != 2 {
		return nil, "", ""
	}
	return r, names[0], names[1]
}

// elementCompare reads "x[i] OP x[j]" (OP < or >) with the same field
// path after each index, and returns the arguments of cmp.Compare over
// elements a and b ("a.f,b.f", or "b.f,a.f" for >), and whether the
// elements themselves are compared.
func elementCompare(e ast.Expr, x, i, j string) (args string, direct, ok bool) {
	be, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || be.Op != token.LSS && be.Op != token.GTR {
		return "", false, false
	}
	path := func(e ast.Expr, idx string) (string, bool) {
		var sels []string
		for {
			switch v := ast.Unparen(e).(type) {
			case *ast.SelectorExpr:
				sels = append([]string{v.Sel.Name}, sels...)
				e = v.X
				continue
			case *ast.IndexExpr:
				base, ok1 := ast.Unparen(v.X).(*ast.Ident)
				ix, ok2 := ast.Unparen(v.Index).(*ast.Ident)
				if !ok1 || !ok2 || base.Name != x || ix.Name != idx {
					return "", false
				}
				return strings.Join(sels, "."), true
			}
			return "", false
		}
	}
	pi, ok1 := path(be.X, i)
	pj, ok2 := path(be.Y, j)
	if !ok1 || !ok2 || pi != pj {
		return "", false, false
	}
	a, b := "a", "b"
	if pi != "" {
		a, b = "a."+pi, "b."+pi
	}
	if be.Op == token.GTR {
		a, b = b, a
	}
	return a + "," + b, pi == "" && be.Op == token.LSS, true
}

// orderedNoFloat reports whether the operands of the comparison e have an
// integer or string type.
func orderedNoFloat(info *types.Info, e ast.Expr) bool {
	be := ast.Unparen(e).(*ast.BinaryExpr)
	b, ok := info.TypeOf(be.X).Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsString) != 0
}

// declOfFunc returns the declaration of fn among the package's files.
func (fd *finding) declOfFunc(fn *types.Func) *ast.FuncDecl {
	return syntax.FuncDeclOf(fd.pass.Files, fn)
}

// reuseAdvice returns the change for a map or slice made anew and stored
// in a field (or a package-level variable) each time the code runs,
// replacing the one made before: clearing the old one and reusing it
// keeps its storage. It is advised only when the package never lets the
// field's map or slice out of it (it only indexes, ranges over, measures,
// deletes from, clears, or appends to and reslices it in place), so that
// nothing else can hold the old one.
func (fd *finding) reuseAdvice() (advice, noFix string) {
	e := fd.allocExpr()
	if e == nil || fd.guarded(e) {
		return "", ""
	}
	info := fd.pass.TypesInfo
	target := fd.storeTarget(e)
	as, ok := fd.parentOf(e).(*ast.AssignStmt)
	if target == nil || !ok || len(as.Lhs) != 1 || as.Tok != token.ASSIGN {
		return "", ""
	}
	obj := fieldOrGlobal(info, target)
	if obj == nil || obj.Exported() && !isField(obj) || obj.Pkg() != fd.pass.Pkg {
		return "", ""
	}
	var made string // what the allocation makes: "map" or "slice"
	switch t := info.TypeOf(e).Underlying().(type) {
	case *types.Map:
		made = "map"
	case *types.Slice:
		// Only an empty slice: a length would need its zeroing kept.
		if !emptySlice(info, e) {
			return "", ""
		}
		made = "slice"
		_ = t
	default:
		return "", ""
	}
	if isField(obj) && obj.Exported() {
		return "", "" // another package may hold the old one
	}
	if where := fd.escapesFromVar(obj); where != "" {
		return "", ""
	}
	if fd.freshContainer(target, 0) || !fd.repeatsOnValue(target) {
		// A field of a value this call allocated (a constructor filling
		// in a new value), or of a receiver nothing says this runs on
		// twice: there is no earlier map or slice to reuse.
		return "", ""
	}
	tgt := types.ExprString(target)
	var repl string
	if made == "map" {
		// Before go1.21, which brought clear, the loop that deletes
		// every key is the spelling the compiler turns into the same
		// call.
		clearText, clearStmt := "clear("+tgt+")", "clear("+tgt+")"
		if !syntax.FileVersionAtLeast(fd.pass, fd.file, "go1.21") {
			k := freeKeyName(target)
			clearText = fmt.Sprintf("for %s := range %s { delete(%s, %s) }", k, tgt, tgt, k)
			clearStmt = fmt.Sprintf("for %s := range %s {\ndelete(%s, %s)\n}", k, tgt, tgt, k)
		}
		advice = fmt.Sprintf("clear %s and reuse it instead of making a new map each time (if %s == nil { %s = %s } else { %s }), which keeps its storage from one call to the next: the package never lets the map out of %s, so nothing else holds the old one",
			tgt, tgt, tgt, types.ExprString(e), clearText, tgt)
		repl = fmt.Sprintf("if %s == nil {\n%s = %s\n} else {\n%s\n}", tgt, tgt, fd.source(e), clearStmt)
	} else {
		advice = fmt.Sprintf("reuse the storage of %s instead of a new empty slice each time (%s = %s[:0]), which keeps its capacity from one call to the next: the package never lets the slice out of %s, so nothing else holds the old one",
			tgt, tgt, tgt, tgt)
		repl = fmt.Sprintf("%s = %s[:0]", tgt, tgt)
	}
	if isField(obj) && !simpleOperand(target) {
		return advice, "the fix would evaluate " + tgt + " several times"
	}
	fd.suggested = &analysis.SuggestedFix{
		Message:   "Reuse " + tgt + " instead of making a new " + made,
		TextEdits: []analysis.TextEdit{{Pos: as.Pos(), End: as.End(), NewText: []byte(repl)}},
	}
	return advice, ""
}

// freshContainer reports whether e, a field selection (x.f, x.f[i].g,
// ...), selects from a value the enclosing function allocated itself:
// a local variable every assignment of which is a composite literal, its
// address, new or make, or a selection from such a variable. Parameters,
// receivers, captured and package-level variables hold values from
// before the call. depth bounds the chain of locals followed.
func (fd *finding) freshContainer(e ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	info := fd.pass.TypesInfo
	for {
		switch v := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if _, ok := info.Selections[v]; !ok {
				return false // a qualified identifier: a package-level variable
			}
			e = v.X
			continue
		case *ast.IndexExpr:
			if _, ok := info.TypeOf(v.X).Underlying().(*types.Array); !ok {
				if _, ok := info.TypeOf(v.X).Underlying().(*types.Pointer); !ok {
					// A slice or map element: its storage was allocated
					// wherever the slice or map was.
					if !fd.freshValue(v.X, depth) {
						return false
					}
					return true
				}
			}
			e = v.X
			continue
		case *ast.StarExpr:
			e = v.X
			continue
		case *ast.Ident:
			return fd.freshValue(v, depth)
		}
		return false
	}
}

// freshValue reports whether e is a value the enclosing function
// allocated: a composite literal, its address, a call of new or make, a
// local variable assigned only such values, or a selection from one (see
// freshContainer).
func (fd *finding) freshValue(e ast.Expr, depth int) bool {
	info := fd.pass.TypesInfo
	switch v := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		if v.Op == token.AND {
			return fd.freshValue(v.X, depth) || fd.freshContainer(v.X, depth+1)
		}
	case *ast.CallExpr:
		return syntax.IsBuiltin(info, v.Fun, "new") || syntax.IsBuiltin(info, v.Fun, "make")
	case *ast.SelectorExpr, *ast.IndexExpr:
		return fd.freshContainer(v, depth+1)
	case *ast.Ident:
		obj, ok := info.Uses[v].(*types.Var)
		body := fd.funcBody()
		if !ok || body == nil || obj.Pos() < body.Pos() || obj.Pos() >= body.End() {
			return false // a parameter, receiver, captured or global variable
		}
		var values []ast.Expr
		ok = true
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					id, isID := ast.Unparen(l).(*ast.Ident)
					if !isID || info.ObjectOf(id) != obj {
						continue
					}
					if len(n.Lhs) != len(n.Rhs) || n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
						ok = false
						continue
					}
					values = append(values, n.Rhs[i])
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if info.Defs[name] != obj {
						continue
					}
					switch {
					case len(n.Values) == 0:
						// The zero value: a new value of its own.
						values = append(values, &ast.CompositeLit{})
					case len(n.Values) == len(n.Names):
						values = append(values, n.Values[i])
					default:
						ok = false
					}
				}
			case *ast.RangeStmt:
				for _, x := range []ast.Expr{n.Key, n.Value} {
					if id, isID := x.(*ast.Ident); isID && info.ObjectOf(id) == obj {
						ok = false
					}
				}
			}
			return ok
		})
		if !ok || len(values) == 0 {
			return false
		}
		for _, x := range values {
			if !fd.freshValue(x, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// freeKeyName returns a name for the key of a loop over the map target
// that no identifier in target uses.
func freeKeyName(target ast.Expr) string {
	used := make(map[string]bool)
	ast.Inspect(target, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	name := "k"
	for i := 1; used[name]; i++ {
		name = fmt.Sprintf("k%d", i)
	}
	return name
}

// emptySlice reports whether e makes an empty slice: make(T, 0[, c]) or
// T{}.
func emptySlice(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return len(e.Elts) == 0
	case *ast.CallExpr:
		if !syntax.IsBuiltin(info, e.Fun, "make") || len(e.Args) < 2 {
			return false
		}
		v := info.Types[e.Args[1]].Value
		return v != nil && v.String() == "0"
	}
	return false
}

// simpleOperand reports whether e is a chain of names and field
// selections (x, x.f, x.f.g): evaluating it again has no effect.
func simpleOperand(e ast.Expr) bool {
	for {
		switch v := ast.Unparen(e).(type) {
		case *ast.Ident:
			return true
		case *ast.SelectorExpr:
			e = v.X
		default:
			return false
		}
	}
}

// fieldOrGlobal returns the field or package-level variable that e
// names (x.f, or v at package level), or nil.
func fieldOrGlobal(info *types.Info, e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[e]; ok && sel.Kind() == types.FieldVal {
			v, _ := sel.Obj().(*types.Var)
			return v
		}
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
			return v
		}
	}
	return nil
}

func isField(v *types.Var) bool { return v.IsField() }

// escapesFromVar returns where the package lets the value of obj (a
// field or package-level variable of map or slice type) out: a use that
// is not an index, a range, len, cap, delete, clear, a comparison with
// nil, an assignment to it, or an append to it or reslicing of it
// assigned back to it. It returns "" if there is none.
func (fd *finding) escapesFromVar(obj *types.Var) string {
	r := fd.res
	if r.letOut == nil {
		r.letOut = fd.varsLetOut()
	}
	return r.letOut[obj]
}

// varsLetOut walks the package once and returns, for each field and
// package-level variable, where its first use that is not local (see
// localUse) is, in the order of the files and of their syntax.
func (fd *finding) varsLetOut() map[*types.Var]string {
	info := fd.pass.TypesInfo
	out := make(map[*types.Var]string)
	for _, f := range fd.pass.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			var v *types.Var
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if sel, ok := info.Selections[n]; ok {
					v, _ = sel.Obj().(*types.Var)
				}
			case *ast.Ident:
				if u, ok := info.Uses[n].(*types.Var); ok && u.Pkg() != nil && u.Parent() == u.Pkg().Scope() {
					v = u
				}
			}
			if v == nil {
				return true
			}
			if _, seen := out[v]; !seen && !fd.localUse(n.(ast.Expr), stack) {
				out[v] = fd.pass.Fset.Position(n.Pos()).String()
			}
			return true
		})
	}
	return out
}

// localUse reports whether the use of a map or slice variable at the top
// of stack keeps its value in the variable (see escapesFromVar).
func (fd *finding) localUse(use ast.Expr, stack []ast.Node) bool {
	info := fd.pass.TypesInfo
	i := len(stack) - 1
	for i > 0 {
		if _, ok := stack[i-1].(*ast.ParenExpr); !ok {
			break
		}
		i--
	}
	if i == 0 {
		return false
	}
	switch p := stack[i-1].(type) {
	case *ast.IndexExpr:
		return p.X == stack[i]
	case *ast.RangeStmt:
		return p.X == stack[i]
	case *ast.BinaryExpr:
		return syntax.IsNil(info, p.X) || syntax.IsNil(info, p.Y)
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == stack[i] {
				return true // assigned: the old value is replaced
			}
		}
		return false
	case *ast.SliceExpr:
		// x.f = x.f[:n]: resliced in place.
		if as, ok := parentNode(stack, i-1).(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == p {
			return types.ExprString(as.Lhs[0]) == types.ExprString(use)
		}
		return false
	case *ast.CallExpr:
		if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
			if _, builtin := info.Uses[id].(*types.Builtin); builtin {
				switch id.Name {
				case "len", "cap", "delete", "clear":
					return true
				case "append":
					if len(p.Args) == 0 || p.Args[0] != stack[i] {
						return false // appended to another slice: its elements go out
					}
					as, ok := parentNode(stack, i-1).(*ast.AssignStmt)
					return ok && len(as.Lhs) == 1 && types.ExprString(as.Lhs[0]) == types.ExprString(use)
				}
			}
		}
	}
	return false
}

// parentNode returns the node enclosing stack[i], skipping parentheses.
func parentNode(stack []ast.Node, i int) ast.Node {
	for j := i - 1; j >= 0; j-- {
		if _, ok := stack[j].(*ast.ParenExpr); !ok {
			return stack[j]
		}
	}
	return nil
}

// source returns the source text of n.
func (fd *finding) source(n ast.Node) string {
	tf := fd.pass.Fset.File(n.Pos())
	content, err := fd.pass.ReadFile(tf.Name())
	if err != nil {
		return types.ExprString(n.(ast.Expr))
	}
	start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
	if end > len(content) {
		return types.ExprString(n.(ast.Expr))
	}
	return string(content[start:end])
}

// deadAdvice returns the change for an allocation whose value nothing
// uses: the variable it initialises is assigned again before any use
// (parts := make([]string, 0, 8); parts = strings.Split(s, ",")), so
// that only the second value reaches what lets it escape. The function's
// SSA form says so: the allocation's value has no referrers.
func (fd *finding) deadAdvice() (advice, noFix string) {
	e := fd.allocExpr()
	if e == nil || len(fd.rec.InlinedFrom) > 0 {
		return "", ""
	}
	decl := fd.declOutsideLits()
	form, _ := fd.pass.ResultOf[ssaform.Analyzer].(*ssaform.Package)
	if decl == nil || form == nil {
		return "", ""
	}
	fn := form.Func(decl)
	if fn == nil {
		return "", ""
	}
	v := allocValue(fn, e)
	if v == nil {
		return "", ""
	}
	if refs := v.Referrers(); refs == nil || len(*refs) > 0 {
		return "", ""
	}
	as, ok := fd.parentOf(e).(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return "", ""
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return "", ""
	}
	advice = fmt.Sprintf("delete the allocation: %s is assigned again before anything uses this value, so it is made for nothing", id.Name)
	if !fd.sideEffectFree(e) {
		return advice, "its arguments may panic or have effects, which deleting it would drop"
	}
	var repl string
	if as.Tok == token.DEFINE {
		qual, _ := syntax.Qualifier(fd.pass, as.Pos())
		repl = "var " + id.Name + " " + types.TypeString(fd.pass.TypesInfo.TypeOf(id), qual)
	}
	fd.suggested = &analysis.SuggestedFix{
		Message:   "Delete the allocation that nothing uses",
		TextEdits: []analysis.TextEdit{{Pos: as.Pos(), End: as.End(), NewText: []byte(repl)}},
	}
	return advice, ""
}

// allocValue returns the SSA value of fn allocated by e: the MakeSlice,
// MakeMap or Alloc at e's position (for make([]T, n) with a constant n,
// the slice of the array allocated).
func allocValue(fn *ssa.Function, e ast.Expr) ssa.Value {
	pos := e.Pos()
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		pos = e.Lparen
	case *ast.CompositeLit:
		pos = e.Lbrace
	case *ast.UnaryExpr:
		if lit, ok := ast.Unparen(e.X).(*ast.CompositeLit); ok {
			pos = lit.Lbrace
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch v := instr.(type) {
			case *ssa.MakeSlice, *ssa.MakeMap:
				if v.Pos() == pos {
					return v.(ssa.Value)
				}
			case *ssa.Alloc:
				if v.Pos() != pos {
					continue
				}
				// make([]T, c) is new([c]T)[:]: the slice is the value.
				for _, r := range *v.Referrers() {
					if s, ok := r.(*ssa.Slice); ok && s.X == v {
						return s
					}
				}
				if _, isLit := ast.Unparen(e).(*ast.CompositeLit); isLit {
					return nil // the literal's stores refer to it
				}
				return v
			}
		}
	}
	return nil
}

// sideEffectFree reports whether e can be deleted without dropping an
// effect: a make or new whose arguments are constants, variables or len
// and cap of variables (which cannot be negative), or an empty composite
// literal.
func (fd *finding) sideEffectFree(e ast.Expr) bool {
	info := fd.pass.TypesInfo
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if n == e {
				return true
			}
			id, isID := ast.Unparen(n.Fun).(*ast.Ident)
			if !isID || (id.Name != "len" && id.Name != "cap") || !syntax.IsBuiltin(info, id, id.Name) {
				if !info.Types[n.Fun].IsType() {
					ok = false
				}
			}
		case *ast.CompositeLit:
			if len(n.Elts) > 0 {
				ok = false
			}
		case *ast.IndexExpr, *ast.StarExpr, *ast.UnaryExpr, *ast.BinaryExpr:
			if info.Types[n.(ast.Expr)].Value == nil {
				ok = false
			}
		}
		return ok
	})
	if call, isCall := ast.Unparen(e).(*ast.CallExpr); isCall && syntax.IsBuiltin(info, call.Fun, "make") {
		// A variable's size may be negative: make panics.
		for _, a := range call.Args[1:] {
			if _, isID := ast.Unparen(a).(*ast.Ident); isID && info.Types[a].Value == nil {
				return false
			}
		}
	}
	return ok
}

// closureAdvice returns the change for a function literal made on every
// call of a method with a pointer receiver when it captures nothing but
// that receiver: the closure is the same on every call (it reads and
// writes the receiver's fields through the same pointer), so one made
// once, when the receiver is made or the first time it is needed, and
// kept in a field, serves every call, wherever the closure goes (stored
// in a field, passed to a function that keeps it, returned).
func (fd *finding) closureAdvice() (advice, noFix string) {
	lit, ok := fd.exprAt().(*ast.FuncLit)
	if !ok {
		return "", ""
	}
	recv := fd.receiverOutside(lit)
	if recv == "" {
		return "", ""
	}
	info := fd.pass.TypesInfo
	var recvObj types.Object
	for _, n := range fd.path {
		if d, ok := n.(*ast.FuncDecl); ok {
			recvObj = info.Defs[d.Recv.List[0].Names[0]]
			break
		}
	}
	if recvObj == nil {
		return "", ""
	}
	if _, ptr := recvObj.Type().(*types.Pointer); !ptr {
		// A value receiver is a copy made per call: a closure made
		// once would keep the first copy.
		return "", ""
	}
	free := map[types.Object]bool{}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != v.Pkg().Scope() &&
				(v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
				free[v] = true
			}
		}
		return true
	})
	if len(free) != 1 || !free[recvObj] {
		return "", ""
	}
	if target := fd.storeTarget(lit); target != nil {
		if sel, isSel := ast.Unparen(target).(*ast.SelectorExpr); isSel {
			if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && x.Name == recv {
				return fmt.Sprintf("the closure captures only %s, which outlives the call: build it once (when %s is made, or the first time, if %s == nil) instead of on every call, which saves one allocation per call",
					recv, recv, types.ExprString(target)), "where the receiver is made is for its author to choose"
			}
		}
	}
	return fmt.Sprintf("the closure captures only %s, the same on every call: make it once (a field of %s set when %s is made, or the first time it is needed) and pass that, which saves one allocation per call",
		recv, recv, recv), "where the receiver is made is for its author to choose"
}

// receiverOutside returns the name of the receiver of the method whose
// body holds lit directly (not inside another function literal), or "".
func (fd *finding) receiverOutside(lit *ast.FuncLit) string {
	for _, n := range fd.path {
		switch n := n.(type) {
		case *ast.FuncLit:
			if n != lit {
				return ""
			}
		case *ast.FuncDecl:
			if n.Recv == nil || len(n.Recv.List) != 1 || len(n.Recv.List[0].Names) != 1 {
				return ""
			}
			return n.Recv.List[0].Names[0].Name
		}
	}
	return ""
}

// byValueAdvice returns the change for a struct allocated to be stored,
// as a pointer, in a field of a struct allocated with it (&C{f: &T{...}}):
// holding T by value in the field allocates it with its container. It is
// advised only when every value the package gives the field is such a
// new &T{...}, never nil, and the package only reads and writes the
// pointed-to struct through the field (x.f.g, *x.f), never passing the
// pointer on, comparing it, or taking the field's address, so that no
// other pointer shares it. The advice says what the change touches.
func (fd *finding) byValueAdvice() (advice, noFix string) {
	e := fd.allocExpr()
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return "", ""
	}
	if _, ok := ast.Unparen(u.X).(*ast.CompositeLit); !ok {
		return "", ""
	}
	kv, ok := fd.parentOf(u).(*ast.KeyValueExpr)
	if !ok {
		return "", ""
	}
	key, ok := kv.Key.(*ast.Ident)
	if !ok {
		return "", ""
	}
	info := fd.pass.TypesInfo
	field, ok := info.Uses[key].(*types.Var)
	if !ok || !field.IsField() || field.Exported() || field.Pkg() != fd.pass.Pkg {
		return "", ""
	}
	ptr, ok := field.Type().(*types.Pointer)
	if !ok {
		return "", ""
	}
	if !structFree(ptr.Elem()) {
		return "", ""
	}
	lits, uses, where := fd.fieldUses(field)
	if where != "" {
		return "", ""
	}
	qual, _ := syntax.Qualifier(fd.pass, fd.rec.TokPos)
	elem := types.TypeString(ptr.Elem(), qual)
	return fmt.Sprintf("hold %s by value in field %s (type %s instead of *%s), which allocates it with its container instead of on its own: the package only ever gives the field a new &%s{...} and reads it through the field; the change touches the field's declaration, %d composite %s and %d %s",
			elem, field.Name(), elem, elem, elem, lits, plural(lits, "literal", "literals"), uses, plural(uses, "use", "uses")),
		"the change spans the field's declaration and every use"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// structFree reports whether t is a named struct without locks, noCopy
// markers or atomic values, which a copy would break.
func structFree(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if fn, ok := types.Unalias(ft).(*types.Named); ok && fn.Obj().Pkg() != nil {
			switch fn.Obj().Pkg().Path() {
			case "sync", "sync/atomic":
				return false
			}
			if fn.Obj().Name() == "noCopy" {
				return false
			}
		}
	}
	return true
}

// fieldUses counts the composite literals that set the pointer field and
// its other uses in the package, and returns where a use is one the
// by-value change cannot keep (see byValueAdvice), or "".
func (fd *finding) fieldUses(field *types.Var) (lits, uses int, where string) {
	info := fd.pass.TypesInfo
	for _, f := range fd.pass.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			if where != "" {
				return false
			}
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && info.Uses[id] == field {
					if !newLit(n.Value) {
						where = fd.pass.Fset.Position(n.Pos()).String()
					}
					lits++
					return false
				}
			case *ast.SelectorExpr:
				sel, ok := info.Selections[n]
				if !ok || sel.Obj() != field {
					return true
				}
				uses++
				p := parentNode(stack, len(stack)-1)
				switch p := p.(type) {
				case *ast.SelectorExpr:
					if p.X == n {
						return true // x.f.g
					}
				case *ast.StarExpr:
					return true // *x.f
				case *ast.AssignStmt:
					for i, l := range p.Lhs {
						if l == n && i < len(p.Rhs) && len(p.Lhs) == len(p.Rhs) && newLit(p.Rhs[i]) {
							return true // x.f = &T{...}
						}
					}
				}
				where = fd.pass.Fset.Position(n.Pos()).String()
			}
			return true
		})
	}
	return lits, uses, where
}

// newLit reports whether e is &T{...}: a pointer no one else holds.
func newLit(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	_, ok = ast.Unparen(u.X).(*ast.CompositeLit)
	return ok
}

// resetFieldAdvice returns the change for the growth of a slice field
// (x.f = append(x.f, ...)) that the same function resets to an empty slice
// without capacity (x.f = nil, x.f = make([]T, 0), x.f = []T{}): a stack
// or scratch list used per call, which then grows from nothing on every
// call. Reslicing it to length 0 keeps its capacity from call to call,
// when the package never lets the slice out of the field.
func (fd *finding) resetFieldAdvice() (advice, noFix string) {
	call, ok := fd.exprAt().(*ast.CallExpr)
	if !ok || !syntax.IsBuiltin(fd.pass.TypesInfo, call.Fun, "append") || len(call.Args) == 0 {
		return "", ""
	}
	target := fd.storeTarget(call)
	if target == nil || types.ExprString(target) != types.ExprString(ast.Unparen(call.Args[0])) {
		return "", ""
	}
	info := fd.pass.TypesInfo
	obj := fieldOrGlobal(info, target)
	body := fd.funcBody()
	if obj == nil || body == nil || obj.Exported() || obj.Pkg() != fd.pass.Pkg {
		return "", ""
	}
	tgt := types.ExprString(target)
	var reset *ast.AssignStmt
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || reset != nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 || types.ExprString(as.Lhs[0]) != tgt {
			return reset == nil
		}
		if r := ast.Unparen(as.Rhs[0]); syntax.IsNil(info, r) || emptySlice(info, r) && noCap(info, r) {
			reset = as
		}
		return reset == nil
	})
	if reset == nil || reset.Pos() > call.Pos() {
		return "", ""
	}
	if fd.escapesFromVar(obj) != "" || !fd.repeatsOnValue(target) {
		return "", ""
	}
	line := fd.pass.Fset.Position(reset.Pos()).Line
	advice = fmt.Sprintf("%s is reset to an empty slice without capacity at line %d, so it grows from nothing on every call: reset it with %s = %s[:0] instead, which keeps its capacity from one call to the next (the package never lets the slice out of %s)",
		tgt, line, tgt, tgt, tgt)
	if !simpleOperand(target) {
		return advice, "the fix would evaluate " + tgt + " several times"
	}
	fd.suggested = &analysis.SuggestedFix{
		Message:   "Keep the capacity of " + tgt,
		TextEdits: []analysis.TextEdit{{Pos: reset.Pos(), End: reset.End(), NewText: []byte(tgt + " = " + tgt + "[:0]")}},
	}
	return advice, ""
}

// noCap reports whether an empty slice expression (see emptySlice) has no
// capacity either: no third argument to make, or a constant 0.
func noCap(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) < 3 {
		return true
	}
	c := info.Types[call.Args[2]].Value
	return c != nil && c.String() == "0"
}

// startCapAdvice returns the change for the growth, inside a loop, of a
// local slice declared empty before the loop (var s []T, s := []T{}, s :=
// make([]T, 0)) that the function uses as a stack or a work list (it also
// reslices it: s = s[:len(s)-1]): it grows from nothing on every call,
// and starting it with a capacity for its usual depth saves the
// reallocations of its first doublings. (A slice only appended to, a
// filter's result, keeps "its final size is not known": a capacity would
// be a guess at the data.)
func (fd *finding) startCapAdvice() (advice, noFix string) {
	info := fd.pass.TypesInfo
	call, ok := fd.exprAt().(*ast.CallExpr)
	if !ok || !syntax.IsBuiltin(info, call.Fun, "append") || len(call.Args) < 2 {
		return "", ""
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return "", ""
	}
	v, ok := info.Uses[id].(*types.Var)
	loop := fd.enclosingLoop()
	body := fd.funcBody()
	if !ok || loop == nil || body == nil || v.Pos() < body.Pos() || v.Pos() >= loop.Pos() {
		return "", ""
	}
	// Declared empty, and given no other value but appends to itself.
	declaredEmpty, other, popped := false, false, false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v {
					declaredEmpty = len(n.Values) == 0 || i < len(n.Values) && (syntax.IsNil(info, n.Values[i]) || emptySlice(info, n.Values[i]) && noCap(info, n.Values[i]))
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				lid, ok := l.(*ast.Ident)
				if !ok || info.ObjectOf(lid) != v || i >= len(n.Rhs) || len(n.Lhs) != len(n.Rhs) {
					continue
				}
				r := ast.Unparen(n.Rhs[i])
				switch {
				case info.Defs[lid] == v:
					declaredEmpty = emptySlice(info, r) && noCap(info, r)
				case isAppendOf(info, r, v):
				case isReslice(info, r, v):
					popped = true
				default:
					other = true
				}
			}
		}
		return true
	})
	if !declaredEmpty || other || !popped {
		return "", ""
	}
	qual, _ := syntax.Qualifier(fd.pass, loop.Pos())
	t := types.TypeString(v.Type(), qual)
	return fmt.Sprintf("%s is a stack (or work list) that starts empty on every call: start it with a capacity for its usual depth (make(%s, 0, 8), say), since from empty each append past the capacity reallocates and copies it (at 1, 2, 4, 8... elements)", v.Name(), t),
		"the capacity is the author's choice"
}

// isAppendOf reports whether e is append(v, ...).
func isAppendOf(info *types.Info, e ast.Expr, v *types.Var) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok || !syntax.IsBuiltin(info, call.Fun, "append") || len(call.Args) == 0 {
		return false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// isReslice reports whether e is v[i:j] (a stack popped, a list cut).
func isReslice(info *types.Info, e ast.Expr, v *types.Var) bool {
	s, ok := e.(*ast.SliceExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(s.X).(*ast.Ident)
	if !ok || info.Uses[id] != v {
		return false
	}
	// v[:0] empties a batch that was handed on (nats-server proposes
	// entries, then starts again): not a stack's pop.
	if s.Low == nil && s.High != nil {
		if c := info.Types[s.High].Value; c != nil && c.String() == "0" {
			return false
		}
	}
	return true
}

// sinkAdvice returns the advice for an allocation bound to a local
// variable (v := make(...), v := &T{...}) before a statement that may
// return without using v, other than on an error path (see
// returnsNotCold): made after that statement, it is not made on the paths
// that return there. The statements that only fill v (v[i] =
// ..., in a loop or not) move with it, so the values they read must not
// change in between.
func (fd *finding) sinkAdvice() (advice, noFix string) {
	if fd.tier < hotpath.Unknown {
		return "", ""
	}
	e := fd.allocExpr()
	if e == nil {
		return "", ""
	}
	as, ok := fd.parentOf(e).(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Rhs[0] != e {
		return "", ""
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	info := fd.pass.TypesInfo
	if !ok || info.Defs[id] == nil {
		return "", ""
	}
	v := info.Defs[id]
	block, ok := fd.parentOf(as).(*ast.BlockStmt)
	if !ok {
		return "", ""
	}
	i := slices.Index(block.List, ast.Stmt(as))
	if i < 0 {
		return "", ""
	}
	// What the allocation and its fill read must keep its value until
	// the later place.
	moved := []ast.Node{as}
	var exit ast.Stmt
	for _, st := range block.List[i+1:] {
		if !syntax.Mentions(info, st, v) {
			if exit == nil && fd.returnsNotCold(st) {
				exit = st
			}
			if exit == nil {
				// Between the allocation and the return: it must not
				// change what the allocation reads.
				if assignsAny(info, st, readVars(info, moved)) {
					return "", ""
				}
			}
			continue
		}
		if exit == nil && fillsOnly(info, st, v) {
			moved = append(moved, st)
			continue
		}
		break
	}
	if exit == nil {
		return "", ""
	}
	// Moved, the fill must do nothing but compute: no calls but of
	// builtins, conversions and this package's one-expression functions.
	for _, n := range moved {
		if !pureCalls(info, fd.pass.Files, n) {
			return "", ""
		}
	}
	// The statements between the allocation and its first use after the
	// return must leave what it reads alone too.
	reads := readVars(info, moved)
	after := false
	for _, st := range block.List[i+1:] {
		if st == exit {
			after = true
		}
		if syntax.Mentions(info, st, v) && after && !slices.Contains(moved, ast.Node(st)) {
			break
		}
		if !slices.Contains(moved, ast.Node(st)) && assignsAny(info, st, reads) {
			return "", ""
		}
	}
	line := fd.pass.Fset.Position(exit.Pos()).Line
	what := "make " + id.Name
	if len(moved) > 1 {
		what += " and fill it"
	}
	return fmt.Sprintf("%s is not used until after the statement at line %d, which may return: %s after it, which saves the allocation whenever the code returns there", id.Name, line, what),
		"moving statements is left to the author"
}

// returnsNotCold reports whether st has a return statement (of its own
// function, not of a literal) outside cold code and returning more than
// nils: saving an allocation on an error path is not worth moving code
// for.
func (fd *finding) returnsNotCold(st ast.Stmt) bool {
	return returnIn(st, func(r *ast.ReturnStmt) bool {
		return (fd.hot == nil || fd.hot.At(r.Pos()).Tier > hotpath.Cold) && !allNil(fd.pass.TypesInfo, r)
	})
}

// returnIn reports whether n holds a return statement of its own function
// (not of a function literal) for which ok holds.
func returnIn(n ast.Node, ok func(*ast.ReturnStmt) bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false // returning false skips only n's children
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = ok(n)
		}
		return true
	})
	return found
}

// allNil reports whether ret returns results that are all nil: a
// constructor's refusal of bad arguments (return nil) is its failure path.
func allNil(info *types.Info, ret *ast.ReturnStmt) bool {
	return len(ret.Results) > 0 && !slices.ContainsFunc(ret.Results, func(e ast.Expr) bool { return !syntax.IsNil(info, e) })
}

// fillsOnly reports whether st uses obj only as the indexed target of
// assignments (obj[i] = x), directly or in a for or range loop.
func fillsOnly(info *types.Info, st ast.Stmt, obj types.Object) bool {
	targets := make(map[*ast.Ident]bool)
	ast.Inspect(st, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok && a.Tok == token.ASSIGN {
			for _, l := range a.Lhs {
				if ix, ok := l.(*ast.IndexExpr); ok {
					if id, ok := ix.X.(*ast.Ident); ok && info.Uses[id] == obj {
						targets[id] = true
					}
				}
			}
		}
		return true
	})
	if len(targets) == 0 {
		return false
	}
	only := true
	ast.Inspect(st, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj && !targets[id] {
			only = false
		}
		return only
	})
	return only
}

// readVars returns the local variables and parameters that the nodes
// read.
func readVars(info *types.Info, nodes []ast.Node) map[types.Object]bool {
	vars := make(map[types.Object]bool)
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() {
					vars[v] = true
				}
			}
			return true
		})
	}
	return vars
}

// assignsAny reports whether st assigns, increments or takes the address
// of one of vars, or calls a method on one (which may change it); a
// package-level variable read counts as changed by any call.
func assignsAny(info *types.Info, st ast.Stmt, vars map[types.Object]bool) bool {
	for v := range vars {
		if v.Parent() == v.Pkg().Scope() && callsAny(st) {
			return true
		}
	}
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && vars[info.Uses[id]]
	}
	return syntax.Changes(st, is, func(sel *ast.SelectorExpr) bool {
		_, isMethod := info.Selections[sel]
		return isMethod && info.Selections[sel].Kind() != types.FieldVal
	})
}

// callsAny reports whether n has a call.
func callsAny(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.CallExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// pureCalls reports whether every call in n is of a builtin other than
// panic, a conversion, or a function of files whose body is one return of
// an expression that itself makes no calls: moving n changes no effect.
func pureCalls(info *types.Info, files []*ast.File, n ast.Node) bool {
	ok := true
	ast.Inspect(n, func(n ast.Node) bool {
		call, isCall := n.(*ast.CallExpr)
		if !isCall || !ok {
			return ok
		}
		if tv, has := info.Types[call.Fun]; has && tv.IsType() {
			return true
		}
		if id, isID := ast.Unparen(call.Fun).(*ast.Ident); isID {
			if b, isB := info.Uses[id].(*types.Builtin); isB {
				ok = b.Name() != "panic"
				return ok
			}
			if fn, isFn := info.Uses[id].(*types.Func); isFn {
				ok = oneExpression(info, files, fn)
				return ok
			}
		}
		ok = false
		return false
	})
	return ok
}

// oneExpression reports whether fn is declared in files with a body of
// one return statement whose results make no calls but of conversions.
func oneExpression(info *types.Info, files []*ast.File, fn *types.Func) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || info.Defs[fd.Name] != fn || fd.Body == nil || len(fd.Body.List) != 1 {
				continue
			}
			ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
			if !ok {
				return false
			}
			pure := true
			ast.Inspect(ret, func(n ast.Node) bool {
				if c, isCall := n.(*ast.CallExpr); isCall {
					if tv, has := info.Types[c.Fun]; !has || !tv.IsType() {
						pure = false
					}
				}
				return pure
			})
			return pure
		}
	}
	return false
}

// repeatsOnValue reports whether there is evidence that the code storing
// into target, a field of the enclosing method's receiver, may run more
// than once on one value, so that the storage kept from one call can
// serve the next (see repeatable). A target that is not a field of the
// receiver (a package-level variable, a parameter's field) needs none.
// Without evidence the method may run once per value (nats-server's
// setPermissions, once per client; badger's populateFilesMap, once per
// value log): a value made for the call has no earlier storage to keep.
func (fd *finding) repeatsOnValue(target ast.Expr) bool {
	info := fd.pass.TypesInfo
	sel, ok := ast.Unparen(target).(*ast.SelectorExpr)
	if !ok {
		return true
	}
	root, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return true
	}
	d := fd.declOutsideLits()
	if d == nil || d.Recv == nil || len(d.Recv.List) != 1 || len(d.Recv.List[0].Names) != 1 ||
		info.Defs[d.Recv.List[0].Names[0]] != info.Uses[root] {
		return true
	}
	method, ok := info.Defs[d.Name].(*types.Func)
	return !ok || fd.res.repeatable(fd.pass, method, 0)
}

// repeatable reports whether method may run more than once on one
// receiver: its name says it does one unit of work per call (Read,
// Reset, Parse...), it is an exported method of an exported type (which
// other packages may call as often as they like), or a call of it in the
// package is in a loop on a receiver declared outside the loop, or on
// the receiver of a method that is repeatable itself.
func (r *resolver) repeatable(pass *analysis.Pass, method *types.Func, depth int) bool {
	if v, ok := r.repeats[method]; ok {
		return v
	}
	if hotpath.PerItemName(method.Name()) {
		return true
	}
	if recv := method.Type().(*types.Signature).Recv(); method.Exported() && recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok && n.Obj().Exported() {
			return true
		}
	}
	if depth > 3 {
		return false
	}
	r.repeats[method] = false // a recursive call adds no evidence
	info := pass.TypesInfo
	found := false
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok || d.Body == nil || found {
				continue
			}
			var recv types.Object
			if d.Recv != nil && len(d.Recv.List) == 1 && len(d.Recv.List[0].Names) == 1 {
				recv = info.Defs[d.Recv.List[0].Names[0]]
			}
			var loops []ast.Node
			ast.Inspect(d.Body, func(n ast.Node) bool {
				if found || n == nil {
					return false
				}
				switch n := n.(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					loops = append(loops, n)
				case *ast.CallExpr:
					s, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
					if !ok || typeutil.Callee(info, n) != method {
						return true
					}
					x, ok := ast.Unparen(s.X).(*ast.Ident)
					if !ok {
						return true
					}
					v := info.Uses[x]
					for _, l := range loops {
						if l.Pos() <= n.Pos() && n.End() <= l.End() && v != nil && (v.Pos() < l.Pos() || v.Pos() > l.End()) {
							found = true
						}
					}
					if !found && v != nil && v == recv {
						if caller, ok := info.Defs[d.Name].(*types.Func); ok && r.repeatable(pass, caller, depth+1) {
							found = true
						}
					}
				}
				return true
			})
		}
	}
	r.repeats[method] = found
	return found
}
