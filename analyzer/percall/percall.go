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
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	kindpkg "github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
)

//go:embed doc.go
var doc string

// Analyzer reports values rebuilt per call that could be built once.
var Analyzer = &analysis.Analyzer{
	Name:     "percall",
	Doc:      docs.Section(doc, "percall"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/percall",
	Requires: []*analysis.Analyzer{hotpath.Analyzer, kindpkg.Analyzer},
	Run:      run,
}

// minMapEntries is the size from which a constant map literal is reported.
const minMapEntries = 8

// A builder is a function whose result depends only on its arguments.
type builder struct {
	what   string  // what the call builds: "compiles the regular expression"
	suffix string  // name suffix of a hoisted variable, or "" if no fix
	errRet bool    // the function also returns an error
	ns     float64 // what one call costs, in nanoseconds (an order of magnitude)
}

var builders = map[string]builder{
	"regexp.MustCompile":      {what: "compiles the regular expression", suffix: "Re", ns: 5000},
	"regexp.MustCompilePOSIX": {what: "compiles the regular expression", ns: 5000},
	"regexp.Compile":          {what: "compiles the regular expression", errRet: true, ns: 5000},
	"regexp.CompilePOSIX":     {what: "compiles the regular expression", errRet: true, ns: 5000},
	"time.LoadLocation":       {what: "loads and parses the time zone file", errRet: true, ns: 20000},
	"strings.NewReplacer":     {what: "builds the replacer", suffix: "Replacer", ns: 1000},
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
		if hotpath.Skip(pass, f) || strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
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
		return funcname.InPackage(obj)
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
	if kind == argOther || st.mutated(fd, call) {
		return
	}
	hot, ok := st.tier(call.Pos())
	if !ok {
		return
	}
	short := key[strings.LastIndex(key, "/")+1:]
	fname := funcLabel(fd, pass.TypesInfo)
	d := analysis.Diagnostic{Pos: call.Pos(), End: call.End()}
	f := kindpkg.Fields{Tier: hot.Tier.String(), TierReason: hot.Reason, Callee: key, CostNS: b.ns}
	if kind == argRecv {
		f.Kind = FromReceiver
		f.Text = fmt.Sprintf("%s %s from the receiver's fields on every call of %s: build it once, in a field set when the receiver is created (or with %s), to save the work and its allocations per call; no automatic fix: where the receiver is created is for its type to decide",
			short, b.what, fname, st.lazy(file, false))
		kindpkg.Report(pass, d, f)
		return
	}
	once := st.lazy(file, b.errRet)
	why := ""
	switch {
	case b.suffix == "" && b.errRet:
		why = "; no automatic fix: the error it returns must still be handled where it was"
	case b.suffix == "":
		why = "; no automatic fix: goadvise rewrites only regexp.MustCompile and strings.NewReplacer"
	case kind == argLocalConst:
		why = "; no automatic fix: the arguments use constants declared in the function, which would have to move with it"
	case !st.fixable(key, call):
		why = "; no automatic fix: the arguments are invalid, and hoisted the call would panic at start-up instead of when it runs"
	default:
		if fix, ok := st.hoist(file, fd, call, b.suffix); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{fix}
		} else {
			why = "; no automatic fix: the call cannot be printed as it is at package level"
		}
	}
	f.Kind = FromConstants
	f.Text = fmt.Sprintf("%s with constant arguments %s on every call of %s: move it to a package-level variable (or %s for lazy initialization), so it is built once instead of once per call%s",
		short, b.what, fname, once, why)
	kindpkg.Report(pass, d, f)
}

// lazy names the way to build a value on its first use in file:
// sync.OnceValue, or sync.OnceValues for a value and an error, which came
// with go1.21, or sync.Once in an older file.
func (st *state) lazy(file *ast.File, errRet bool) string {
	switch {
	case !syntax.FileVersionAtLeast(st.pass, file, "go1.21"):
		return "sync.Once"
	case errRet:
		return "sync.OnceValues"
	}
	return "sync.OnceValue"
}

// fileOf returns the file that holds pos, or nil.
func (st *state) fileOf(pos token.Pos) *ast.File {
	return syntax.FileAt(st.pass.Files, pos)
}

// mutators are the methods that change a value percall would build once:
// one shared value changed by every call (and by concurrent calls) is not
// the fresh value each call had.
var mutators = map[string]bool{
	"(*regexp.Regexp).Longest": true,
}

func init() {
	for _, pkg := range []string{"text/template", "html/template"} {
		for _, m := range []string{"AddParseTree", "Delims", "Funcs", "New", "Option", "Parse", "ParseFS", "ParseFiles", "ParseGlob"} {
			mutators["(*"+pkg+".Template)."+m] = true
		}
	}
}

// mutated reports whether the value call builds is changed after it is
// built: a mutating method is called on it, directly or through the local
// variable it initializes.
func (st *state) mutated(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	info := st.pass.TypesInfo
	isMutator := func(sel *ast.SelectorExpr) bool {
		fn, ok := info.Uses[sel.Sel].(*types.Func)
		return ok && mutators[fn.FullName()]
	}
	var v *types.Var
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			// A method called on the built value itself; the outer
			// calls of a template chain are checked as the value.
			found = ast.Unparen(n.X) == call && isMutator(n)
		case *ast.CallExpr:
			// template.Must(call): the value is Must's.
			if k := funcKey(info, n); (k == "text/template.Must" || k == "html/template.Must") &&
				len(n.Args) == 1 && ast.Unparen(n.Args[0]) == call {
				found = st.mutated(fd, n)
			}
		case ast.Stmt:
			if id := initialized(n, call); id != nil {
				v, _ = info.Defs[id].(*types.Var)
			}
		}
		return true
	})
	if found || v == nil {
		return found
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && !found {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == v && isMutator(sel) {
				found = true
			}
		}
		return !found
	})
	return found
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
// When call alone initializes a local variable that is never assigned
// again, the local's declaration moves instead: the package-level
// variable keeps the local's name if that reads well (idRe) and is free,
// or else gets one after the function, and the local's uses are renamed.
func (st *state) hoist(file *ast.File, fd *ast.FuncDecl, call *ast.CallExpr, suffix string) (analysis.SuggestedFix, bool) {
	pass := st.pass
	var buf bytes.Buffer
	if err := format.Node(&buf, pass.Fset, call); err != nil {
		return analysis.SuggestedFix{}, false
	}
	insert := fd.Pos()
	if fd.Doc != nil {
		insert = fd.Doc.Pos()
	}
	if d, ok := st.local(file, fd, call); ok {
		local := d.v.Name()
		name := local
		if !strings.HasSuffix(name, suffix) || name == suffix || token.IsExported(name) || !st.freeForLocal(d.v) {
			name = st.freeName(fd, call.Pos(), varBase(fd.Name.Name)+suffix)
		}
		st.names[name] = true
		if len(d.doc) > 0 && name != local {
			if rest, ok := strings.CutPrefix(d.doc[0], "// "+local+" "); ok {
				d.doc[0] = "// " + name + " " + rest
			}
		}
		var decl strings.Builder
		for _, c := range d.doc {
			decl.WriteString(c + "\n")
		}
		decl.WriteString("var " + name + " = " + buf.String() + d.comment + "\n\n")
		edits := []analysis.TextEdit{
			{Pos: insert, End: insert, NewText: []byte(decl.String())},
			{Pos: d.from, End: d.to},
		}
		if name != local {
			for id, obj := range pass.TypesInfo.Uses {
				if obj == d.v {
					edits = append(edits, analysis.TextEdit{Pos: id.Pos(), End: id.End(), NewText: []byte(name)})
				}
			}
		}
		msg := fmt.Sprintf("Move the declaration of %s to package level", local)
		if name != local {
			msg = fmt.Sprintf("Move the call to the package-level variable %s, in place of the local %s", name, local)
		}
		return analysis.SuggestedFix{Message: msg, TextEdits: edits}, true
	}
	name := st.freeName(fd, call.Pos(), varBase(fd.Name.Name)+suffix)
	decl := "var " + name + " = " + buf.String() + "\n\n"
	return analysis.SuggestedFix{
		Message: fmt.Sprintf("Move the call to the package-level variable %s", name),
		TextEdits: []analysis.TextEdit{
			{Pos: insert, End: insert, NewText: []byte(decl)},
			{Pos: call.Pos(), End: call.End(), NewText: []byte(name)},
		},
	}, true
}

// A localDecl is the declaration of a local variable that a call alone
// initializes.
type localDecl struct {
	v        *types.Var
	from, to token.Pos // its lines, with its comments
	doc      []string  // the comment lines just above it
	comment  string    // its trailing comment, with a leading blank
}

// local returns the declaration of the local variable that call alone
// initializes, in a statement of its own lines (with its comments), if
// the variable is a pointer of the call's type that is never assigned
// again (nor has its address taken), so that moving it to package level
// keeps its meaning.
func (st *state) local(file *ast.File, fd *ast.FuncDecl, call *ast.CallExpr) (localDecl, bool) {
	info := st.pass.TypesInfo
	var stmt ast.Stmt
	var id *ast.Ident
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		list := syntax.StmtList(n)
		for _, s := range list {
			if x := initialized(s, call); x != nil {
				stmt, id = s, x
			}
		}
		return stmt == nil
	})
	if stmt == nil {
		return localDecl{}, false
	}
	v, ok := info.Defs[id].(*types.Var)
	if !ok || v.Name() == "_" || !types.Identical(v.Type(), info.TypeOf(call)) || st.assigned(fd, v) {
		return localDecl{}, false
	}
	if _, ok := v.Type().(*types.Pointer); !ok {
		return localDecl{}, false // a method call could take its address
	}
	tf := st.pass.Fset.File(stmt.Pos())
	content, err := st.pass.ReadFile(tf.Name())
	if err != nil {
		return localDecl{}, false
	}
	blank := func(from, to int) bool { return strings.TrimLeft(string(content[from:to]), " \t") == "" }
	line, endLine := tf.Line(stmt.Pos()), tf.Line(stmt.End())
	start := tf.LineStart(line)
	if !blank(tf.Offset(start), tf.Offset(stmt.Pos())) {
		return localDecl{}, false // shares its line
	}
	d := localDecl{v: v, from: start}
	last := stmt.End()
	for _, cg := range file.Comments {
		switch {
		case cg.End() <= stmt.Pos() && tf.Line(cg.End()) == line-1:
			if blank(tf.Offset(tf.LineStart(tf.Line(cg.Pos()))), tf.Offset(cg.Pos())) {
				d.from = tf.LineStart(tf.Line(cg.Pos()))
				for _, c := range cg.List {
					d.doc = append(d.doc, c.Text)
				}
			}
		case cg.Pos() >= stmt.End() && tf.Line(cg.Pos()) == endLine:
			if tf.Line(cg.End()) != endLine || !blank(tf.Offset(stmt.End()), tf.Offset(cg.Pos())) {
				return localDecl{}, false
			}
			d.comment = " " + string(content[tf.Offset(cg.Pos()):tf.Offset(cg.End())])
			last = cg.End()
		case cg.Pos() > stmt.Pos() && cg.End() < stmt.End():
			return localDecl{}, false // a comment inside would be lost
		}
	}
	end := tf.Offset(last)
	for end < len(content) && (content[end] == ' ' || content[end] == '\t') {
		end++
	}
	if end < len(content) {
		if content[end] != '\n' {
			return localDecl{}, false // something follows on its line
		}
		end++
	}
	d.to = tf.Pos(end)
	return d, true
}

// initialized returns the variable that stmt declares with call as its
// only initializer (x := call, or var x = call), or nil.
func initialized(stmt ast.Stmt, call *ast.CallExpr) *ast.Ident {
	switch s := stmt.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE && len(s.Lhs) == 1 && len(s.Rhs) == 1 && ast.Unparen(s.Rhs[0]) == call {
			id, _ := s.Lhs[0].(*ast.Ident)
			return id
		}
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return nil
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		if len(vs.Names) == 1 && len(vs.Values) == 1 && ast.Unparen(vs.Values[0]) == call {
			return vs.Names[0]
		}
	}
	return nil
}

// assigned reports whether v is assigned, incremented or has its address
// taken in fd.
func (st *state) assigned(fd *ast.FuncDecl, v *types.Var) bool {
	info := st.pass.TypesInfo
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	return syntax.Changes(fd.Body, is, func(*ast.SelectorExpr) bool { return false })
}

// freeForLocal reports whether the package-level variable can take the
// name of the local v: no package-level name, no other fix of this pass,
// and nothing between the package and v's scope (a parameter, an outer
// local, an import) has it.
func (st *state) freeForLocal(v *types.Var) bool {
	n := v.Name()
	if st.names[n] || st.pass.Pkg.Scope().Lookup(n) != nil {
		return false
	}
	_, obj := v.Parent().Parent().LookupParent(n, v.Pos())
	return obj == nil
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
	if kind == argOther || st.mutated(fd, outer) {
		return false
	}
	hot, ok := st.tier(outer.Pos())
	if !ok {
		return false
	}
	reported[call] = true
	reported[newCall] = true
	src := "constant text"
	where := "a package-level variable (template.Must at package level, or " + st.lazy(st.fileOf(outer.Pos()), true) + " for lazy initialization)"
	if kind == argRecv {
		src = "the receiver's fields"
		where = "a field set when the receiver is created"
	}
	kindpkg.Report(st.pass, analysis.Diagnostic{Pos: outer.Pos(), End: outer.End()}, kindpkg.Fields{
		Kind: Template, Tier: hot.Tier.String(), TierReason: hot.Reason, Callee: nk,
		Text: fmt.Sprintf("template parsed from %s on every call of %s: parse it once into %s; a parsed template is safe for concurrent use, and parsing per call allocates the whole syntax tree again; no automatic fix: the parse's error handling moves with it",
			src, funcLabel(fd, info), where),
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
	kindpkg.Report(st.pass, analysis.Diagnostic{Pos: lit.Pos(), End: lit.End()}, kindpkg.Fields{
		Kind: MapLiteral, Tier: hot.Tier.String(), TierReason: hot.Reason,
		CostNS: float64(mapLiteralNS * len(lit.Elts)),
		Text: fmt.Sprintf("map literal of %d constant entries is built on every call of %s although it is only read: make it a package-level variable, so it is built once instead of allocated and filled per call; no automatic fix: its name is for the package's author to choose",
			len(lit.Elts), funcLabel(fd, info)),
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

// The kinds of this analyzer's findings.
const (
	FromConstants kindpkg.ID = "percall/from-constants"
	FromReceiver  kindpkg.ID = "percall/from-receiver"
	Template      kindpkg.ID = "percall/template"
	MapLiteral    kindpkg.ID = "percall/map-literal"
)

// mapLiteralNS is the cost of one entry of a map literal built per call:
// hashing and inserting it, and its share of the buckets allocated.
const mapLiteralNS = 40

func init() {
	kindpkg.Register(
		kindpkg.Kind{ID: FromConstants, Title: "a value built from constants on every call",
			Doc: "A regular expression compiled, a replacer or time zone built from constant arguments on every call " +
				"redoes the same work, microseconds and many allocations each time; built once at package level (or lazily " +
				"with sync.OnceValue), it is shared, since these values are safe for concurrent use.",
			Scoring: kindpkg.ScoreCum, CostNS: 1000, Rewrite: true, Mechanical: true, Owns: true},
		kindpkg.Kind{ID: FromReceiver, Title: "a value built from the receiver's fields on every call",
			Doc: "A regular expression or replacer built from fields of the receiver that do not change after it is " +
				"created redoes the same work on every call: built once, when the receiver is, it is shared.",
			Scoring: kindpkg.ScoreCum, CostNS: 1000, Rewrite: true, Owns: true},
		kindpkg.Kind{ID: Template, Title: "a template parsed on every call",
			Doc: "Parsing a template builds its syntax tree, many allocations; a parsed template is safe for concurrent " +
				"use, so one parsed once serves every call.",
			Scoring: kindpkg.ScoreCum, CostNS: 5000, Rewrite: true, Owns: true},
		kindpkg.Kind{ID: MapLiteral, Title: "a constant map literal built on every call and only read",
			Doc: "A map literal of constant entries that the function only reads is allocated, hashed and filled on " +
				"every call; a package-level map built once serves every call the same.",
			Scoring: kindpkg.ScoreCum, CostNS: 500, Rewrite: true, Owns: true},
	)
}
