package deepequal

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
)

//go:embed doc.go
var doc string

// Analyzer reports reflect.DeepEqual calls that have a cheaper equivalent.
var Analyzer = &analysis.Analyzer{
	Name:       "deepequal",
	Doc:        docs.Section(doc, "deepequal"),
	URL:        "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/deepequal",
	Requires:   []*analysis.Analyzer{inspect.Analyzer, hotpath.Analyzer, kind.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Result lists the reflect.DeepEqual calls the analyzer reports, so that
// heapescape leaves the boxing of their arguments to this finding: one
// problem, one finding.
type Result struct {
	Calls []*ast.CallExpr
}

// Reported reports whether pos lies in a DeepEqual call the analyzer
// reported.
func (r *Result) Reported(pos token.Pos) bool {
	for _, c := range r.Calls {
		if c.Pos() <= pos && pos < c.End() {
			return true
		}
	}
	return false
}

// A suggestion is the replacement chosen for one call.
type suggestion struct {
	pkg     string // import path of the package that provides the function, or ""
	fn      string // function in pkg ("Equal", "EqualFunc"), or "" for == and methods
	method  bool   // a.Equal(b)
	caveats []string
}

func run(pass *analysis.Pass) (any, error) {
	res := new(Result)
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	hot := pass.ResultOf[hotpath.Analyzer].(*hotpath.Result)

	generated := make(map[*token.File]bool)
	for _, f := range pass.Files {
		if hotpath.Skip(pass, f) {
			generated[pass.Fset.File(f.FileStart)] = true
		}
	}

	uses := &reflectUses{pass: pass}
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" || fn.Name() != "DeepEqual" {
			return
		}
		if len(call.Args) != 2 || call.Ellipsis.IsValid() || generated[pass.Fset.File(call.Pos())] {
			return
		}
		ta, tb := argType(pass.TypesInfo, call.Args[0]), argType(pass.TypesInfo, call.Args[1])
		if ta == nil || tb == nil || !types.Identical(ta, tb) {
			return // different static types, nil, or untyped: no direct comparison
		}
		s, ok := suggest(ta, pass.Pkg)
		if !ok {
			return
		}
		file := syntax.FileAt(pass.Files, call.Pos())
		if file == nil {
			return
		}
		report(pass, hot, uses, file, call, ta, s)
		res.Calls = append(res.Calls, call)
	})
	return res, nil
}

// argType returns the static type of an argument of DeepEqual, or nil if it
// has none we can use (untyped nil, invalid).
func argType(info *types.Info, e ast.Expr) types.Type {
	tv, ok := info.Types[e]
	if !ok || tv.Type == nil || tv.IsNil() {
		return nil
	}
	if b, ok := tv.Type.(*types.Basic); ok && (b.Info()&types.IsUntyped != 0 || b.Kind() == types.Invalid) {
		return nil
	}
	return tv.Type
}

// suggest chooses the cheapest comparison that means what DeepEqual means
// for values of type t, with the caveats where it does not quite.
func suggest(t types.Type, from *types.Package) (suggestion, bool) {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return suggestion{}, false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		nilNote := "a nil and an empty slice compare equal with it but not with DeepEqual"
		if isByte(u.Elem()) {
			return suggestion{pkg: "bytes", fn: "Equal", caveats: []string{nilNote}}, true
		}
		if sameAsEq(u.Elem()) {
			s := suggestion{pkg: "slices", fn: "Equal", caveats: []string{nilNote}}
			if hasFloat(u.Elem()) {
				s.caveats = append(s.caveats, "DeepEqual reports a slice equal to itself even when it holds NaN, slices.Equal does not")
			}
			return s, true
		}
		if equalMethod(u.Elem()) {
			return suggestion{pkg: "slices", fn: "EqualFunc", caveats: []string{nilNote, "elements are compared with their Equal method, which may define equality differently from DeepEqual"}}, true
		}
	case *types.Map:
		nilNote := "a nil and an empty map compare equal with it but not with DeepEqual"
		if sameAsEq(u.Elem()) {
			s := suggestion{pkg: "maps", fn: "Equal", caveats: []string{nilNote}}
			if hasFloat(u.Elem()) {
				s.caveats = append(s.caveats, "DeepEqual reports a map equal to itself even when it holds NaN, maps.Equal does not")
			}
			return s, true
		}
		if equalMethod(u.Elem()) {
			return suggestion{pkg: "maps", fn: "EqualFunc", caveats: []string{nilNote, "values are compared with their Equal method, which may define equality differently from DeepEqual"}}, true
		}
	case *types.Basic, *types.Array, *types.Struct, *types.Chan:
		if sameAsEq(t) {
			return suggestion{}, true
		}
	}
	if equalMethod(t) {
		return suggestion{method: true, caveats: []string{"the Equal method defines its own equality, which may differ from DeepEqual's field-by-field comparison"}}, true
	}
	return suggestion{}, false
}

// sameAsEq reports whether == and reflect.DeepEqual agree on all values of
// type t (apart from the self-identity shortcut for slices and maps, which
// does not apply to the types accepted here).
func sameAsEq(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.UnsafePointer, u.Kind() == types.Invalid, u.Info()&types.IsUntyped != 0:
			return false
		}
		return true
	case *types.Chan:
		return true // DeepEqual compares channels with ==.
	case *types.Array:
		return sameAsEq(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			f := u.Field(i)
			if f.Name() == "_" || !sameAsEq(f.Type()) {
				// == ignores blank fields, DeepEqual does not.
				return false
			}
		}
		return true
	}
	// Pointers, interfaces, slices, maps, funcs, type parameters.
	return false
}

// hasFloat reports whether values of t contain floating-point numbers.
func hasFloat(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsFloat|types.IsComplex) != 0
	case *types.Array:
		return hasFloat(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if hasFloat(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

func isByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// equalMethod reports whether t has a method Equal(t) bool in its value
// method set (so x.Equal(y) compiles for any value x of type t).
func equalMethod(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Interface); ok {
		return false
	}
	if _, ok := t.Underlying().(*types.Pointer); ok {
		return false // a nil pointer receiver would change behaviour or panic
	}
	obj, _, _ := types.LookupFieldOrMethod(t, false, nil, "Equal")
	m, ok := obj.(*types.Func)
	if !ok || !m.Exported() {
		return false
	}
	ms := types.NewMethodSet(t)
	if ms.Lookup(m.Pkg(), "Equal") == nil {
		return false // pointer receiver: not callable on every value
	}
	sig := m.Type().(*types.Signature)
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 || sig.Variadic() {
		return false
	}
	r, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && r.Kind() == types.Bool && types.Identical(sig.Params().At(0).Type(), t)
}

func report(pass *analysis.Pass, hot *hotpath.Result, uses *reflectUses, file *ast.File, call *ast.CallExpr, t types.Type, s suggestion) {
	qual, _ := syntax.Qualifier(pass, call.Pos())
	tstr := types.TypeString(t, qual)
	a, b := call.Args[0], call.Args[1]
	src := func(e ast.Expr) string { return nodeText(pass, e) }

	var repl, what string
	var replaced ast.Expr = call // the expression that repl replaces
	var imports []string
	fixable, why := true, ""
	pkgName := func(path string) string {
		name, ok := importName(pass, file, call.Pos(), path)
		if !ok {
			fixable, why = false, "the name "+path[strings.LastIndex(path, "/")+1:]+" means something else here"
			return path
		}
		if name == "" { // not yet imported
			imports = append(imports, path)
			name = path
		}
		return name
	}
	switch {
	case s.method:
		repl = fmt.Sprintf("%s.Equal(%s)", paren(a, src(a)), src(b))
		what = fmt.Sprintf("%s's Equal method", tstr)
	case s.pkg == "":
		op := "=="
		if not, ok := parentOf(pass, call).(*ast.UnaryExpr); ok && not.Op == token.NOT {
			// !reflect.DeepEqual(a, b) -> a != b
			op, replaced = "!=", not
		}
		repl = fmt.Sprintf("%s %s %s", src(a), op, src(b))
		if needsParens(replaced, pass) {
			repl = "(" + repl + ")"
		}
		what = "=="
	case s.fn == "EqualFunc":
		name := pkgName(s.pkg)
		var elem types.Type
		switch u := t.Underlying().(type) {
		case *types.Slice:
			elem = u.Elem()
		case *types.Map:
			elem = u.Elem()
		}
		es := types.TypeString(elem, qual)
		repl = fmt.Sprintf("%s.EqualFunc(%s, %s, func(x, y %s) bool { return x.Equal(y) })", name, src(a), src(b), es)
		what = s.pkg + ".EqualFunc with the elements' Equal method"
		if !typeNameable(elem, pass.Pkg, file) {
			fixable, why = false, "the element type cannot be named in this file"
		}
	default:
		name := pkgName(s.pkg)
		repl = fmt.Sprintf("%s.%s(%s, %s)", name, s.fn, src(a), src(b))
		what = s.pkg + "." + s.fn
	}

	if s.pkg == "slices" || s.pkg == "maps" {
		// Both packages came with go1.21, and their generic functions
		// do not compile in an older file at all.
		if tooOld := syntax.TooOld(pass, file, s.pkg+"."+s.fn, "go1.21"); tooOld != "" && fixable {
			fixable, why = false, tooOld
		}
	}

	info := hot.At(call.Pos())
	advice := fmt.Sprintf("use %s, which compares directly without allocating", what)
	fixMsg := "Replace reflect.DeepEqual with " + what
	f := kind.Fields{Kind: DirectCompare, Tier: info.Tier.String(), TierReason: info.Reason, Callee: "reflect.DeepEqual"}
	if len(s.caveats) > 0 {
		f.Behaviour = strings.Join(s.caveats, "; ")
		advice += " (behaviour change: " + f.Behaviour + ")"
		fixMsg += " (changes behaviour: " + f.Behaviour + ")"
	}
	if !fixable {
		advice += "; no automatic fix: " + why
	}
	f.Advice = advice
	f.Text = fmt.Sprintf("reflect.DeepEqual on %s uses reflection: %s", tstr, advice)
	d := analysis.Diagnostic{Pos: call.Pos(), End: call.End()}
	if fixable {
		edits := []analysis.TextEdit{{Pos: replaced.Pos(), End: replaced.End(), NewText: []byte(repl)}}
		edits = append(edits, importEdits(pass, uses, file, call, imports)...)
		d.SuggestedFixes = []analysis.SuggestedFix{{Message: fixMsg, TextEdits: edits}}
	}
	kind.Report(pass, d, f)
}

// paren returns text, parenthesized unless e is an operand that a selector
// can follow as it stands. Composite literals are parenthesized too, since
// T{}.Equal(x) does not parse in an if or for header.
func paren(e ast.Expr, text string) string {
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.CallExpr, *ast.ParenExpr:
		return text
	}
	return "(" + text + ")"
}

// needsParens reports whether replacing e by a binary == expression needs
// parentheses to keep its meaning.
func needsParens(e ast.Expr, pass *analysis.Pass) bool {
	parent := parentOf(pass, e)
	switch p := parent.(type) {
	case *ast.UnaryExpr, *ast.SelectorExpr, *ast.StarExpr:
		return true
	case *ast.BinaryExpr:
		return p.Op != token.LAND && p.Op != token.LOR
	}
	return false
}

// parentOf returns the innermost node enclosing n.
func parentOf(pass *analysis.Pass, n ast.Node) ast.Node {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	cur, ok := ins.Root().FindNode(n)
	if !ok {
		return nil
	}
	return cur.Parent().Node()
}

func nodeText(pass *analysis.Pass, n ast.Node) string {
	f := pass.Fset.File(n.Pos())
	content, err := pass.ReadFile(f.Name())
	if err != nil {
		return types.ExprString(n.(ast.Expr))
	}
	start, end := f.Offset(n.Pos()), f.Offset(n.End())
	if end > len(content) {
		return types.ExprString(n.(ast.Expr))
	}
	return string(content[start:end])
}

// importName returns the name by which file refers to the package with the
// given path: the existing import's name, or "" if the file does not import
// it yet. ok is false if the package cannot be referred to at pos because
// its default name is shadowed there.
func importName(pass *analysis.Pass, file *ast.File, pos token.Pos, path string) (name string, ok bool) {
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || p != path {
			continue
		}
		if imp.Name != nil {
			switch imp.Name.Name {
			case "_", ".":
				continue
			}
			name = imp.Name.Name
		} else {
			name = path // bytes, slices and maps: the default name is the path
		}
		break
	}
	lookup := name
	if lookup == "" {
		lookup = path
	}
	scope := pass.TypesInfo.Scopes[file]
	if inner := scope.Innermost(pos); inner != nil {
		scope = inner
	}
	if _, obj := scope.LookupParent(lookup, pos); obj != nil {
		if _, isPkg := obj.(*types.PkgName); !isPkg {
			return "", false // shadowed
		}
	} else if name == "" {
		// Not imported: check that no package-level or universe name collides.
		if pass.Pkg.Scope().Lookup(lookup) != nil {
			return "", false
		}
	}
	return name, true
}

// typeNameable reports whether a type can be spelled in file of package
// from: its named parts are exported or belong to from, and their packages
// are imported by file.
func typeNameable(t types.Type, from *types.Package, file *ast.File) bool {
	ok := true
	var visit func(t types.Type)
	visit = func(t types.Type) {
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			if t.Obj().Pkg() != nil && t.Obj().Pkg() != from && !t.Obj().Exported() {
				ok = false
			}
			if t.Obj().Pkg() != nil && t.Obj().Pkg() != from {
				found := false
				for _, imp := range file.Imports {
					if p, _ := strconv.Unquote(imp.Path.Value); p == t.Obj().Pkg().Path() && (imp.Name == nil || imp.Name.Name != "_" && imp.Name.Name != ".") {
						found = true
					}
				}
				if !found {
					ok = false
				}
			}
			if args := t.TypeArgs(); args != nil {
				for i := range args.Len() {
					visit(args.At(i))
				}
			}
		case *types.Struct:
			ok = false // anonymous struct literal types: keep the fix simple
		case *types.Array:
			visit(t.Elem())
		}
	}
	visit(t)
	return ok
}

// reflectUses counts the uses of the name of the reflect package in each
// file of a pass, all at once on first need: counting them for each fix
// went through all of the package's uses each time (on nats-server's
// server package with its tests, 1.3 s of CPU for its tests' calls).
type reflectUses struct {
	pass *analysis.Pass
	n    map[*token.File]int
}

// in returns the number of uses of the reflect package's name in file.
func (u *reflectUses) in(file *ast.File) int {
	if u.n == nil {
		u.n = make(map[*token.File]int)
		for id, obj := range u.pass.TypesInfo.Uses {
			if pn, ok := obj.(*types.PkgName); ok && pn.Imported().Path() == "reflect" {
				u.n[u.pass.Fset.File(id.Pos())]++
			}
		}
	}
	return u.n[u.pass.Fset.File(file.FileStart)]
}

// importEdits returns the edits that add the given imports to file and
// remove the reflect import if call is its only use.
func importEdits(pass *analysis.Pass, uses *reflectUses, file *ast.File, call *ast.CallExpr, add []string) []analysis.TextEdit {
	var edits []analysis.TextEdit
	// Remove "reflect" when this call is its only use in the file.
	var reflectSpec *ast.ImportSpec
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "reflect" && (imp.Name == nil || (imp.Name.Name != "_" && imp.Name.Name != ".")) {
			reflectSpec = imp
		}
	}
	remove := reflectSpec != nil && uses.in(file) == 1

	// Find the import declaration to edit.
	var decl *ast.GenDecl
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			decl = g
			if g.Lparen.IsValid() {
				break
			}
		}
	}
	var lines []string
	for _, p := range add {
		lines = append(lines, strconv.Quote(p))
	}

	switch {
	case remove && decl != nil && !decl.Lparen.IsValid() && decl.Specs[0] == reflectSpec:
		// import "reflect" -> import "bytes" (or a group if several).
		text := "import " + strings.Join(lines, "\nimport ")
		if len(lines) == 0 {
			text = ""
		}
		return append(edits, analysis.TextEdit{Pos: decl.Pos(), End: decl.End(), NewText: []byte(text)})
	case remove:
		edits = append(edits, deleteSpec(pass, reflectSpec))
	}
	if len(lines) == 0 {
		return edits
	}
	if decl == nil {
		// No imports at all: add a declaration after the package clause.
		return append(edits, analysis.TextEdit{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + strings.Join(lines, "\nimport "))})
	}
	if decl.Lparen.IsValid() {
		return append(edits, analysis.TextEdit{Pos: decl.Lparen + 1, End: decl.Lparen + 1, NewText: []byte("\n\t" + strings.Join(lines, "\n\t"))})
	}
	return append(edits, analysis.TextEdit{Pos: decl.Pos(), End: decl.Pos(), NewText: []byte("import " + strings.Join(lines, "\nimport ") + "\n")})
}

// deleteSpec deletes an import spec together with its line.
func deleteSpec(pass *analysis.Pass, spec *ast.ImportSpec) analysis.TextEdit {
	tf := pass.Fset.File(spec.Pos())
	start, end := spec.Pos(), spec.End()
	if spec.Name != nil {
		start = spec.Name.Pos()
	}
	if spec.Comment != nil {
		end = spec.Comment.End()
	}
	// Extend to the whole line when the spec is alone on it.
	line := tf.Line(start)
	lineStart := tf.LineStart(line)
	content, err := pass.ReadFile(tf.Name())
	if err == nil {
		off := tf.Offset(lineStart)
		if strings.TrimSpace(string(content[off:tf.Offset(start)])) == "" {
			e := tf.Offset(end)
			for e < len(content) && (content[e] == ' ' || content[e] == '\t') {
				e++
			}
			if e < len(content) && content[e] == '\n' {
				return analysis.TextEdit{Pos: lineStart, End: tf.Pos(e + 1), NewText: nil}
			}
		}
	}
	return analysis.TextEdit{Pos: start, End: end}
}

// DirectCompare is the kind of this analyzer's findings.
const DirectCompare kind.ID = "deepequal/direct-compare"

func init() {
	kind.Register(kind.Kind{
		ID:    DirectCompare,
		Title: "reflect.DeepEqual where a direct comparison means the same",
		Doc: "reflect.DeepEqual walks both values by reflection, boxes them into interfaces and cannot be inlined; " +
			"when the static type of both arguments has a direct comparison that agrees with it (bytes.Equal, slices.Equal, " +
			"maps.Equal, ==, an Equal method), that comparison does the same work without reflection or allocation. " +
			"Where they differ on some inputs (nil and empty, NaN, an Equal method's own notion) the finding says so.",
		Scoring:          kind.ScoreUnder,
		CostNS:           300,
		Rewrite:          true,
		Mechanical:       true,
		Owns:             true,
		ChangesBehaviour: true,
	})
}
