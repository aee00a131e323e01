package redundantbranch

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A funcInfo records, for one function declaration and the function
// literals in it, how its local variables are defined, assigned and
// referenced, so that substitution and inlining can be proved sound.
type funcInfo struct {
	info    *types.Info
	decl    *ast.FuncDecl
	funcs   []ast.Node // decl and its function literals
	loops   []ast.Node // for and range statements
	hasGoto bool

	addrTaken       map[*types.Var]bool
	closureAssigned map[*types.Var]bool
	results         map[*types.Var]bool // named results of decl or of a literal
	signature       map[*types.Var]bool // parameters and results of decl and its literals
	assigns         map[*types.Var][]token.Pos
	defs            map[*types.Var]*definition
	reads           map[*types.Var][]token.Pos

	inl map[*types.Var]*definition // cache of inlinable
}

// A definition is the single defining statement of a local variable.
type definition struct {
	stmt ast.Stmt
	rhs  ast.Expr // nil if the value is not a single expression
}

func newFuncInfo(info *types.Info, decl *ast.FuncDecl) *funcInfo {
	fi := &funcInfo{
		info:            info,
		decl:            decl,
		addrTaken:       make(map[*types.Var]bool),
		closureAssigned: make(map[*types.Var]bool),
		results:         make(map[*types.Var]bool),
		signature:       make(map[*types.Var]bool),
		assigns:         make(map[*types.Var][]token.Pos),
		defs:            make(map[*types.Var]*definition),
		reads:           make(map[*types.Var][]token.Pos),
		inl:             make(map[*types.Var]*definition),
	}
	addResults := func(ft *ast.FuncType) {
		for _, fl := range []*ast.FieldList{ft.Params, ft.Results} {
			if fl == nil {
				continue
			}
			for _, f := range fl.List {
				for _, id := range f.Names {
					if v, ok := info.Defs[id].(*types.Var); ok {
						fi.signature[v] = true
						if fl == ft.Results {
							fi.results[v] = true
						}
					}
				}
			}
		}
	}
	addResults(decl.Type)
	fi.funcs = append(fi.funcs, decl)

	lhs := make(map[*ast.Ident]bool) // identifiers assigned to, not read
	var stack []ast.Node             // enclosing function literals
	assign := func(e ast.Expr, pos token.Pos) {
		id := fi.root(e)
		if id == nil {
			return
		}
		if e == id || ast.Unparen(e) == id {
			lhs[id] = true
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok {
			return
		}
		fi.assigns[v] = append(fi.assigns[v], pos)
		if len(stack) > 0 {
			lit := stack[len(stack)-1]
			if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
				fi.closureAssigned[v] = true
			}
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			fi.funcs = append(fi.funcs, n)
			addResults(n.Type)
			stack = append(stack, n)
			ast.Inspect(n.Body, visit)
			stack = stack[:len(stack)-1]
			return false
		case *ast.ForStmt:
			fi.loops = append(fi.loops, n)
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				fi.hasGoto = true
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && n.Tok == token.DEFINE {
					if v, ok := info.Defs[id].(*types.Var); ok {
						d := &definition{stmt: n}
						if len(n.Lhs) == len(n.Rhs) {
							d.rhs = n.Rhs[i]
						}
						fi.defs[v] = d
						continue
					}
				}
				assign(l, l.Pos())
			}
		case *ast.IncDecStmt:
			assign(n.X, n.X.Pos())
		case *ast.RangeStmt:
			fi.loops = append(fi.loops, n)
			if n.Tok == token.ASSIGN {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						assign(e, e.Pos())
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if v, ok := info.Defs[id].(*types.Var); ok {
					d := &definition{}
					if len(n.Values) == len(n.Names) {
						d.rhs = n.Values[i]
					}
					fi.defs[v] = d
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				fi.markAddr(n.X)
			}
		case *ast.SelectorExpr:
			// x.M() with a pointer receiver takes the address of x.
			if sel, ok := info.Selections[n]; ok && sel.Kind() != types.FieldVal {
				if fn, ok := sel.Obj().(*types.Func); ok {
					if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
						if _, ptr := sig.Recv().Type().Underlying().(*types.Pointer); ptr {
							if _, xptr := info.TypeOf(n.X).Underlying().(*types.Pointer); !xptr {
								fi.markAddr(n.X)
							}
						}
					}
				}
			}
		case *ast.SliceExpr:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Array); ok {
					fi.markAddr(n.X)
				}
			}
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok && !lhs[n] {
				fi.reads[v] = append(fi.reads[v], n.Pos())
			}
		}
		return true
	}
	ast.Inspect(decl, visit)
	// Definitions by var declarations: find their statements.
	ast.Inspect(decl, func(n ast.Node) bool {
		if ds, ok := n.(*ast.DeclStmt); ok {
			if gd, ok := ds.Decl.(*ast.GenDecl); ok {
				for _, sp := range gd.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for _, id := range vs.Names {
							if v, ok := info.Defs[id].(*types.Var); ok && fi.defs[v] != nil {
								fi.defs[v].stmt = ds
							}
						}
					}
				}
			}
		}
		return true
	})
	return fi
}

// root returns the variable whose storage e denotes (x for x, x.f and x[i]
// of an array x), or nil.
func (fi *funcInfo) root(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			sel, ok := fi.info.Selections[x]
			if !ok || sel.Kind() != types.FieldVal || sel.Indirect() {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			t := fi.info.TypeOf(x.X)
			if t == nil {
				return nil
			}
			if _, ok := t.Underlying().(*types.Array); !ok {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

func (fi *funcInfo) markAddr(e ast.Expr) {
	if id := fi.root(e); id != nil {
		if v, ok := fi.info.Uses[id].(*types.Var); ok {
			fi.addrTaken[v] = true
		}
	}
}

// local reports whether v is declared in the function (as a parameter or
// in the body).
func (fi *funcInfo) local(v *types.Var) bool {
	return v != nil && !v.IsField() && v.Pos() >= fi.decl.Pos() && v.Pos() < fi.decl.End()
}

// stable reports whether v changes only by assignments visible in the
// function's text: it is local, not address-taken, not assigned by a
// function literal that does not declare it, and not a named result.
func (fi *funcInfo) stable(v *types.Var) bool {
	return fi.local(v) && !fi.addrTaken[v] && !fi.closureAssigned[v] && !fi.results[v]
}

// assignedIn reports whether v is assigned in [pos, end).
func (fi *funcInfo) assignedIn(v *types.Var, pos, end token.Pos) bool {
	for _, a := range fi.assigns[v] {
		if pos <= a && a < end {
			return true
		}
	}
	return false
}

// innermost returns the innermost function (declaration or literal)
// containing pos.
func (fi *funcInfo) innermost(pos token.Pos) ast.Node {
	var best ast.Node
	for _, f := range fi.funcs {
		if f.Pos() <= pos && pos < f.End() {
			if best == nil || f.Pos() >= best.Pos() {
				best = f
			}
		}
	}
	return best
}

// inlinable returns the definition of v if every use of v may be replaced
// by its defining expression, or nil.
func (fi *funcInfo) inlinable(v *types.Var) *definition {
	if d, ok := fi.inl[v]; ok {
		return d
	}
	fi.inl[v] = nil // no recursion through v
	d := fi.computeInlinable(v)
	fi.inl[v] = d
	return d
}

func (fi *funcInfo) computeInlinable(v *types.Var) *definition {
	d := fi.defs[v]
	if fi.hasGoto || d == nil || d.rhs == nil || d.stmt == nil || !fi.stable(v) || len(fi.assigns[v]) > 0 {
		return nil
	}
	if t := fi.info.TypeOf(d.rhs); t == nil || !types.Identical(types.Default(t), v.Type()) {
		return nil
	}
	vars := make(map[*types.Var]bool)
	if !fi.pureVars(d.rhs, vars) {
		return nil
	}
	defFn := fi.innermost(d.stmt.Pos())
	for _, u := range fi.reads[v] {
		if fi.innermost(u) != defFn || u < d.stmt.End() {
			return nil
		}
		for _, l := range fi.loops {
			if l.Pos() <= u && u < l.End() && !(l.Pos() <= d.stmt.Pos() && d.stmt.Pos() < l.End()) {
				return nil
			}
		}
		for w := range vars {
			if fi.assignedIn(w, d.stmt.End(), u) {
				return nil
			}
		}
	}
	return d
}

// pureVars reports whether e is pure arithmetic over stable local
// variables, adding those variables (and, transitively, those of inlinable
// definitions it uses) to vars.
func (fi *funcInfo) pureVars(e ast.Expr, vars map[*types.Var]bool) bool {
	e = ast.Unparen(e)
	tv, ok := fi.info.Types[e]
	if ok && tv.Value != nil {
		return true
	}
	switch e := e.(type) {
	case *ast.Ident:
		switch obj := fi.info.Uses[e].(type) {
		case *types.Var:
			if !fi.stable(obj) {
				return false
			}
			vars[obj] = true
			if d := fi.inlinable(obj); d != nil {
				return fi.pureVars(d.rhs, vars)
			}
			return true
		case *types.Nil, *types.Const:
			return true
		}
		return false
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT,
			token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
		case token.SHL, token.SHR, token.QUO, token.REM:
			yv := fi.info.Types[e.Y].Value
			if yv == nil || (e.Op != token.SHL && e.Op != token.SHR && constant0(yv)) {
				return false
			}
		default:
			return false
		}
		return fi.pureVars(e.X, vars) && fi.pureVars(e.Y, vars)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB, token.ADD, token.XOR, token.NOT:
			return fi.pureVars(e.X, vars)
		}
		return false
	case *ast.CallExpr:
		if len(e.Args) != 1 || e.Ellipsis.IsValid() {
			return false
		}
		if ftv, ok := fi.info.Types[ast.Unparen(e.Fun)]; ok && ftv.IsType() {
			if _, basic := ftv.Type.Underlying().(*types.Basic); basic {
				at := fi.info.TypeOf(e.Args[0])
				if at == nil {
					return false
				}
				if _, basic := at.Underlying().(*types.Basic); basic {
					return fi.pureVars(e.Args[0], vars)
				}
			}
			return false
		}
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
			if b, ok := fi.info.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
				arg, ok := ast.Unparen(e.Args[0]).(*ast.Ident)
				if !ok {
					return false
				}
				switch fi.info.TypeOf(arg).Underlying().(type) {
				case *types.Slice, *types.Basic, *types.Array:
					return fi.pureVars(arg, vars)
				}
			}
		}
	}
	return false
}

// droppable reports whether s only defines variables whose every use is
// inlined, so that it has no effect once they are.
func (fi *funcInfo) droppable(s ast.Stmt) bool {
	var ids []*ast.Ident
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return false
		}
		for _, l := range s.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				return false
			}
			ids = append(ids, id)
		}
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return false
		}
		for _, sp := range gd.Specs {
			ids = append(ids, sp.(*ast.ValueSpec).Names...)
		}
	default:
		return false
	}
	for _, id := range ids {
		v, ok := fi.info.Defs[id].(*types.Var)
		if !ok || fi.inlinable(v) == nil {
			return false
		}
	}
	return len(ids) > 0
}
