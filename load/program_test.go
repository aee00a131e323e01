package load

import (
	"context"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestCheckProgram lists fixture's packages without compiling them,
// compiles only the dependencies read from export data, and checks
// the module's packages from source in one type universe: c sees a's
// types through b as the very objects a's check made, each dependency is
// handed over once, complete, and each package's syntax and annotations
// are dropped once it is done.
func TestCheckProgram(t *testing.T) {
	dir := gittest.NewTree(t, map[string]string{
		"go.mod": "module fix\n\ngo 1.26\n",
		"a/a.go": fixture["a/a.go"],
		"b/b.go": fixture["b/b.go"],
		"c/c.go": fixture["c/c.go"],
		"u/u.go": "package u\n\nimport \"unsafe\"\n\nvar N = unsafe.Sizeof(0)\n",
	})
	cfg := Config{Dir: dir, NoExport: true}
	prog, err := List(context.Background(), cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var deps []*packages.Package
	fromSource := func(p *packages.Package) bool { return strings.HasPrefix(p.PkgPath, "fix/") }
	packages.Visit(prog.Roots, nil, func(p *packages.Package) {
		if p.ExportFile != "" {
			t.Errorf("%s compiled by a listing without export data", p.ID)
		}
		if p.PkgPath == "strings" {
			deps = append(deps, p)
		}
	})
	if err := Export(context.Background(), cfg, deps); err != nil {
		t.Fatal(err)
	}
	if len(deps) != 1 || deps[0].ExportFile == "" {
		t.Fatalf("strings was not compiled: %v", deps)
	}

	byPath := make(map[string]*packages.Package)
	var order, imported []string
	fset := token.NewFileSet()
	err = CheckProgram(context.Background(), fset, prog.Roots, fromSource, func(p *packages.Package, imp []*types.Package) error {
		if len(p.Errors) > 0 {
			t.Errorf("%s: %v", p.ID, p.Errors)
		}
		if p.Fset != fset || len(p.Syntax) == 0 || p.TypesInfo == nil || p.Types == nil {
			t.Errorf("%s: not checked from source", p.ID)
		}
		for _, d := range imp {
			if !d.Complete() {
				t.Errorf("%s imported incomplete", d.Path())
			}
			imported = append(imported, d.Path())
		}
		byPath[p.PkgPath] = p
		order = append(order, p.PkgPath)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, " "); got != "fix/a fix/b fix/c fix/u" {
		t.Errorf("checked %s, want fix/a fix/b fix/c fix/u (dependencies first)", got)
	}
	if got := strings.Join(imported, " "); got != "strings unsafe" {
		t.Errorf("imported %s, want strings then unsafe, once each", got)
	}
	a, b := byPath["fix/a"], byPath["fix/b"]
	param := b.Types.Scope().Lookup("Use").(*types.Func).Signature().Params().At(0).Type().(*types.Named)
	if param.Obj() != a.Types.Scope().Lookup("T") {
		t.Errorf("b.Use's parameter is not the a.T that a's check made")
	}
	for _, p := range byPath {
		if p.Syntax != nil || p.TypesInfo != nil {
			t.Errorf("%s: syntax or annotations kept after its turn", p.ID)
		}
	}
}
