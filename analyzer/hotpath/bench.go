package hotpath

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/goadvise/goadvise/internal/funcname"
)

// Benchmarks are the maintainers' own statement of what is hot: the code
// a benchmark runs b.N times is the code they measure. BenchmarkCalls
// reads a package's test files (syntax only: a driver that checks the
// module does not type-check tests) and returns, as calls without a
// caller, the functions of the module that a benchmark's loop calls.
//
// A benchmark's loop is a for statement of a function, or function
// literal, that takes a *testing.B (a Benchmark function, a helper it
// calls, a b.Run literal), whose condition or range mentions b.N, b.Loop()
// or pb.Next() (inside RunParallel). The calls in it are resolved without
// types: F(...) to the package's F (or, for a function of the test files,
// to what its body calls), pkg.F(...) through the file's imports, and
// x.M(...) through what x was assigned (x := pkg.NewT(...), &pkg.T{...},
// pkg.T{...}, new(pkg.T), var x pkg.T), using the summaries' result types;
// failing that, to the one method M of the package under test, if it has
// only one. Calls that cannot be resolved so are left out.
//
// pkgPath is the import path of the package under test (the files may be
// of it or of its external test package); lookup returns the summary of a
// package of the module, or nil.
func BenchmarkCalls(fset *token.FileSet, files []*ast.File, pkgPath string, lookup func(path string) *Summary) []Call {
	br := &benchReader{fset: fset, pkg: pkgPath, lookup: lookup, helpers: make(map[string]*ast.FuncDecl)}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				br.helpers[fd.Name.Name] = fd
			}
		}
	}
	seen := make(map[string]bool)
	for _, f := range files {
		br.file = f
		br.imports = fileImports(f)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Benchmark") {
				continue
			}
			br.bench = fd.Name.Name
			for _, c := range br.loops(fd.Body, fd.Type, map[string]bool{fd.Name.Name: true}) {
				key := c.To + "\x00" + c.Why
				if !seen[key] {
					seen[key] = true
					br.calls = append(br.calls, c)
				}
			}
		}
	}
	return br.calls
}

type benchReader struct {
	fset    *token.FileSet
	pkg     string
	lookup  func(string) *Summary
	helpers map[string]*ast.FuncDecl // functions of the test files, by name
	file    *ast.File
	imports map[string]string // name -> import path, of file
	bench   string            // the Benchmark function being read
	calls   []Call
}

// fileImports maps the names f's imports are known by to their paths.
func fileImports(f *ast.File) map[string]string {
	m := make(map[string]string)
	for _, s := range f.Imports {
		path, err := strconv.Unquote(s.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if v := strings.TrimPrefix(name, "v"); name != v && v != "" && strings.Trim(v, "0123456789") == "" {
			// ".../redis/v9" is package redis: take the element before.
			if i := strings.LastIndex(path[:len(path)-len(name)-1], "/"); i >= 0 {
				name = path[i+1 : len(path)-len(name)-1]
			}
		}
		name = strings.TrimSuffix(strings.ReplaceAll(name, "-", ""), ".go")
		if s.Name != nil {
			name = s.Name.Name
		}
		m[name] = path
	}
	return m
}

// loops returns the calls in the benchmark loops of body, a function
// whose type is ft. visiting holds the helpers being read (recursion).
func (br *benchReader) loops(body *ast.BlockStmt, ft *ast.FuncType, visiting map[string]bool) []Call {
	var out []Call
	vars := br.varTypes(body, ft)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if takesB(n.Type) {
				out = append(out, br.loops(n.Body, n.Type, visiting)...)
				return false
			}
		case *ast.ForStmt:
			if benchLoop(n.Cond) {
				out = append(out, br.callsIn(n.Body, vars, visiting)...)
				return false
			}
		case *ast.RangeStmt:
			if benchLoop(n.X) {
				out = append(out, br.callsIn(n.Body, vars, visiting)...)
				return false
			}
		case *ast.CallExpr:
			// A helper taking the *testing.B has the loop itself.
			if id, ok := n.Fun.(*ast.Ident); ok && !visiting[id.Name] {
				if h := br.helpers[id.Name]; h != nil && takesB(h.Type) {
					visiting[id.Name] = true
					out = append(out, br.loops(h.Body, h.Type, visiting)...)
					delete(visiting, id.Name)
				}
			}
		}
		return true
	})
	return out
}

// takesB reports whether a function type has a *testing.B or *testing.PB
// parameter.
func takesB(ft *ast.FuncType) bool {
	for _, p := range ft.Params.List {
		if star, ok := p.Type.(*ast.StarExpr); ok {
			if sel, ok := star.X.(*ast.SelectorExpr); ok && (sel.Sel.Name == "B" || sel.Sel.Name == "PB") {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "testing" {
					return true
				}
			}
		}
	}
	return false
}

// benchLoop reports whether a loop's condition or range expression makes
// it the loop a benchmark times: it mentions X.N, X.Loop() or X.Next().
func benchLoop(e ast.Expr) bool {
	found := false
	if e == nil {
		return false
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "N" || sel.Sel.Name == "Loop" || sel.Sel.Name == "Next") {
			found = true
		}
		return !found
	})
	return found
}

// callsIn returns the calls of the module's functions in a benchmark
// loop's body, following the test files' own functions.
func (br *benchReader) callsIn(body ast.Node, vars map[string]string, visiting map[string]bool) []Call {
	var out []Call
	why := "called in " + br.bench + "'s loop"
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fun := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			if h := br.helpers[fun.Name]; h != nil {
				if !visiting[fun.Name] {
					visiting[fun.Name] = true
					out = append(out, br.callsIn(h.Body, br.varTypes(h.Body, h.Type), visiting)...)
					delete(visiting, fun.Name)
				}
			} else if name := br.pkg + "." + fun.Name; br.declared(br.pkg, name) {
				out = append(out, Call{To: name, Loop: true, Why: why})
			}
		case *ast.SelectorExpr:
			if x, ok := fun.X.(*ast.Ident); ok {
				if path, ok := br.imports[x.Name]; ok && vars[x.Name] == "" {
					if name := path + "." + fun.Sel.Name; br.declared(path, name) {
						out = append(out, Call{To: name, Loop: true, Why: why})
					}
					return true
				}
			}
			if name := br.method(br.typeOf(fun.X, vars), fun.Sel.Name); name != "" {
				out = append(out, Call{To: name, Loop: true, Why: why})
			}
		}
		return true
	})
	return out
}

// declared reports whether the summary of the package at path has the
// function name.
func (br *benchReader) declared(path, name string) bool {
	s := br.lookup(path)
	if s == nil {
		return false
	}
	for _, f := range s.Funcs {
		if f.Name == name {
			return true
		}
	}
	return false
}

// method returns the full name of method m of the type typ ("pkg/path.T";
// "" if unknown), or, when typ is unknown, of the one method m of the
// package under test.
func (br *benchReader) method(typ, m string) string {
	path, tname := br.pkg, ""
	if typ != "" {
		i := strings.LastIndex(typ, ".")
		path, tname = typ[:i], typ[i+1:]
	}
	s := br.lookup(path)
	if s == nil {
		return ""
	}
	var found []string
	for _, f := range s.Funcs {
		// "(*T).M", "T.M", "(*T[...]).M": the receiver's name.
		recv, ok := strings.CutSuffix(funcname.InPackageOf(f.Name), "."+m)
		if !ok {
			continue
		}
		recv = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(recv, "("), "*"), ")")
		recv = strings.TrimSuffix(recv, "[...]")
		if recv == "" || strings.ContainsAny(recv, ".()") {
			continue
		}
		if tname == "" || recv == tname {
			found = append(found, f.Name)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return ""
}

// varTypes maps the local variables of a function (of type ft, body
// body) whose type its syntax shows to that type's full name.
func (br *benchReader) varTypes(body *ast.BlockStmt, ft *ast.FuncType) map[string]string {
	vars := make(map[string]string)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && len(n.Lhs) >= 1 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					if t := br.typeOf(n.Rhs[0], vars); t != "" {
						vars[id.Name] = t
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if n.Type != nil {
					if t := br.typeName(n.Type); t != "" {
						vars[id.Name] = t
					}
				} else if i < len(n.Values) {
					if t := br.typeOf(n.Values[i], vars); t != "" {
						vars[id.Name] = t
					}
				}
			}
		}
		return true
	})
	return vars
}

// typeOf returns the full name of the named type of e, when its syntax
// shows it; "" otherwise.
func (br *benchReader) typeOf(e ast.Expr, vars map[string]string) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return vars[e.Name]
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return br.typeOf(e.X, vars)
		}
	case *ast.CompositeLit:
		return br.typeName(e.Type)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			return br.typeName(e.Args[0])
		}
		var path, name string
		switch fun := ast.Unparen(e.Fun).(type) {
		case *ast.Ident:
			path, name = br.pkg, br.pkg+"."+fun.Name
		case *ast.SelectorExpr:
			if x, ok := fun.X.(*ast.Ident); ok && br.imports[x.Name] != "" && vars[x.Name] == "" {
				path = br.imports[x.Name]
				name = path + "." + fun.Sel.Name
			} else if m := br.method(br.typeOf(fun.X, vars), fun.Sel.Name); m != "" {
				path, name = funcname.Package(m), m
			}
		}
		if s := br.lookup(path); s != nil {
			for _, f := range s.Funcs {
				if f.Name == name {
					return f.Result
				}
			}
		}
	}
	return ""
}

// typeName returns the full name of the type expression t: pkg.T, *pkg.T,
// T (of the package under test).
func (br *benchReader) typeName(t ast.Expr) string {
	switch t := ast.Unparen(t).(type) {
	case *ast.StarExpr:
		return br.typeName(t.X)
	case *ast.Ident:
		return br.pkg + "." + t.Name
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok {
			if path := br.imports[x.Name]; path != "" {
				return path + "." + t.Sel.Name
			}
		}
	case *ast.IndexExpr:
		return br.typeName(t.X)
	case *ast.IndexListExpr:
		return br.typeName(t.X)
	}
	return ""
}
