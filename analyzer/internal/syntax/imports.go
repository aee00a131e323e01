package syntax

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ImportName returns the name by which file refers to the package with
// the given path: the name of its import, or "" if the file does not
// import it yet. ok is false when the package cannot be referred to at
// pos: its default name (the last element of path) is taken there by
// something else.
func ImportName(pass *analysis.Pass, file *ast.File, pos token.Pos, path string) (name string, ok bool) {
	def := path[strings.LastIndex(path, "/")+1:]
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || p != path {
			continue
		}
		if imp.Name != nil {
			switch imp.Name.Name {
			case "_", ".":
				continue
			}
			name = imp.Name.Name
		} else {
			name = def
		}
		break
	}
	lookup := name
	if lookup == "" {
		lookup = def
	}
	scope := pass.TypesInfo.Scopes[file]
	if scope == nil {
		return "", false
	}
	if inner := scope.Innermost(pos); inner != nil {
		scope = inner
	}
	if _, obj := scope.LookupParent(lookup, pos); obj != nil {
		if pn, isPkg := obj.(*types.PkgName); !isPkg || pn.Imported().Path() != path {
			return "", false // taken
		}
	} else if name == "" && pass.Pkg.Scope().Lookup(lookup) != nil {
		return "", false
	}
	return name, true
}

// AddImports returns the edits that add imports of the given paths to
// file (gofmt, which goadvise's fixes go through, sorts them).
func AddImports(file *ast.File, paths ...string) []analysis.TextEdit {
	if len(paths) == 0 {
		return nil
	}
	var decl *ast.GenDecl
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			decl = g
			if g.Lparen.IsValid() {
				break
			}
		}
	}
	var lines []string
	for _, p := range paths {
		lines = append(lines, strconv.Quote(p))
	}
	switch {
	case decl == nil:
		return []analysis.TextEdit{{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + strings.Join(lines, "\nimport "))}}
	case decl.Lparen.IsValid():
		return []analysis.TextEdit{{Pos: decl.Lparen + 1, End: decl.Lparen + 1, NewText: []byte("\n\t" + strings.Join(lines, "\n\t"))}}
	}
	return []analysis.TextEdit{{Pos: decl.Pos(), End: decl.Pos(), NewText: []byte("import " + strings.Join(lines, "\nimport ") + "\n")}}
}

// FileVersionAtLeast reports whether the Go version of the file (its
// //go:build line, or the module's go line) is at least v ("go1.21"): the
// standard library functions and builtins that came with v may be used
// there. A file of unknown version counts as new enough.
func FileVersionAtLeast(pass *analysis.Pass, file *ast.File, v string) bool {
	fv := fileVersion(pass, file)
	return fv == "" || version.Compare(fv, v) >= 0
}

// TooOld returns "" when file may use feature (such as "slices.Equal" or
// "the clear builtin"), which came with Go version v, and otherwise the
// reason it may not, for a message's "no automatic fix: ..." part:
// "slices.Equal needs go1.21 and this file is go1.12". It is
// FileVersionAtLeast with the words to say why.
func TooOld(pass *analysis.Pass, file *ast.File, feature, v string) string {
	if FileVersionAtLeast(pass, file, v) {
		return ""
	}
	return fmt.Sprintf("%s needs %s and this file is %s", feature, v, version.Lang(fileVersion(pass, file)))
}

// fileVersion returns the Go version of file as the type checker saw it,
// or else the package's, or "" if neither is known.
func fileVersion(pass *analysis.Pass, file *ast.File) string {
	if file != nil {
		if fv := pass.TypesInfo.FileVersions[file]; fv != "" {
			return fv
		}
	}
	if pass.Pkg != nil {
		return pass.Pkg.GoVersion()
	}
	return ""
}
