package heapescape_test

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestHoistAllocs builds the hoist fixture as written (before) and as the
// hoist fixes leave it (hoist.go.golden, which TestHoistFix checks is what
// the fixes produce: after), and measures each function of both with
// testing.AllocsPerRun: every function that a fix changed must allocate
// less and compute the same (its reads leave what an earlier read wrote
// in a buffer that is not cleared); the others must compute the same.
func TestHoistAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the fixture twice")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the test needs the go command: %v", err)
	}
	src := filepath.Join("testdata", "src", "hoist")
	dir := t.TempDir()
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	write(filepath.Join(dir, "go.mod"), []byte("module measure\n\ngo 1.26\n"))
	harness := read(filepath.Join("testdata", "hoistallocs", "measure_test.go.txt"))
	before, after := read(filepath.Join(src, "hoist.go")), read(filepath.Join(src, "hoist.go.golden"))
	write(filepath.Join(dir, "before", "hoist.go"), before)
	write(filepath.Join(dir, "after", "hoist.go"), after)
	write(filepath.Join(dir, "before", "measure_test.go"), harness)
	write(filepath.Join(dir, "after", "measure_test.go"), harness)

	cmd := exec.Command(gobin, "test", "-count=1", "-run=^TestMeasure$", "-v", "./before", "./after")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	type measured struct {
		allocs float64
		result string
	}
	got := map[string]map[string]measured{"before": {}, "after": {}}
	for _, m := range regexp.MustCompile(`(?m)^MEASURE (\w+) (\w+) (\S+) (.*)$`).FindAllSubmatch(out, -1) {
		a, err := strconv.ParseFloat(string(m[3]), 64)
		if err != nil {
			t.Fatal(err)
		}
		got[string(m[1])][string(m[2])] = measured{a, string(m[4])}
	}

	changed := changedFuncs(t, before, after)
	if len(changed) == 0 {
		t.Fatal("the golden file changes no function")
	}
	for name, b := range got["before"] {
		a, ok := got["after"][name]
		if !ok {
			t.Errorf("%s: not measured after the fixes", name)
			continue
		}
		if a.result != b.result {
			t.Errorf("%s: computes %q after the fixes, %q before", name, a.result, b.result)
		}
		switch {
		case changed[name] && a.allocs >= b.allocs:
			t.Errorf("%s: %v allocations per call after the fixes, %v before; want fewer", name, a.allocs, b.allocs)
		case changed[name]:
			t.Logf("%s: %v -> %v allocations per call", name, b.allocs, a.allocs)
		case a.allocs != b.allocs:
			t.Errorf("%s, not changed by a fix: %v allocations per call after, %v before", name, a.allocs, b.allocs)
		}
	}
	for name := range changed {
		if _, ok := got["before"][name]; !ok {
			t.Errorf("%s: changed by a fix but not measured (add it to measure_test.go.txt)", name)
		}
	}
}

// changedFuncs returns the functions whose code (without comments)
// differs between the two sources of one package.
func changedFuncs(t *testing.T, before, after []byte) map[string]bool {
	t.Helper()
	funcs := func(src []byte) map[string]string {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "hoist.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		m := make(map[string]string)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				var b bytes.Buffer
				if err := format.Node(&b, fset, fd); err != nil {
					t.Fatal(err)
				}
				m[fd.Name.Name] = b.String()
			}
		}
		return m
	}
	b, a := funcs(before), funcs(after)
	changed := make(map[string]bool)
	for name, code := range b {
		if a[name] != code {
			changed[name] = true
		}
	}
	return changed
}
