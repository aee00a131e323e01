package optlog

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestVetConfig writes a vet configuration for the fixture package the way
// go vet does (export data of the dependencies from the build cache) and
// checks that compiling the unit from it gives the same heap decisions as
// the check-mode build.
func TestVetConfig(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, fixture)
	u := useVetUnit(t, dir, "fix/a")

	start := time.Now()
	recs, cached, err := compileUnit(context.Background(), u.cfg)
	if err != nil {
		t.Fatal(err)
	}
	compileTime := time.Since(start)
	vet := exec.Command("go", "vet", "./a")
	vet.Dir = dir
	start = time.Now()
	vet.Run()
	t.Logf("vet unit compile: %v; plain go vet ./a (warm): %v", compileTime, time.Since(start))
	if cached {
		t.Errorf("first compile of the unit served from cache")
	}
	want := heapSet(collectOne(t, dir, "fix/a").Records)
	diffSets(t, "vet unit fix/a", want, heapSet(recs))

	// The second compile of the unchanged unit is served from the cache.
	recs2, cached, err := compileUnit(context.Background(), u.cfg)
	if err != nil || !cached || len(recs2) != len(recs) {
		t.Errorf("second compile: cached=%v err=%v records %d, want cached, %d records", cached, err, len(recs2), len(recs))
	}

	// A malformed configuration is a clear error naming the file.
	bad := filepath.Join(t.TempDir(), "bad.cfg")
	os.WriteFile(bad, []byte("{"), 0o666)
	if _, err := ReadVetUnit(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("malformed vet config: got %v, want an error naming %s", err, bad)
	}
}

// useVetUnit writes a vet configuration for the package importPath of the
// module in dir the way go vet does (export data of the dependencies from
// the build cache) and provides it to the Analyzer.
func useVetUnit(t *testing.T, dir, importPath string) *VetUnit {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Export,Dir,GoFiles,Imports,Standard", importPath)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v%s", err, stderrOf(err))
	}
	cfg := vetConfigFile{
		ID:          importPath,
		ImportPath:  importPath,
		GoVersion:   "go1.26",
		ImportMap:   map[string]string{},
		PackageFile: map[string]string{},
		Standard:    map[string]bool{},
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath, Export, Dir string
			GoFiles, Imports        []string
			Standard                bool
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.ImportPath == importPath {
			cfg.Dir = p.Dir
			for _, f := range p.GoFiles {
				cfg.GoFiles = append(cfg.GoFiles, filepath.Join(p.Dir, f))
			}
			for _, imp := range p.Imports {
				cfg.ImportMap[imp] = imp
			}
			continue
		}
		cfg.PackageFile[p.ImportPath] = p.Export
		cfg.Standard[p.ImportPath] = p.Standard
	}
	data, _ := json.Marshal(cfg)
	cfgPath := filepath.Join(t.TempDir(), "vet.cfg")
	if err := os.WriteFile(cfgPath, data, 0o666); err != nil {
		t.Fatal(err)
	}
	u, err := ReadVetUnit(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	u.Provide(false)
	t.Cleanup(u.forget)
	return u
}

// TestVetLogNames compiles, as go vet's units, a main package and a
// package whose store.go has the base name of a file of another package
// compiled into it (see logFixture), and checks each against go build
// -gcflags=-m.
func TestVetLogNames(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, logFixture)
	for _, pkg := range []string{"lf/cmd/b", "lf/app"} {
		u := useVetUnit(t, dir, pkg)
		recs, _, err := compileUnit(context.Background(), u.cfg)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		diffSets(t, "vet unit "+pkg, compilerHeap(t, dir, pkg), heapSet(recs))
	}
}

// TestVetFrontEnd compiles go vet's units with goadvise's copy of the
// compiler that stops after escape analysis (package frontend) and checks
// that it gives the decisions the toolchain's compiler gives, without the
// back end's, and that it compiles a package with a //go:embed
// directive, which the toolchain's compiler refuses without the embedding
// configuration that a vet configuration does not have.
func TestVetFrontEnd(t *testing.T) {
	out, err := exec.Command("go", "env", "GOTOOLDIR").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOTOOLDIR", strings.TrimSpace(string(out)))
	files := map[string]string{
		"e/e.go":     "package e\n\nimport _ \"embed\"\n\n//go:embed data.txt\nvar data string\n\nvar G any\n\nfunc F() { x := data + \"!\"; G = &x }\n",
		"e/data.txt": "data\n",
	}
	for name, src := range fixture {
		files[name] = src
	}
	dir := gittest.NewTree(t, files)
	decisions := func(recs []Record) (map[string]bool, int) {
		set := make(map[string]bool)
		back := 0
		for _, r := range recs {
			switch r.Kind {
			case BoundsCheck, SliceBoundsCheck, NilCheck:
				back++
			default:
				set[r.Kind.String()+" "+r.Pos.String()+" "+r.Message] = true
			}
		}
		return set, back
	}
	compile := func(pkg, frontEnd string) ([]Record, error) {
		t.Setenv("GOADVISE_CACHE", t.TempDir())
		t.Setenv("GOADVISE_FRONTEND", frontEnd)
		u := useVetUnit(t, dir, pkg)
		recs, _, err := compileUnit(context.Background(), u.cfg)
		return recs, err
	}
	full, err := compile("fix/a", "off")
	if err != nil {
		t.Fatal(err)
	}
	fe, err := compile("fix/a", "")
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(os.Getenv("GOADVISE_CACHE"), "frontend", "*", "compile")); len(m) != 1 {
		t.Fatalf("no front-end compiler built in the cache: %v", m)
	}
	want, wantBack := decisions(full)
	got, gotBack := decisions(fe)
	if wantBack == 0 || gotBack != 0 {
		t.Errorf("back-end records: %d with the toolchain's compiler, %d with the front end; want some, none", wantBack, gotBack)
	}
	if len(want) < 20 {
		t.Fatalf("only %d decisions from the toolchain's compiler; the test checks nothing", len(want))
	}
	for d := range want {
		if !got[d] {
			t.Errorf("front end lacks %s", d)
		}
	}
	for d := range got {
		if !want[d] {
			t.Errorf("front end adds %s", d)
		}
	}

	if _, err := compile("fix/e", "off"); err == nil || !strings.Contains(err.Error(), "go:embed") {
		t.Errorf("embedding package with the toolchain's compiler: %v, want its go:embed error", err)
	}
	recs, err := compile("fix/e", "")
	if err != nil {
		t.Fatal(err)
	}
	diffSets(t, "vet unit fix/e", compilerHeap(t, dir, "fix/e"), heapSet(recs))
}

// stderrOf returns ": " and what the command that failed with err
// printed on standard error, if it printed anything.
func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return ": " + strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}
