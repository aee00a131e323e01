package heapescape

import (
	"cmp"
	"container/list"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// When the compiler says that a value escapes because a statically known
// function leaks the parameter it is passed to, the compiler's flow for
// the caller ends at that call: why the callee leaks its parameter is in
// the callee package's own optimization log, which goadvise does not
// collect. The few cases where the reason matters for the advice are
// recognised from the callee's source and its types (which the pass has,
// from export data or source): the parameter is passed, within a few
// levels of static calls, to an interface method or to a function value,
// or its own methods are called through an interface. Only the syntax of
// such calls is matched; the compiler has already decided that the value
// escapes, so this never adds a finding, it only explains one.

// A leakKind says why a callee lets its parameter escape.
type leakKind int

const (
	leakUnknown    leakKind = iota // not recognised
	leakIfaceCall                  // passed to an interface method
	leakFuncValue                  // passed to a function value
	leakIfaceRecv                  // an interface whose methods the callee calls
	leakIfaceParam                 // the parameter is an interface the callee lets escape
	leakRecvField                  // stored in a field of the callee's receiver
)

// A leak is the reason a callee lets its parameter escape.
type leak struct {
	kind leakKind
	via  string // the dynamic call: "io.Reader.Read", "fn"; the receiver's field: "r", "buf.r"
}

// maxDepth bounds the chain of static calls followed from the callee.
const maxDepth = 3

// leakOf returns why fn lets its parameter idx (counting from 0, not
// counting the receiver) escape. It returns leakUnknown when the source of
// fn cannot be read or no reason is recognised.
func (r *resolver) leakOf(fn *types.Func, idx int) leak {
	return r.leakOfDepth(fn, idx, 0)
}

// A resolver finds the source of the functions a pass's package calls.
type resolver struct {
	// inlinedBodies holds the allocations reported in the body of a
	// function inlined at every call (see message): their copies at
	// the calls are not reported again.
	inlinedBodies map[token.Pos]bool
	fset          *token.FileSet            // the pass's, which holds the positions of imported objects
	imports       map[string]*types.Package // all packages the pass's package depends on, by path
	names         *strings.Replacer         // "a/b/c." to "c.", for every path of imports with a slash; see pkgNames
	leaks         map[leakKey]leak          // leakOfDepth's answers
	// extended says, for a function, where its first call that adds its
	// result to a longer string is ("" if a call does something else
	// with it): callerBufferAdvice's walk of the package, once each.
	extended map[*types.Func]string
	// writes says whether a function of the package may write the
	// elements of a slice parameter: doubleCopyAdvice's question.
	writes map[writeKey]bool
	// repeats says whether a method may run twice on one receiver:
	// repeatsOnValue's question.
	repeats map[*types.Func]bool
	// lazy is lazyMapAdvice's index of the package, built once.
	lazy *lazyIndex
	// rare compiles rarePathAdvice's changes for the whole pass at once.
	rare *rareBatch
	// letOut is escapesFromVar's index of the package, built once.
	letOut map[*types.Var]string
	// uses says how the package refers to each of its functions
	// (inlinedAway's question), built once.
	uses map[*types.Func]*callUse
	// ifaces holds the names of the methods the package's interfaces
	// declare, built once.
	ifaces map[string]bool
}

// pkgNames returns the replacer that writes the import paths of r's
// packages, before a dot, as their package names: the compiler names
// another package's function by its path
// ("github.com/redis/go-redis/v9/internal/routing.ResponseAggregator"),
// Go code by its package's name. The longest paths come first, so that
// x/a/b is replaced before a/b could match inside it.
func (r *resolver) pkgNames() *strings.Replacer {
	if r.names == nil {
		var paths []string
		for path := range r.imports {
			if strings.Contains(path, "/") {
				paths = append(paths, path)
			}
		}
		slices.SortFunc(paths, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
		pairs := make([]string, 0, 2*len(paths))
		for _, path := range paths {
			pairs = append(pairs, path+".", r.imports[path].Name()+".")
		}
		r.names = strings.NewReplacer(pairs...)
	}
	return r.names
}

// leakOfDepth is leakOf for a callee reached through depth static calls.
func (r *resolver) leakOfDepth(fn *types.Func, idx int, depth int) leak {
	// Many calls pass values to the same few functions (fmt.Sprintf's
	// arguments, a package's own helpers): read each callee once.
	key := leakKey{fn, idx, depth}
	if l, ok := r.leaks[key]; ok {
		return l
	}
	l := r.findLeak(fn, idx, depth)
	if r.leaks == nil {
		r.leaks = make(map[leakKey]leak)
	}
	r.leaks[key] = l
	return l
}

// leakKey identifies a question leakOfDepth answers.
type leakKey struct {
	fn         *types.Func
	idx, depth int
}

// findLeak is leakOfDepth without the memory of earlier answers.
func (r *resolver) findLeak(fn *types.Func, idx int, depth int) leak {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || fn.Pkg() == nil {
		return leak{}
	}
	params := sig.Params()
	if idx >= params.Len() {
		if !sig.Variadic() || params.Len() == 0 {
			return leak{}
		}
		idx = params.Len() - 1
	}
	param := params.At(idx)
	decl, file := r.funcDecl(fn)
	if decl == nil || decl.Body == nil || param.Name() == "" || param.Name() == "_" {
		if types.IsInterface(param.Type()) && depth == 0 {
			return leak{kind: leakIfaceParam}
		}
		return leak{}
	}
	env := newCalleeEnv(r, fn, sig, file)
	name := param.Name()
	var held func(ast.Expr) bool
	if env.recv != "" {
		held = heldBy(decl.Body, name)
	}
	var found leak
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if found.kind != leakUnknown {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			// A closure may shadow the parameter; do not look inside.
			return false
		}
		if as, ok := n.(*ast.AssignStmt); ok && env.recv != "" && len(as.Lhs) == len(as.Rhs) {
			// d.r = r, or d.r = br after br, ok := r.(bufReader): the
			// receiver keeps the parameter.
			for j, lhs := range as.Lhs {
				if sel, ok := lhs.(*ast.SelectorExpr); ok && rootName(sel) == env.recv && held(as.Rhs[j]) {
					found = leak{kind: leakRecvField, via: strings.TrimPrefix(types.ExprString(lhs), env.recv+".")}
					return false
				}
			}
			return true
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		// The parameter's own methods called through an interface.
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && id.Name == name && types.IsInterface(param.Type()) {
				found = leak{kind: leakIfaceRecv, via: ifaceMethod(param.Type(), sel.Sel.Name, fn.Pkg())}
				return false
			}
		}
		for i, arg := range call.Args {
			if !derives(arg, name) {
				continue
			}
			if l := env.callLeak(call, i, depth); l.kind != leakUnknown {
				found = l
				return false
			}
		}
		return true
	})
	if found.kind == leakUnknown && types.IsInterface(param.Type()) && depth == 0 {
		found.kind = leakIfaceParam
	}
	return found
}

// heldBy returns the test of whether an expression of body holds the
// parameter name: the parameter itself (derives), a type assertion of it,
// or a local variable assigned one of those ("br, ok := r.(bufReader)").
func heldBy(body *ast.BlockStmt, name string) func(ast.Expr) bool {
	locals := map[string]bool{}
	var holds func(x ast.Expr) bool
	holds = func(x ast.Expr) bool {
		if a, ok := ast.Unparen(x).(*ast.TypeAssertExpr); ok {
			x = a.X
		}
		x = ast.Unparen(x)
		if id, ok := x.(*ast.Ident); ok && locals[id.Name] {
			return true
		}
		return derives(x, name)
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && (len(as.Lhs) == 1 || len(as.Lhs) == 2) {
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != name && id.Name != "_" && holds(as.Rhs[0]) {
				locals[id.Name] = true
			}
		}
		return true
	})
	return holds
}

// derives reports whether expr is the variable name or a slice, index,
// dereference, address or parenthesization of it.
func derives(expr ast.Expr, name string) bool {
	switch e := expr.(type) {
	case *ast.Ident:
		return e.Name == name
	case *ast.ParenExpr:
		return derives(e.X, name)
	case *ast.SliceExpr:
		return derives(e.X, name)
	case *ast.StarExpr:
		return derives(e.X, name)
	case *ast.UnaryExpr:
		return e.Op == token.AND && derives(e.X, name)
	}
	return false
}

// calleeEnv resolves names in the body of a callee: its parameters and
// receiver (typed by its signature), its package's functions and the
// packages its file imports.
type calleeEnv struct {
	r    *resolver
	fn   *types.Func
	recv string // the receiver's name, if the callee is a method that names it
	vars map[string]types.Type
	pkgs map[string]*types.Package // by the file's import names
}

func newCalleeEnv(r *resolver, fn *types.Func, sig *types.Signature, file *ast.File) *calleeEnv {
	env := &calleeEnv{r: r, fn: fn, vars: make(map[string]types.Type), pkgs: make(map[string]*types.Package)}
	if r := sig.Recv(); r != nil && r.Name() != "" && r.Name() != "_" {
		env.vars[r.Name()] = r.Type()
		env.recv = r.Name()
	}
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		env.vars[p.Name()] = p.Type()
	}
	for _, imp := range file.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		pkg := r.imports[path]
		if pkg == nil {
			continue
		}
		name := pkg.Name()
		if imp.Name != nil {
			name = imp.Name.Name
		}
		env.pkgs[name] = pkg
	}
	return env
}

// typeOf returns the type of a parameter, the receiver, or a field
// selection from them; nil if unknown.
func (env *calleeEnv) typeOf(expr ast.Expr) types.Type {
	switch e := ast.Unparen(expr).(type) {
	case *ast.Ident:
		return env.vars[e.Name]
	case *ast.SelectorExpr:
		xt := env.typeOf(e.X)
		if xt == nil {
			return nil
		}
		if v, ok := lookup(xt, e.Sel.Name, env.fn.Pkg()).(*types.Var); ok {
			return v.Type()
		}
	}
	return nil
}

func lookup(t types.Type, name string, pkg *types.Package) types.Object {
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	return obj
}

// callLeak classifies the call that receives the callee's parameter as its
// argument i.
func (env *calleeEnv) callLeak(call *ast.CallExpr, i int, depth int) leak {
	var next *types.Func
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if t, ok := env.vars[fun.Name]; ok {
			if _, ok := t.Underlying().(*types.Signature); ok {
				return leak{kind: leakFuncValue, via: fun.Name}
			}
			return leak{}
		}
		next, _ = env.fn.Pkg().Scope().Lookup(fun.Name).(*types.Func)
	case *ast.SelectorExpr:
		if id, ok := fun.X.(*ast.Ident); ok && env.vars[id.Name] == nil {
			if pkg := env.pkgs[id.Name]; pkg != nil {
				next, _ = pkg.Scope().Lookup(fun.Sel.Name).(*types.Func)
				break
			}
		}
		xt := env.typeOf(fun.X)
		if xt == nil {
			return leak{}
		}
		if types.IsInterface(xt) {
			return leak{kind: leakIfaceCall, via: ifaceMethod(xt, fun.Sel.Name, env.fn.Pkg())}
		}
		switch obj := lookup(xt, fun.Sel.Name, env.fn.Pkg()).(type) {
		case *types.Func:
			next = obj
		case *types.Var:
			if _, ok := obj.Type().Underlying().(*types.Signature); ok {
				return leak{kind: leakFuncValue, via: types.ExprString(fun)}
			}
		}
	}
	if next == nil || depth+1 >= maxDepth {
		return leak{}
	}
	l := env.r.leakOfDepth(next, i, depth+1)
	if l.kind == leakIfaceParam {
		return leak{}
	}
	if l.kind == leakRecvField {
		// The next callee's receiver is this one's only in a call of
		// a method on the receiver (d.ResetReader(r) in d.Reset).
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || env.recv == "" {
			return leak{}
		}
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || id.Name != env.recv {
			return leak{}
		}
	}
	return l
}

// ifaceMethod names the method m of the interface type t: "io.Reader.Read".
func ifaceMethod(t types.Type, m string, _ *types.Package) string {
	return types.TypeString(t, pkgName) + "." + m
}

// pkgName qualifies names by their package's name.
func pkgName(p *types.Package) string { return p.Name() }

// The parsed source files of callees, shared by all passes. The cache
// is bounded, so that a long run (goadvise check analyses a large tree in
// batches) does not keep every file it ever parsed: the files a batch
// needs most (fmt, strings, the package's own dependencies) stay.
var sources struct {
	sync.Mutex
	files map[string]*list.Element // of *source
	lru   list.List                // most recently used first
}

// maxSources is how many parsed files the cache keeps.
const maxSources = 128

// A source is a parsed file, with a FileSet of its own so that evicting
// it frees its position tables too.
type source struct {
	name string
	fset *token.FileSet
	file *ast.File // nil if the file cannot be read
}

// funcDecl returns the declaration of fn, parsed from its source file, and
// the file.
func (r *resolver) funcDecl(fn *types.Func) (*ast.FuncDecl, *ast.File) {
	if fn.Pkg() == nil || !fn.Pos().IsValid() {
		return nil, nil
	}
	pos := r.fset.Position(fn.Pos())
	if !pos.IsValid() {
		return nil, nil
	}
	src := parseSource(pos.Filename)
	if src.file == nil {
		return nil, nil
	}
	for _, d := range src.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn.Name() {
			continue
		}
		if src.fset.Position(fd.Name.Pos()).Line == pos.Line {
			return fd, src.file
		}
	}
	return nil, nil
}

// parseSource parses the Go file name (as recorded in export data: with
// $GOROOT standing for the Go root), caching the result.
func parseSource(name string) *source {
	if rest, ok := strings.CutPrefix(name, "$GOROOT"); ok {
		name = filepath.Join(build.Default.GOROOT, filepath.FromSlash(rest))
	}
	sources.Lock()
	defer sources.Unlock()
	if e, ok := sources.files[name]; ok {
		sources.lru.MoveToFront(e)
		return e.Value.(*source)
	}
	if sources.files == nil {
		sources.files = make(map[string]*list.Element)
	}
	src := &source{name: name, fset: token.NewFileSet()}
	if data, err := os.ReadFile(name); err == nil {
		src.file, _ = parser.ParseFile(src.fset, name, data, parser.SkipObjectResolution)
	}
	sources.files[name] = sources.lru.PushFront(src)
	if sources.lru.Len() > maxSources {
		last := sources.lru.Back()
		sources.lru.Remove(last)
		delete(sources.files, last.Value.(*source).name)
	}
	return src
}
