package optlog

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"sort"

	"golang.org/x/tools/go/analysis"
)

// stubbed returns the files of pass, other than those in skip, with the
// bodies of the functions that none of keep reaches replaced by an empty
// loop, keyed by file name: the compile of the package then does the work
// of the kept functions and of what they reach, and little else (an empty
// loop compiles to no decisions, where a panic would box its value). It
// returns nil when the package cannot be compiled that way (cgo) or
// nothing would be stubbed.
//
// A function reaches every function and method of the package that its
// body names (called or not), and those reach theirs. Only what a kept
// function reaches can change the compiler's decisions about it: its
// inlining cost counts the costs of the callees it would inline, and the
// escape of its values depends on what its callees do with them. An
// import that only stubbed bodies used becomes a blank import, so that
// the package still compiles and initializes as before.
func stubbed(pass *analysis.Pass, keep []*types.Func, skip map[string][]byte) map[string][]byte {
	decls := make(map[*types.Func]*ast.FuncDecl)
	for _, f := range pass.Files {
		for _, imp := range f.Imports {
			if imp.Path.Value == `"C"` {
				return nil
			}
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[obj] = fd
				}
			}
		}
	}
	reached := make(map[*types.Func]bool)
	var visit func(fn *types.Func)
	visit = func(fn *types.Func) {
		fn = fn.Origin()
		if reached[fn] {
			return
		}
		reached[fn] = true
		fd := decls[fn]
		if fd == nil {
			return
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if f, ok := pass.TypesInfo.Uses[id].(*types.Func); ok && f.Pkg() == pass.Pkg {
					visit(f)
				}
			}
			return true
		})
	}
	for _, fn := range keep {
		visit(fn)
	}
	out := make(map[string][]byte)
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		name := tf.Name()
		if _, ok := skip[name]; ok {
			continue
		}
		var bodies []*ast.BlockStmt
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && !reached[obj] {
				bodies = append(bodies, fd.Body)
			}
		}
		if len(bodies) == 0 {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil || tf.Size() != len(src) {
			return nil // the file changed since it was parsed, or is not source
		}
		// The imports that the code left in place still uses.
		inBody := func(pos token.Pos) bool {
			for _, b := range bodies {
				if b.Lbrace < pos && pos < b.Rbrace {
					return true
				}
			}
			return false
		}
		used := make(map[*types.PkgName]bool)
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && !inBody(id.Pos()) {
				if pn, ok := pass.TypesInfo.Uses[id].(*types.PkgName); ok {
					used[pn] = true
				}
			}
			return true
		})
		type edit struct {
			start, end int
			text       string
		}
		var edits []edit
		for _, imp := range f.Imports {
			pn, _ := pass.TypesInfo.Implicits[imp].(*types.PkgName)
			if imp.Name != nil {
				pn, _ = pass.TypesInfo.Defs[imp.Name].(*types.PkgName)
			}
			if pn == nil || used[pn] {
				continue // a blank import, or one still used
			}
			if imp.Name != nil {
				edits = append(edits, edit{tf.Offset(imp.Name.Pos()), tf.Offset(imp.Name.End()), "_"})
			} else {
				at := tf.Offset(imp.Path.Pos())
				edits = append(edits, edit{at, at, "_ "})
			}
		}
		for _, b := range bodies {
			edits = append(edits, edit{tf.Offset(b.Lbrace) + 1, tf.Offset(b.Rbrace), " for {} "})
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
		var buf []byte
		at := 0
		for _, e := range edits {
			buf = append(buf, src[at:e.start]...)
			buf = append(buf, e.text...)
			at = e.end
		}
		buf = append(buf, src[at:]...)
		out[name] = buf
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
