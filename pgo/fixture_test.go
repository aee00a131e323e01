package pgo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// regenProfiles makes fixture profile the fixture's benchmarks again and
// write the profiles to testdata, as it must after the fixture changes.
var regenProfiles = flag.Bool("regen", false, "profile the fixture again and write testdata/work.*.pprof")

// The fixture's profiles are fixed files (testdata/work.cpu.pprof and
// work.heap.pprof), made from the sources whose SHA-256 work.pprof.sum
// holds: the standard library built with a profile stays in the build
// cache only while the profile's content does not change.
const (
	fixtureCPU  = "testdata/work.cpu.pprof"
	fixtureHeap = "testdata/work.heap.pprof"
	fixtureSum  = "testdata/work.pprof.sum"
)

// fixtureSources returns the SHA-256 of the fixture's sources, in hex.
func fixtureSources() string {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(fixtureFiles)) {
		fmt.Fprintf(h, "%s\n%d\n%s", name, len(fixtureFiles[name]), fixtureFiles[name])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// profileFixture runs the fixture module's benchmarks in mod with CPU and
// heap profiles, and writes them to testdata with the sources' sum.
func profileFixture(mod, dir, cpu, heap string) error {
	// A fixed number of iterations, not a wall time: on a loaded
	// machine a timed run gets less CPU, and so fewer samples.
	cmd := exec.Command("go", "test", "-run=^$", "-bench=.", "-benchtime=5000x",
		"-cpuprofile="+cpu, "-memprofile="+heap, "-memprofilerate=512", "-o", filepath.Join(dir, "work.test"), "./work")
	cmd.Dir = mod
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go test -cpuprofile: %v\n%s", err, out.String())
	}
	if err := copyFiles(map[string]string{cpu: fixtureCPU, heap: fixtureHeap}); err != nil {
		return err
	}
	return os.WriteFile(fixtureSum, []byte(fixtureSources()+"\n"), 0o644)
}

// copyProfiles copies the fixture's profiles from testdata to cpu and
// heap, after checking that they were made from today's sources.
func copyProfiles(cpu, heap string) error {
	sum, err := os.ReadFile(fixtureSum)
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(sum)) != fixtureSources() {
		return fmt.Errorf("%s and %s were made from other sources than the fixture's: run go test ./pgo -args -regen", fixtureCPU, fixtureHeap)
	}
	return copyFiles(map[string]string{fixtureCPU: cpu, fixtureHeap: heap})
}

// copyFiles copies each file of files (source to destination).
func copyFiles(files map[string]string) error {
	for src, dst := range files {
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

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
		if *regenProfiles {
			fixtureRes.err = profileFixture(mod, dir, cpu, heap)
		} else {
			fixtureRes.err = copyProfiles(cpu, heap)
		}
		if fixtureRes.err != nil {
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
