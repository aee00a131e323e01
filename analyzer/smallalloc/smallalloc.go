package smallalloc

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/goadvise/goadvise/analyzer/escape"
	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/analyzer/internal/ssaform"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/optlog"
)

//go:embed doc.go
var doc string

// Analyzer reports small heap allocations made on every call of hot code.
var Analyzer = &analysis.Analyzer{
	Name:     "smallalloc",
	Doc:      docs.Section(doc, "smallalloc"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/smallalloc",
	Run:      run,
	Requires: []*analysis.Analyzer{inspect.Analyzer, hotpath.Analyzer, escape.Analyzer, ssaform.Analyzer, kind.Analyzer},
}

// threshold is the value of the -threshold flag.
var threshold int64 = 64

func init() {
	Analyzer.Flags.Int64Var(&threshold, "threshold", 64, "largest allocation, in bytes, that counts as small")
}

// allocKind is the syntactic form of a candidate allocation.
type allocKind int

const (
	kindMake     allocKind = iota // make([]T, n) or make([]T, n, m)
	kindNew                       // new(T)
	kindAddr                      // &T{...}
	kindSliceLit                  // []T{a, b, c}
)

// candidate is one allocation that may be worth avoiding.
type candidate struct {
	kind     allocKind
	expr     ast.Expr  // the allocating expression
	heapPos  token.Pos // where the compiler reports it
	desc     string    // "make([]byte, 4)"
	elemType ast.Expr  // kindMake: the element type expression
	length   int64     // kindMake: the length
	capacity int64     // kindMake: the capacity (== length without a third argument)
	typ      types.Type
}

// checker holds the state of one pass.
type checker struct {
	pass  *analysis.Pass
	hot   *hotpath.Result
	esc   *optlog.Result
	decls map[*types.Func]*ast.FuncDecl // functions declared in the package
	types map[*types.TypeName]typeDecl  // struct types declared in the package
	goFns map[*types.Func]bool          // functions called in a go statement
	added map[*types.TypeName][]string  // field names proposed in this pass
}

type typeDecl struct {
	spec *ast.TypeSpec
	st   *ast.StructType
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:  pass,
		hot:   pass.ResultOf[hotpath.Analyzer].(*hotpath.Result),
		esc:   pass.ResultOf[escape.Analyzer].(*optlog.Result),
		decls: make(map[*types.Func]*ast.FuncDecl),
		types: make(map[*types.TypeName]typeDecl),
		goFns: make(map[*types.Func]bool),
		added: make(map[*types.TypeName][]string),
	}
	c.index()
	for _, f := range pass.Files {
		if hotpath.Skip(pass, f) || strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				c.funcDecl(fd)
			}
		}
	}
	return nil, nil
}

// index records the package's function and struct declarations and the
// functions started by go statements.
func (c *checker) index() {
	info := c.pass.TypesInfo
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if fn, ok := info.Defs[n.Name].(*types.Func); ok {
					c.decls[fn] = n
				}
			case *ast.TypeSpec:
				if st, ok := n.Type.(*ast.StructType); ok && n.TypeParams == nil {
					if tn, ok := info.Defs[n.Name].(*types.TypeName); ok {
						c.types[tn] = typeDecl{n, st}
					}
				}
			case *ast.GoStmt:
				// Everything called in a go statement, directly or in a
				// function literal, may run concurrently with other calls.
				ast.Inspect(n.Call, func(m ast.Node) bool {
					if call, ok := m.(*ast.CallExpr); ok {
						if fn := staticCallee(info, call); fn != nil {
							c.goFns[fn] = true
						}
					}
					if sel, ok := m.(*ast.SelectorExpr); ok { // method value: go f := r.M
						if fn, ok := info.Uses[sel.Sel].(*types.Func); ok {
							c.goFns[fn.Origin()] = true
						}
					}
					return true
				})
			}
			return true
		})
	}
}

// parents maps every node of a function body to its parent.
type parents map[ast.Node]ast.Node

func parentMap(root ast.Node) parents {
	p := make(parents)
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			p[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return p
}

// funcDecl checks the allocations of one function declaration, outside
// function literals.
//
// Finding a candidate takes only each node's parent, which the walk keeps;
// the map of every node's parent, which checking one takes, is built at the
// function's first candidate: most functions have none.
func (c *checker) funcDecl(fd *ast.FuncDecl) {
	var par parents
	stack := []ast.Node{fd}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false // a closure runs at another time, and may run concurrently
		}
		parent := stack[len(stack)-1]
		stack = append(stack, n)
		if e, ok := n.(ast.Expr); ok {
			if cand := c.candidate(e, parent); cand != nil {
				if par == nil {
					par = parentMap(fd)
				}
				c.check(fd, par, cand)
			}
		}
		return true
	})
}

// candidate returns the small allocation that e, whose parent is parent,
// performs, or nil.
func (c *checker) candidate(e ast.Expr, parent ast.Node) *candidate {
	info := c.pass.TypesInfo
	sizes := c.pass.TypesSizes
	switch e := e.(type) {
	case *ast.CallExpr:
		id, ok := ast.Unparen(e.Fun).(*ast.Ident)
		if !ok {
			return nil
		}
		b, ok := info.Uses[id].(*types.Builtin)
		if !ok {
			return nil
		}
		switch b.Name() {
		case "make":
			sl, ok := info.TypeOf(e).Underlying().(*types.Slice)
			if !ok || len(e.Args) < 2 {
				return nil
			}
			n, ok1 := constInt(info, e.Args[1])
			m, ok2 := n, true
			if len(e.Args) == 3 {
				m, ok2 = constInt(info, e.Args[2])
			}
			if !ok1 || !ok2 || m <= 0 || n > m {
				return nil
			}
			if syntax.HasTypeParam(sl.Elem()) {
				return nil
			}
			esize := sizes.Sizeof(sl.Elem())
			if esize == 0 || m*esize > threshold {
				return nil
			}
			lit, ok := e.Args[0].(*ast.ArrayType)
			if !ok {
				return nil
			}
			return &candidate{kind: kindMake, expr: e, heapPos: e.Lparen, desc: c.format(e),
				elemType: lit.Elt, length: n, capacity: m, typ: info.TypeOf(e)}
		case "new":
			t := info.TypeOf(e).(*types.Pointer).Elem()
			if syntax.HasTypeParam(t) {
				return nil
			}
			if s := sizes.Sizeof(t); s == 0 || s > threshold {
				return nil
			}
			return &candidate{kind: kindNew, expr: e, heapPos: e.Lparen, desc: c.format(e), typ: t}
		}
	case *ast.UnaryExpr:
		lit, ok := ast.Unparen(e.X).(*ast.CompositeLit)
		if e.Op != token.AND || !ok {
			return nil
		}
		t := info.TypeOf(lit)
		if syntax.HasTypeParam(t) {
			return nil
		}
		if s := sizes.Sizeof(t); s == 0 || s > threshold {
			return nil
		}
		return &candidate{kind: kindAddr, expr: e, heapPos: e.OpPos, desc: "&" + typeString(c.pass.Pkg, t) + "{...}", typ: t}
	case *ast.CompositeLit:
		sl, ok := info.TypeOf(e).Underlying().(*types.Slice)
		if !ok || len(e.Elts) == 0 || e.Type == nil {
			return nil
		}
		switch p := parent.(type) {
		case *ast.CompositeLit:
			return nil // an element of an outer literal
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return nil // &[]T{...}: the pointer is the candidate
			}
		}
		for _, elt := range e.Elts {
			if _, ok := elt.(*ast.KeyValueExpr); ok {
				return nil
			}
		}
		if syntax.HasTypeParam(sl.Elem()) {
			return nil
		}
		esize := sizes.Sizeof(sl.Elem())
		if esize == 0 || int64(len(e.Elts))*esize > threshold {
			return nil
		}
		return &candidate{kind: kindSliceLit, expr: e, heapPos: e.Lbrace,
			desc: typeString(c.pass.Pkg, info.TypeOf(e)) + "{...}", typ: info.TypeOf(e)}
	}
	return nil
}

// check decides whether cand is a finding and reports it.
func (c *checker) check(fd *ast.FuncDecl, par parents, cand *candidate) {
	hot := c.hot.At(cand.expr.Pos())
	if hot.Tier == hotpath.Cold {
		return
	}
	var rec *optlog.Record
	if c.esc.Available() {
		if rec = c.esc.Heap(cand.heapPos); rec == nil {
			return // the compiler keeps it on the stack
		}
	}

	// The value must be bound to a local variable whose uses we can see.
	v, stmt := boundVar(c.pass.TypesInfo, par, cand.expr)
	if v == nil {
		return
	}
	fl := c.checkVar(v, fd, par, 0, map[*types.Var]bool{})
	if fl.retained != "" && cand.kind == kindMake && reassigned(c.pass.TypesInfo, fd, v) {
		// The variable is retained, but it holds more than this
		// allocation: judge the allocation's value on its own.
		if vfl, ok := c.valueFlow(fd, cand, v); ok {
			fl = vfl
		}
	}
	if fl.retained != "" {
		return // the allocation is needed: the value outlives the call
	}
	if rec == nil && fl.iface == "" {
		return // heuristic: nothing makes it escape
	}

	because := ""
	switch {
	case rec == nil:
		because = "(heuristic: compiler escape data unavailable) when passed to " + fl.iface
	case fl.iface != "":
		// The compiler's flow ends at the call it cannot see through.
		because = "(passed to " + fl.iface + ", a call the compiler cannot see into)"
	case rec.Explanation != "":
		because = "(" + rec.Explanation + ")"
	case rec.Cause != optlog.CauseUnknown:
		because = "(" + rec.Cause.String() + ")"
	default:
		because = "(" + rec.Message + ")"
	}
	saves := "saves 1 allocation per call"
	if hot.Tier == hotpath.Loop {
		saves = "saves 1 allocation per iteration"
	}

	// Directly in a loop body: hoist.
	if loop, ok := loopOf(par, stmt); ok {
		c.reportHoist(par, cand, v, stmt, loop, because, hot)
		return
	}
	// In a method with a pointer receiver: a field of the receiver.
	c.reportField(fd, cand, v, stmt, because, saves, hot)
}

// boundVar returns the local variable that the allocation e initializes
// in a statement "v := e" or "var v = e", and that statement.
func boundVar(info *types.Info, par parents, e ast.Expr) (*types.Var, ast.Stmt) {
	var p ast.Node = par[e]
	for {
		if pe, ok := p.(*ast.ParenExpr); ok {
			p = par[pe]
			continue
		}
		break
	}
	switch p := p.(type) {
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE || len(p.Lhs) != 1 || len(p.Rhs) != 1 {
			return nil, nil
		}
		id, ok := p.Lhs[0].(*ast.Ident)
		if !ok {
			return nil, nil
		}
		v, _ := info.Defs[id].(*types.Var)
		if v == nil {
			return nil, nil
		}
		return v, p
	case *ast.ValueSpec:
		if len(p.Names) != 1 || len(p.Values) != 1 {
			return nil, nil
		}
		v, _ := info.Defs[p.Names[0]].(*types.Var)
		decl, ok := par[par[p]].(*ast.DeclStmt)
		if v == nil || !ok {
			return nil, nil
		}
		return v, decl
	}
	return nil, nil
}

// loopOf reports the loop whose body holds stmt directly.
func loopOf(par parents, stmt ast.Stmt) (ast.Stmt, bool) {
	block, ok := par[stmt].(*ast.BlockStmt)
	if !ok {
		return nil, false
	}
	switch l := par[block].(type) {
	case *ast.ForStmt:
		return l, l.Body == block
	case *ast.RangeStmt:
		return l, l.Body == block
	}
	return nil, false
}

// constInt returns the value of a constant integer expression.
func constInt(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	var n int64
	if _, err := fmt.Sscan(tv.Value.ExactString(), &n); err != nil {
		return 0, false
	}
	return n, true
}

// format returns the source text of n, with the whitespace of one line.
func (c *checker) format(n ast.Node) string {
	s := c.source(n)
	return strings.Join(strings.Fields(s), " ")
}

// source returns the source text of n.
func (c *checker) source(n ast.Node) string {
	tf := c.pass.Fset.File(n.Pos())
	content, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return types.ExprString(n.(ast.Expr))
	}
	return string(content[tf.Offset(n.Pos()):tf.Offset(n.End())])
}

func typeString(pkg *types.Package, t types.Type) string {
	return types.TypeString(t, syntax.NameQualifier(pkg))
}

// staticCallee returns the function or method that call statically calls.
func staticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			if sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) {
				return nil
			}
		}
		id = f.Sel
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// The kinds of this analyzer's findings.
const (
	HoistLoop   kind.ID = "smallalloc/hoist-loop"
	FieldBuffer kind.ID = "smallalloc/field-buffer"
)

func init() {
	kind.Register(
		kind.Kind{ID: HoistLoop, Title: "a small buffer allocated in every iteration of a loop",
			Doc: "A small value allocated in a loop body that the compiler moves to the heap, and that does not " +
				"outlive its iteration, can be allocated once before the loop and reset in each iteration: the loop then " +
				"allocates once instead of once per iteration.",
			Scoring: kind.ScoreAlloc, CostNS: 30, Rewrite: true, Mechanical: true, Owns: true},
		kind.Kind{ID: FieldBuffer, Title: "a small buffer allocated per call and passed to a call that must not keep it",
			Doc: "A small buffer made on every call of a method and passed to an interface method whose contract " +
				"forbids keeping it (io.Writer.Write, io.Reader.Read) escapes only because the compiler cannot see the " +
				"implementation: an array field of the receiver, reused by each call, removes the allocation when the " +
				"method is not called concurrently on one receiver.",
			Scoring: kind.ScoreAlloc, CostNS: 30, Rewrite: true, Mechanical: true, Owns: true},
	)
}
