package load

import (
	"bytes"
	"context"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/internal/gittest"
)

// fixture has a package imported by another, an external test package
// (which List leaves out), and a package with a type error.
var fixture = map[string]string{
	"go.mod":      "module fix\n\ngo 1.26\n",
	"a/a.go":      "package a\n\nimport \"strings\"\n\ntype T struct{ S string }\n\nfunc Up(t T) string { return strings.ToUpper(t.S) }\n",
	"a/x_test.go": "package a_test\n\nimport (\n\t\"testing\"\n\n\t\"fix/a\"\n)\n\nfunc TestX(t *testing.T) { _ = a.Up(a.T{}) }\n",
	"b/b.go":      "package b\n\nimport \"fix/a\"\n\nfunc Use(t a.T) string { return a.Up(t) }\n",
	"c/c.go":      "package c\n\nimport (\n\t\"fix/a\"\n\t\"fix/b\"\n)\n\nvar V = b.Use(a.T{S: \"x\"})\n",
	"bad/bad.go":  "package bad\n\nfunc F() int { return \"x\" }\n",
}

func TestCheck(t *testing.T) {
	dir := gittest.NewTree(t, fixture)
	prog, err := List(context.Background(), Config{Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	byID := make(map[string]*packages.Package)
	for _, p := range prog.Roots {
		byID[p.ID] = p
		if p.Types != nil || p.Syntax != nil {
			t.Errorf("%s: typed before Check", p.ID)
		}
	}
	if got := strings.Join(ids(prog.Roots), " "); got != "fix/a fix/b fix/bad fix/c" {
		t.Fatalf("roots %s, want fix/a fix/b fix/bad fix/c", got)
	}
	// Two batches, as a driver does: the second imports the first's
	// packages from export data, in a FileSet of its own.
	first := []*packages.Package{byID["fix/a"], byID["fix/bad"]}
	Check(first)
	a := first[0]
	if len(a.Errors) > 0 || a.IllTyped || a.Types == nil || !a.Types.Complete() || a.Types.Scope().Lookup("T") == nil {
		t.Errorf("fix/a: errors %v, types %v", a.Errors, a.Types)
	}
	if len(a.Syntax) != len(a.CompiledGoFiles) || a.Fset == nil || len(a.TypesInfo.Defs) == 0 {
		t.Errorf("fix/a: %d files parsed of %d, %d definitions", len(a.Syntax), len(a.CompiledGoFiles), len(a.TypesInfo.Defs))
	}
	bad := byID["fix/bad"]
	if !bad.IllTyped || len(bad.TypeErrors) == 0 || !strings.Contains(bad.TypeErrors[0].Msg, "cannot use") ||
		!strings.Contains(bad.Errors[len(bad.Errors)-1].Pos, "bad.go:3") {
		t.Errorf("fix/bad: IllTyped %v, errors %v; want its type error with a position", bad.IllTyped, bad.Errors)
	}
	firstFset := a.Fset
	Release(first)
	for _, p := range first {
		if p.Types != nil || p.Syntax != nil || p.TypesInfo != nil || p.Fset != nil {
			t.Errorf("%s: still typed after Release", p.ID)
		}
	}

	// c uses a.T both directly and through b: both imports must be the
	// one package object, or c would not type-check.
	second := []*packages.Package{byID["fix/b"], byID["fix/c"]}
	Check(second)
	b, c := second[0], second[1]
	if len(b.Errors)+len(c.Errors) > 0 {
		t.Fatalf("errors: %v %v", b.Errors, c.Errors)
	}
	use := b.Types.Scope().Lookup("Use").(*types.Func)
	param := use.Signature().Params().At(0).Type().(*types.Named)
	if param.Obj().Pkg().Path() != "fix/a" || param.Obj().Name() != "T" {
		t.Errorf("b.Use's parameter is %v, want fix/a.T", param)
	}
	if b.Fset != c.Fset || b.Fset == firstFset {
		t.Errorf("a batch should share one FileSet of its own")
	}
}

func ids(pkgs []*packages.Package) []string {
	var out []string
	for _, p := range pkgs {
		out = append(out, p.ID)
	}
	return out
}

// TestRenamedExportData compiles fix/a with its file renamed as goadvise's
// build with the optimization log renames files, and checks that b, which
// imports it from that export data, sees a's declarations in a.go, the
// file they are in.
func TestRenamedExportData(t *testing.T) {
	dir := gittest.NewTree(t, fixture)
	aGo := filepath.Join(dir, "a", "a.go")
	renamed := strings.ReplaceAll(aGo, "/", "~")
	if filepath.Separator != '/' {
		t.Skip("files are renamed only where paths are slash-separated")
	}
	cfg := Config{Dir: dir, BuildFlags: []string{"-gcflags=fix/a=-trimpath=" + aGo + "=>" + renamed}}
	prog, err := List(context.Background(), cfg, "fix/b")
	if err != nil {
		t.Fatal(err)
	}
	b := prog.Roots[0]
	data, err := os.ReadFile(b.Imports["fix/a"].ExportFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(renamed)) {
		t.Fatalf("the export data of fix/a does not name %s: the compile did not rename the file", renamed)
	}
	Check(prog.Roots)
	if len(b.Errors) > 0 {
		t.Fatal(b.Errors)
	}
	up := b.Types.Imports()[0].Scope().Lookup("Up")
	if got := b.Fset.Position(up.Pos()); got.Filename != aGo || got.Line != 7 {
		t.Errorf("a.Up is at %v, want %s:7", got, aGo)
	}
}

func TestRestoreRenamed(t *testing.T) {
	dirs := map[string]bool{"/m/a": true, "/m/a/b": true}
	for _, c := range []struct{ in, want string }{
		{"x~m~a~f.goy", "x/m/a/f.goy"},
		{"~m~a~b~g.go~m~a~f.go", "/m/a/b/g.go/m/a/f.go"},
		{"~m~c~f.go", "~m~c~f.go"},       // not a directory of dirs
		{"~m~a", "~m~a"},                 // a directory without a file
		{"~m~a~x~y.go", "/m/a/x~y.go"},   // a file name with the mark is never renamed: x~y.go is a's
		{"a ~m~a~f.go~", "a /m/a/f.go~"}, // the mark after the name is not the name's
	} {
		b := []byte(c.in)
		restoreRenamed(b, dirs)
		if string(b) != c.want {
			t.Errorf("restoreRenamed(%q) = %q, want %q", c.in, b, c.want)
		}
	}
}
