package inlinebudget

import (
	"context"
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/escape"
	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/optlog"
)

//go:embed doc.go
var doc string

// Analyzer reports hot functions whose inlining cost is a little over the
// compiler's budget.
var Analyzer = &analysis.Analyzer{
	Name:     "inlinebudget",
	Doc:      docs.Section(doc, "inlinebudget"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/inlinebudget",
	Requires: []*analysis.Analyzer{hotpath.Analyzer, escape.Analyzer, kind.Analyzer},
	Run:      run,
}

// margin is the value of the -margin flag.
var margin = 60

func init() {
	Analyzer.Flags.IntVar(&margin, "margin", 60, "report functions whose inlining cost exceeds the budget by at most `N`")
}

// The inliner's charges, from cmd/compile/internal/inline/inl.go (Go 1.26).
const (
	callCost    = 57 // inlineExtraCallCost: a call that is not inlined
	closureCost = 15 // a function literal (OCLOSURE)
)

// A charge is one construct of the body that costs much of the budget.
type charge struct {
	pos  token.Pos
	what string // "fmt.Sprintf (not inlinable)"
	cost int
	call *ast.CallExpr // nil for function literals
}

// A coldPath is a branch of the body that ends in a panic or in a return
// of an error.
type coldPath struct {
	block   *ast.BlockStmt
	final   ast.Expr // the panic argument or the returned error
	panics  bool
	charges []charge
}

func run(pass *analysis.Pass) (any, error) {
	esc := pass.ResultOf[escape.Analyzer].(*optlog.Result)
	hot := pass.ResultOf[hotpath.Analyzer].(*hotpath.Result)
	if !esc.Available() {
		return nil, nil
	}
	own := funcRecords(esc)
	names := &namer{pkg: pass.Pkg}
	var direct *directs // found when the first candidate needs it
	var cands []candidate
	var props []*proposal
	for _, f := range pass.Files {
		name := pass.Fset.File(f.FileStart).Name()
		if hotpath.Skip(pass, f) || strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			rec, ok := own[pass.Fset.Position(fd.Name.Pos()).Line][filepath.Base(name)]
			if !ok || rec.Kind != optlog.CannotInline || rec.Cost <= 0 || rec.Budget <= 0 {
				continue
			}
			over := rec.Cost - rec.Budget
			if over <= 0 || over > margin {
				continue
			}
			obj, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil || fd.Recv != nil && calledThroughInterface[obj.Name()] {
				continue
			}
			info := hot.FuncTier(obj)
			if info.Tier == hotpath.Cold {
				continue
			}
			if direct == nil {
				direct = directCalls(pass)
			}
			if !direct.callable(obj) {
				continue
			}
			if fd.Type.TypeParams != nil || isGenericRecv(pass, fd) {
				continue // moved code would need the type parameters
			}
			cands = append(cands, candidate{fd, obj, rec, info})
		}
	}
	fds := make([]*ast.FuncDecl, len(cands))
	for i, c := range cands {
		fds[i] = c.fd
	}
	lookUpAll(pass, fds)
	for _, c := range cands {
		if p := check(pass, own, names, c.fd, c.obj, c.rec, c.info); p != nil {
			props = append(props, p)
		}
	}
	verify(pass, props)
	return nil, nil
}

// A candidate is a function a little over the budget that inlining it
// would speed up, and its record.
type candidate struct {
	fd   *ast.FuncDecl
	obj  *types.Func
	rec  optlog.Record
	info hotpath.Info
}

// calledThroughInterface holds the names of methods that packages such
// as encoding/json and database/sql call through an interface: such calls
// are never inlined, whatever the method's cost.
var calledThroughInterface = map[string]bool{
	"MarshalJSON": true, "UnmarshalJSON": true, "MarshalText": true, "UnmarshalText": true,
	"MarshalBinary": true, "UnmarshalBinary": true, "MarshalXML": true, "UnmarshalXML": true,
	"MarshalYAML": true, "UnmarshalYAML": true, "GobEncode": true, "GobDecode": true,
	"Scan": true, "Value": true,
}

// directs records which functions of a package its code calls directly,
// and which of its types other packages can hold a value of: those its
// struct types embed, and those its exported API names.
type directs struct {
	static  map[*types.Func]bool
	exposed map[*types.TypeName]bool
}

// directCalls finds the static calls of the package's non-test files and
// the types other packages can call methods of.
func directCalls(pass *analysis.Pass) *directs {
	c := &directs{static: make(map[*types.Func]bool), exposed: make(map[*types.TypeName]bool)}
	c.expose(pass.Pkg)
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if fn := typeutil.StaticCallee(pass.TypesInfo, n); fn != nil {
					c.static[fn.Origin()] = true
				}
			case *ast.StructType:
				for _, field := range n.Fields.List {
					if len(field.Names) > 0 {
						continue // not embedded
					}
					t := pass.TypesInfo.TypeOf(field.Type)
					if p, ok := t.(*types.Pointer); ok {
						t = p.Elem()
					}
					if named, ok := types.Unalias(t).(*types.Named); ok {
						c.exposed[named.Origin().Obj()] = true
					}
				}
			}
			return true
		})
	}
	return c
}

// callable reports whether some code may call fn directly, the only
// calls the compiler inlines: the package calls it (outside tests), or
// other packages may, because it is exported and, for a method, its
// receiver's type is exported or embedded in another type (which promotes
// the method). A method of an unexported type that nothing embeds, called
// only through an interface, gains nothing from fitting the budget.
func (c *directs) callable(fn *types.Func) bool {
	if c.static[fn] {
		return true
	}
	if !fn.Exported() {
		return false
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return true
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return true
	}
	return named.Obj().Exported() || c.exposed[named.Origin().Obj()]
}

// expose records the types of pkg that its exported API names: in the
// signatures of its exported functions and methods, the types of its
// exported variables and fields. A value of such a type reaches other
// packages with its type known, so they can call its methods directly.
func (c *directs) expose(pkg *types.Package) {
	var visit func(t types.Type) bool
	visit = func(t types.Type) bool {
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			obj := t.Origin().Obj()
			if obj.Pkg() == pkg && !c.exposed[obj] {
				c.exposed[obj] = true
				walkType(t.Underlying(), visit)
			}
		case *types.Struct:
			// Other packages see the exported fields and the
			// embedded ones, whose methods are promoted.
			for f := range t.Fields() {
				if f.Exported() || f.Embedded() {
					walkType(f.Type(), visit)
				}
			}
			return false
		}
		return true
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		walkType(obj.Type(), visit)
		if tn, ok := obj.(*types.TypeName); ok {
			if named, ok := tn.Type().(*types.Named); ok {
				for m := range named.Methods() {
					if m.Exported() {
						walkType(m.Type(), visit)
					}
				}
			}
		}
	}
}

// recordIndex maps a line and a file base name to the inlining record of
// the function declared there.
type recordIndex map[int]map[string]optlog.Record

func (ix recordIndex) add(file string, line, col int, rec optlog.Record) {
	m := ix[line]
	if m == nil {
		m = make(map[string]optlog.Record)
		ix[line] = m
	}
	base := filepath.Base(file)
	// A function literal on the same line as its enclosing declaration
	// has its own record further right: keep the leftmost.
	if old, ok := m[base]; ok && old.Pos.Col <= col {
		return
	}
	m[base] = rec
}

// funcRecords indexes the package's CanInline and CannotInline records.
func funcRecords(esc *optlog.Result) recordIndex { return indexRecords(esc.Records()) }

// indexRecords indexes the CanInline and CannotInline records of recs.
func indexRecords(recs []optlog.Record) recordIndex {
	ix := make(recordIndex)
	for _, r := range recs {
		if r.Kind == optlog.CanInline || r.Kind == optlog.CannotInline {
			ix.add(r.Pos.File, r.Pos.Line, r.Pos.Col, r)
		}
	}
	return ix
}

// external holds the inlining records of other packages, collected once
// per process.
var external = struct {
	sync.Mutex
	m map[string]recordIndex
}{m: make(map[string]recordIndex)}

// externalRecords returns the inlining records of the package path (see
// optlog.PackageRecords), or nil if they cannot be collected.
func externalRecords(dir, path string) recordIndex {
	lookUp(dir, []string{path})
	external.Lock()
	defer external.Unlock()
	return external.m[path]
}

// lookUp collects the inlining records of those of the packages paths
// not yet looked up, together (see optlog.PackageRecords), and keeps
// them in external; a package whose records cannot be collected is kept
// as nil.
func lookUp(dir string, paths []string) {
	external.Lock()
	defer external.Unlock()
	var need []string
	for _, p := range paths {
		if _, ok := external.m[p]; !ok {
			need = append(need, p)
		}
	}
	if len(need) == 0 {
		return
	}
	lookUps.Add(1)
	recs, _ := optlog.PackageRecords(context.Background(), dir, need)
	for _, p := range need {
		if r, ok := recs[p]; ok {
			external.m[p] = indexRecords(r)
		} else {
			external.m[p] = nil
		}
	}
}

// lookUps counts the calls of optlog.PackageRecords, for tests.
var lookUps atomic.Int64

// lookUpAll looks up together the records of every package that
// calleeCharge will read for the calls on the cold paths of the functions
// fds, before any is checked: each lookup may compile a package, and the
// functions' own checks would make them one after the other.
func lookUpAll(pass *analysis.Pass, fds []*ast.FuncDecl) {
	var paths []string
	dir := ""
	for _, fd := range fds {
		walkPaths(pass, fd.Body, nil, func(_ *coldPath, call *ast.CallExpr) {
			if fn, ok := externalCallee(pass, call); ok && !slices.Contains(paths, fn.Pkg().Path()) {
				paths = append(paths, fn.Pkg().Path())
				if dir == "" {
					dir = filepath.Dir(pass.Fset.File(call.Pos()).Name())
				}
			}
		})
	}
	if len(paths) > 0 {
		lookUp(dir, paths)
	}
}

// cheapPackages hold functions the inliner treats as intrinsics or as
// cheap calls whatever their own records say.
var cheapPackages = map[string]bool{
	"math/bits": true, "sync/atomic": true, "unsafe": true, "runtime": true,
	"encoding/binary": true, "math": true,
}

// cheapCallee reports whether the inliner treats a call of fn as cheap or
// as an intrinsic, whatever fn's own records say, or fn has no package.
func cheapCallee(fn *types.Func) bool {
	return fn.Pkg() == nil || cheapPackages[fn.Pkg().Path()] || strings.HasPrefix(fn.Pkg().Path(), "internal/")
}

// externalCallee returns the function of another package that call calls
// statically, whose records calleeCharge looks up: not a conversion, an
// interface method or a cheap callee.
func externalCallee(pass *analysis.Pass, call *ast.CallExpr) (*types.Func, bool) {
	info := pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return nil, false
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) {
			return nil, false
		}
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return nil, false
	}
	fn = fn.Origin()
	if cheapCallee(fn) || fn.Pkg() == pass.Pkg {
		return nil, false
	}
	return fn, true
}

// calleeCharge returns what the inliner charges for a call, when it is
// known from the compiler's records.
func calleeCharge(pass *analysis.Pass, own recordIndex, call *ast.CallExpr) (charge, bool) {
	info := pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return charge{}, false // a conversion
	}
	fun := ast.Unparen(call.Fun)
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) {
			return charge{pos: call.Pos(), what: types.ExprString(sel) + " (an interface method call)", cost: callCost, call: call}, true
		}
	}
	switch callee := typeutil.Callee(info, call).(type) {
	case *types.Builtin, nil:
		if callee == nil {
			// A local variable may hold a function literal the inliner
			// sees through; only fields and package-level variables are
			// surely dynamic.
			if v, ok := syntax.VarOf(info, fun); ok && !isParam(v) && v.Kind() != types.LocalVar {
				return charge{pos: call.Pos(), what: "a call of the function value " + v.Name(), cost: callCost, call: call}, true
			}
		}
		return charge{}, false
	case *types.Func:
		fn := callee.Origin()
		if cheapCallee(fn) {
			return charge{}, false
		}
		pos := pass.Fset.Position(fn.Pos())
		ix := own
		if fn.Pkg() != pass.Pkg {
			dir := filepath.Dir(pass.Fset.File(call.Pos()).Name())
			ix = externalRecords(dir, fn.Pkg().Path())
		}
		rec, ok := ix[pos.Line][filepath.Base(pos.Filename)]
		if !ok {
			return charge{}, false
		}
		name := fn.Name()
		if fn.Pkg() != pass.Pkg {
			name = fn.Pkg().Name() + "." + name
		}
		if sig := fn.Signature(); sig.Recv() != nil {
			name = funcname.InPackage(fn)
		}
		switch rec.Kind {
		case optlog.CannotInline:
			return charge{pos: call.Pos(), what: name + " (not inlinable)", cost: callCost, call: call}, true
		case optlog.CanInline:
			if rec.Cost >= 10 {
				return charge{pos: call.Pos(), what: fmt.Sprintf("%s (inlined, cost %d)", name, rec.Cost), cost: rec.Cost, call: call}, true
			}
		}
	}
	return charge{}, false
}

// isParam reports whether v is a parameter: the inliner charges calls of
// parameters less, hoping they become constant after inlining.
func isParam(v *types.Var) bool { return v.Kind() == types.ParamVar || v.Kind() == types.RecvVar }

// A proposal is the advice for one function: the edits of its file that
// would bring it under the budget, and their description.
type proposal struct {
	fd    *ast.FuncDecl
	obj   *types.Func
	rec   optlog.Record
	info  hotpath.Info
	file  string // absolute name of fd's file
	src   []byte // its content
	edits []edit // within fd, sorted by position
	decls []string
	parts []string // what makes the function expensive
	fixes []string // what to change, one per edit group
}

// check explains the cost of fd and returns the changes that should
// bring it under the budget, or nil if it can name none that can be made
// as a source edit. The estimate of what they save only selects them;
// verify measures them.
func check(pass *analysis.Pass, own recordIndex, names *namer, fd *ast.FuncDecl, obj *types.Func, rec optlog.Record, info hotpath.Info) *proposal {
	file := pass.Fset.File(fd.Pos()).Name()
	src, err := pass.ReadFile(file)
	if err != nil {
		return nil
	}
	over := rec.Cost - rec.Budget
	var closures []*ast.FuncLit
	paths := walkPaths(pass, fd.Body, func(cp *coldPath, lit *ast.FuncLit) {
		if cp == nil {
			closures = append(closures, lit)
		} else {
			cp.charges = append(cp.charges, charge{pos: lit.Pos(), what: "a function literal", cost: closureCost})
		}
	}, func(cp *coldPath, call *ast.CallExpr) {
		if c, ok := calleeCharge(pass, own, call); ok {
			cp.charges = append(cp.charges, c)
		}
	})

	p := &proposal{fd: fd, obj: obj, rec: rec, info: info, file: file, src: src}
	saved := 0 // an estimate, to choose the edits worth compiling
	line := func(pos token.Pos) int { return pass.Fset.Position(pos).Line }
	for _, cp := range paths {
		kind := "error path"
		if cp.panics {
			kind = "panic path"
		}
		switch {
		case len(cp.charges) >= 2:
			sum := 0
			var what []string
			for _, c := range cp.charges {
				sum += c.cost
				what = append(what, fmt.Sprintf("%s at line %d", c.what, line(c.pos)))
			}
			if sum-callCost <= 0 {
				continue
			}
			edits, decl, ok := moveColdPath(pass, names, fd, cp, src)
			if !ok {
				continue
			}
			saved += sum - callCost
			p.edits = append(p.edits, edits...)
			p.decls = append(p.decls, decl)
			p.parts = append(p.parts, fmt.Sprintf("the %s at line %d makes %d costly calls (%s)", kind, line(cp.block.Pos()), len(cp.charges), strings.Join(what, ", ")))
			result := "the error"
			if cp.panics {
				result = "the panic value"
			}
			p.fixes = append(p.fixes, fmt.Sprintf("move the %s at line %d into one //go:noinline function that returns %s", kind, line(cp.block.Pos()), result))
		case len(cp.charges) == 1:
			c := cp.charges[0]
			if c.call == nil || ast.Unparen(cp.final) != c.call || wraps(pass, c.call) {
				continue
			}
			ed, decl, vals, ok := valueWithoutCall(pass, names, fd, c.call, src)
			if !ok {
				continue
			}
			saved += c.cost
			p.edits = append(p.edits, ed)
			p.decls = append(p.decls, decl)
			value := fmt.Sprintf("a pointer to a struct literal holding %s, whose Error method formats the values as the call did", vals)
			if vals == "" {
				value = "a package-level variable set once by the same call, since its arguments are constants"
			}
			if cp.panics {
				p.parts = append(p.parts, fmt.Sprintf("the panic at line %d builds its value with %s", line(c.pos), c.what))
				p.fixes = append(p.fixes, fmt.Sprintf("panic at line %d with %s", line(c.pos), value))
			} else {
				p.parts = append(p.parts, fmt.Sprintf("the error returned at line %d is built by %s", line(c.pos), c.what))
				p.fixes = append(p.fixes, fmt.Sprintf("return at line %d %s", line(c.pos), value))
			}
		}
	}
	if saved < over {
		for _, lit := range closures {
			ed, decl, ok := nameLiteral(pass, names, fd, lit, src)
			if !ok {
				continue
			}
			saved += closureCost
			p.edits = append(p.edits, ed)
			p.decls = append(p.decls, decl)
			p.parts = append(p.parts, fmt.Sprintf("it has a function literal at line %d", line(lit.Pos())))
			p.fixes = append(p.fixes, fmt.Sprintf("make the function literal at line %d, which uses no local variables, a named function", line(lit.Pos())))
			if saved >= over {
				break
			}
		}
	}
	if saved < over || len(p.edits) == 0 {
		return nil // nothing we can name brings it under the budget
	}
	sort.Slice(p.edits, func(i, j int) bool { return p.edits[i].start < p.edits[j].start })
	return p
}

// isGenericRecv reports whether fd is a method of a generic type.
func isGenericRecv(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := pass.TypesInfo.TypeOf(fd.Recv.List[0].Type)
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	named, ok := t.(*types.Named)
	return ok && named.TypeParams().Len() > 0
}

// wraps reports whether call takes an error value (or is fmt.Errorf with
// a %w verb): the error it builds carries a cause that a constant would
// lose.
func wraps(pass *analysis.Pass, call *ast.CallExpr) bool {
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	for _, a := range call.Args {
		if t := pass.TypesInfo.TypeOf(a); t != nil && types.Implements(t, errType) {
			return true
		}
	}
	fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Errorf" || len(call.Args) == 0 {
		return false
	}
	tv := pass.TypesInfo.Types[call.Args[0]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return true // unknown format: be safe
	}
	return strings.Contains(constant.StringVal(tv.Value), "%w")
}

// walkPaths returns the cold paths of body (see coldPaths) and, before it
// returns, walks its code that the compiler costs (outside dead code, and
// outside function literals' bodies, which are functions of their own):
// it calls lit for each function literal, with the path it is on or nil,
// and call for each call on a path, with the path.
// Only the calls on cold paths are proposed for removal: the charges of
// others are not needed, and looking them up can mean compiling the
// callee's package.
func walkPaths(pass *analysis.Pass, body *ast.BlockStmt, lit func(*coldPath, *ast.FuncLit), call func(*coldPath, *ast.CallExpr)) []coldPath {
	dead := deadRanges(pass, body)
	paths := coldPaths(pass, body, dead)
	pathOf := func(pos token.Pos) *coldPath {
		for i := range paths {
			if paths[i].block.Pos() <= pos && pos < paths[i].block.End() {
				return &paths[i]
			}
		}
		return nil
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if n != nil && dead.contains(n.Pos()) {
			return false // the compiler drops it before costing the function
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			if lit != nil {
				lit(pathOf(n.Pos()), n)
			}
			return false // its body is a separate function
		case *ast.CallExpr:
			if cp := pathOf(n.Pos()); cp != nil {
				call(cp, n)
			}
		}
		return true
	})
	return paths
}

// coldPaths returns the blocks of body (if and else branches, case
// clauses) that end in a panic or in a return whose last result is a
// non-nil error, leaving out those in dead code.
func coldPaths(pass *analysis.Pass, body *ast.BlockStmt, dead ranges) []coldPath {
	var out []coldPath
	consider := func(b *ast.BlockStmt) {
		if b == nil || len(b.List) == 0 || dead.contains(b.Pos()) {
			return
		}
		switch last := b.List[len(b.List)-1].(type) {
		case *ast.ExprStmt:
			if arg, ok := panicArg(pass, last); ok {
				out = append(out, coldPath{block: b, final: arg, panics: true})
			}
		case *ast.ReturnStmt:
			if len(last.Results) == 0 {
				return
			}
			r := last.Results[len(last.Results)-1]
			t := pass.TypesInfo.TypeOf(r)
			if t == nil || !types.Identical(t, types.Universe.Lookup("error").Type()) {
				return
			}
			if tv := pass.TypesInfo.Types[r]; tv.IsNil() {
				return
			}
			out = append(out, coldPath{block: b, final: r})
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			consider(n.Body)
			if e, ok := n.Else.(*ast.BlockStmt); ok {
				consider(e)
			}
		case *ast.CaseClause:
			consider(&ast.BlockStmt{Lbrace: n.Colon, List: n.Body, Rbrace: n.End()})
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].block.Pos() < out[j].block.Pos() })
	return out
}

// panicArg returns the argument of a statement panic(arg).
func panicArg(pass *analysis.Pass, s ast.Stmt) (ast.Expr, bool) {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return nil, false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "panic" {
		return nil, false
	}
	if _, ok := pass.TypesInfo.Uses[id].(*types.Builtin); !ok {
		return nil, false
	}
	return call.Args[0], true
}

// ranges is a set of source ranges.
type ranges [][2]token.Pos

func (r ranges) contains(pos token.Pos) bool {
	for _, x := range r {
		if x[0] <= pos && pos < x[1] {
			return true
		}
	}
	return false
}

// deadRanges returns the code of body that the compiler drops before it
// costs the function: branches of if statements with a constant
// condition that are not taken, and statements after a terminating one
// (a return, a panic, or an if whose taken branches all terminate) with no
// label after them.
func deadRanges(pass *analysis.Pass, body *ast.BlockStmt) ranges {
	var dead ranges
	constCond := func(e ast.Expr) (val, ok bool) {
		tv := pass.TypesInfo.Types[e]
		if tv.Value == nil || tv.Value.Kind() != constant.Bool {
			return false, false
		}
		return constant.BoolVal(tv.Value), true
	}
	var terminates func(s ast.Stmt) bool
	terminates = func(s ast.Stmt) bool {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.ExprStmt:
			_, ok := panicArg(pass, s)
			return ok
		case *ast.BlockStmt:
			return len(s.List) > 0 && terminates(s.List[len(s.List)-1])
		case *ast.IfStmt:
			if v, ok := constCond(s.Cond); ok {
				if v {
					return terminates(s.Body)
				}
				return s.Else != nil && terminates(s.Else)
			}
			return s.Else != nil && terminates(s.Body) && terminates(s.Else)
		}
		return false
	}
	list := func(stmts []ast.Stmt) {
		lastLabel := -1
		for i, s := range stmts {
			if _, ok := s.(*ast.LabeledStmt); ok {
				lastLabel = i
			}
		}
		for i, s := range stmts {
			if i >= lastLabel && terminates(s) && i+1 < len(stmts) {
				dead = append(dead, [2]token.Pos{stmts[i+1].Pos(), stmts[len(stmts)-1].End()})
				return
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			list(syntax.StmtList(n))
		case *ast.IfStmt:
			if v, ok := constCond(n.Cond); ok {
				if !v {
					dead = append(dead, [2]token.Pos{n.Body.Pos(), n.Body.End()})
				} else if n.Else != nil {
					dead = append(dead, [2]token.Pos{n.Else.Pos(), n.Else.End()})
				}
			}
		}
		return true
	})
	return dead
}

// OverBudget is the kind of this analyzer's findings.
const OverBudget kind.ID = "inlinebudget/over-budget"

func init() {
	kind.Register(kind.Kind{
		ID:    OverBudget,
		Title: "a function a little over the inlining budget",
		Doc: "The compiler inlines a function whose cost is at most its budget (80). A function a little over it, " +
			"because of a part that rarely runs (a panic, a loop over an error case, a function literal), becomes " +
			"inlinable when that part moves to a function of its own: every call then saves its call overhead and may " +
			"keep its arguments on the caller's stack. The finding gives the cost the compiler measured for the change.",
		Scoring: kind.ScoreFunc,
		CostNS:  3,
		Rewrite: true,
	})
}
