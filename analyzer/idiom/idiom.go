package idiom

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/optlog"
)

//go:embed doc.go
var doc string

// Analyzer reports code that a known Go performance idiom makes cheaper.
var Analyzer = &analysis.Analyzer{
	Name:       "idiom",
	Doc:        docs.Section(doc, "idiom"),
	URL:        "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/idiom",
	Requires:   []*analysis.Analyzer{inspect.Analyzer, hotpath.Analyzer, kind.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// Result lists the heap allocations that the analyzer's findings own:
// the boxing of a fmt call's arguments that the rewrite removes, the
// growth of a slice it presizes, a conversion it drops. heapescape and
// smallalloc leave those to the idiom finding: one cost, one finding.
type Result struct {
	owned []owned // sorted by pos
}

// owned is a source range whose allocations of some causes a finding
// owns.
type owned struct {
	pos, end token.Pos
	causes   []optlog.Cause // owned causes; nil: all
	kind     kind.ID
}

// Owns reports whether the allocation the compiler reports at pos, for
// cause, belongs to a finding of the analyzer (and which kind's).
func (r *Result) Owns(pos token.Pos, cause optlog.Cause) (kind.ID, bool) {
	if r == nil {
		return "", false
	}
	i, _ := slices.BinarySearchFunc(r.owned, pos, func(o owned, p token.Pos) int {
		if o.end <= p {
			return -1
		}
		return 1
	})
	// Ranges may nest (an append inside a fmt call): look at each that
	// ends after pos and starts at or before it.
	for ; i < len(r.owned); i++ {
		o := r.owned[i]
		if o.pos > pos {
			continue
		}
		if o.end > pos && (o.causes == nil || slices.Contains(o.causes, cause)) {
			return o.kind, true
		}
	}
	return "", false
}

func (r *Result) own(pos, end token.Pos, id kind.ID, causes ...optlog.Cause) {
	r.owned = append(r.owned, owned{pos: pos, end: end, causes: causes, kind: id})
}

// checker holds what the checks of one pass share.
type checker struct {
	pass *analysis.Pass
	info *types.Info
	hot  *hotpath.Result
	res  *Result
	root inspector.Cursor
	file *ast.File // the file being checked
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass: pass,
		info: pass.TypesInfo,
		hot:  pass.ResultOf[hotpath.Analyzer].(*hotpath.Result),
		res:  new(Result),
		root: pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Root(),
	}
	for _, f := range pass.Files {
		if hotpath.Skip(pass, f) {
			continue
		}
		c.file = f
		fc, ok := c.root.FindNode(f)
		if !ok {
			continue
		}
		for cur := range fc.Preorder((*ast.CallExpr)(nil), (*ast.RangeStmt)(nil), (*ast.ForStmt)(nil), (*ast.BlockStmt)(nil),
			(*ast.CaseClause)(nil), (*ast.CommClause)(nil), (*ast.FuncDecl)(nil)) {
			switch n := cur.Node().(type) {
			case *ast.CallExpr:
				c.call(cur, n)
			case *ast.RangeStmt:
				c.rangeStmt(n)
				c.concatLoop(n, n.Body)
			case *ast.ForStmt:
				c.concatLoop(n, n.Body)
				c.clearLoop(n)
			case *ast.BlockStmt:
				c.block(n)
			case *ast.CaseClause:
				// A case's statements are a block without braces.
				c.block(&ast.BlockStmt{Lbrace: n.Colon, List: n.Body, Rbrace: n.End()})
			case *ast.CommClause:
				c.block(&ast.BlockStmt{Lbrace: n.Colon, List: n.Body, Rbrace: n.End()})
			case *ast.FuncDecl:
				c.hugeParams(n.Recv, n.Type, n.Name)
			}
		}
	}
	slices.SortFunc(c.res.owned, func(a, b owned) int { return int(a.end) - int(b.end) })
	return c.res, nil
}

// call checks a call expression for each idiom about calls.
func (c *checker) call(cur inspector.Cursor, call *ast.CallExpr) {
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	switch {
	case fn != nil && fn.Name() == "Put" && isMethodOf(fn, "sync", "Pool"):
		c.poolPut(call)
	case fn != nil && fn.Signature().Recv() != nil:
		c.methodCall(call, fn)
	case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "fmt":
		c.fmtCall(cur, call, fn)
	case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "strings":
		c.stringsCall(call, fn)
	case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "io" && fn.Name() == "WriteString":
		c.ioWriteString(call)
	case syntax.IsBuiltin(c.info, call.Fun, "append"):
		c.appendCall(cur, call)
	}
	c.runeIndex(cur, call)
}

// A finding is what one check says of one place: what costs (What),
// what to change (Advice), and the fields beyond those.
type finding struct {
	kind.Fields
	What string
	// Fix makes the change; NoFix says why there is none.
	Fix   *analysis.SuggestedFix
	NoFix string
}

// report reports fd on [pos, end), with the tier of pos.
func (c *checker) report(pos, end token.Pos, fd finding) {
	info := c.hot.At(pos)
	f := fd.Fields
	f.Tier, f.TierReason = info.Tier.String(), info.Reason
	d := analysis.Diagnostic{Pos: pos, End: end}
	if fd.Fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fd.Fix}
	} else {
		f.Advice += "; no automatic fix: " + orDefault(fd.NoFix, "the change spans more than this code")
	}
	f.Advice = oneLine(f.Advice)
	f.Text = fd.What + "; " + f.Advice
	kind.Report(c.pass, d, f)
}

// oneLine returns s with each line break, and the indentation after it,
// replaced by a space: a message quotes code written over several lines
// on one line.
func oneLine(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte(' ')
			line = strings.TrimLeft(line, " \t")
		}
		b.WriteString(line)
	}
	return b.String()
}

func orDefault(s, def string) string {
	if s != "" {
		return s
	}
	return def
}

// text returns the source text of n.
func (c *checker) text(n ast.Node) string {
	tf := c.pass.Fset.File(n.Pos())
	if tf != nil {
		if content, err := c.pass.ReadFile(tf.Name()); err == nil {
			start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
			if 0 <= start && start <= end && end <= len(content) {
				return string(content[start:end])
			}
		}
	}
	if e, ok := n.(ast.Expr); ok {
		return types.ExprString(e)
	}
	return ""
}

// operand returns the source text of e, parenthesized unless a selector
// or an index can follow it as it stands.
func (c *checker) operand(e ast.Expr) string {
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.CallExpr, *ast.BasicLit, *ast.CompositeLit:
		return c.text(e)
	}
	return "(" + c.text(e) + ")"
}

// imports is the set of packages a rewrite refers to, by name in the
// file, with the imports it must add.
type imports struct {
	c   *checker
	pos token.Pos
	add []string
	bad string // why the rewrite cannot name a package here
}

func (c *checker) imports(pos token.Pos) *imports { return &imports{c: c, pos: pos} }

// name returns how the file names the package path at the rewrite's
// position, recording an import to add if the file has none.
func (im *imports) name(path string) string {
	def := path[strings.LastIndex(path, "/")+1:]
	name, ok := syntax.ImportName(im.c.pass, im.c.file, im.pos, path)
	switch {
	case !ok:
		if im.bad == "" {
			im.bad = "the name " + def + " means something else here"
		}
		return def
	case name == "":
		if !slices.Contains(im.add, path) {
			im.add = append(im.add, path)
		}
		return def
	}
	return name
}

// fix returns a suggested fix that replaces [pos, end) with text and adds
// the imports, or nil if a package cannot be named; why says why not.
func (im *imports) fix(msg string, edits ...analysis.TextEdit) (fix *analysis.SuggestedFix, why string) {
	if im.bad != "" {
		return nil, im.bad
	}
	return &analysis.SuggestedFix{Message: msg, TextEdits: append(edits, syntax.AddImports(im.c.file, im.add...)...)}, ""
}

// replace is the edit that replaces n with text.
func replace(n ast.Node, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: n.Pos(), End: n.End(), NewText: []byte(text)}
}

// isMethodOf reports whether fn is a method of the named type pkg.name.
func isMethodOf(fn *types.Func, pkg, name string) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// conversion returns the operand of e when e is a conversion to a type
// whose underlying type is to ("[]byte", "string", "[]rune") from one
// whose underlying type is from, and nil otherwise.
func (c *checker) conversion(e ast.Expr, to, from func(types.Type) bool) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil
	}
	tv, ok := c.info.Types[call.Fun]
	if !ok || !tv.IsType() || !to(tv.Type) {
		return nil
	}
	arg := call.Args[0]
	if t := c.info.TypeOf(arg); t == nil || !from(t) || c.info.Types[arg].Value != nil && !syntax.IsString(t) {
		return nil
	}
	return arg
}

// plainString reports whether t is the predeclared string type (not a
// named type with methods that fmt or a writer might call).
func plainString(t types.Type) bool { return types.Identical(t, types.Typ[types.String]) }

// plainBytes reports whether t is []byte itself.
func plainBytes(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	return ok && types.Identical(s.Elem(), types.Typ[types.Byte])
}

// uses returns the identifiers in n that refer to obj.
func (c *checker) uses(n ast.Node, obj types.Object) []*ast.Ident {
	var out []*ast.Ident
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && c.info.Uses[id] == obj {
			out = append(out, id)
		}
		return true
	})
	return out
}

// mentions reports whether n refers to obj.
func (c *checker) mentions(n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && c.info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// hasCall reports whether evaluating n calls a function (conversions
// and builtins that only read are not calls here).
func (c *checker) hasCall(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if tv, ok := c.info.Types[m.Fun]; ok && tv.IsType() {
				return true
			}
			if syntax.IsBuiltin(c.info, m.Fun, "len") || syntax.IsBuiltin(c.info, m.Fun, "cap") {
				return true
			}
			found = true
		}
		return !found
	})
	return found
}
