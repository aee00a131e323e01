package bench

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// coverSource is a package whose functions are run by different
// benchmarks of coverTest; each line named in TestBenchmarkCoverage ends
// in a comment that names it.
const coverSource = `package fx

var sink []byte

var table = initTable() // init

func initTable() []byte {
	return make([]byte, 4) // initTable
}

// Encode is run by BenchmarkEncode only.
func Encode(n int) {
	sink = make([]byte, n) // encode
	if n > 1000 {
		sink = nil // never
	}
}

// Decode is run by BenchmarkDecode and by BenchmarkBoth's sub-benchmark.
func Decode(
	n int, // signature
) int {
	return n + len(table) // decode
}

// Kind is run by BenchmarkKind, whose values never take its first case.
func Kind(n int) int {
	switch {
	case n < 0: // rare
		return 0
	default:
		return n
	}
}

// Warm does its work from the second call on.
var calls int

func Warm() {
	calls++
	if calls > 1 {
		sink = nil // warm
	}
}
`

const coverTest = `package fx

import (
	"fmt"
	"testing"
)

func TestDecode(t *testing.T) {
	if Decode(1) != 5 {
		t.Fatal("Decode(1) != 5")
	}
}

func BenchmarkEncode(b *testing.B) {
	for b.Loop() {
		Encode(8)
	}
}

func BenchmarkDecode(b *testing.B) {
	for b.Loop() {
		Decode(8)
	}
}

func BenchmarkBoth(b *testing.B) {
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			Decode(8)
		}
	})
}

func BenchmarkWarm(b *testing.B) {
	for b.Loop() {
		Warm()
	}
}

func BenchmarkKind(b *testing.B) {
	for b.Loop() {
		Kind(8)
	}
}

func BenchmarkNoisy(b *testing.B) {
	fmt.Println("size = 9MB")
	for range b.N {
		Encode(8)
	}
}
`

// TestBenchmarkCoverage checks which benchmarks BenchmarkCoverage finds
// running each line: the line's block, sub-benchmarks counted for their
// parent, a signature line by its function, none for code the package's
// initialization runs or no benchmark reaches, and code reached after the
// first iteration.
func TestBenchmarkCoverage(t *testing.T) {
	tmp := isolateTemp(t)
	dir := gittest.NewRepo(t, map[string]string{"go.mod": fixtureMod, "fx.go": coverSource, "fx_test.go": coverTest})
	before := gittest.Snapshot(t, dir)
	c, err := BenchmarkCoverage(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"BenchmarkEncode", "BenchmarkDecode", "BenchmarkBoth", "BenchmarkWarm", "BenchmarkKind", "BenchmarkNoisy"}; !slices.Equal(c.Benchmarks, want) {
		t.Errorf("Benchmarks = %v, want %v", c.Benchmarks, want)
	}
	// BenchmarkNoisy prints while it runs: its result line cannot be
	// read, so it is never chosen, though it runs Encode.
	if want := []string{"BenchmarkNoisy"}; !slices.Equal(c.Unreadable, want) {
		t.Errorf("Unreadable = %v, want %v", c.Unreadable, want)
	}
	file := filepath.Join(dir, "fx.go")
	lineOf := func(mark string) int {
		for i, l := range strings.Split(coverSource, "\n") {
			if strings.HasSuffix(l, "// "+mark) {
				return i + 1
			}
		}
		t.Fatalf("no line marked %q", mark)
		return 0
	}
	for _, tc := range []struct {
		mark string
		want []string
	}{
		{"encode", []string{"BenchmarkEncode"}},
		{"never", nil},
		{"decode", []string{"BenchmarkDecode", "BenchmarkBoth"}},
		{"signature", []string{"BenchmarkDecode", "BenchmarkBoth"}},
		{"initTable", nil},
		{"init", nil},
		{"warm", []string{"BenchmarkWarm"}},
		{"rare", nil},
	} {
		if got := c.Covering(file, lineOf(tc.mark)); !slices.Equal(got, tc.want) {
			t.Errorf("line %q: covered by %v, want %v", tc.mark, got, tc.want)
		}
	}
	// A case no benchmark takes is in a function BenchmarkKind runs.
	if got, want := c.CoveringFunc(file, lineOf("rare")), []string{"BenchmarkKind"}; !slices.Equal(got, want) {
		t.Errorf("function of line \"rare\": covered by %v, want %v", got, want)
	}
	if got := c.CoveringFunc(file, lineOf("never")); !slices.Equal(got, []string{"BenchmarkEncode"}) {
		t.Errorf("function of line \"never\": covered by %v, want [BenchmarkEncode]", got)
	}
	// A file of another directory is not the package's.
	other := filepath.Join(t.TempDir(), "fx.go")
	os.WriteFile(other, []byte(coverSource), 0o666)
	if got := c.Covering(other, lineOf("encode")); got != nil {
		t.Errorf("a file outside the package: covered by %v, want none", got)
	}
	gittest.CheckSnapshot(t, dir, before)
	checkTempClean(t, tmp)
}

// TestBenchmarkCoverageNoTests checks that a package without test files
// has no benchmarks and no error.
func TestBenchmarkCoverageNoTests(t *testing.T) {
	dir := gittest.NewRepo(t, map[string]string{"go.mod": fixtureMod, "fx.go": coverSource})
	c, err := BenchmarkCoverage(context.Background(), dir)
	if err != nil || len(c.Benchmarks) != 0 {
		t.Fatalf("BenchmarkCoverage = %+v, %v; want no benchmarks", c, err)
	}
	if got := c.Covering(filepath.Join(dir, "fx.go"), 13); got != nil {
		t.Errorf("covered by %v, want none", got)
	}
}

// TestBenchmarksExecute checks which lines of other packages the
// benchmarks matching a pattern execute: a dependency's function that
// BenchmarkRun calls, not the one only BenchmarkIdle calls, not a line of
// a main package the test binary cannot link, and a signature line by its
// function.
func TestBenchmarksExecute(t *testing.T) {
	tmp := isolateTemp(t)
	dir := gittest.NewRepo(t, map[string]string{
		"go.mod": fixtureMod,
		"fx.go": `package fx

import "example.com/fx/dep"

func Run(n int) int { return dep.Twice(n) }

func Idle() int { return dep.Half(4) }
`,
		"fx_test.go": `package fx

import "testing"

func BenchmarkRun(b *testing.B) {
	for b.Loop() {
		Run(3)
	}
}

func BenchmarkIdle(b *testing.B) {
	for b.Loop() {
		Idle()
	}
}
`,
		"dep/dep.go": `package dep

func Twice(n int) int {
	return 2 * n
}

func Half(
	n int,
) int {
	return n / 2
}
`,
		"cmd/m/main.go": `package main

import "example.com/fx"

func main() {
	println(fx.Run(1))
}
`,
	})
	dep, main := filepath.Join(dir, "dep", "dep.go"), filepath.Join(dir, "cmd", "m", "main.go")
	lines := []PackageLine{
		{"example.com/fx/dep", dep, 4},    // return 2 * n
		{"example.com/fx/dep", dep, 10},   // return n / 2
		{"example.com/fx/dep", dep, 8},    // n int, in Half's signature
		{"example.com/fx/cmd/m", main, 6}, // println
		{"example.com/fx/dep", dep, 3},    // Twice's signature
	}
	ran, err := BenchmarksExecute(context.Background(), dir, "^BenchmarkRun$", lines[:5])
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, false, false, true}; !slices.Equal(ran, want) {
		t.Errorf("BenchmarkRun executes %v, want %v", ran, want)
	}
	ran, err = BenchmarksExecute(context.Background(), dir, "^BenchmarkIdle$", lines[:3])
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{false, true, true}; !slices.Equal(ran, want) {
		t.Errorf("BenchmarkIdle executes %v, want %v", ran, want)
	}
	checkTempClean(t, tmp)
}
