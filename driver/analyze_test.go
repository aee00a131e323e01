package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestMemoryBound checks the soft memory limit check runs under: the goal
// at first, raised by atLeast and never lowered by it, the previous limit
// restored at the end, and none of it when the user set GOGC or
// GOMEMLIMIT.
func TestMemoryBound(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		t.Skip("GOMEMLIMIT or GOGC is set: check leaves the limit alone")
	}
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	gcPercent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	before, beforeGC := limit(), gcPercent()
	b := boundMemory(3, 2)
	if got := limit(); got != memoryGoal {
		t.Errorf("limit after boundMemory = %d, want %d", got, memoryGoal)
	}
	if got := gcPercent(); got != -1 {
		t.Errorf("GOGC percentage after boundMemory = %d, want -1 (the limit alone collects)", got)
	}
	b.atLeast(memoryGoal / 2)
	if got := limit(); got != memoryGoal {
		t.Errorf("limit after atLeast(goal/2) = %d, want it kept at %d", got, memoryGoal)
	}
	b.atLeast(3 * memoryGoal)
	if got := limit(); got != 3*memoryGoal {
		t.Errorf("limit after atLeast(3*goal) = %d, want %d", got, 3*memoryGoal)
	}
	b.restore()
	if got := limit(); got != before {
		t.Errorf("limit after restore = %d, want the previous %d", got, before)
	}
	if got := gcPercent(); got != beforeGC {
		t.Errorf("GOGC percentage after restore = %d, want the previous %d", got, beforeGC)
	}

	t.Setenv("GOGC", "100")
	b = boundMemory(3, 2)
	b.atLeast(3 * memoryGoal)
	if got := limit(); got != before {
		t.Errorf("with GOGC set: limit = %d, want it left at %d", got, before)
	}
	if got := gcPercent(); got != beforeGC {
		t.Errorf("with GOGC set: GOGC percentage = %d, want it left at %d", got, beforeGC)
	}
	b.restore()
}

// TestAnalyzeCancelled cancels the run from inside the first batch's
// analysis, as Ctrl-C does: analyze must stop before the other batches,
// with the findings cache's listing (batches of the packages it missed)
// and without it (batches of the packages package load listed).
func TestAnalyzeCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a tree of many packages")
	}
	const n = 24 // three batches at least: batches hold at most 8
	dir := gittest.NewTree(t, manyPackages("example.com/cancel", n))
	for _, env := range []string{"GOADVISE_CACHE", "GOADVISE_NOCACHE"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, t.TempDir())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var ran atomic.Int32
			a := &analysis.Analyzer{
				Name: "cancel",
				Doc:  "cancels the run",
				Run: func(*analysis.Pass) (any, error) {
					ran.Add(1)
					cancel()
					return nil, nil
				},
			}
			_, err := analyze(ctx, &Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{a}, progress: func(string) {}})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("analyze = %v, want context.Canceled", err)
			}
			if got := ran.Load(); got == 0 || got > 8 {
				t.Errorf("the analyzer ran on %d packages, want those of the first batch only (1 to 8 of %d)", got, n)
			}
		})
	}
}

// TestAnalyzeCancelledNotCached cancels the run from inside the first
// batch's analysis, which then finishes after analyze has returned: its
// findings, which a stopped compile may have cut short, must not be
// cached, and a second run analyses every package.
func TestAnalyzeCancelledNotCached(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a tree of many packages")
	}
	const n = 4
	dir := gittest.NewTree(t, manyPackages("example.com/nocache", n))
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	// Two analyzers of one name: the findings cache takes them for one.
	late := func(run func()) *analysis.Analyzer {
		return &analysis.Analyzer{Name: "late", Doc: "runs run", Run: func(*analysis.Pass) (any, error) { run(); return nil, nil }}
	}
	ctx, cancel := context.WithCancel(context.Background())
	release, finished := make(chan struct{}), make(chan struct{})
	var once sync.Once
	first := late(func() {
		once.Do(func() {
			cancel()
			<-release
			close(finished)
		})
	})
	_, err := analyze(ctx, &Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{first}, progress: func(string) {}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("analyze = %v, want context.Canceled", err)
	}
	// The first batch's analysis goes on: let it finish, and give it
	// the time to store its findings, were it to.
	close(release)
	<-finished
	time.Sleep(500 * time.Millisecond)

	var ran atomic.Int32
	second := late(func() { ran.Add(1) })
	if _, err := analyze(context.Background(), &Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: []*analysis.Analyzer{second}, progress: func(string) {}}); err != nil {
		t.Fatal(err)
	}
	if got := ran.Load(); got != n {
		t.Errorf("the second run analysed %d of %d packages; the interrupted run cached the others", got, n)
	}
}

// pkgFile is a package with one deepequal finding.
func pkgFile(name string) string {
	return "package " + name + "\n\nimport \"reflect\"\n\n// Same compares.\nfunc Same(a, b []byte) bool { return reflect.DeepEqual(a, b) }\n"
}

// manyPackages returns the files of module with n packages p00, p01, ...,
// each with one deepequal finding.
func manyPackages(module string, n int) map[string]string {
	files := map[string]string{"go.mod": "module " + module + "\n\ngo 1.26\n"}
	for i := range n {
		name := fmt.Sprintf("p%02d", i)
		files[name+"/p.go"] = pkgFile(name)
	}
	return files
}

// TestSourceLinesGenerated checks the lines of files another project's
// tool generated, which give their package no share of the default: a
// protoc-gen-go file's, not a file the module's own tool made, nor one
// whose first declaration's doc says DO NOT EDIT; and that the findings
// read the same answer (res.gen) without reading the files again.
func TestSourceLinesGenerated(t *testing.T) {
	dir := gittest.NewTree(t, map[string]string{
		"a.pb.go":  "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage p\n\nvar A = 1\n",
		"own.go":   "// Code generated by gen.go. DO NOT EDIT.\n\npackage p\n",
		"gen.go":   "//go:build ignore\n\npackage main\n",
		"order.go": "package p\n\n// DO NOT EDIT the order of these.\nvar order = []int{1, 2}\n",
	})
	res := &analysisResult{gen: generatedFiles{}}
	n, elsewhere := res.sourceLines(dir, []string{"a.pb.go", "own.go", "order.go"}, "example.com/m", dir)
	if n != 5+3+4 || elsewhere != 5 {
		t.Errorf("sourceLines = %d lines, %d elsewhere; want 12, 5 (a.pb.go's)", n, elsewhere)
	}
	for name, want := range map[string]genFile{"a.pb.go": {true, true}, "own.go": {true, false}, "order.go": {}} {
		path := filepath.Join(dir, name)
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if got := res.gen.of(path, nil, "example.com/m", dir); got != want {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
}
