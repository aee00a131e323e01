package heapescape

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/internal/ssaform"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// A constructor may make maps that index a value's other data (entries
// by name, for lookups) and that the value's own methods keep up to date
// but never look up: only the methods of another type holding the same
// kind of value do. Such maps can be made when a lookup first needs
// them. The claim rests on the package's code: every use of the maps'
// fields that the constructor and the type's methods can reach is
// upkeep (an assignment into them, a delete, a clear, their length, or
// a read that only decides whether to delete from them), and some other
// function of the package does look them up.

// lazyMapAdvice returns the change for a map that a constructor-like
// function of the package (one returning a value of a named type T of
// the package) makes and stores in an unexported field of the value it
// returns, directly or in a method of the package inlined there, when
// the package's code reached from the constructor and from T's methods
// only keeps the map up to date and another function of the package
// queries it.
func (fd *finding) lazyMapAdvice() (advice, noFix string) {
	info := fd.pass.TypesInfo
	ctor := fd.declOutsideLits()
	if ctor == nil || ctor.Body == nil {
		return "", ""
	}
	ctorObj, _ := info.Defs[ctor.Name].(*types.Func)
	if ctorObj == nil {
		return "", ""
	}
	var (
		mk     ast.Expr      // the allocation
		maker  *ast.FuncDecl // the function whose code makes it
		base   ast.Expr      // what the maps are stored in, in the constructor
		stores []mapStore    // the maps the maker makes and stores in fields
		named  *types.Named  // the type constructed
		inters []types.Type  // the values from it to the maps' holder
		path   []*types.Var  // the fields that hold them
	)
	if len(fd.rec.InlinedFrom) == 1 {
		// t.init() inlined in the constructor: init stores in t's fields.
		call := callAt(fd.path, fd.rec.TokPos)
		if call == nil {
			return "", ""
		}
		callee := typeutil.StaticCallee(info, call)
		sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if callee == nil || !isSel || callee.Pkg() != fd.pass.Pkg || callee.Type().(*types.Signature).Recv() == nil {
			return "", ""
		}
		maker = fd.declOfFunc(callee.Origin())
		if maker == nil || maker.Body == nil || maker.Recv == nil || len(maker.Recv.List) != 1 || len(maker.Recv.List[0].Names) != 1 {
			return "", ""
		}
		recv := info.Defs[maker.Recv.List[0].Names[0]]
		mk = fd.exprAtPos(fd.rec.InlinedFrom[0])
		if recv == nil || mk == nil || mk.Pos() < maker.Body.Pos() || mk.End() > maker.Body.End() {
			return "", ""
		}
		base = sel.X
		stores = mapStores(info, maker.Body, func(x ast.Expr) bool {
			id, ok := ast.Unparen(x).(*ast.Ident)
			return ok && info.Uses[id] == recv
		})
	} else if len(fd.rec.InlinedFrom) == 0 {
		mk = fd.allocExpr()
		if mk == nil {
			return "", ""
		}
		maker = ctor
		if _, ok := fd.parentOf(mk).(*ast.KeyValueExpr); ok {
			// &T{m: make(...)}, returned or assigned to the result.
			named, inters, path, stores = fd.literalStores(ctor, mk)
		}
		if as, ok := fd.parentOf(mk).(*ast.AssignStmt); ok && named == nil {
			// x.f.m = make(...), x returned.
			for i, r := range as.Rhs {
				if ast.Unparen(r) == mk && i < len(as.Lhs) {
					if s, ok := ast.Unparen(as.Lhs[i]).(*ast.SelectorExpr); ok {
						base = s.X
					}
				}
			}
		}
		if named == nil && base == nil {
			return "", ""
		}
		if named == nil {
			root := rootVar(info, base)
			stores = mapStores(info, ctor.Body, func(x ast.Expr) bool {
				return root != nil && rootVar(info, x) == root
			})
		}
	} else {
		return "", ""
	}
	own := slices.IndexFunc(stores, func(s mapStore) bool { return s.made == mk })
	if own < 0 {
		return "", ""
	}
	if named == nil {
		// The maps must be stored in the value the constructor returns.
		named = returnedNamed(info, ctor, rootVar(info, base))
		var ok bool
		inters, path, ok = pathOf(info, base)
		if !ok {
			return "", ""
		}
	}
	if named == nil {
		return "", ""
	}
	ix := fd.res.lazyIndex(fd)
	if ix == nil || !ix.stayPut(fd, path, inters) {
		// No SSA form, or another value may share the maps' holder.
		return "", ""
	}
	reached := ix.reachFrom(fd, ctorObj, named, inters)
	// The maps that stay candidates: none is queried where reached, where
	// a read deciding the upkeep of another map is a query unless that
	// map is a candidate too. Dropping candidates only adds queries, so
	// the order does not matter.
	group := make(map[*types.Var]bool)
	for _, s := range stores {
		group[s.field] = true
	}
	for changed := true; changed; {
		changed = false
		for f := range group {
			if slices.ContainsFunc(ix.uses[f], func(u mapUse) bool { return u.queries(group) && (u.fn == nil || reached(u.pos)) }) {
				delete(group, f)
				changed = true
			}
		}
	}
	if !group[stores[own].field] {
		return "", ""
	}
	for f := range group {
		if !slices.ContainsFunc(ix.uses[f], func(u mapUse) bool { return u.queries(group) }) {
			// A map nothing queries is another change (delete it),
			// and reads deciding its upkeep assume it made lazily.
			return "", ""
		}
	}
	var names []string
	var queriers, upkeep []*types.Func
	for _, s := range stores {
		if !group[s.field] {
			continue
		}
		names = append(names, s.text)
		for _, u := range ix.uses[s.field] {
			if u.fn == nil {
				continue
			}
			if u.queries(group) {
				queriers = append(queriers, u.fn)
			} else if u.fn != ctorObj && u.fn.Pos() != maker.Name.Pos() {
				upkeep = append(upkeep, u.fn)
			}
		}
	}
	byPos := func(a, b *types.Func) int { return int(a.Pos() - b.Pos()) }
	slices.SortFunc(queriers, byPos)
	queriers = slices.Compact(queriers)
	slices.SortFunc(upkeep, byPos)
	upkeep = slices.Compact(upkeep)
	upkeep = slices.DeleteFunc(upkeep, func(f *types.Func) bool { return slices.Contains(queriers, f) })
	fnNames := func(fns []*types.Func, and string) string {
		var s []string
		for _, f := range fns {
			s = append(s, fd.funcName(f))
		}
		return joinList(s, and)
	}
	typ := named.Obj().Name()
	them, are, its, theAllocs, none := "it", "is", "its", "the allocation", "which no method of "+typ+" reaches"
	subject := "the map " + names[0]
	if len(names) > 1 {
		them, are, its, theAllocs = "them", "are", "their", "the allocations"
		subject = "the maps " + joinList(names, "and")
	}
	if len(queriers) > 1 {
		none = "none of which a method of " + typ + " reaches"
	}
	var skip string
	if len(upkeep) > 0 {
		skip = fmt.Sprintf(", skipping %s upkeep in %s while %s nil", its, fnNames(upkeep, "and"), map[bool]string{true: "it is", false: "they are"}[len(names) == 1])
	}
	advice = fmt.Sprintf("%s made here %s only queried by %s, %s: make %s when %s first needs %s%s, which saves %s for every %s",
		subject, are, fnNames(queriers, "and"), none, them, fnNames(queriers, "or"), them, skip, theAllocs, typ)
	noFix = "making the maps lazily changes their upkeep, which is left to the author"
	if len(names) == 1 {
		noFix = "making the map lazily changes its upkeep, which is left to the author"
	}
	return advice, noFix
}

// literalStores returns, for a map mk made as the value of a field in a
// keyed composite literal (nested in others, or under &) that the
// constructor decl returns or assigns to a variable it returns, the type
// of the outermost literal, the types of the literals inside it that hold
// mk, and the maps made in keyed fields of all of them; nil if mk is not
// such a map.
func (fd *finding) literalStores(decl *ast.FuncDecl, mk ast.Expr) (*types.Named, []types.Type, []*types.Var, []mapStore) {
	info := fd.pass.TypesInfo
	c, ok := fd.find.FindNode(mk)
	if !ok {
		return nil, nil, nil, nil
	}
	var lits []*ast.CompositeLit // from mk's out
	var path []*types.Var        // the fields holding the inner literals
	var v *types.Var             // the variable it is assigned to
	addr := false                // the last literal is under &
	for done := false; !done; {
		child, p := unparenParent(c)
		switch n := p.Node().(type) {
		case *ast.KeyValueExpr:
			lit, ok := p.Parent().Node().(*ast.CompositeLit)
			if !ok || n.Value != child.Node() || addr {
				return nil, nil, nil, nil // a pointer on the way
			}
			if _, isStruct := info.TypeOf(lit).Underlying().(*types.Struct); !isStruct {
				return nil, nil, nil, nil
			}
			if len(lits) > 0 {
				key, _ := n.Key.(*ast.Ident)
				f, _ := info.Uses[key].(*types.Var)
				if f == nil {
					return nil, nil, nil, nil
				}
				path = append(path, f.Origin())
			}
			lits = append(lits, lit)
			c = p.Parent()
		case *ast.UnaryExpr:
			if n.Op != token.AND || len(lits) == 0 {
				return nil, nil, nil, nil
			}
			addr = true
			c = p
		case *ast.ReturnStmt:
			done = true
		case *ast.AssignStmt:
			i := slices.IndexFunc(n.Rhs, func(r ast.Expr) bool { return r == child.Node() })
			if i < 0 || len(n.Lhs) != len(n.Rhs) {
				return nil, nil, nil, nil
			}
			id, _ := n.Lhs[i].(*ast.Ident)
			if id == nil {
				return nil, nil, nil, nil
			}
			v, _ = info.ObjectOf(id).(*types.Var)
			if v == nil {
				return nil, nil, nil, nil
			}
			done = true
		default:
			return nil, nil, nil, nil
		}
	}
	if len(lits) == 0 {
		return nil, nil, nil, nil
	}
	outer := lits[len(lits)-1]
	named, _ := types.Unalias(info.TypeOf(outer)).(*types.Named)
	if named == nil || named.Obj().Pkg() != fd.pass.Pkg {
		return nil, nil, nil, nil
	}
	if v != nil && returnedNamed(info, decl, v) != named {
		return nil, nil, nil, nil
	}
	var inters []types.Type
	for _, l := range lits[:len(lits)-1] {
		inters = append(inters, info.TypeOf(l))
	}
	prefix := ""
	if v != nil {
		prefix = v.Name() + "."
	}
	var stores []mapStore
	var walk func(lit *ast.CompositeLit, path string)
	walk = func(lit *ast.CompositeLit, path string) {
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			key, _ := kv.Key.(*ast.Ident)
			f, _ := info.Uses[key].(*types.Var)
			if key == nil || f == nil || !f.IsField() {
				continue
			}
			f = f.Origin() // the field of a generic type, not of an instance
			val := ast.Unparen(kv.Value)
			if u, ok := val.(*ast.UnaryExpr); ok && u.Op == token.AND {
				val = ast.Unparen(u.X)
			}
			if _, isMap := f.Type().Underlying().(*types.Map); isMap && !f.Exported() && makesMap(info, ast.Unparen(kv.Value)) {
				stores = append(stores, mapStore{made: ast.Unparen(kv.Value), field: f, text: path + f.Name()})
			} else if inner, ok := val.(*ast.CompositeLit); ok {
				if _, isStruct := info.TypeOf(inner).Underlying().(*types.Struct); isStruct {
					walk(inner, path+f.Name()+".")
				}
			}
		}
	}
	walk(outer, prefix)
	return named, inters, path, stores
}

// joinList joins "a", "b", "c" as "a, b and c" (or "or").
func joinList(s []string, and string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + and + " " + s[len(s)-1]
}

// A mapStore is a map that a function makes and stores in a field.
type mapStore struct {
	made  ast.Expr   // make(map[K]V) or a map literal
	field *types.Var // the field, unexported
	text  string     // where it is stored: "t.byName"
}

// mapStores returns the maps that body makes and stores in unexported
// map fields of the package selected from an expression base accepts,
// in the order of the source.
func mapStores(info *types.Info, body *ast.BlockStmt, base func(ast.Expr) bool) []mapStore {
	var stores []mapStore
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) || n.Tok != token.ASSIGN {
				return true
			}
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok || !base(sel.X) {
					continue
				}
				f := mapField(info, sel)
				r := ast.Unparen(n.Rhs[i])
				if f != nil && makesMap(info, r) {
					stores = append(stores, mapStore{made: r, field: f, text: types.ExprString(sel)})
				}
			}
		}
		return true
	})
	return stores
}

// mapField returns the field sel selects if it is an unexported field
// of map type, or nil.
func mapField(info *types.Info, sel *ast.SelectorExpr) *types.Var {
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil
	}
	f, _ := s.Obj().(*types.Var)
	if f == nil || f.Exported() {
		return nil
	}
	f = f.Origin() // the field of a generic type, not of an instance
	if _, ok := f.Type().Underlying().(*types.Map); !ok {
		return nil
	}
	return f
}

// makesMap reports whether e is make(map[K]V, ...) or a map literal.
func makesMap(info *types.Info, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.CallExpr:
		if !syntax.IsBuiltin(info, e.Fun, "make") {
			return false
		}
	case *ast.CompositeLit:
	default:
		return false
	}
	_, ok := info.TypeOf(e).Underlying().(*types.Map)
	return ok
}

// rootVar returns the variable a selection of fields starts from (d in
// d.dyn.table or &d.dyn.table), or nil.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil
			}
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			if s, ok := info.Selections[x]; !ok || s.Kind() != types.FieldVal {
				return nil
			}
			e = x.X
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			return v
		default:
			return nil
		}
	}
}

// pathOf returns the types of the values a selection of fields passes
// through below its root variable, and the fields: dynamicTable and
// headerFieldTable, dynTab and table for d.dynTab.table. It is false if a
// field is a pointer, which other values may share.
func pathOf(info *types.Info, e ast.Expr) ([]types.Type, []*types.Var, bool) {
	var ts []types.Type
	var fs []*types.Var
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			s, ok := info.Selections[x]
			if !ok || s.Kind() != types.FieldVal {
				return nil, nil, false
			}
			f := s.Obj().(*types.Var)
			if _, isPtr := f.Type().Underlying().(*types.Pointer); isPtr {
				return nil, nil, false
			}
			ts = append(ts, info.TypeOf(x))
			fs = append(fs, f.Origin())
			e = x.X
		case *ast.Ident:
			return ts, fs, true
		default:
			return nil, nil, false
		}
	}
}

// returnedNamed returns the named type T of the package, a struct, such
// that v, a local variable of decl of type T or *T, is returned by one
// of decl's return statements; nil if there is none.
func returnedNamed(info *types.Info, decl *ast.FuncDecl, v *types.Var) *types.Named {
	if v == nil || v.Pos() < decl.Pos() || v.Pos() >= decl.End() {
		return nil
	}
	t := types.Unalias(v.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() != v.Pkg() {
		return nil
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return nil
	}
	returned := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if id, ok := ast.Unparen(r).(*ast.Ident); ok && info.Uses[id] == v {
					returned = true
				}
			}
		}
		return !returned
	})
	if !returned {
		return nil
	}
	return named
}

// A mapUse is a use of a map field's value in the package's code.
type mapUse struct {
	pos token.Pos
	fn  *types.Func // the function declaration it is in; nil outside any
	// query says that the use looks the map up or lets its value out;
	// otherwise it keeps the map up to date.
	query bool
	// guards are the map fields whose upkeep a read decides (if
	// m[k] == id { delete(m, k) }): the read is upkeep only if they
	// are all made lazily too.
	guards []*types.Var
}

// queries reports whether u is a query when the fields of lazy are
// made lazily.
func (u mapUse) queries(lazy map[*types.Var]bool) bool {
	if u.query {
		return true
	}
	for _, g := range u.guards {
		if !lazy[g] {
			return true
		}
	}
	return false
}

// A lazyIndex is what lazyMapAdvice knows of a package, computed once
// per pass: the uses of its map fields and its call graph.
type lazyIndex struct {
	uses    map[*types.Var][]mapUse
	decls   []lazyDecl
	fnOf    map[*types.Func]*ssa.Function // of the package's declarations
	methods map[string][]*ssa.Function    // the package's methods, by name
	// taken are the package's functions used as values (closures,
	// method values, functions assigned or passed): a call of a
	// function value may call any of them.
	taken []*ssa.Function
	succs map[*ssa.Function]lazySuccs
	reach map[string]func(token.Pos) bool // by the roots it is from
	// kept says whether the package lets a value of a field (of a type
	// of the package, as receiver) out of it: stayPut's answers.
	kept map[types.Object]bool
}

// A lazyDecl is a function declaration of the package, outside its tests.
type lazyDecl struct {
	decl  *ast.FuncDecl
	obj   *types.Func
	fn    *ssa.Function
	types map[types.Type]bool // of its expressions
}

// lazySuccs are the functions a function may call or let others call.
type lazySuccs struct {
	fns     []*ssa.Function
	dynamic bool // it calls a function value
}

// lazyIndex returns the pass's lazyIndex, computing it on first use; nil
// if the package has no SSA form.
func (r *resolver) lazyIndex(fd *finding) *lazyIndex {
	if r.lazy != nil {
		return r.lazy
	}
	form, _ := fd.pass.ResultOf[ssaform.Analyzer].(*ssaform.Package)
	if form == nil {
		return nil
	}
	info := fd.pass.TypesInfo
	ix := &lazyIndex{
		uses:    make(map[*types.Var][]mapUse),
		fnOf:    make(map[*types.Func]*ssa.Function),
		methods: make(map[string][]*ssa.Function),
		succs:   make(map[*ssa.Function]lazySuccs),
		reach:   make(map[string]func(token.Pos) bool),
		kept:    make(map[types.Object]bool),
	}
	var all []*ssa.Function
	var addAll func(fn *ssa.Function)
	addAll = func(fn *ssa.Function) {
		all = append(all, fn)
		for _, a := range fn.AnonFuncs {
			addAll(a)
		}
	}
	for _, f := range fd.pass.Files {
		if strings.HasSuffix(fd.pass.Fset.File(f.FileStart).Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, _ := info.Defs[decl.Name].(*types.Func)
			fn := form.Func(decl)
			if obj == nil || fn == nil {
				continue
			}
			ld := lazyDecl{decl: decl, obj: obj, fn: fn, types: make(map[types.Type]bool)}
			ast.Inspect(decl, func(n ast.Node) bool {
				if e, ok := n.(ast.Expr); ok {
					if t := info.TypeOf(e); t != nil {
						ld.types[t] = true
					}
				}
				return true
			})
			ix.decls = append(ix.decls, ld)
			ix.fnOf[obj] = fn
			if decl.Recv != nil {
				ix.methods[obj.Name()] = append(ix.methods[obj.Name()], fn)
			}
			addAll(fn)
		}
	}
	if len(ix.decls) > 0 {
		if init := ix.decls[0].fn.Pkg.Func("init"); init != nil {
			addAll(init)
		}
	}
	// The functions used as values, anywhere in the package.
	seen := make(map[*ssa.Function]bool)
	for _, fn := range all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				if c, ok := instr.(ssa.CallInstruction); ok && c.Common().StaticCallee() != nil {
					callee = c.Common().Value
				}
				for _, op := range instr.Operands(nil) {
					if f, ok := (*op).(*ssa.Function); ok && *op != callee && !seen[f] {
						seen[f] = true
						ix.taken = append(ix.taken, f)
					}
				}
			}
		}
	}
	// The uses of the package's map fields.
	for c := range fd.find.Root().Preorder((*ast.SelectorExpr)(nil)) {
		sel := c.Node().(*ast.SelectorExpr)
		s, ok := info.Selections[sel]
		if !ok || s.Kind() != types.FieldVal || s.Obj().Pkg() != fd.pass.Pkg {
			continue
		}
		f := s.Obj().(*types.Var).Origin()
		if _, isMap := f.Type().Underlying().(*types.Map); !isMap {
			continue
		}
		if strings.HasSuffix(fd.pass.Fset.File(sel.Pos()).Name(), "_test.go") {
			continue
		}
		u, ok := classifyMapUse(info, c)
		if !ok {
			continue // a store of the field, not a use of its map
		}
		for d := range c.Enclosing((*ast.FuncDecl)(nil)) {
			u.fn, _ = info.Defs[d.Node().(*ast.FuncDecl).Name].(*types.Func)
		}
		ix.uses[f] = append(ix.uses[f], u)
	}
	r.lazy = ix
	return ix
}

// classifyMapUse classifies the use of the map field that c, a
// selection, selects; false if it is the target of an assignment.
func classifyMapUse(info *types.Info, c inspector.Cursor) (mapUse, bool) {
	u := mapUse{pos: c.Node().Pos()}
	child, p := unparenParent(c)
	switch n := p.Node().(type) {
	case *ast.AssignStmt:
		if slices.ContainsFunc(n.Lhs, func(l ast.Expr) bool { return ast.Unparen(l) == child.Node() }) {
			return u, false
		}
	case *ast.CallExpr:
		if len(n.Args) > 0 && ast.Unparen(n.Args[0]) == child.Node() &&
			(syntax.IsBuiltin(info, n.Fun, "delete") || syntax.IsBuiltin(info, n.Fun, "clear") || syntax.IsBuiltin(info, n.Fun, "len")) {
			return u, true
		}
	case *ast.IndexExpr:
		if ast.Unparen(n.X) != child.Node() {
			break
		}
		idx, q := unparenParent(p)
		switch st := q.Node().(type) {
		case *ast.AssignStmt:
			if slices.ContainsFunc(st.Lhs, func(l ast.Expr) bool { return ast.Unparen(l) == idx.Node() }) {
				return u, true // m[k] = v
			}
		case *ast.IncDecStmt:
			return u, true // m[k]++
		}
		if guards, ok := guardedRead(info, p); ok {
			u.guards = guards
			return u, true
		}
	}
	u.query = true
	return u, true
}

// unparenParent returns the outermost of the parentheses around c's node
// (c itself if there are none) and the node above them.
func unparenParent(c inspector.Cursor) (child, parent inspector.Cursor) {
	child = c
	for {
		parent = child.Parent()
		if _, ok := parent.Node().(*ast.ParenExpr); !ok {
			return child, parent
		}
		child = parent
	}
}

// guardedRead reports whether the map read m[k] at c decides only
// whether the body of an if statement runs that only keeps map fields up
// to date, and returns those fields: if m[k] == id { delete(m, k) }, or
// if v, ok := m[k]; ok && v == id { ... }.
func guardedRead(info *types.Info, c inspector.Cursor) ([]*types.Var, bool) {
	var ifs *ast.IfStmt
	child, p := unparenParent(c)
	if as, ok := p.Node().(*ast.AssignStmt); ok {
		// if v := m[k]; v == id { ... }: v is used in the condition only.
		st, ok := p.Parent().Node().(*ast.IfStmt)
		if !ok || st.Init != as || as.Tok != token.DEFINE || len(as.Rhs) != 1 {
			return nil, false
		}
		ifs = st
		ifCur := p.Parent()
		for _, l := range as.Lhs {
			id, _ := l.(*ast.Ident)
			if id == nil {
				return nil, false
			}
			v := info.Defs[id]
			if v == nil {
				continue // _
			}
			for ic := range ifCur.Preorder((*ast.Ident)(nil)) {
				if info.Uses[ic.Node().(*ast.Ident)] == v && !inCondOnly(ic, st) {
					return nil, false
				}
			}
		}
	} else {
		if !inCondOnly(c, nil) {
			return nil, false
		}
		for a := range child.Enclosing((*ast.IfStmt)(nil)) {
			ifs = a.Node().(*ast.IfStmt)
			break
		}
	}
	if ifs == nil || ifs.Else != nil || len(ifs.Body.List) == 0 {
		return nil, false
	}
	var fields []*types.Var
	for _, st := range ifs.Body.List {
		fs, ok := upkeepStmt(info, st)
		if !ok {
			return nil, false
		}
		fields = append(fields, fs...)
	}
	return fields, true
}

// inCondOnly reports whether the value of c's expression flows only
// through operators into the condition of an if statement (st, if not
// nil).
func inCondOnly(c inspector.Cursor, st *ast.IfStmt) bool {
	for {
		p := c.Parent()
		switch n := p.Node().(type) {
		case *ast.ParenExpr, *ast.BinaryExpr:
		case *ast.UnaryExpr:
			if n.Op == token.AND || n.Op == token.ARROW {
				return false
			}
		case *ast.IfStmt:
			return n.Cond == c.Node() && (st == nil || n == st)
		default:
			return false
		}
		c = p
	}
}

// upkeepStmt reports whether st only keeps map fields up to date
// (delete(m, k), clear(m), m[k] = v, m[k]++ with operands that call
// nothing), and returns the fields.
func upkeepStmt(info *types.Info, st ast.Stmt) ([]*types.Var, bool) {
	field := func(e ast.Expr) *types.Var {
		if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
			if s, ok := info.Selections[sel]; ok && s.Kind() == types.FieldVal {
				if f, ok := s.Obj().(*types.Var); ok {
					if _, isMap := f.Type().Underlying().(*types.Map); isMap {
						return f.Origin()
					}
				}
			}
		}
		return nil
	}
	index := func(e ast.Expr) *types.Var {
		if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok && callsNothing(info, ix.Index) {
			return field(ix.X)
		}
		return nil
	}
	switch st := st.(type) {
	case *ast.ExprStmt:
		call, ok := ast.Unparen(st.X).(*ast.CallExpr)
		if !ok || len(call.Args) == 0 || !syntax.IsBuiltin(info, call.Fun, "delete") && !syntax.IsBuiltin(info, call.Fun, "clear") {
			return nil, false
		}
		f := field(call.Args[0])
		if f == nil || slices.ContainsFunc(call.Args[1:], func(a ast.Expr) bool { return !callsNothing(info, a) }) {
			return nil, false
		}
		return []*types.Var{f}, true
	case *ast.AssignStmt:
		var fs []*types.Var
		for _, l := range st.Lhs {
			f := index(l)
			if f == nil {
				return nil, false
			}
			fs = append(fs, f)
		}
		for _, r := range st.Rhs {
			if !callsNothing(info, r) {
				return nil, false
			}
		}
		return fs, true
	case *ast.IncDecStmt:
		f := index(st.X)
		return []*types.Var{f}, f != nil
	}
	return nil, false
}

// callsNothing reports whether e calls no function (conversions and len
// aside).
func callsNothing(info *types.Info, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if call, isCall := n.(*ast.CallExpr); isCall && !info.Types[call.Fun].IsType() && !syntax.IsBuiltin(info, call.Fun, "len") {
			ok = false
		}
		return ok
	})
	return ok
}

// reachFrom returns whether a position is in code of the package that
// may run from the constructor ctor, from a method of T, from a function
// with a value of T (or of a type embedding it), or, for each type of
// inters (the values between T and the maps' holder), from an exported
// method of it or an exported function taking it: the code that may see
// T's maps.
func (ix *lazyIndex) reachFrom(fd *finding, ctor *types.Func, t *types.Named, inters []types.Type) func(token.Pos) bool {
	key := ctor.FullName() + ";" + types.TypeString(t, nil)
	for _, it := range inters {
		key += ";" + types.TypeString(it, nil)
	}
	if r, ok := ix.reach[key]; ok {
		return r
	}
	var roots []*ssa.Function
	addMethods := func(t types.Type, exportedOnly bool) {
		if _, isPtr := t.(*types.Pointer); !isPtr {
			t = types.NewPointer(t)
		}
		mset := types.NewMethodSet(t)
		for i := range mset.Len() {
			m, _ := mset.At(i).Obj().(*types.Func)
			if m != nil && m.Pkg() == fd.pass.Pkg && (!exportedOnly || m.Exported()) {
				if fn := ix.fnOf[m.Origin()]; fn != nil {
					roots = append(roots, fn)
				}
			}
		}
	}
	if fn := ix.fnOf[ctor]; fn != nil {
		roots = append(roots, fn)
	}
	addMethods(t, false)
	has := make(map[types.Type]bool)
	for _, d := range ix.decls {
		for et := range d.types {
			h, ok := has[et]
			if !ok {
				h = holds(et, t, 0)
				has[et] = h
			}
			if h {
				roots = append(roots, d.fn)
				break
			}
		}
	}
	for _, it := range inters {
		if it == nil {
			continue
		}
		addMethods(it, true)
		for _, d := range ix.decls {
			sig := d.obj.Type().(*types.Signature)
			if !d.obj.Exported() || sig.Recv() != nil {
				continue
			}
			for v := range sig.Params().Variables() {
				if holds(v.Type(), it, 0) {
					roots = append(roots, d.fn)
					break
				}
			}
		}
	}
	// Every function reached, and the source it is of.
	seen := make(map[*ssa.Function]bool)
	var spans [][2]token.Pos
	takenAdded := false
	queue := roots
	for len(queue) > 0 {
		fn := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[fn] {
			continue
		}
		seen[fn] = true
		if syn := fn.Syntax(); syn != nil {
			spans = append(spans, [2]token.Pos{syn.Pos(), syn.End()})
		}
		s := ix.succsOf(fd, fn)
		queue = append(queue, s.fns...)
		if s.dynamic && !takenAdded {
			takenAdded = true
			queue = append(queue, ix.taken...)
		}
	}
	r := func(pos token.Pos) bool {
		return slices.ContainsFunc(spans, func(s [2]token.Pos) bool { return s[0] <= pos && pos < s[1] })
	}
	ix.reach[key] = r
	return r
}

// holds reports whether a value of type v is a T, a pointer to one, or
// holds one as an embedded field (whose fields it then selects as its
// own).
func holds(v, t types.Type, depth int) bool {
	v, t = deref(v), deref(t)
	if types.Identical(v, t) {
		return true
	}
	if vn, ok := v.(*types.Named); ok {
		if tn, ok := t.(*types.Named); ok && vn.Origin() == tn.Origin() {
			return true // another instance of the generic type
		}
	}
	st, ok := v.Underlying().(*types.Struct)
	if !ok || depth > 4 {
		return false
	}
	for f := range st.Fields() {
		if f.Embedded() && holds(f.Type(), t, depth+1) {
			return true
		}
	}
	return false
}

// deref returns the type t points to, if it is a pointer, else t.
func deref(t types.Type) types.Type {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		return types.Unalias(p.Elem())
	}
	return t
}

// succsOf returns the functions fn may call (statically, through an
// interface, by any method of the package of the name) or hand to
// others (function values, closures, the methods of values it converts
// to interfaces), and whether it calls a function value.
func (ix *lazyIndex) succsOf(fd *finding, fn *ssa.Function) lazySuccs {
	if s, ok := ix.succs[fn]; ok {
		return s
	}
	var s lazySuccs
	add := func(f *ssa.Function) {
		if f != nil {
			s.fns = append(s.fns, f)
			if o := f.Origin(); o != nil {
				s.fns = append(s.fns, o)
			}
		}
	}
	for _, a := range fn.AnonFuncs {
		add(a)
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				common := c.Common()
				if common.IsInvoke() {
					s.fns = append(s.fns, ix.methods[common.Method.Name()]...)
				} else if _, builtin := common.Value.(*ssa.Builtin); !builtin && common.StaticCallee() == nil {
					s.dynamic = true
				}
			}
			if mi, ok := instr.(*ssa.MakeInterface); ok {
				mset := types.NewMethodSet(mi.X.Type())
				for i := range mset.Len() {
					if m, ok := mset.At(i).Obj().(*types.Func); ok && m.Pkg() == fd.pass.Pkg {
						add(ix.fnOf[m.Origin()])
					}
				}
			}
			for _, op := range instr.Operands(nil) {
				if f, ok := (*op).(*ssa.Function); ok {
					add(f)
				}
			}
		}
	}
	ix.succs[fn] = s
	return s
}

// stayPut reports whether the values on the way from the constructed
// value to the maps' holder cannot be shared with other values: no code
// of the package lets one of the fields of path out (it only selects from
// it, compares it, copies it to a local variable that it only selects
// from, or assigns it a composite literal), and no method of the types
// of inters (the holder's among them) lets its receiver out.
func (ix *lazyIndex) stayPut(fd *finding, path []*types.Var, inters []types.Type) bool {
	for _, f := range path {
		kept, ok := ix.kept[f]
		if !ok {
			kept = true
			for c := range fd.find.Root().Preorder((*ast.SelectorExpr)(nil), (*ast.KeyValueExpr)(nil)) {
				if strings.HasSuffix(fd.pass.Fset.File(c.Node().Pos()).Name(), "_test.go") {
					continue
				}
				if !fd.staysPut(c, f) {
					kept = false
					break
				}
			}
			ix.kept[f] = kept
		}
		if !kept {
			return false
		}
	}
	info := fd.pass.TypesInfo
	for _, t := range inters {
		named, _ := deref(t).(*types.Named)
		if named == nil || named.Obj().Pkg() != fd.pass.Pkg {
			return false
		}
		obj := named.Origin().Obj()
		kept, ok := ix.kept[obj]
		if !ok {
			kept = true
			for _, d := range ix.decls {
				recv := d.obj.Type().(*types.Signature).Recv()
				rn, _ := deref(recvType(recv)).(*types.Named)
				if rn == nil || rn.Origin().Obj() != obj || d.decl.Body == nil {
					continue
				}
				body, ok := fd.find.FindNode(d.decl.Body)
				if !ok {
					kept = false
					break
				}
				for c := range body.Preorder((*ast.Ident)(nil)) {
					if info.Uses[c.Node().(*ast.Ident)] == recv && !fd.staysPut(c, nil) {
						kept = false
						break
					}
				}
			}
			ix.kept[obj] = kept
		}
		if !kept {
			return false
		}
	}
	return true
}

// recvType returns the type of the receiver recv, or nil.
func recvType(recv *types.Var) types.Type {
	if recv == nil {
		return nil
	}
	return recv.Type()
}

// staysPut reports whether the use at c does not let the value out: for
// a field f, c is a selection of f or a keyed literal element setting
// it (other nodes are no use of it); for a nil f, c is the use of a
// receiver.
func (fd *finding) staysPut(c inspector.Cursor, f *types.Var) bool {
	info := fd.pass.TypesInfo
	if f != nil {
		switch n := c.Node().(type) {
		case *ast.KeyValueExpr:
			key, _ := n.Key.(*ast.Ident)
			if key == nil {
				return true
			}
			kf, _ := info.Uses[key].(*types.Var)
			if kf == nil || kf.Origin() != f {
				return true
			}
			_, fresh := ast.Unparen(n.Value).(*ast.CompositeLit)
			return fresh
		case *ast.SelectorExpr:
			s, ok := info.Selections[n]
			if !ok || s.Kind() != types.FieldVal || s.Obj().(*types.Var).Origin() != f {
				return true
			}
		}
	}
	child, p := unparenParent(c)
	switch n := p.Node().(type) {
	case *ast.SelectorExpr:
		return n.X == child.Node() // x.f.g, x.f.m()
	case *ast.BinaryExpr:
		return n.Op == token.EQL || n.Op == token.NEQ
	case *ast.StarExpr:
		return fd.staysPut(p, nil) // *t, for a pointer receiver
	case *ast.UnaryExpr:
		// (&x.f).m()
		_, pp := unparenParent(p)
		sel, ok := pp.Node().(*ast.SelectorExpr)
		return n.Op == token.AND && ok && ast.Unparen(sel.X) == p.Node()
	case *ast.AssignStmt:
		if i := slices.IndexFunc(n.Lhs, func(l ast.Expr) bool { return ast.Unparen(l) == child.Node() }); i >= 0 {
			// Assigned to: only a new value.
			if len(n.Lhs) != len(n.Rhs) {
				return false
			}
			_, fresh := ast.Unparen(n.Rhs[i]).(*ast.CompositeLit)
			return fresh
		}
		// v := x.f, v only selected from.
		i := slices.IndexFunc(n.Rhs, func(r ast.Expr) bool { return ast.Unparen(r) == child.Node() })
		if i < 0 || len(n.Lhs) != len(n.Rhs) || n.Tok != token.DEFINE {
			return false
		}
		id, _ := n.Lhs[i].(*ast.Ident)
		v := info.Defs[id]
		if v == nil {
			return id != nil && id.Name == "_"
		}
		var fn inspector.Cursor
		for e := range c.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
			fn = e
			break
		}
		if fn.Node() == nil {
			return false
		}
		for u := range fn.Preorder((*ast.Ident)(nil)) {
			if info.Uses[u.Node().(*ast.Ident)] != v {
				continue
			}
			_, up := unparenParent(u)
			if sel, ok := up.Node().(*ast.SelectorExpr); !ok || ast.Unparen(sel.X) != u.Node() {
				return false
			}
		}
		return true
	}
	return false
}
