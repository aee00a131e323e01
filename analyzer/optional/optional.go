package optional

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/goadvise/goadvise/analyzer/escape"
	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/bycopy"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/optlog"
)

//go:embed doc.go
var doc string

// Analyzer reports unexported fields that hold an optional value by
// pointer, set from the address of a local the compiler moves to the
// heap, and proposes storing the value itself.
var Analyzer = &analysis.Analyzer{
	Name:     "optional",
	Doc:      docs.Section(doc, "optional"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/optional",
	Run:      run,
	Requires: []*analysis.Analyzer{inspect.Analyzer, hotpath.Analyzer, escape.Analyzer, kind.Analyzer},
}

// checker holds the state of one pass.
type checker struct {
	pass      *analysis.Pass
	esc       *optlog.Result
	hot       *hotpath.Result
	insp      *inspector.Inspector
	find      *syntax.Finder
	uses      map[types.Object][]*ast.Ident    // uses of the package's objects, in source order
	names     map[string]bool                  // every identifier of the package's files
	flags     map[*types.Named]map[string]bool // flag names given to each struct's fields in this pass
	skipped   map[*token.File]bool             // generated and test files
	generated map[*token.File]bool
	structs   map[*types.Named]string // why a struct's fields cannot be changed, once computed
	other     map[string]bool         // identifiers of the package's files outside the pass, read on demand
}

func run(pass *analysis.Pass) (any, error) {
	esc := pass.ResultOf[escape.Analyzer].(*optlog.Result)
	if !esc.Available() {
		// Without the compiler's decisions there is no escape to name.
		return nil, nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := &checker{
		pass:      pass,
		esc:       esc,
		hot:       pass.ResultOf[hotpath.Analyzer].(*hotpath.Result),
		insp:      insp,
		find:      syntax.NewFinder(insp),
		uses:      make(map[types.Object][]*ast.Ident),
		names:     make(map[string]bool),
		flags:     make(map[*types.Named]map[string]bool),
		skipped:   make(map[*token.File]bool),
		generated: make(map[*token.File]bool),
		structs:   make(map[*types.Named]string),
	}
	for id, obj := range pass.TypesInfo.Uses {
		if obj.Pkg() == pass.Pkg {
			c.uses[obj] = append(c.uses[obj], id)
		}
	}
	for _, ids := range c.uses {
		slices.SortFunc(ids, func(a, b *ast.Ident) int { return int(a.Pos() - b.Pos()) })
	}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if hotpath.Skip(pass, f) {
			c.generated[tf] = true
			c.skipped[tf] = true
		}
		if strings.HasSuffix(tf.Name(), "_test.go") {
			c.skipped[tf] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				c.names[id.Name] = true
			}
			return true
		})
	}
	// The package's struct types, in source order.
	var tns []*types.TypeName
	for _, obj := range pass.TypesInfo.Defs {
		if tn, ok := obj.(*types.TypeName); ok && !tn.IsAlias() {
			tns = append(tns, tn)
		}
	}
	slices.SortFunc(tns, func(a, b *types.TypeName) int { return int(a.Pos() - b.Pos()) })
	for _, tn := range tns {
		s, ok := tn.Type().(*types.Named)
		if !ok || s.TypeParams().Len() > 0 || c.skipped[pass.Fset.File(tn.Pos())] {
			continue
		}
		st, ok := s.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := 0; i < st.NumFields(); i++ {
			c.field(s, st.Field(i))
		}
	}
	return nil, nil
}

// field reports fv, a field of the struct s, if it holds an optional value
// by pointer that the compiler allocates on the heap.
func (c *checker) field(s *types.Named, fv *types.Var) {
	if fv.Exported() || fv.Embedded() || fv.Name() == "_" {
		return
	}
	ptr, ok := types.Unalias(fv.Type()).(*types.Pointer)
	if !ok || !c.valueType(ptr.Elem(), s) {
		return
	}
	elem := ptr.Elem()
	var refs []*ref
	for _, id := range c.uses[fv] {
		r := c.classify(id)
		if r.kind == storeOther {
			return // not an optional value set from locals
		}
		refs = append(refs, r)
	}
	site, rec := c.escaping(refs)
	if site == nil {
		return // no local whose address is stored is on the heap
	}
	hot := c.hot.At(site.local.Pos())
	if hot.Tier == hotpath.Cold {
		return
	}
	// Files of the package that the pass did not type-check (its tests,
	// without -tests) use a field of that name: their uses cannot be
	// judged or rewritten here, but the allocation is real.
	elsewhere := c.mentionedElsewhere(fv.Name())
	tname := types.TypeString(elem, syntax.NameQualifier(c.pass.Pkg))
	what := fmt.Sprintf("%s.%s", s.Obj().Name(), fv.Name())
	head := fmt.Sprintf("field %s holds an optional %s by pointer, so storing &%s in it allocates %s on the heap (the compiler: %s)",
		what, tname, site.local.Name(), site.local.Name(), rec.Message)
	diag := analysis.Diagnostic{
		Pos: site.local.Pos(),
		End: site.local.Pos() + token.Pos(len(site.local.Name())),
	}
	f := kind.Fields{Kind: StoreByValue, Tier: hot.Tier.String(), TierReason: hot.Reason, Cause: rec.Cause.String(), Sink: "field"}
	if sz, ok := bycopy.Size(elem, c.pass.TypesSizes); ok {
		f.Size = sz
	}
	flag := ""
	if tested(refs) {
		flag = c.flagName(s, fv.Name())
	}
	edits, why := c.fix(s, fv, elem, refs, flag)
	if why == "" && elsewhere {
		why = "files of the package that were not analysed (tests) use the field; they change with it (goadvise check -tests judges them)"
	}
	if why != "" {
		f.Blocked = why
		f.Advice = fmt.Sprintf("storing the %s itself would avoid it, but no automatic fix: %s", tname, why)
		f.Text = head + "; " + f.Advice
		kind.Report(c.pass, diag, f)
		return
	}
	if flag != "" {
		if c.flags[s] == nil {
			c.flags[s] = make(map[string]bool)
		}
		c.flags[s][flag] = true
	}
	advice := fmt.Sprintf("store the %s itself with a bool %s that says it is set", tname, flag)
	if flag == "" {
		advice = fmt.Sprintf("nothing compares it with nil: store the %s itself", tname)
	}
	f.Advice = advice + ", which removes 1 allocation per assignment"
	f.Text = head + "; " + f.Advice
	msg := fmt.Sprintf("Store %s as %s", what, tname)
	if flag != "" {
		msg += " with " + flag
	}
	diag.SuggestedFixes = []analysis.SuggestedFix{{Message: msg, TextEdits: edits}}
	kind.Report(c.pass, diag, f)
}

// valueType reports whether t is a type whose values the field can hold
// instead of a pointer: a bool, number or string type, or a small named
// struct that may be copied and points neither to itself nor to s.
func (c *checker) valueType(t types.Type, s *types.Named) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0 && u.Info()&types.IsUntyped == 0
	case *types.Struct:
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.TypeArgs().Len() > 0 || n.TypeParams().Len() > 0 {
			return false
		}
		if n.Obj().Pkg() != c.pass.Pkg && !n.Obj().Exported() {
			return false
		}
		if _, ok := bycopy.Small(t, c.pass.TypesSizes); !ok {
			return false
		}
		return !pointsTo(u, []types.Type{t, s}, make(map[types.Type]bool))
	}
	return false
}

// pointsTo reports whether the struct or array t holds, by value, a
// pointer to one of targets.
func pointsTo(t types.Type, targets []types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		for _, x := range targets {
			if types.Identical(u.Elem(), x) {
				return true
			}
		}
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if pointsTo(u.Field(i).Type(), targets, seen) {
				return true
			}
		}
	case *types.Array:
		return pointsTo(u.Elem(), targets, seen)
	}
	return false
}

// escaping returns, of the stores of a local's address in the package's
// own files, the one whose local the compiler moves to the heap in the
// hottest code, and the compiler's record; nil if there is none.
func (c *checker) escaping(refs []*ref) (*ref, *optlog.Record) {
	var best *ref
	var bestRec *optlog.Record
	var bestTier hotpath.Tier
	for _, r := range refs {
		if r.local == nil || (r.kind != storeAmp && r.kind != litAmp) || c.skipped[c.pass.Fset.File(r.local.Pos())] {
			continue
		}
		rec := c.movedToHeap(r.local)
		if rec == nil {
			continue
		}
		if t := c.hot.At(r.local.Pos()).Tier; best == nil || t > bestTier {
			best, bestRec, bestTier = r, rec, t
		}
	}
	return best, bestRec
}

// movedToHeap returns the compiler's "moved to heap" record of the local
// v, in its function's own body or where the function is inlined; nil if
// there is none. For an unexported function that can be inlined only the
// inlined copies count: its own body's record describes calls that may
// not happen. An exported one is inlined in other packages, whose records
// the pass does not see: its own body's record stands for them.
func (c *checker) movedToHeap(v *types.Var) *optlog.Record {
	fd := c.funcDecl(v.Pos())
	inlined := fd != nil && c.inlinable(fd)
	own := c.esc.Heap(v.Pos())
	if own != nil && own.Kind != optlog.MovedToHeap {
		own = nil
	}
	if own != nil && !inlined {
		return own
	}
	for _, r := range c.esc.InlinedAt(c.pass.Fset.Position(v.Pos())) {
		if r.Kind == optlog.MovedToHeap {
			return r
		}
	}
	if own != nil && fd.Name.IsExported() {
		return own
	}
	return nil
}

// funcDecl returns the function declaration that contains pos, or nil.
func (c *checker) funcDecl(pos token.Pos) *ast.FuncDecl {
	cur, ok := c.find.FindByPos(pos, pos)
	if !ok {
		return nil
	}
	for e := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		return e.Node().(*ast.FuncDecl)
	}
	return nil
}

// inlinable reports whether the compiler can inline fd.
func (c *checker) inlinable(fd *ast.FuncDecl) bool {
	return fd.Body != nil && c.esc.CanInlineIn(fd.Pos(), fd.Body.Lbrace)
}

// tested reports whether any of refs compares the field with nil.
func tested(refs []*ref) bool {
	for _, r := range refs {
		if r.kind == isNil || r.kind == notNil {
			return true
		}
	}
	return false
}

// flagName returns a name for the bool field of the field f of s that no
// identifier of the package uses: hasF, or hasF2, hasF3 and so on. Flags
// of different structs may share a name: a selector that reaches one of
// them reaches the field it flags at the same depth, where that field is
// the only one of its name.
func (c *checker) flagName(s *types.Named, f string) string {
	r, size := utf8.DecodeRuneInString(f)
	base := "has" + string(unicode.ToUpper(r)) + f[size:]
	others := c.otherNames()
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s%d", base, i)
		}
		if !c.names[name] && !others[name] && !c.flags[s][name] {
			return name
		}
	}
}

// mentionedElsewhere reports whether a file of the package that the pass
// did not type-check has an identifier name.
func (c *checker) mentionedElsewhere(name string) bool {
	return c.otherNames()[name]
}

// otherNames returns the identifiers of the files of the package that the
// pass does not hold.
func (c *checker) otherNames() map[string]bool {
	if c.other != nil {
		return c.other
	}
	c.other = make(map[string]bool)
	for _, f := range syntax.OtherFiles(c.pass) {
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				c.other[id.Name] = true
			}
			return true
		})
	}
	return c.other
}

// where returns "file.go:line" of pos.
func (c *checker) where(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// StoreByValue is the kind of this analyzer's findings.
const StoreByValue kind.ID = "optional/store-by-value"

func init() {
	kind.Register(kind.Kind{
		ID:    StoreByValue,
		Title: "an optional scalar held by pointer to a local",
		Doc: "A field that holds a bool, number, string or small struct by pointer, set from the address of a local, " +
			"moves that local to the heap on every assignment. Holding the value itself (with a bool that says it is set, " +
			"when the code tells nil from a value) carries the same information without the allocation.",
		Scoring:          kind.ScoreAlloc,
		CostNS:           30,
		Rewrite:          true,
		Mechanical:       true,
		Owns:             true,
		ChangesBehaviour: true,
	})
}
