package percall

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
)

//go:embed doc.go
var doc string

// Analyzer reports values rebuilt per call that could be built once.
var Analyzer = &analysis.Analyzer{
	Name:     "percall",
	Doc:      docs.Section(doc, "percall"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/percall",
	Requires: []*analysis.Analyzer{hotpath.Analyzer},
	Run:      run,
}

// minMapEntries is the size from which a constant map literal is reported.
const minMapEntries = 8

// A builder is a function whose result depends only on its arguments.
type builder struct {
	what   string // what the call builds: "compiles the regular expression"
	suffix string // name suffix of a hoisted variable, or "" if no fix
	errRet bool   // the function also returns an error
}

var builders = map[string]builder{
	"regexp.MustCompile":      {what: "compiles the regular expression", suffix: "Re"},
	"regexp.MustCompilePOSIX": {what: "compiles the regular expression"},
	"regexp.Compile":          {what: "compiles the regular expression", errRet: true},
	"regexp.CompilePOSIX":     {what: "compiles the regular expression", errRet: true},
	"time.LoadLocation":       {what: "loads and parses the time zone file", errRet: true},
	"strings.NewReplacer":     {what: "builds the replacer", suffix: "Replacer"},
}

// state is the per-pass state.
type state struct {
	pass  *analysis.Pass
	hot   *hotpath.Result
	names map[string]bool // package-level names introduced by fixes of this pass
	fw    *fieldWrites    // computed on first use by writes
}

func run(pass *analysis.Pass) (any, error) {
	st := &state{pass: pass, hot: pass.ResultOf[hotpath.Analyzer].(*hotpath.Result), names: make(map[string]bool)}
	for _, f := range pass.Files {
		if ast.IsGenerated(f) || strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				st.funcDecl(f, fd)
			}
		}
	}
	return nil, nil
}

func (st *state) funcDecl(file *ast.File, fd *ast.FuncDecl) {
	info := st.pass.TypesInfo
	var recv *types.Var
	if fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		recv, _ = info.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	}
	reported := make(map[ast.Node]bool)
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.FuncLit:
			if st.runsOnce(stack) {
				stack = stack[:len(stack)-1]
				return false // lazy initialization: runs once
			}
		case *ast.CallExpr:
			if reported[n] || st.cached(stack) {
				return true
			}
			if st.template(fd, n, recv, reported) {
				return true
			}
			st.call(file, fd, n, recv)
		case *ast.CompositeLit:
			st.mapLit(fd, n)
		}
		return true
	})
}

// runsOnce reports whether the function literal at the top of stack is
// an argument of (*sync.Once).Do, sync.OnceFunc, sync.OnceValue or
// sync.OnceValues.
func (st *state) runsOnce(stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	call, ok := stack[len(stack)-2].(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(st.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	switch fn.Name() {
	case "Do", "OnceFunc", "OnceValue", "OnceValues":
		return true
	}
	return false
}

// cached reports whether the call at the top of stack is assigned (alone
// or as the left of a selector or method call chain, such as
// template.Must(...).Option(...)) to something other than a local
// variable: a field or a package-level variable caches its value.
func (st *state) cached(stack []ast.Node) bool {
	info := st.pass.TypesInfo
	for i := len(stack) - 2; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr, *ast.SelectorExpr, *ast.CallExpr:
			continue
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok {
					return true // a field, an element, *p
				}
				if v, ok := info.ObjectOf(id).(*types.Var); ok && v.Parent() == st.pass.Pkg.Scope() {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// funcKey returns "pkg.Name" for a package-level function callee.
func funcKey(info *types.Info, call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return ""
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

// argKind classifies an argument: constant, or depending only on receiver
// fields and constants.
type argKind int

const (
	argOther      argKind = iota
	argConst              // a constant that can move to package level
	argLocalConst         // a constant that uses local constants
	argRecv               // depends on receiver fields (and constants)
)

// classify reports whether e is a constant (all of whose identifiers are
// package-level or universe objects, so it can be moved out of the
// function) or depends only on fields of recv and constants.
func (st *state) classify(e ast.Expr, recv *types.Var) argKind {
	info := st.pass.TypesInfo
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		movable := true
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if obj := info.Uses[id]; obj != nil && obj.Parent() != nil && obj.Parent() != st.pass.Pkg.Scope() && obj.Parent() != types.Universe {
					movable = false
				}
			}
			return true
		})
		if movable {
			return argConst
		}
		return argLocalConst
	}
	if recv == nil {
		return argOther
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		x, y := st.classify(e.X, recv), st.classify(e.Y, recv)
		if x == argOther || y == argOther {
			return argOther
		}
		return argRecv // not constant, so one side is a field
	case *ast.SelectorExpr:
		// recv.f, recv.f.g, with fields only, each of which keeps its
		// value between calls.
		sel := e
		for {
			s := info.Selections[sel]
			if s == nil || s.Kind() != types.FieldVal || !st.stableField(sel) {
				return argOther
			}
			switch x := ast.Unparen(sel.X).(type) {
			case *ast.Ident:
				if info.Uses[x] == recv {
					return argRecv
				}
				return argOther
			case *ast.SelectorExpr:
				sel = x
			default:
				return argOther
			}
		}
	}
	return argOther
}

// args classifies all arguments: argConst if all are constant, argRecv if
// all are constants or receiver fields and one is a field.
func (st *state) args(args []ast.Expr, recv *types.Var) argKind {
	kind := argConst
	for _, a := range args {
		switch k := st.classify(a, recv); k {
		case argOther:
			return argOther
		case argRecv:
			kind = argRecv
		case argLocalConst:
			if kind == argConst {
				kind = argLocalConst
			}
		}
	}
	return kind
}

func (st *state) tier(pos token.Pos) (hotpath.Info, bool) {
	info := st.hot.At(pos)
	return info, info.Tier != hotpath.Cold
}

func funcLabel(fd *ast.FuncDecl, info *types.Info) string {
	if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
		return hotpath.FuncName(obj)
	}
	return fd.Name.Name
}

func (st *state) call(file *ast.File, fd *ast.FuncDecl, call *ast.CallExpr, recv *types.Var) {
	pass := st.pass
	key := funcKey(pass.TypesInfo, call)
	b, ok := builders[key]
	if !ok || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return
	}
	kind := st.args(call.Args, recv)
	if kind == argOther {
		return
	}
	hot, ok := st.tier(call.Pos())
	if !ok {
		return
	}
	short := key[strings.LastIndex(key, "/")+1:]
	fname := funcLabel(fd, pass.TypesInfo)
	d := analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Category: hot.Tier.String()}
	if kind == argRecv {
		d.Message = fmt.Sprintf("%s %s from the receiver's fields on every call of %s: build it once, in a field set when the receiver is created (or with sync.OnceValue), to save the work and its allocations per call [%s: %s]",
			short, b.what, fname, hot.Tier, hot.Reason)
		pass.Report(d)
		return
	}
	once := "sync.OnceValue"
	if b.errRet {
		once = "sync.OnceValues"
	}
	d.Message = fmt.Sprintf("%s with constant arguments %s on every call of %s: move it to a package-level variable (or %s for lazy initialization), so it is built once instead of once per call [%s: %s]",
		short, b.what, fname, once, hot.Tier, hot.Reason)
	if b.suffix != "" && kind == argConst && st.fixable(key, call) {
		if fix, ok := st.hoist(file, fd, call, b.suffix); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		}
	}
	pass.Report(d)
}

// fixable reports whether moving call to package level keeps the
// program's behaviour: it must not panic at start where it did not before.
func (st *state) fixable(key string, call *ast.CallExpr) bool {
	info := st.pass.TypesInfo
	switch key {
	case "regexp.MustCompile":
		tv := info.Types[call.Args[0]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return false
		}
		_, err := regexp.Compile(constant.StringVal(tv.Value))
		return err == nil
	case "strings.NewReplacer":
		return len(call.Args)%2 == 0
	}
	return false
}

// hoist moves call to a new package-level variable declared before fd.
func (st *state) hoist(file *ast.File, fd *ast.FuncDecl, call *ast.CallExpr, suffix string) (analysis.SuggestedFix, bool) {
	pass := st.pass
	name := st.freeName(fd, call.Pos(), varBase(fd.Name.Name)+suffix)
	var buf bytes.Buffer
	if err := format.Node(&buf, pass.Fset, call); err != nil {
		return analysis.SuggestedFix{}, false
	}
	insert := fd.Pos()
	if fd.Doc != nil {
		insert = fd.Doc.Pos()
	}
	decl := "var " + name + " = " + buf.String() + "\n\n"
	return analysis.SuggestedFix{
		Message: fmt.Sprintf("Move the call to the package-level variable %s", name),
		TextEdits: []analysis.TextEdit{
			{Pos: insert, End: insert, NewText: []byte(decl)},
			{Pos: call.Pos(), End: call.End(), NewText: []byte(name)},
		},
	}, true
}

// varBase derives a variable name from a function name: its first letter
// lower-cased, so the variable is not exported.
func varBase(fn string) string {
	r := []rune(fn)
	if len(r) == 0 {
		return "v"
	}
	// Lower the leading run of capitals of an initialism ("URLPath" ->
	// "urlPath"), but keep the start of the next word.
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) {
		i++
	}
	if i > 1 && i < len(r) {
		i--
	}
	if i == 0 {
		return fn
	}
	for j := 0; j < i; j++ {
		r[j] = unicode.ToLower(r[j])
	}
	return string(r)
}

// freeName returns base, or base2, base3, ..., whichever is declared
// neither in the package nor in any scope visible at pos, and not yet
// used by another fix of this pass.
func (st *state) freeName(fd *ast.FuncDecl, pos token.Pos, base string) string {
	pkg := st.pass.Pkg
	inner := pkg.Scope().Innermost(pos)
	taken := func(n string) bool {
		if st.names[n] || pkg.Scope().Lookup(n) != nil || token.IsKeyword(n) {
			return true
		}
		if inner != nil {
			if _, obj := inner.LookupParent(n, pos); obj != nil {
				return true
			}
		}
		// A local declared later in the function would shadow the
		// variable in code after it; check the whole body.
		found := false
		ast.Inspect(fd, func(nd ast.Node) bool {
			if id, ok := nd.(*ast.Ident); ok && id.Name == n {
				found = true
			}
			return !found
		})
		return found
	}
	name := base
	for i := 2; taken(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	st.names[name] = true
	return name
}

// template reports template.New(c).Parse(c), and template.Must of it.
func (st *state) template(fd *ast.FuncDecl, call *ast.CallExpr, recv *types.Var, reported map[ast.Node]bool) bool {
	info := st.pass.TypesInfo
	outer := call
	key := funcKey(info, call)
	if (key == "text/template.Must" || key == "html/template.Must") && len(call.Args) == 1 {
		inner, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
		if !ok {
			return false
		}
		call = inner
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Parse" || len(call.Args) != 1 {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || (fn.Pkg().Path() != "text/template" && fn.Pkg().Path() != "html/template") {
		return false
	}
	newCall, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok {
		return false
	}
	nk := funcKey(info, newCall)
	if nk != fn.Pkg().Path()+".New" || len(newCall.Args) != 1 {
		return false
	}
	kind := st.args([]ast.Expr{newCall.Args[0], call.Args[0]}, recv)
	if kind == argOther {
		return false
	}
	hot, ok := st.tier(outer.Pos())
	if !ok {
		return false
	}
	reported[call] = true
	reported[newCall] = true
	src := "constant text"
	where := "a package-level variable (template.Must at package level, or sync.OnceValues for lazy initialization)"
	if kind == argRecv {
		src = "the receiver's fields"
		where = "a field set when the receiver is created"
	}
	st.pass.Report(analysis.Diagnostic{
		Pos: outer.Pos(), End: outer.End(), Category: hot.Tier.String(),
		Message: fmt.Sprintf("template parsed from %s on every call of %s: parse it once into %s; a parsed template is safe for concurrent use, and parsing per call allocates the whole syntax tree again [%s: %s]",
			src, funcLabel(fd, info), where, hot.Tier, hot.Reason),
	})
	return true
}

// mapLit reports a large map literal of constants that is only read.
func (st *state) mapLit(fd *ast.FuncDecl, lit *ast.CompositeLit) {
	info := st.pass.TypesInfo
	mt, ok := info.TypeOf(lit).Underlying().(*types.Map)
	if !ok || len(lit.Elts) < minMapEntries {
		return
	}
	_ = mt
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok || st.classify(kv.Key, nil) == argOther || st.classify(kv.Value, nil) == argOther {
			return
		}
	}
	if !st.readOnly(fd, lit) {
		return
	}
	hot, ok := st.tier(lit.Pos())
	if !ok {
		return
	}
	st.pass.Report(analysis.Diagnostic{
		Pos: lit.Pos(), End: lit.End(), Category: hot.Tier.String(),
		Message: fmt.Sprintf("map literal of %d constant entries is built on every call of %s although it is only read: make it a package-level variable, so it is built once instead of allocated and filled per call [%s: %s]",
			len(lit.Elts), funcLabel(fd, info), hot.Tier, hot.Reason),
	})
}

// readOnly reports whether the map built by lit is only read: indexed
// directly, or assigned to a local variable that is only indexed (not
// assigned through), ranged over, or passed to len.
func (st *state) readOnly(fd *ast.FuncDecl, lit *ast.CompositeLit) bool {
	info := st.pass.TypesInfo
	var v *types.Var
	direct := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			if ast.Unparen(n.X) == lit && !st.written(fd, n) {
				direct = true
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, r := range n.Rhs {
					if ast.Unparen(r) == lit {
						if id, ok := n.Lhs[i].(*ast.Ident); ok {
							v, _ = info.Defs[id].(*types.Var)
						}
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, r := range n.Values {
					if ast.Unparen(r) == lit {
						v, _ = info.Defs[n.Names[i]].(*types.Var)
					}
				}
			}
		}
		return true
	})
	if direct {
		return true
	}
	if v == nil {
		return false
	}
	// Every use of v must be a read.
	ok := true
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, isID := n.(*ast.Ident)
		if !isID || info.Uses[id] != v {
			return ok
		}
		parent := stack[len(stack)-2]
		switch p := parent.(type) {
		case *ast.IndexExpr:
			if p.X != id || st.written(fd, p) {
				ok = false
			}
		case *ast.RangeStmt:
			if p.X != id {
				ok = false
			}
		case *ast.CallExpr:
			if b, isB := info.Uses[identOf(p.Fun)].(*types.Builtin); !isB || b.Name() != "len" {
				ok = false
			}
		default:
			ok = false
		}
		return ok
	})
	return ok
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// written reports whether the index expression ix is assigned to,
// incremented, or has its address taken.
func (st *state) written(fd *ast.FuncDecl, ix *ast.IndexExpr) bool {
	w := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if ast.Unparen(l) == ix {
					w = true
				}
			}
		case *ast.IncDecStmt:
			if ast.Unparen(n.X) == ix {
				w = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && ast.Unparen(n.X) == ix {
				w = true
			}
		case *ast.RangeStmt:
			if n.Key == ix || n.Value == ix {
				w = true
			}
		}
		return !w
	})
	return w
}
