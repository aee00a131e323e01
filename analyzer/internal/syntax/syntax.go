// Package syntax holds what the analyzers that rewrite a package's uses
// of a declaration share: the package's files the pass does not hold,
// the path from a node to the file, text edits, and the questions they
// ask of a use (in a closure, through a pointer method, against nil).
package syntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// OtherFiles parses the package's files in its directory that the pass
// does not hold: in-package _test.go files and files excluded by build
// constraints, of the same package name. They are parsed in a file set of
// their own, without types: they can only be searched for names.
func OtherFiles(pass *analysis.Pass) []*ast.File {
	in := make(map[string]bool)
	var dir string
	for _, f := range pass.Files {
		name := pass.Fset.File(f.FileStart).Name()
		in[name] = true
		dir = filepath.Dir(name)
	}
	if dir == "" {
		return nil
	}
	names := append([]string(nil), pass.IgnoredFiles...)
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), "_test.go") {
				names = append(names, filepath.Join(dir, e.Name()))
			}
		}
	}
	var files []*ast.File
	fset := token.NewFileSet()
	for _, name := range names {
		if in[name] || !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil || f.Name.Name != pass.Pkg.Name() {
			continue
		}
		files = append(files, f)
	}
	return files
}

// Path returns the nodes enclosing n in the files of find, from n
// outwards.
func Path(find *Finder, n ast.Node) []ast.Node {
	cur, ok := find.FindByPos(n.Pos(), n.End())
	if !ok {
		return []ast.Node{n}
	}
	var path []ast.Node
	for e := range cur.Enclosing() {
		path = append(path, e.Node())
	}
	return path
}

// Parent returns path[k+1], or nil.
func Parent(path []ast.Node, k int) ast.Node {
	if k+1 < len(path) {
		return path[k+1]
	}
	return nil
}

// DerefEdits removes the dereference path[k], *x, and the parentheses
// directly around it: (*x).f becomes x.f.
func DerefEdits(path []ast.Node, k int) []analysis.TextEdit {
	star := path[k].(*ast.StarExpr)
	if p, ok := Parent(path, k).(*ast.ParenExpr); ok {
		return []analysis.TextEdit{Delete(p.Lparen, star.X.Pos()), Delete(star.X.End(), p.Rparen+1)}
	}
	return []analysis.TextEdit{Delete(star.Pos(), star.X.Pos())}
}

// Delete removes the text from pos to end.
func Delete(pos, end token.Pos) analysis.TextEdit {
	return analysis.TextEdit{Pos: pos, End: end, NewText: []byte{}}
}

// ClimbParens returns the index in path of the outermost parenthesis
// around path[k], or k if there is none.
func ClimbParens(path []ast.Node, k int) int {
	for {
		p, ok := Parent(path, k).(*ast.ParenExpr)
		if !ok || p.X != path[k] {
			return k
		}
		k++
	}
}

// FileAt returns the file among files that holds pos, or nil.
func FileAt(files []*ast.File, pos token.Pos) *ast.File {
	for _, f := range files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return f
		}
	}
	return nil
}

// FuncDeclOf returns the declaration of fn among files, or nil: a
// function or method of the package the files make up.
func FuncDeclOf(files []*ast.File, fn *types.Func) *ast.FuncDecl {
	f := FileAt(files, fn.Pos())
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Name.Pos() == fn.Pos() {
			return d
		}
	}
	return nil
}

// StmtList returns the statements of a block or a case clause, or nil
// for any other node.
func StmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}
