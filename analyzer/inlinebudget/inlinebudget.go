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
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/escape"
)

//go:embed doc.go
var doc string

// Analyzer reports hot functions whose inlining cost is a little over the
// compiler's budget.
var Analyzer = &analysis.Analyzer{
	Name:     "inlinebudget",
	Doc:      docs.Section(doc, "inlinebudget"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/inlinebudget",
	Requires: []*analysis.Analyzer{hotpath.Analyzer, escape.Analyzer},
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
	esc := pass.ResultOf[escape.Analyzer].(*escape.Result)
	hot := pass.ResultOf[hotpath.Analyzer].(*hotpath.Result)
	if !esc.Available() {
		return nil, nil
	}
	own := funcRecords(esc)
	for _, f := range pass.Files {
		name := pass.Fset.File(f.FileStart).Name()
		if ast.IsGenerated(f) || strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			rec, ok := own[pass.Fset.Position(fd.Name.Pos()).Line][filepath.Base(name)]
			if !ok || rec.Kind != escape.CannotInline || rec.Cost <= 0 || rec.Budget <= 0 {
				continue
			}
			over := rec.Cost - rec.Budget
			if over <= 0 || over > margin {
				continue
			}
			obj, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			info := hot.FuncTier(obj)
			if info.Tier == hotpath.Cold {
				continue
			}
			check(pass, own, fd, obj, rec, info)
		}
	}
	return nil, nil
}

// recordIndex maps a line and a file base name to the inlining record of
// the function declared there.
type recordIndex map[int]map[string]escape.Record

func (ix recordIndex) add(file string, line, col int, rec escape.Record) {
	m := ix[line]
	if m == nil {
		m = make(map[string]escape.Record)
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
func funcRecords(esc *escape.Result) recordIndex {
	ix := make(recordIndex)
	for _, r := range esc.Records() {
		if r.Kind == escape.CanInline || r.Kind == escape.CannotInline {
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

// externalRecords returns the inlining records of the package path, by
// compiling it with the optimization log (escape's cache applies). It
// returns nil if they cannot be collected.
func externalRecords(dir, path string) recordIndex {
	external.Lock()
	defer external.Unlock()
	if ix, ok := external.m[path]; ok {
		return ix
	}
	var ix recordIndex
	res, err := escape.Collect(context.Background(), escape.LoadOptions{Dir: dir, Patterns: []string{path}})
	if err == nil {
		for _, pr := range res {
			if pr.ImportPath != path || pr.Test || pr.Err != "" {
				continue
			}
			ix = make(recordIndex)
			for _, r := range pr.Records {
				if r.Kind == escape.CanInline || r.Kind == escape.CannotInline {
					ix.add(r.Pos.File, r.Pos.Line, r.Pos.Col, r)
				}
			}
		}
	}
	external.m[path] = ix
	return ix
}

// cheapPackages hold functions the inliner treats as intrinsics or as
// cheap calls whatever their own records say.
var cheapPackages = map[string]bool{
	"math/bits": true, "sync/atomic": true, "unsafe": true, "runtime": true,
	"encoding/binary": true, "math": true,
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
			if v, ok := varOf(info, fun); ok && !isParam(v) && v.Kind() != types.LocalVar {
				return charge{pos: call.Pos(), what: "a call of the function value " + v.Name(), cost: callCost, call: call}, true
			}
		}
		return charge{}, false
	case *types.Func:
		fn := callee.Origin()
		if fn.Pkg() == nil || cheapPackages[fn.Pkg().Path()] || strings.HasPrefix(fn.Pkg().Path(), "internal/") {
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
			name = hotpath.FuncName(fn)
		}
		switch rec.Kind {
		case escape.CannotInline:
			return charge{pos: call.Pos(), what: name + " (not inlinable)", cost: callCost, call: call}, true
		case escape.CanInline:
			if rec.Cost >= 10 {
				return charge{pos: call.Pos(), what: fmt.Sprintf("%s (inlined, cost %d)", name, rec.Cost), cost: rec.Cost, call: call}, true
			}
		}
	}
	return charge{}, false
}

func varOf(info *types.Info, e ast.Expr) (*types.Var, bool) {
	var id *ast.Ident
	switch e := e.(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return nil, false
	}
	v, ok := info.Uses[id].(*types.Var)
	return v, ok
}

// isParam reports whether v is a parameter: the inliner charges calls of
// parameters less, hoping they become constant after inlining.
func isParam(v *types.Var) bool { return v.Kind() == types.ParamVar || v.Kind() == types.RecvVar }

// check explains the cost of fd and reports it if removing what it names
// brings the function under the budget.
func check(pass *analysis.Pass, own recordIndex, fd *ast.FuncDecl, obj *types.Func, rec escape.Record, info hotpath.Info) {
	over := rec.Cost - rec.Budget
	paths := coldPaths(pass, fd.Body)
	inCold := func(pos token.Pos) bool {
		for _, p := range paths {
			if p.block.Pos() <= pos && pos < p.block.End() {
				return true
			}
		}
		return false
	}
	var closures []charge
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			c := charge{pos: n.Pos(), what: "a function literal", cost: closureCost}
			if !inCold(n.Pos()) && !captures(pass, fd, n) {
				closures = append(closures, c)
			}
			for i := range paths {
				if paths[i].block.Pos() <= n.Pos() && n.Pos() < paths[i].block.End() {
					paths[i].charges = append(paths[i].charges, c)
					break
				}
			}
			return false // its body is a separate function
		case *ast.CallExpr:
			// Only calls on cold paths are proposed for removal: the
			// charges of others are not needed, and looking them up can
			// mean compiling the callee's package.
			if !inCold(n.Pos()) {
				return true
			}
			c, ok := calleeCharge(pass, own, n)
			if !ok {
				return true
			}
			for i := range paths {
				if paths[i].block.Pos() <= n.Pos() && n.Pos() < paths[i].block.End() {
					paths[i].charges = append(paths[i].charges, c)
					break
				}
			}
		}
		return true
	})

	// What each fix saves, at least.
	saved := 0
	var parts []string
	var fixes []string
	line := func(pos token.Pos) int { return pass.Fset.Position(pos).Line }
	for _, p := range paths {
		switch {
		case len(p.charges) >= 2:
			sum := 0
			var what []string
			for _, c := range p.charges {
				sum += c.cost
				what = append(what, fmt.Sprintf("%s at line %d", c.what, line(c.pos)))
			}
			if sum-callCost <= 0 {
				continue
			}
			saved += sum - callCost
			kind := "error path"
			if p.panics {
				kind = "panic path"
			}
			parts = append(parts, fmt.Sprintf("the %s at line %d makes %d costly calls (%s)", kind, line(p.block.Pos()), len(p.charges), strings.Join(what, ", ")))
			fixes = append(fixes, fmt.Sprintf("move the %s at line %d into one //go:noinline function", kind, line(p.block.Pos())))
		case len(p.charges) == 1:
			c := p.charges[0]
			if c.call == nil || ast.Unparen(p.final) != c.call || wraps(pass, c.call) {
				continue
			}
			saved += c.cost
			if p.panics {
				parts = append(parts, fmt.Sprintf("the panic at line %d builds its value with %s, charged %d", line(c.pos), c.what, c.cost))
				fixes = append(fixes, fmt.Sprintf("panic at line %d with a value built without a call (a constant message, or an error struct literal holding the values)", line(c.pos)))
			} else {
				parts = append(parts, fmt.Sprintf("the error returned at line %d is built by %s, charged %d", line(c.pos), c.what, c.cost))
				fixes = append(fixes, fmt.Sprintf("return at line %d an error built without a call (a package-level error variable, or a pointer to an error struct literal holding the values)", line(c.pos)))
			}
		}
	}
	if saved < over {
		for _, c := range closures {
			saved += c.cost
			parts = append(parts, fmt.Sprintf("a function literal at line %d costs %d", line(c.pos), c.cost))
			fixes = append(fixes, fmt.Sprintf("make the function literal at line %d, which uses no local variables, a named function", line(c.pos)))
			if saved >= over {
				break
			}
		}
	}
	if saved < over || len(parts) == 0 {
		return // nothing we can name brings it under the budget
	}
	name := hotpath.FuncName(obj)
	msg := fmt.Sprintf("%s costs %d to inline, %d over the budget of %d: %s; %s, so that %s can be inlined where it is called, saving a call each time and letting its arguments stay on the caller's stack [%s: %s]",
		name, rec.Cost, over, rec.Budget, strings.Join(parts, "; "), strings.Join(fixes, " and "), obj.Name(), info.Tier, info.Reason)
	pass.Report(analysis.Diagnostic{Pos: fd.Name.Pos(), End: fd.Name.End(), Category: info.Tier.String(), Message: msg})
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

// captures reports whether the function literal refers to local
// variables of its enclosing function: it cannot simply become a named
// function.
func captures(pass *analysis.Pass, fd *ast.FuncDecl, lit *ast.FuncLit) bool {
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		v, ok := pass.TypesInfo.Uses[id].(*types.Var)
		if ok && !v.IsField() && v.Pos() >= fd.Pos() && v.Pos() < fd.End() && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
			found = true
		}
		return !found
	})
	return found
}

// coldPaths returns the blocks of body (if and else branches, case
// clauses) that end in a panic or in a return whose last result is a
// non-nil error.
func coldPaths(pass *analysis.Pass, body *ast.BlockStmt) []coldPath {
	var out []coldPath
	consider := func(b *ast.BlockStmt) {
		if b == nil || len(b.List) == 0 {
			return
		}
		switch last := b.List[len(b.List)-1].(type) {
		case *ast.ExprStmt:
			call, ok := ast.Unparen(last.X).(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return
			}
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if _, ok := pass.TypesInfo.Uses[id].(*types.Builtin); ok && id.Name == "panic" {
					out = append(out, coldPath{block: b, final: call.Args[0], panics: true})
				}
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
