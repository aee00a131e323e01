package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// TestProfileBudget measures a package whose second benchmark fails,
// whose third deadlocks, and whose fourth deadlocks only with the CPU
// profile (whose goroutine keeps the runtime from seeing the deadlock),
// which lasts past the budget, so that the fifth is not run: the first is
// measured with the exact allocations of its iterations, the others are
// skipped by name with the reason (the runtime's own, or, for the one the
// budget stopped, what its goroutine was waiting for and where), and the
// temporary files are removed.
func TestProfileBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks a fixture")
	}
	tmp := isolateTemp(t)
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := t.TempDir()
	test := `package fx

import (
	"sync"
	"testing"
)

func BenchmarkWork(b *testing.B) {
	for b.Loop() {
		Work()
	}
}

func BenchmarkFail(b *testing.B) {
	b.Fatal("broken")
}

func BenchmarkDeadlock(b *testing.B) {
	var mu sync.Mutex
	mu.Lock()
	mu.Lock()
}

func BenchmarkChan(b *testing.B) {
	ch := make(chan int)
	go func() { <-ch }()
	for b.Loop() {
		ch <- 1 // blocks on the second iteration
	}
}

func BenchmarkLater(b *testing.B) {}
`
	for name, src := range map[string]string{"go.mod": fixtureMod, "fx.go": workSource(3), "fx_test.go": test} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	budget := 10 * time.Second
	var progress []string
	m, err := Profile(context.Background(), ProfileOptions{
		Dir:       dir,
		Packages:  []ProfilePackage{{ImportPath: "example.com/fx"}},
		Benchtime: "10ms",
		Budget:    budget,
		Progress:  func(msg string) { progress = append(progress, msg) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Benchmarks) != 1 || m.Benchmarks[0].Name != "BenchmarkWork" {
		t.Fatalf("measured %v (skipped %q), want BenchmarkWork alone", m.Benchmarks, m.Skipped)
	}
	w := m.Benchmarks[0]
	heap, err := profile.ParseData(w.Heap)
	if err != nil {
		t.Fatal(err)
	}
	var objects int64
	for _, s := range heap.Sample {
		objects += s.Value[0] // alloc_objects
	}
	// The profiles name the user's files, not the copy's.
	wantFile := filepath.Join(realPath(dir), "fx.go")
	for _, data := range [][]byte{w.CPU, w.Heap} {
		p, err := profile.ParseData(data)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, fn := range p.Function {
			if filepath.Base(fn.Filename) == "fx.go" {
				found = true
				if fn.Filename != wantFile {
					t.Errorf("profile names %s, want %s", fn.Filename, wantFile)
				}
			}
		}
		if !found && len(p.Sample) > 0 && bytes.Equal(data, w.Heap) {
			t.Errorf("the heap profile names no fx.go")
		}
	}
	if objects != int64(3*w.Ops) {
		t.Errorf("BenchmarkWork's heap difference has %d objects for %d iterations, want 3 per iteration", objects, w.Ops)
	}
	want := []SkippedBenchmark{
		{Package: "example.com/fx", Name: "BenchmarkChan", Reason: "still running when the budget of 10s was spent: chan send at fx_test.go:28"},
		{Package: "example.com/fx", Name: "BenchmarkDeadlock", Reason: "failed (exit status 2): fatal error: all goroutines are asleep - deadlock!"},
		{Package: "example.com/fx", Name: "BenchmarkFail", Reason: "failed: fx_test.go:15: broken"},
		{Package: "example.com/fx", Name: "BenchmarkLater", Reason: NotRun},
	}
	slices.SortFunc(m.Skipped, func(a, b SkippedBenchmark) int { return strings.Compare(a.Name, b.Name) })
	if !slices.Equal(m.Skipped, want) {
		t.Errorf("skipped %q, want %q", m.Skipped, want)
	}
	if !slices.Contains(progress, "benchmark BenchmarkWork (1 of 5, ETA ?)") {
		t.Errorf("progress %q lacks the first benchmark's line", progress)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		t.Errorf("Profile left %d entries in TMPDIR", len(ents))
	}
}

// writeFiles writes the files, by name relative to dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		name = filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// inputsTest is the test file of TestProfileInputs: each benchmark skips
// itself unless what it reads says to run.
const inputsTest = `package fx

import (
	"os"
	"testing"
)

func run(b *testing.B, file string) {
	b.Helper()
	if data, _ := os.ReadFile(file); string(data) != "run\n" {
		b.Skipf("%s does not say run", file)
	}
	for b.Loop() {
		Work()
	}
}

func BenchmarkEnv(b *testing.B) {
	if os.Getenv("GOADVISE_TEST_INPUT") == "" {
		b.Skip("GOADVISE_TEST_INPUT is not set")
	}
	for b.Loop() {
		Work()
	}
}

func BenchmarkFile(b *testing.B) { run(b, "input.txt") }

func BenchmarkData(b *testing.B) { run(b, "testdata/input") }
`

// TestProfileInputs measures a package whose benchmarks skip themselves
// unless an environment variable is set, a file of the package says to
// run or a file of its testdata does: the measurement is taken from the
// cache while nothing they read changes, and measured again when one
// does, as it is when a file of the testdata tree that none reads
// changes.
func TestProfileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks a fixture")
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	t.Setenv("GOADVISE_TEST_INPUT", "")
	os.Unsetenv("GOADVISE_TEST_INPUT")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": fixtureMod, "fx.go": workSource(1), "fx_test.go": inputsTest, "input.txt": "skip\n", "testdata/input": "skip\n"})
	for i, step := range []struct {
		change   func()
		measured string // the benchmarks measured
		cached   bool
	}{
		{func() {}, "", false},
		{func() {}, "", true},
		{func() { os.Setenv("GOADVISE_TEST_INPUT", "1") }, "BenchmarkEnv", false},
		{func() {}, "BenchmarkEnv", true},
		{func() { writeFiles(t, dir, map[string]string{"input.txt": "run\n"}) }, "BenchmarkEnv BenchmarkFile", false},
		{func() { writeFiles(t, dir, map[string]string{"testdata/input": "run\n"}) }, "BenchmarkEnv BenchmarkFile BenchmarkData", false},
		{func() { writeFiles(t, dir, map[string]string{"testdata/unread": "x"}) }, "BenchmarkEnv BenchmarkFile BenchmarkData", false},
		{func() {}, "BenchmarkEnv BenchmarkFile BenchmarkData", true},
	} {
		step.change()
		m, err := Profile(context.Background(), ProfileOptions{
			Dir:       dir,
			Packages:  []ProfilePackage{{ImportPath: "example.com/fx", Dir: dir, Key: "fixture"}},
			Benchtime: "1x",
			Budget:    time.Minute,
		})
		if err != nil {
			t.Fatal(err)
		}
		var measured []string
		for _, b := range m.Benchmarks {
			measured = append(measured, b.Name)
		}
		if len(m.Benchmarks)+len(m.Skipped) != 3 {
			t.Errorf("measured %q, skipped %q: want each of the 3 benchmarks once", measured, m.Skipped)
		}
		cached := m.Runs == 0 && m.Cached == 1
		if got := strings.Join(measured, " "); got != step.measured || cached != step.cached {
			t.Fatalf("step %d: measured %q (%d runs, %d from the cache), skipped %q; want %q, cached %v",
				i, got, m.Runs, m.Cached, m.Skipped, step.measured, step.cached)
		}
		if step.measured == "" {
			want := SkippedBenchmark{Package: "example.com/fx", Name: "BenchmarkEnv", Reason: "the benchmark skips itself: fx_test.go:20: GOADVISE_TEST_INPUT is not set"}
			if !slices.Contains(m.Skipped, want) {
				t.Errorf("skipped %q, want %q among them", m.Skipped, want)
			}
		}
	}
}

// failuresTest is the test file of TestProfileFailures.
const failuresTest = `package fx

import (
	"os"
	"runtime"
	"testing"
)

func BenchmarkWork(b *testing.B) {
	for b.Loop() {
		Work()
	}
}

func BenchmarkExit(b *testing.B) { os.Exit(0) }

func BenchmarkPanic(b *testing.B) { panic("boom") }

// BenchmarkGoexit ends its goroutine without returning, as a panic does
// whose report the test binary's exit cuts short.
func BenchmarkGoexit(b *testing.B) { runtime.Goexit() }

func BenchmarkSubs(b *testing.B) {
	b.Run("exit", func(b *testing.B) { os.Exit(0) })
	b.Run("panic", func(b *testing.B) { panic("sub boom") })
	b.Run("work", func(b *testing.B) {
		for b.Loop() {
			Work()
		}
	})
}

func BenchmarkSkip(b *testing.B) { b.Skip("not today") }
`

// TestProfileFailures measures, 6 times with an empty cache, a package
// whose benchmarks call os.Exit(0), panic, end their goroutine, do so in
// sub-benchmarks of one benchmark, and skip themselves: every run names
// every one of them and measures the others, and the cache never holds
// the package (a run that crashed wrote no test log: what it read is
// unknown). The runs go two at a time, which also loads the machine as
// the race that unfinished describes needs.
func TestProfileFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks a fixture 6 times")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": fixtureMod, "fx.go": workSource(1), "fx_test.go": failuresTest})
	cache := t.TempDir()
	t.Setenv("GOADVISE_CACHE", cache)
	exit := "failed (exit status 2): panic: unexpected call to os.Exit(0) during test"
	want := []SkippedBenchmark{
		{Name: "BenchmarkExit", Reason: exit},
		{Name: "BenchmarkGoexit", Reason: errUnfinished.Error()},
		{Name: "BenchmarkPanic", Reason: "failed (exit status 2): panic: boom"},
		{Name: "BenchmarkSkip", Reason: "the benchmark skips itself: fx_test.go:33: not today"},
		{Name: "BenchmarkSubs/exit", Reason: exit},
		{Name: "BenchmarkSubs/panic", Reason: "failed (exit status 2): panic: sub boom"},
	}
	var wg sync.WaitGroup
	sem := make(chan bool, 2)
	for run := range 6 {
		wg.Add(1)
		sem <- true
		go func() {
			defer func() { <-sem; wg.Done() }()
			m, err := Profile(context.Background(), ProfileOptions{
				Dir:       dir,
				Packages:  []ProfilePackage{{ImportPath: "example.com/fx", Dir: dir, Key: "fixture"}},
				Benchtime: "1x",
				Budget:    time.Minute,
			})
			if err != nil {
				t.Errorf("run %d: %v", run, err)
				return
			}
			var measured []string
			for _, b := range m.Benchmarks {
				measured = append(measured, b.Name)
			}
			slices.Sort(measured)
			if !slices.Equal(measured, []string{"BenchmarkSubs/work", "BenchmarkWork"}) {
				t.Errorf("run %d: measured %q, want BenchmarkSubs/work and BenchmarkWork", run, measured)
			}
			slices.SortFunc(m.Skipped, func(a, b SkippedBenchmark) int { return strings.Compare(a.Name, b.Name) })
			ok := len(m.Skipped) == len(want)
			for i := 0; ok && i < len(want); i++ {
				// A crash that the test binary's exit hid in every
				// run made to learn why is named without the reason.
				s := m.Skipped[i]
				ok = s.Package == "example.com/fx" && s.Name == want[i].Name && (s.Reason == want[i].Reason || s.Reason == errUnfinished.Error())
			}
			if !ok {
				t.Errorf("run %d: skipped %q, want %q", run, m.Skipped, want)
			}
			// Had a run stored the package, the next would have
			// taken it from the cache.
			if m.Cached != 0 {
				t.Errorf("run %d: %d packages from the cache, want none", run, m.Cached)
			}
		}()
	}
	wg.Wait()
	if ents, err := os.ReadDir(filepath.Join(cache, "benchprof")); err == nil && len(ents) > 0 {
		t.Errorf("the cache holds %d entries, want none", len(ents))
	}
}
