package optlog

import (
	"context"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/internal/gittest"
	"github.com/goadvise/goadvise/load"
)

// TestCompileEditedStubs checks that compiling for some functions only
// gives them the decisions of the full compile (F's inlining cost counts
// the cost of G, in another file, which it inlines) while a function
// they do not reach is compiled empty (H's fmt.Sprint argument no longer
// escapes), and that an import only H used does not break the compile.
func TestCompileEditedStubs(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a fixture package")
	}
	files := map[string]string{
		"go.mod": "module example.com/stub\n\ngo 1.26\n",
		"a.go":   "package stub\n\nfunc F(x []int) int { return G(x) + G(x[1:]) + 1 }\n",
		"b.go":   "package stub\n\nimport \"strings\"\n\nfunc G(x []int) int {\n\ts := 0\n\tfor _, v := range x {\n\t\ts += v * len(strings.Repeat(\"a\", v))\n\t}\n\treturn s\n}\n",
		"c.go":   "package stub\n\nimport (\n\t\"fmt\"\n\tstr \"strconv\"\n)\n\nfunc H(n int) string { return fmt.Sprint(n) + str.Itoa(n) }\n",
	}
	pass, dir := fixturePass(t, files)
	f, _ := pass.Pkg.Scope().Lookup("F").(*types.Func)

	summary := func(recs []Record) (fCost int, hEscapes bool) {
		for _, r := range recs {
			if (r.Kind == CanInline || r.Kind == CannotInline) && strings.HasSuffix(r.Pos.File, "a.go") {
				fCost = r.Cost
			}
			if r.Kind.IsHeap() && strings.HasSuffix(r.Pos.File, "c.go") {
				hEscapes = true
			}
		}
		return fCost, hEscapes
	}
	full, err := CompileEdited(context.Background(), pass, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	fullCost, fullEsc := summary(full)
	if fullCost == 0 || !fullEsc {
		t.Fatalf("full compile: F cost %d, H escapes %v; want a cost and an escape", fullCost, fullEsc)
	}
	part, err := CompileEdited(context.Background(), pass, nil, []*types.Func{f})
	if err != nil {
		t.Fatalf("compiling for F only: %v", err)
	}
	partCost, partEsc := summary(part)
	if partCost != fullCost {
		t.Errorf("F's inlining cost is %d compiled for F only, %d in the full compile", partCost, fullCost)
	}
	if partEsc {
		t.Errorf("H, which F does not reach, was compiled with its body")
	}
	for name, src := range files {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != src {
			t.Errorf("%s was modified", name)
		}
	}
}

// fixturePass writes the files of a module of one package to a new
// directory and returns the pass of its package, loaded with go/packages,
// and the directory.
func fixturePass(t *testing.T, files map[string]string) (*analysis.Pass, string) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	cfg := &packages.Config{Dir: dir, Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedTypesSizes}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the fixture: %v %v", err, pkgs)
	}
	p := pkgs[0]
	return &analysis.Pass{Fset: p.Fset, Files: p.Syntax, Pkg: p.Types, TypesInfo: p.TypesInfo, TypesSizes: p.TypesSizes}, dir
}

// TestCompileEditedReusesWarm checks that, while a Warm build is open,
// compiling an edited package does not compile its dependencies again:
// the go command finds Warm's compiles of them in its cache.
func TestCompileEditedReusesWarm(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a fixture module")
	}
	if runtime.GOOS == "windows" {
		t.Skip("logs the compiles with a shell script")
	}
	dir := gittest.NewTree(t, map[string]string{
		"go.mod": "module example.com/reuse\n\ngo 1.26\n",
		"a/a.go": "package a\n\nfunc A(n int) []int { return make([]int, n) }\n",
		"b/b.go": "package b\n\nimport \"example.com/reuse/a\"\n\nfunc B(n int) int { return len(a.A(n)) }\n",
		"c/c.go": "package c\n\nfunc C(n int) []int { return make([]int, n) }\n",
	})
	wrap := filepath.Join(t.TempDir(), "wrap.sh")
	if err := os.WriteFile(wrap, []byte("#!/bin/sh\necho \"$@\" >> \"$WRAP_LOG\"\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Every tool the go command runs is logged.
	calls := filepath.Join(t.TempDir(), "calls")
	t.Setenv("WRAP_LOG", calls)
	t.Setenv("GOFLAGS", "-toolexec="+wrap)
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	w, err := Warm(context.Background(), LoadOptions{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// The go command is given the flags of b and its dependencies only:
	// each flag costs it time for each package it loads.
	has := func(flags []string, pkg string) bool {
		return slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(f, "-gcflags="+pkg+"=") })
	}
	if flags := w.FlagsFor([]string{"example.com/reuse/b"}); !has(flags, "example.com/reuse/a") || !has(flags, "example.com/reuse/b") || has(flags, "example.com/reuse/c") || len(w.BuildFlags()) != 3 {
		t.Errorf("flags for b: %q, of %q; want a's and b's and not c's", flags, w.BuildFlags())
	}

	// As check loads it: against the export data of Warm's build.
	prog, err := load.List(context.Background(), load.Config{Dir: dir, BuildFlags: w.BuildFlags()}, "./b")
	if err != nil {
		t.Fatal(err)
	}
	load.Check(prog.Roots)
	p := prog.Roots[0]
	if len(p.Errors) > 0 {
		t.Fatalf("loading b: %v", p.Errors)
	}
	pass := &analysis.Pass{Fset: p.Fset, Files: p.Syntax, Pkg: p.Types, TypesInfo: p.TypesInfo, TypesSizes: p.TypesSizes}
	if err := os.Remove(calls); err != nil {
		t.Fatal(err)
	}
	if _, err := CompileEdited(context.Background(), pass, nil, nil); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	compiled := func(pkg string) bool {
		for _, l := range strings.Split(string(log), "\n") {
			if strings.Contains(l, "/compile ") && strings.Contains(l, " -p "+pkg+" ") {
				return true
			}
		}
		return false
	}
	if !compiled("example.com/reuse/b") {
		t.Fatalf("the edited package was not compiled; the go command ran:\n%s", log)
	}
	if compiled("example.com/reuse/a") {
		t.Errorf("the dependency a was compiled again, not reused from Warm's build")
	}
}
