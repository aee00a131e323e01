package smallalloc_test

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
	"github.com/goadvise/goadvise/analyzer/smallalloc"
)

// TestEndToEnd runs the analyzer on a fixture module with benchmarks,
// applies its fixes, and checks with -benchmem that allocs/op dropped by
// exactly the number of allocations the findings predicted, that the fixed
// code is gofmt-clean and vet-clean, and that the fixture's tests still
// pass.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on a fixture module (a few seconds)")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the end-to-end test needs the go command: %v", err)
	}
	dir := t.TempDir()
	for dst, src := range map[string]string{
		"fixture.go":      "fixture.go.txt",
		"fixture_test.go": "fixture_test.go.txt",
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "e2e", src))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, dst), b)
	}
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module fixture\n\ngo 1.26\n"))
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")

	before := benchAllocs(t, gobin, dir, env)

	// Analyze and apply the fixes.
	diags, fset := fixtest.Analyze(t, smallalloc.Analyzer, dir, env, false)

	// Predict the saving per benchmark from the messages.
	funcOf := map[int]string{} // fixture line -> function
	for i, line := range strings.Split(readFile(t, filepath.Join(dir, "fixture.go")), "\n") {
		if m := regexp.MustCompile(`^func (?:\([^)]*\) )?(\w+)`).FindStringSubmatch(line); m != nil {
			funcOf[i+1] = m[1]
		}
	}
	// Each benchmark op makes one call; the loops run 10 iterations.
	bench := map[string]string{"Message": "BenchmarkMessage", "Sum": "BenchmarkSum10", "Xor": "BenchmarkXor10"}
	want := map[string]int{}
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 {
			t.Errorf("%s: no fix: %s", fset.Position(d.Pos), d.Message)
			continue
		}
		line := fset.Position(d.Pos).Line
		fn := ""
		for l := line; l > 0 && fn == ""; l-- {
			fn = funcOf[l]
		}
		b := bench[fn]
		switch {
		case strings.Contains(d.Message, "saves 1 allocation per call"):
			want[b] += 1
		case strings.Contains(d.Message, "saves 1 allocation per iteration (all but the first)"):
			want[b] += 10 - 1
		default:
			t.Errorf("%s: no saving stated: %s", fset.Position(d.Pos), d.Message)
		}
	}
	if len(want) != 3 {
		t.Fatalf("findings predict savings for %v, want all three benchmarks", want)
	}
	fixed, err := applyFixes(fset, diags)
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range fixed {
		if formatted, err := format.Source(src); err != nil || !bytes.Equal(formatted, src) {
			t.Errorf("fixed %s is not gofmt-clean (%v):\n%s", filepath.Base(name), err, src)
		}
		writeFile(t, name, src)
	}
	run(t, dir, env, gobin, "vet", ".")
	run(t, dir, env, gobin, "test", "-count=1", ".")

	after := benchAllocs(t, gobin, dir, env)
	for b, saved := range want {
		if got := before[b] - after[b]; got != saved {
			t.Errorf("%s: allocs/op %d -> %d, dropped by %d; the findings predicted %d", b, before[b], after[b], got, saved)
		} else {
			t.Logf("%s: allocs/op %d -> %d, as predicted", b, before[b], after[b])
		}
	}
}

// benchAllocs runs the fixture's benchmarks and returns allocs/op by
// benchmark name.
func benchAllocs(t *testing.T, gobin, dir string, env []string) map[string]int {
	out := run(t, dir, env, gobin, "test", "-run=^$", "-bench=.", "-benchmem", "-benchtime=1000x", "-count=1", ".")
	allocs := make(map[string]int)
	re := regexp.MustCompile(`(?m)^(Benchmark\w+?)(?:-\d+)?\s.*\s(\d+) allocs/op`)
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[2])
		allocs[m[1]] = n
	}
	if len(allocs) != 3 {
		t.Fatalf("parsed %v from benchmark output:\n%s", allocs, out)
	}
	return allocs
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeFile(t *testing.T, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o666); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
