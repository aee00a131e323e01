package pgo

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The fixture is a small module whose benchmark produces real CPU and heap
// profiles. It is built once per test binary.
var fixtureFiles = map[string]string{
	"go.mod": "module example.com/fix\n\ngo 1.22\n",
	"work/work.go": `package work

import "reflect"

// Sum is the hot loop; mix is too big to inline without PGO.
func Sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += mix(x)
	}
	return t
}

func mix(x int) int {
	x ^= x >> 33
	x *= 0x7f4a7c15
	x ^= x >> 29
	x *= 0x3c6ef372
	x ^= x >> 32
	x += x << 3
	x ^= x >> 11
	x += x << 15
	x ^= x >> 7
	x *= 0x2545F491
	x ^= x >> 13
	return x
}

// Alloc allocates on every iteration.
func Alloc(n int) int {
	var keep [][]byte
	for i := 0; i < n; i++ {
		keep = append(keep, make([]byte, 64+i%8))
	}
	return len(keep)
}

// Same compares with reflect.DeepEqual.
func Same(a, b map[string]int) bool {
	return reflect.DeepEqual(a, b)
}

// Apply calls a closure.
func Apply(xs []int) int {
	f := func(x int) int {
		return mix(x) + 1
	}
	t := 0
	for _, x := range xs {
		t += f(x)
	}
	return t
}
`,
	"work/work_test.go": `package work

import "testing"

var xs = func() []int {
	s := make([]int, 4096)
	for i := range s {
		s[i] = i * 7
	}
	return s
}()

var sink int

func BenchmarkSum(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Sum(xs)
	}
}

func BenchmarkAlloc(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Alloc(64)
	}
}

func BenchmarkSame(b *testing.B) {
	m1 := map[string]int{"a": 1, "b": 2, "c": 3}
	m2 := map[string]int{"a": 1, "b": 2, "c": 3}
	for i := 0; i < b.N; i++ {
		// Twenty comparisons per iteration: as much CPU as the other
		// benchmarks get from -benchtime's fixed iteration count.
		for range 20 {
			if Same(m1, m2) {
				sink++
			}
		}
	}
}

func BenchmarkApply(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Apply(xs)
	}
}
`,
	"cmd/app/main.go": `package main

import (
	"os"

	"example.com/fix/work"
)

func main() {
	xs := make([]int, len(os.Args)*1000)
	os.Exit(work.Sum(xs) + work.Apply(xs) + work.Alloc(3) & 1)
}
`,
}

type fixtureData struct {
	dir  string // module root (read-only: copy before editing)
	cpu  string // CPU profile of the benchmarks
	heap string // heap profile of the benchmarks
	err  error
}

var (
	fixtureOnce sync.Once
	fixtureRes  fixtureData
	fixtureRoot string
)

// fixture returns the fixture module and its profiles.
func fixture(t testing.TB) fixtureData {
	t.Helper()
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pgofixture")
		if err != nil {
			fixtureRes.err = err
			return
		}
		fixtureRoot = dir
		mod := filepath.Join(dir, "fix")
		if err := writeTree(mod, fixtureFiles); err != nil {
			fixtureRes.err = err
			return
		}
		cpu, heap := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "heap.pprof")
		// A fixed number of iterations, not a wall time: on a loaded
		// machine a timed run gets less CPU, and so fewer samples.
		cmd := exec.Command("go", "test", "-run=^$", "-bench=.", "-benchtime=5000x",
			"-cpuprofile="+cpu, "-memprofile="+heap, "-memprofilerate=512", "-o", filepath.Join(dir, "work.test"), "./work")
		cmd.Dir = mod
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			fixtureRes.err = fmt.Errorf("go test -cpuprofile: %v\n%s", err, out.String())
			return
		}
		fixtureRes = fixtureData{dir: mod, cpu: cpu, heap: heap}
	})
	if fixtureRes.err != nil {
		t.Fatal(fixtureRes.err)
	}
	return fixtureRes
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureRoot != "" {
		os.RemoveAll(fixtureRoot)
	}
	os.Exit(code)
}

func writeTree(root string, files map[string]string) error {
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyFixture copies the fixture module to a new directory for editing.
func copyFixture(t *testing.T) string {
	t.Helper()
	fx := fixture(t)
	dst := filepath.Join(t.TempDir(), "fix")
	err := filepath.WalkDir(fx.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(fx.dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return writeTree(dst, map[string]string{filepath.ToSlash(rel): string(data)})
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// lineOf returns the 1-based line of the first line of file containing s.
func lineOf(t testing.TB, file, s string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line contains %q", file, s)
	return 0
}
