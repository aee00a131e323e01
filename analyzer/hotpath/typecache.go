package hotpath

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// TypeCacheFill is the cold reason of code that runs only when a cache
// keyed by type has no entry for the type.
const TypeCacheFill = "runs once per type: fills a cache keyed by reflect.Type that nothing deletes from"

// typeCacheWho names that code in the reasons of its callees.
const typeCacheWho = "the fill of a cache keyed by type"

// typeCacheRegions returns the code of file that runs only when a lookup
// in a cache keyed by type finds nothing: a map or a sync.Map whose key
// is a reflect.Type, or a struct with a reflect.Type field, held in a
// package-level variable or a field that nothing in the package deletes
// from, clears or assigns (kept). A program has finitely many types, so
// the code after a failed lookup, which computes what the cache then
// holds, runs at most once per type (per key) and entry: serialization
// packages build their encoders, decoders and field lists so. The code
// is
//   - the statements after "if v, ok := LOOKUP; ok { ... return }", or
//     after "v, ok := LOOKUP" and, a few statements later (an unlock),
//     "if ok { ... return }";
//   - the body of "if !ok { ... }" after "v, ok := LOOKUP";
//   - the same for "v := m[key]" of a map of pointers, with "if v != nil
//     { ... return }" and "if v == nil { ... }".
//
// LOOKUP is m[key] or m.Load(key).
func typeCacheRegions(info *types.Info, file *ast.File, kept func(types.Object) bool) []region {
	var regs []region
	add := func(pos, end token.Pos) {
		regs = append(regs, region{span: span{pos, end}, kind: startup, who: typeCacheWho, reason: TypeCacheFill})
	}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		list := fd.Body.List
		for i, s := range list {
			at := i // the statement with the test of ok
			// The ok of a lookup: declared by this statement, or by the
			// if's own init.
			var okVar types.Object
			var ifs *ast.IfStmt
			switch s := s.(type) {
			case *ast.IfStmt:
				if as, isAssign := s.Init.(*ast.AssignStmt); isAssign {
					okVar = lookupOK(info, as, kept)
					ifs = s
				}
			case *ast.AssignStmt:
				okVar = lookupOK(info, s, kept)
				// The test follows, after at most two statements
				// (mu.RUnlock()).
				for j := i + 1; okVar != nil && j < len(list) && j <= i+3; j++ {
					if next, isIf := list[j].(*ast.IfStmt); isIf && next.Init == nil {
						ifs, at = next, j
						break
					}
				}
			}
			if okVar == nil || ifs == nil || ifs.Else != nil {
				continue
			}
			found, known := lookupTest(info, ifs.Cond, okVar)
			switch {
			case !known:
			case found && endsInReturn(ifs.Body.List) && at+1 < len(list):
				// if ok { return v }: the rest of the function fills.
				add(list[at+1].Pos(), fd.Body.End())
			case !found:
				// if !ok { v = build(t); m.Store(t, v) }
				add(ifs.Body.Pos(), ifs.Body.End())
			}
		}
	}
	return regs
}

// lookupTest says what cond tells of a lookup whose outcome okVar holds
// (see lookupOK): found for "ok" and "v != nil", missing for "!ok" and
// "v == nil" (a nil value of a map of pointers is a missing entry); known
// is false for any other condition.
func lookupTest(info *types.Info, cond ast.Expr, okVar types.Object) (found, known bool) {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == okVar
	}
	switch c := ast.Unparen(cond).(type) {
	case *ast.Ident:
		return true, is(c)
	case *ast.UnaryExpr:
		return false, c.Op == token.NOT && is(c.X)
	case *ast.BinaryExpr:
		if !is(c.X) || !syntax.IsNil(info, c.Y) {
			return false, false
		}
		return c.Op == token.NEQ, c.Op == token.NEQ || c.Op == token.EQL
	}
	return false, false
}

// lookupOK returns the variable that says whether a lookup found its key:
// the ok that as defines, "v, ok := m[key]" or "v, ok := m.Load(key)", or
// the v of "v := m[key]" for a map of pointers (whose nil is a missing
// entry), when m is a cache keyed by type that kept accepts; nil
// otherwise.
func lookupOK(info *types.Info, as *ast.AssignStmt, kept func(types.Object) bool) types.Object {
	if as.Tok != token.DEFINE || len(as.Lhs) < 1 || len(as.Lhs) > 2 || len(as.Rhs) != 1 {
		return nil
	}
	id, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	if len(as.Lhs) == 1 {
		// v := m[key]: only a map whose values are pointers.
		ix, isIndex := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr)
		if !isIndex {
			return nil
		}
		m, isMap := info.TypeOf(ix.X).Underlying().(*types.Map)
		if !isMap {
			return nil
		}
		if _, isPtr := m.Elem().Underlying().(*types.Pointer); !isPtr {
			return nil
		}
	}
	var cache, key ast.Expr
	switch r := ast.Unparen(as.Rhs[0]).(type) {
	case *ast.IndexExpr:
		if _, isMap := info.TypeOf(r.X).Underlying().(*types.Map); isMap {
			cache, key = r.X, r.Index
		}
	case *ast.CallExpr:
		sel, isSel := ast.Unparen(r.Fun).(*ast.SelectorExpr)
		if isSel && sel.Sel.Name == "Load" && len(r.Args) == 1 && isSyncMap(info.TypeOf(sel.X)) {
			cache, key = sel.X, r.Args[0]
		}
	}
	if cache == nil || !typeKey(info.TypeOf(key)) {
		return nil
	}
	obj := cacheObject(info, cache)
	if obj == nil || !kept(obj) {
		return nil
	}
	return info.Defs[id]
}

// typeKey reports whether t is reflect.Type, or a struct with a field of
// that type.
func typeKey(t types.Type) bool {
	if t == nil {
		return false
	}
	if isReflectType(t) {
		return true
	}
	if s, ok := t.Underlying().(*types.Struct); ok {
		for f := range s.Fields() {
			if isReflectType(f.Type()) {
				return true
			}
		}
	}
	return false
}

func isReflectType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == "Type"
}

// isSyncMap reports whether t is sync.Map or a pointer to one.
func isSyncMap(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Map"
}

// cacheObject returns the variable that holds a cache: a package-level
// variable, or a field (c.m, typeCache.m); nil for a local variable or
// anything else.
func cacheObject(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
			return v
		}
	case *ast.SelectorExpr:
		if v, ok := info.Uses[e.Sel].(*types.Var); ok && (v.IsField() || v.Parent() == v.Pkg().Scope()) {
			return v
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return cacheObject(info, e.X)
		}
	}
	return nil
}

// changedCaches returns the variables and fields that some code of the
// files deletes from (delete, clear, a sync.Map's Delete, LoadAndDelete,
// CompareAndDelete, Clear) or assigns: a cache held in one of those may
// lose its entries, and its fill run again for one type.
func changedCaches(info *types.Info, files []*ast.File) map[types.Object]bool {
	changed := make(map[types.Object]bool)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				switch fun := ast.Unparen(n.Fun).(type) {
				case *ast.Ident:
					if b, ok := info.Uses[fun].(*types.Builtin); ok && (b.Name() == "delete" || b.Name() == "clear") && len(n.Args) > 0 {
						if obj := cacheObject(info, n.Args[0]); obj != nil {
							changed[obj] = true
						}
					}
				case *ast.SelectorExpr:
					switch fun.Sel.Name {
					case "Delete", "LoadAndDelete", "CompareAndDelete", "Clear", "Swap", "CompareAndSwap":
						if isSyncMap(info.TypeOf(fun.X)) {
							if obj := cacheObject(info, fun.X); obj != nil {
								changed[obj] = true
							}
						}
					}
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if obj := cacheObject(info, l); obj != nil {
						changed[obj] = true
					}
				}
			}
			return true
		})
	}
	return changed
}
