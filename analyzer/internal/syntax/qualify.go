package syntax

import (
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// Qualifier returns a types.Qualifier that writes types as the file of
// pos can: the pass's own package unqualified, the others by the name the
// file imports them under, and a function that reports whether it met a
// package the file does not import (the type cannot be written there as
// it is; that package is then named by its package name).
func Qualifier(pass *analysis.Pass, pos token.Pos) (types.Qualifier, func() bool) {
	var imports map[string]string // path -> name in the file
	if f := FileAt(pass.Files, pos); f != nil {
		imports = make(map[string]string)
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := ""
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[path] = name
		}
	}
	bad := false
	q := func(p *types.Package) string {
		if p == pass.Pkg {
			return ""
		}
		if name, ok := imports[p.Path()]; ok && name != "_" && name != "." {
			if name == "" {
				name = p.Name()
			}
			return name
		}
		bad = true
		return p.Name()
	}
	return q, func() bool { return bad }
}

// NameQualifier returns a types.Qualifier for messages: pkg's own types
// unqualified, the others' by their package's name.
func NameQualifier(pkg *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
}
