package optional

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// How a type holds the struct.
type reach int

const (
	byValue reach = iota // in its memory: the struct, an array or struct of it
	deep                 // also behind pointers, slices, maps and channels
	api                  // also through function signatures and methods
)

// holds reports whether a value of type t holds a value of the struct s,
// as mode says.
func holds(t types.Type, s *types.Named, mode reach) bool {
	return holdsSeen(t, s, mode, make(map[types.Type]bool))
}

func holdsSeen(t types.Type, s *types.Named, mode reach, seen map[types.Type]bool) bool {
	if t == nil {
		return false
	}
	t = types.Unalias(t)
	if types.Identical(t, s) {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.(type) {
	case *types.Named:
		for i := 0; i < u.TypeArgs().Len(); i++ {
			if mode != byValue && holdsSeen(u.TypeArgs().At(i), s, mode, seen) {
				return true
			}
		}
		if mode == api && u.Obj().Pkg() == s.Obj().Pkg() {
			for i := 0; i < u.NumMethods(); i++ {
				if m := u.Method(i); m.Exported() && holdsSeen(m.Type(), s, mode, seen) {
					return true
				}
			}
		}
		return holdsSeen(u.Underlying(), s, mode, seen)
	case *types.Array:
		return holdsSeen(u.Elem(), s, mode, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsSeen(u.Field(i).Type(), s, mode, seen) {
				return true
			}
		}
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if holdsSeen(u.At(i).Type(), s, mode, seen) {
				return true
			}
		}
	}
	if mode == byValue {
		return false
	}
	switch u := t.(type) {
	case *types.Pointer:
		return holdsSeen(u.Elem(), s, mode, seen)
	case *types.Slice:
		return holdsSeen(u.Elem(), s, mode, seen)
	case *types.Map:
		return holdsSeen(u.Key(), s, mode, seen) || holdsSeen(u.Elem(), s, mode, seen)
	case *types.Chan:
		return holdsSeen(u.Elem(), s, mode, seen)
	case *types.Signature:
		return mode == api && (holdsSeen(u.Params(), s, mode, seen) || holdsSeen(u.Results(), s, mode, seen))
	case *types.Interface:
		if mode == api {
			for i := 0; i < u.NumMethods(); i++ {
				if m := u.Method(i); m.Exported() && holdsSeen(m.Type(), s, mode, seen) {
					return true
				}
			}
		}
	}
	return false
}

// mismatch reports whether converting or assigning a value of type from
// to type to would stop compiling once the struct s changes: at some level
// of the two types, one is s and the other is not.
func mismatch(to, from types.Type, s *types.Named) bool {
	to, from = types.Unalias(to), types.Unalias(from)
	if types.Identical(to, from) {
		return false
	}
	if types.Identical(to, s) || types.Identical(from, s) {
		return true
	}
	a, b := to.Underlying(), from.Underlying()
	switch x := a.(type) {
	case *types.Pointer:
		if y, ok := b.(*types.Pointer); ok {
			return mismatch(x.Elem(), y.Elem(), s)
		}
	case *types.Slice:
		if y, ok := b.(*types.Slice); ok {
			return mismatch(x.Elem(), y.Elem(), s)
		}
	case *types.Array:
		if y, ok := b.(*types.Array); ok {
			return mismatch(x.Elem(), y.Elem(), s)
		}
	case *types.Map:
		if y, ok := b.(*types.Map); ok {
			return mismatch(x.Key(), y.Key(), s) || mismatch(x.Elem(), y.Elem(), s)
		}
	case *types.Chan:
		if y, ok := b.(*types.Chan); ok {
			return mismatch(x.Elem(), y.Elem(), s)
		}
	case *types.Struct:
		if y, ok := b.(*types.Struct); ok && x.NumFields() == y.NumFields() {
			for i := 0; i < x.NumFields(); i++ {
				if mismatch(x.Field(i).Type(), y.Field(i).Type(), s) {
					return true
				}
			}
		}
	}
	return false
}

// structWhy says why the layout of the struct s cannot change without a
// change of behaviour the fix cannot see to, or returns "". The answer is
// computed once per struct.
func (c *checker) structWhy(s *types.Named) string {
	if why, ok := c.structs[s]; ok {
		return why
	}
	why := c.scanStruct(s)
	c.structs[s] = why
	return why
}

// scanStruct looks at every place of the package where a value holding s
// could be compared, converted, put in an interface, reflected on or
// given to unsafe.
func (c *checker) scanStruct(s *types.Named) string {
	sc := &scan{c: c, s: s, name: s.Obj().Name()}
	c.insp.WithStack(nil, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push || sc.why != "" {
			return sc.why == ""
		}
		sc.node(n, stack)
		return sc.why == ""
	})
	if sc.why != "" {
		return sc.why
	}
	// Map keys and type arguments anywhere, reported at the first.
	first := token.NoPos
	var what string
	for e, tv := range c.pass.TypesInfo.Types {
		if tv.Type == nil {
			continue
		}
		if m, ok := tv.Type.Underlying().(*types.Map); ok && holds(m.Key(), s, byValue) && (first == token.NoPos || e.Pos() < first) {
			first, what = e.Pos(), fmt.Sprintf("%s is in a map key at", sc.name)
		}
	}
	for id, inst := range c.pass.TypesInfo.Instances {
		for i := 0; i < inst.TypeArgs.Len(); i++ {
			if holds(inst.TypeArgs.At(i), s, deep) && (first == token.NoPos || id.Pos() < first) {
				first, what = id.Pos(), fmt.Sprintf("a type argument holds %s at", sc.name)
			}
		}
	}
	if first != token.NoPos {
		return fmt.Sprintf("%s %s", what, c.where(first))
	}
	return ""
}

// A scan looks for the uses of a struct that its change could affect.
type scan struct {
	c    *checker
	s    *types.Named
	name string
	why  string
}

func (sc *scan) typeOf(e ast.Expr) types.Type { return sc.c.pass.TypesInfo.TypeOf(e) }

func (sc *scan) fail(format string, n ast.Node, args ...any) {
	if sc.why == "" {
		sc.why = fmt.Sprintf(format, append(args, sc.c.where(n.Pos()))...)
	}
}

// assign checks a value of type from given where a value of type to is
// expected (an assignment, an argument, a result, an element).
func (sc *scan) assign(to, from types.Type, at ast.Node) {
	if to == nil || from == nil {
		return
	}
	if tt, ok := to.(*types.Tuple); ok {
		if ft, ok := from.(*types.Tuple); ok && tt.Len() == ft.Len() {
			for i := 0; i < tt.Len(); i++ {
				sc.assign(tt.At(i).Type(), ft.At(i).Type(), at)
			}
		}
		return
	}
	if b, ok := from.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return
	}
	if types.IsInterface(to) {
		sc.boxed(to, from, at)
		return
	}
	if mismatch(to, from, sc.s) {
		sc.fail("a value holding %s is assigned to %s at %s", at, sc.name, types.TypeString(to, syntax.NameQualifier(sc.c.pass.Pkg)))
	}
}

// boxed checks a value of type from converted to the interface (or type
// parameter) to: reflection on an empty interface could see the field,
// and an interface compares the struct by value.
func (sc *scan) boxed(to, from types.Type, at ast.Node) {
	if types.IsInterface(from) {
		return
	}
	_, param := types.Unalias(to).(*types.TypeParam)
	empty := param
	if it, ok := to.Underlying().(*types.Interface); ok && it.NumMethods() == 0 {
		empty = true
	}
	if empty && holds(from, sc.s, deep) {
		sc.fail("a value holding %s is converted to %s at %s, where reflection could see the field", at, sc.name, types.TypeString(to, syntax.NameQualifier(sc.c.pass.Pkg)))
	} else if holds(from, sc.s, byValue) {
		sc.fail("%s is put in an interface by value at %s", at, sc.name)
	}
}

// node checks one node; stack holds it and its ancestors.
func (sc *scan) node(n ast.Node, stack []ast.Node) {
	info := sc.c.pass.TypesInfo
	switch n := n.(type) {
	case *ast.CallExpr:
		sc.call(n)
	case *ast.AssignStmt:
		if len(n.Lhs) == len(n.Rhs) {
			for i := range n.Lhs {
				sc.assign(sc.typeOf(n.Lhs[i]), sc.typeOf(n.Rhs[i]), n)
			}
		} else if len(n.Rhs) == 1 {
			sc.assign(tupleOf(info, n.Lhs), sc.typeOf(n.Rhs[0]), n)
		}
	case *ast.ValueSpec:
		if n.Type == nil || allBlank(n.Names) {
			return
		}
		t := sc.typeOf(n.Type)
		for _, v := range n.Values {
			vt := sc.typeOf(v)
			if tup, ok := vt.(*types.Tuple); ok {
				for i := 0; i < tup.Len(); i++ {
					sc.assign(t, tup.At(i).Type(), n)
				}
				continue
			}
			sc.assign(t, vt, n)
		}
	case *ast.ReturnStmt:
		sig := enclosingSig(info, stack)
		if sig == nil || len(n.Results) == 0 {
			return
		}
		if len(n.Results) == sig.Results().Len() {
			for i, r := range n.Results {
				sc.assign(sig.Results().At(i).Type(), sc.typeOf(r), n)
			}
		} else if len(n.Results) == 1 {
			sc.assign(sig.Results(), sc.typeOf(n.Results[0]), n)
		}
	case *ast.CompositeLit:
		sc.lit(n)
	case *ast.SendStmt:
		if ch, ok := coreOf(sc.typeOf(n.Chan)).(*types.Chan); ok {
			sc.assign(ch.Elem(), sc.typeOf(n.Value), n)
		}
	case *ast.IndexExpr:
		if m, ok := coreOf(sc.typeOf(n.X)).(*types.Map); ok {
			sc.assign(m.Key(), sc.typeOf(n.Index), n)
		}
	case *ast.BinaryExpr:
		if n.Op != token.EQL && n.Op != token.NEQ {
			return
		}
		x, y := sc.typeOf(n.X), sc.typeOf(n.Y)
		if holds(x, sc.s, byValue) || holds(y, sc.s, byValue) {
			sc.fail("values holding %s are compared at %s", n, sc.name)
			return
		}
		if x != nil && types.IsInterface(x) {
			sc.boxed(x, y, n)
		}
		if y != nil && types.IsInterface(y) {
			sc.boxed(y, x, n)
		}
	case *ast.SwitchStmt:
		if n.Tag == nil {
			return
		}
		tag := sc.typeOf(n.Tag)
		if holds(tag, sc.s, byValue) {
			sc.fail("a switch compares values holding %s at %s", n, sc.name)
			return
		}
		if tag != nil && types.IsInterface(tag) {
			for _, cl := range n.Body.List {
				for _, e := range cl.(*ast.CaseClause).List {
					sc.boxed(tag, sc.typeOf(e), e)
				}
			}
		}
	}
}

// call checks a conversion, a use of unsafe, or the arguments of a call.
func (sc *scan) call(n *ast.CallExpr) {
	info := sc.c.pass.TypesInfo
	if tv, ok := info.Types[n.Fun]; ok && tv.IsType() {
		if len(n.Args) != 1 {
			return
		}
		to, from := tv.Type, sc.typeOf(n.Args[0])
		if b, ok := to.Underlying().(*types.Basic); ok && b.Kind() == types.UnsafePointer {
			sc.unsafe(n)
			return
		}
		if from == nil {
			return
		}
		if types.IsInterface(to) {
			sc.boxed(to, from, n)
		} else if mismatch(to, from, sc.s) {
			sc.fail("a value holding %s is converted to %s at %s", n, sc.name, types.TypeString(to, syntax.NameQualifier(sc.c.pass.Pkg)))
		}
		return
	}
	if id := calleeIdent(n.Fun); id != nil {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Pkg() == types.Unsafe {
			sc.unsafe(n)
			return
		}
	}
	sig, ok := coreOf(sc.typeOf(n.Fun)).(*types.Signature)
	if !ok {
		return
	}
	params := sig.Params()
	if len(n.Args) == 1 && params.Len() > 1 {
		if tup, ok := sc.typeOf(n.Args[0]).(*types.Tuple); ok {
			for i := 0; i < tup.Len() && i < params.Len(); i++ {
				sc.assign(paramType(sig, i, false), tup.At(i).Type(), n)
			}
			return
		}
	}
	for i, a := range n.Args {
		sc.assign(paramType(sig, i, n.Ellipsis.IsValid()), sc.typeOf(a), a)
	}
}

// unsafe rejects a use of package unsafe on anything that holds s.
func (sc *scan) unsafe(n *ast.CallExpr) {
	for _, a := range n.Args {
		ast.Inspect(a, func(m ast.Node) bool {
			if e, ok := m.(ast.Expr); ok && holds(sc.typeOf(e), sc.s, deep) {
				sc.fail("%s is used with unsafe at %s", n, sc.name)
			}
			return sc.why == ""
		})
	}
}

// lit checks the elements of a composite literal, and that a literal of
// s names its fields.
func (sc *scan) lit(n *ast.CompositeLit) {
	t := sc.typeOf(n)
	if t == nil {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := coreOf(t).(type) {
	case *types.Struct:
		if types.Identical(t, sc.s) && len(n.Elts) > 0 {
			if _, keyed := n.Elts[0].(*ast.KeyValueExpr); !keyed {
				sc.fail("%s has an unkeyed literal at %s", n, sc.name)
				return
			}
		}
		for i, e := range n.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					if f, ok := sc.c.pass.TypesInfo.Uses[id].(*types.Var); ok {
						sc.assign(f.Type(), sc.typeOf(kv.Value), kv)
					}
				}
			} else if i < u.NumFields() {
				sc.assign(u.Field(i).Type(), sc.typeOf(e), e)
			}
		}
	case *types.Slice:
		sc.elems(n, nil, u.Elem())
	case *types.Array:
		sc.elems(n, nil, u.Elem())
	case *types.Map:
		sc.elems(n, u.Key(), u.Elem())
	}
}

// elems checks the elements (and the keys of a map) of a literal.
func (sc *scan) elems(n *ast.CompositeLit, key, elem types.Type) {
	for _, e := range n.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if key != nil {
				sc.assign(key, sc.typeOf(kv.Key), kv)
			}
			e = kv.Value
		}
		sc.assign(elem, sc.typeOf(e), e)
	}
}

// paramType returns the type the i-th argument of a call of sig is
// assigned to.
func paramType(sig *types.Signature, i int, ellipsis bool) types.Type {
	n := sig.Params().Len()
	if n == 0 {
		return nil
	}
	if sig.Variadic() && i >= n-1 {
		last := sig.Params().At(n - 1).Type()
		if ellipsis {
			return last
		}
		if s, ok := last.Underlying().(*types.Slice); ok {
			return s.Elem()
		}
		return nil
	}
	if i >= n {
		return nil
	}
	return sig.Params().At(i).Type()
}

// coreOf returns the underlying type of t, or of the single type of a
// type parameter's constraint; nil if there is none.
func coreOf(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		it, _ := tp.Constraint().Underlying().(*types.Interface)
		if it == nil || it.NumEmbeddeds() != 1 {
			return nil
		}
		if u, ok := it.EmbeddedType(0).(*types.Union); ok {
			if u.Len() != 1 {
				return nil
			}
			return u.Term(0).Type().Underlying()
		}
		return it.EmbeddedType(0).Underlying()
	}
	return t.Underlying()
}

// calleeIdent returns the identifier that names a call's function.
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// tupleOf returns the types of the left sides of an assignment as a tuple.
func tupleOf(info *types.Info, lhs []ast.Expr) *types.Tuple {
	vars := make([]*types.Var, len(lhs))
	for i, l := range lhs {
		t := info.TypeOf(l)
		if t == nil {
			t = types.Typ[types.Invalid] // the blank identifier
		}
		vars[i] = types.NewVar(token.NoPos, nil, "", t)
	}
	return types.NewTuple(vars...)
}

// enclosingSig returns the signature of the innermost function in stack.
func enclosingSig(info *types.Info, stack []ast.Node) *types.Signature {
	for i := len(stack) - 1; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncDecl:
			if fn, ok := info.Defs[f.Name].(*types.Func); ok {
				return fn.Signature()
			}
			return nil
		case *ast.FuncLit:
			sig, _ := info.TypeOf(f).(*types.Signature)
			return sig
		}
	}
	return nil
}

func allBlank(names []*ast.Ident) bool {
	for _, n := range names {
		if n.Name != "_" {
			return false
		}
	}
	return true
}

// exposedWhy says why code outside the package could be affected by the
// change of the struct s: it is comparable and the package's exported
// API reaches it, so other packages could compare its values.
func (c *checker) exposedWhy(s *types.Named) string {
	if c.pass.Pkg.Name() == "main" || !types.Comparable(s) {
		return ""
	}
	name := s.Obj().Name()
	if s.Obj().Exported() {
		return fmt.Sprintf("%s is exported and comparable, so other packages could compare its values", name)
	}
	scope := c.pass.Pkg.Scope()
	for _, n := range scope.Names() {
		obj := scope.Lookup(n)
		if !obj.Exported() {
			continue
		}
		if _, ok := obj.(*types.Const); ok {
			continue
		}
		if holds(obj.Type(), s, api) {
			return fmt.Sprintf("%s is comparable and the exported %s reaches it, so other packages could compare its values", name, n)
		}
	}
	return ""
}
