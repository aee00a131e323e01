package heapescape

import (
	_ "embed"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/deepequal"
	"github.com/goadvise/goadvise/analyzer/escape"
	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/idiom"
	"github.com/goadvise/goadvise/analyzer/internal/bycopy"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/analyzer/internal/ssaform"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/optlog"
)

//go:embed doc.go
var doc string

// Analyzer reports the compiler's heap allocations with cause and advice.
var Analyzer = &analysis.Analyzer{
	Name:     "heapescape",
	Doc:      docs.Section(doc, "heapescape"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/heapescape",
	Run:      run,
	Requires: []*analysis.Analyzer{escape.Analyzer, hotpath.Analyzer, inspect.Analyzer, deepequal.Analyzer, idiom.Analyzer, ssaform.Analyzer, kind.Analyzer},
}

var cold, all bool

func init() {
	Analyzer.Flags.BoolVar(&cold, "cold", false, "also report allocations in cold code and on error paths, with the tier \"cold\"")
	Analyzer.Flags.BoolVar(&all, "all", false, "also report inherent allocations (no change identified that removes them), with the category \"<tier>,inherent\"")
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[escape.Analyzer].(*optlog.Result)
	hot := pass.ResultOf[hotpath.Analyzer].(*hotpath.Result)
	deq := pass.ResultOf[deepequal.Analyzer].(*deepequal.Result)
	idi := pass.ResultOf[idiom.Analyzer].(*idiom.Result)
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
		// Generated files are analysed only when the driver asks (see
		// hotpath.Skip); the allocations of test files are not the
		// program's.
		if !hotpath.Skip(pass, f) && !strings.HasSuffix(tf.Name(), "_test.go") {
			files[tf] = f
		}
	}
	r := &resolver{fset: pass.Fset, imports: allImports(pass.Pkg), writes: make(map[writeKey]bool), repeats: make(map[*types.Func]bool), inlinedBodies: make(map[token.Pos]bool)}
	find := syntax.NewFinder(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector))
	hoisted := make(map[*ast.BlockStmt]map[string]bool)
	var fds []*finding
	for _, rec := range res.Records() {
		if !rec.Kind.IsHeap() || !rec.TokPos.IsValid() {
			continue
		}
		tf := pass.Fset.File(rec.TokPos)
		f := files[tf]
		if f == nil {
			continue // generated, a test, or not a file of the package
		}
		path := enclosing(find, f, rec.TokPos)
		info := hot.At(rec.TokPos)
		fd := &finding{
			pass:    pass,
			rec:     &rec,
			files:   byName,
			find:    find,
			file:    f,
			path:    path,
			res:     r,
			esc:     res,
			tier:    info.Tier,
			reason:  info.Reason,
			hoisted: hoisted,
			hot:     hot,
		}
		if rec.Kind == optlog.EscapesToHeap && passedToPanic(&rec) {
			fd.tier, fd.reason = hotpath.Cold, errorPath
		} else if fd.tier > hotpath.Cold && fd.tier < hotpath.Loop && len(rec.InlinedFrom) > 0 {
			// An allocation of the package's own code inlined here runs
			// as often as it does where it is written: inside a loop of
			// the inlined function, once per iteration of each call.
			if p := fd.tokenPos(rec.InlinedFrom[0]); p.IsValid() {
				if in := hot.At(p); in.Tier == hotpath.Loop {
					fd.tier, fd.reason = hotpath.Loop, in.Reason+" of the inlined "+orDefault(in.Func, "function")
				}
			}
		}
		if deq.Reported(rec.TokPos) && fd.deepEqualCall() {
			// The boxing of a DeepEqual call's arguments is part of
			// the deepequal finding, and goes away with its fix.
			continue
		}
		if _, ok := idi.Owns(rec.TokPos, rec.Cause); ok {
			// The boxing of a fmt call's arguments, the growth of a
			// slice to presize, a conversion to drop: part of the
			// idiom finding, which goes away with its change.
			continue
		}
		if !cold && !hot.ColdReported() && fd.tier == hotpath.Cold {
			continue // not reported: spare explaining it
		}
		fds = append(fds, fd)
	}
	r.rare = &rareBatch{fds: fds}
	// The bodies' allocations first, so that a body that reports one
	// (see message) is known before the copies inlined at its calls;
	// reported in the records' order.
	texts := make([]string, len(fds))
	for _, inlined := range []bool{false, true} {
		for i, fd := range fds {
			if (len(fd.rec.InlinedFrom) > 0) != inlined {
				continue
			}
			if inlined {
				if p := fd.tokenPos(fd.rec.InlinedFrom[0]); p.IsValid() && r.inlinedBodies[p] {
					continue // reported in the body, with its change
				}
			}
			if text, ok := fd.message(); ok {
				texts[i] = text
			}
		}
	}
	for i, fd := range fds {
		rec, text := fd.rec, texts[i]
		if text == "" {
			continue
		}
		d := analysis.Diagnostic{Pos: rec.TokPos}
		if fd.suggested != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fd.suggested}
		}
		kind.Report(pass, d, kind.Fields{
			Kind:       fd.kind,
			Tier:       fd.tier.String(),
			TierReason: fd.reason,
			Class:      fd.class,
			Cause:      rec.Cause.String(),
			Sink:       rec.Sink.String(),
			Flow:       rec.Explanation,
			Callee:     fd.callee,
			Inlined:    fd.callee != "",
			Size:       fd.size(),
			Text:       text,
			Advice:     fd.advice,
			Amortized:  fd.amortized,
			Group:      fd.group,
			API:        fd.api,
			Blocked:    fd.blocked,
			CostNS:     fd.costNS,
		})
	}
	return nil, nil
}

// enclosing returns the nodes of file that enclose the character at pos,
// from the innermost to the file, as astutil.PathEnclosingInterval(file,
// pos, pos+1) does for a position in a token, without walking the file
// from its start each time.
func enclosing(find *syntax.Finder, file *ast.File, pos token.Pos) []ast.Node {
	if pos < file.FileStart || pos >= file.FileEnd {
		return []ast.Node{file}
	}
	cur, ok := find.FindByPos(pos, pos+1)
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
func passedToPanic(rec *optlog.Record) bool {
	for _, s := range rec.Flow {
		if expr, reason, ok := s.From(); ok && reason == "call parameter" && strings.HasPrefix(expr, "panic(") {
			return true
		}
	}
	return false
}

// errorPath is the tier reason of allocations on error paths.
const errorPath = hotpath.ErrorPath

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
	rec    *optlog.Record
	files  map[string]*token.File // the package's files by name
	find   *syntax.Finder         // the package's syntax, by position
	file   *ast.File              // the record's file
	path   []ast.Node             // from the node at the record's position outwards
	res    *resolver
	esc    *optlog.Result // the compiler's decisions for the package
	tier   hotpath.Tier
	reason string
	// fix is the advice of a change identified in the code that removes
	// the allocation; empty if none is (the allocation is inherent).
	fix string
	// inherent says why no change is advised, once known.
	inherent string
	// suggested is the fix that makes the change fix describes, if one
	// is safe; noFix says why there is none.
	suggested *analysis.SuggestedFix
	noFix     string
	// hoisted holds, by function body, the names that the hoist fixes of
	// the pass declare in it, so that no two fixes declare one name.
	hoisted map[*ast.BlockStmt]map[string]bool
	hot     *hotpath.Result // the hot-path estimate of the package

	// kind is the finding's kind, set with the advice (see avoid, keep
	// and proven); class is "inherent" when that is proven.
	kind  kind.ID
	class string
	// grownKept says that the value is a slice append grows and stores
	// in a container that escapes.
	grownKept bool
	// advice is what the message says to change (or why nothing is).
	advice string
	// callee names the function inlined at the allocation, when the
	// allocation is in its code.
	callee string
	// amortized says that the allocation fills a location only when the
	// condition around it finds the location missing or too small.
	amortized bool
	// group names the one change that this finding shares with others
	// of its function (kind.Fields.Group).
	group string
	// api says that the change alters an API other modules use
	// (kind.Fields.API).
	api bool
	// blocked says what stands in the way of the change, for a person
	// to judge (kind.Fields.Blocked).
	blocked string
	// costNS is the cost of one run of what the finding names, when the
	// kind's (kind.Kind.CostNS) does not fit this case; 0 otherwise.
	costNS float64
}

// size returns the size in bytes of what the record allocates, when it
// is known: a make of constant length, the value behind &T{...} and
// new(T), a moved variable, a value boxed in an interface.
func (fd *finding) size() int64 {
	if len(fd.rec.InlinedFrom) > 0 {
		return 0
	}
	info := fd.pass.TypesInfo
	var t types.Type
	switch e := fd.allocExpr().(type) {
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "make" && len(e.Args) >= 2 {
			sl, ok := info.TypeOf(e).Underlying().(*types.Slice)
			if !ok {
				return 0
			}
			n := e.Args[len(e.Args)-1]
			c := info.Types[n].Value
			if c == nil {
				return 0
			}
			length, ok := constant.Int64Val(constant.ToInt(c))
			es, ok2 := bycopy.Size(sl.Elem(), fd.pass.TypesSizes)
			if !ok || !ok2 {
				return 0
			}
			return length * es
		}
		if ptr, ok := info.TypeOf(e).(*types.Pointer); ok {
			t = ptr.Elem()
		}
	case *ast.UnaryExpr:
		if ptr, ok := info.TypeOf(e).(*types.Pointer); ok {
			t = ptr.Elem()
		}
	case *ast.CompositeLit:
		t = info.TypeOf(e)
	case nil:
		if v := fd.movedVar(); v != nil {
			t = v.Type()
		} else if fd.rec.Cause == optlog.CauseInterfaceConversion {
			if e := fd.exprAt(); e != nil {
				t = info.TypeOf(e)
			}
		}
	}
	if t == nil || types.IsInterface(t) {
		return 0
	}
	n, ok := bycopy.Size(t, fd.pass.TypesSizes)
	if !ok {
		return 0
	}
	return n
}

// storedIn returns the location the value is stored in when its escape
// flow ends by a store ("t.p", "textproto.h[k]"), and "" otherwise.
func (fd *finding) storedIn() string {
	switch fd.rec.Sink {
	case optlog.SinkField, optlog.SinkElement, optlog.SinkGlobal:
		lhs, _, _ := strings.Cut(fd.rec.SinkExpr, " = ")
		return strings.TrimSpace(lhs)
	}
	return ""
}

// explanationDetail returns package optlog's explanation without the
// name: "passed to io.Reader.Read (interface method call)". The compiler
// names the functions of other packages by their import path
// ("github.com/redis/go-redis/v9/internal/routing.ResponseAggregator.BatchSlice");
// the explanation names them by their package's name, as Go code does.
func (fd *finding) explanationDetail() string {
	_, why, ok := strings.Cut(fd.rec.Explanation, " escapes: ")
	if !ok {
		return ""
	}
	if strings.Contains(why, "/") {
		why = fd.res.pkgNames().Replace(why)
	}
	why = strings.Replace(why, "(interface method call)", "(an interface method call)", 1)
	why = strings.Replace(why, "passed to append, which keeps it", "appended to a slice that outlives the call", 1)
	{
		// Package optlog says a static callee "keeps" a parameter
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

// constructorAlloc reports whether the allocation is what a constructor
// returns: the function enclosing it has a result of the allocation's
// pointer type and the compiler's flow returns it (a variable whose
// address it returns included), or it is part of the
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
	if v := fd.movedVar(); v != nil && hasReason(fd.rec, "return") && isResult(types.NewPointer(v.Type())) && returnsAddrOf(fd.pass.TypesInfo, decl.Body, v) {
		// "var w Writer; ...; return &w": the variable is the result,
		// when that return is the compiler's flow (not a closure or a
		// go statement that captures it first).
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

// exprAtPos returns the outermost expression that starts at p in one of
// the package's files, or nil.
func (fd *finding) exprAtPos(p optlog.Position) ast.Expr {
	pos := fd.tokenPos(p)
	if !pos.IsValid() {
		return nil
	}
	cur, ok := fd.find.FindByPos(pos, pos)
	if !ok {
		return nil
	}
	var e ast.Expr
	for c := range cur.Enclosing() {
		x, ok := c.Node().(ast.Expr)
		if !ok || !startsAt(x, pos) {
			if e != nil {
				break
			}
			continue
		}
		e = x
	}
	return e
}

// tokenPos returns the position p, in one of the package's files, in the
// pass's file set; token.NoPos if p is not in one.
func (fd *finding) tokenPos(p optlog.Position) token.Pos {
	tf := fd.files[p.File]
	if tf == nil || p.Line < 1 || p.Line > tf.LineCount() || p.Col < 1 {
		return token.NoPos
	}
	pos := tf.LineStart(p.Line) + token.Pos(p.Col-1)
	if pos >= token.Pos(tf.Base()+tf.Size()) {
		return token.NoPos
	}
	return pos
}

// zeroSize reports whether the escaping value, or the pointee of an
// escaping &T{}/new(T), has size zero.
func (fd *finding) zeroSize() bool {
	if fd.rec.Kind != optlog.EscapesToHeap || len(fd.rec.InlinedFrom) > 0 {
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
	size, ok := bycopy.Size(t, fd.pass.TypesSizes)
	return ok && size == 0
}

// startsAt reports whether n is at pos as the compiler reports positions:
// its start, the opening parenthesis of a call or brace of a composite
// literal, or the operator of a binary expression.
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
	case *ast.BinaryExpr:
		if n.OpPos == pos {
			return true
		}
	}
	return n.Pos() == pos
}

// declOutsideLits returns the function declaration that holds the
// record, or nil if there is none or the record is in a function literal.
func (fd *finding) declOutsideLits() *ast.FuncDecl {
	for _, n := range fd.path {
		switch n := n.(type) {
		case *ast.FuncLit:
			return nil
		case *ast.FuncDecl:
			return n
		}
	}
	return nil
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
	var step *optlog.Step
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
	path := enclosing(fd.find, fd.file, pos)
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
	if fd.rec.Cause != optlog.CauseInterfaceConversion {
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
	if idx < 0 && len(fd.rec.InlinedFrom) > 0 {
		// Made inside the body inlined at this call, not passed to it:
		// the flow's call is in that body, which the step names.
		return leak{}, nil, false
	}
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
func flowNames(rec *optlog.Record) map[string]bool {
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
func containerOf(rec *optlog.Record) string {
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
func hasReason(rec *optlog.Record, reason string) bool {
	for _, s := range rec.Flow {
		if _, r, ok := s.From(); ok && r == reason {
			return true
		}
	}
	return false
}
