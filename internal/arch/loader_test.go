package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOneLoader checks that package load is the only one that lists
// packages and reads the go command's environment: outside load/, no Go
// file (tests aside, which check the go command's own behaviour) calls
// go/packages' Load or runs go list or go env. A go list with -export is a
// build (package optlog compiles with the optimization log that way), not
// a listing.
func TestOneLoader(t *testing.T) {
	root := repoRoot(t)
	var bad []string
	forEachGoFile(t, root, func(rel string, f *ast.File, fset *token.FileSet) {
		if strings.HasPrefix(rel, "load/") {
			return
		}
		pkgs := importName(f, "golang.org/x/tools/go/packages")
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && pkgs != "" && id.Name == pkgs && n.Sel.Name == "Load" {
					bad = append(bad, fset.Position(n.Pos()).String()+": go/packages' Load")
				}
			case *ast.CallExpr:
				if what := goCommand(n.Args); what != "" {
					bad = append(bad, fset.Position(n.Pos()).String()+": "+what)
				}
			case *ast.CompositeLit:
				if what := goCommand(n.Elts); what != "" {
					bad = append(bad, fset.Position(n.Pos()).String()+": "+what)
				}
			}
			return true
		})
	})
	for _, b := range bad {
		t.Errorf("%s outside package load", b)
	}
}

// goCommand says which go command the arguments of a call or the elements
// of a literal run, if they list packages or read go env: their first
// string constant (after "go", for exec.Command) is "list" without
// "-export" among them, or "env".
func goCommand(args []ast.Expr) string {
	var strs []string
	for _, a := range args {
		if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				strs = append(strs, s)
			}
		}
	}
	if len(strs) > 0 && strs[0] == "go" {
		strs = strs[1:]
	}
	if len(strs) == 0 {
		return ""
	}
	switch strs[0] {
	case "env":
		return "go env"
	case "list":
		for _, s := range strs {
			if s == "-export" || strings.HasPrefix(s, "-export=") {
				return ""
			}
		}
		return "go list"
	}
	return ""
}

// importName returns the name under which f imports path, or "".
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return path[strings.LastIndex(path, "/")+1:]
		}
	}
	return ""
}

// repoRoot returns the repository's top directory.
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// forEachGoFile parses every Go file of the repository that is not a
// test, nor in testdata, and calls each with its path relative to root,
// with slashes.
func forEachGoFile(t *testing.T, root string, each func(rel string, f *ast.File, fset *token.FileSet)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		each(filepath.ToSlash(rel), f, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
