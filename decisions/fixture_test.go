package decisions

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// run runs a command in dir and returns its combined output.
func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// testEnv isolates package optlog's cache in the test's directory.
func testEnv(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	t.Setenv("GOFLAGS", "-mod=mod")
}

const shapesGoMod = "module example.com/fx\n\ngo 1.26\n"

// shapesSrc has an interface call dominated by one concrete type (Total)
// and a hot call of a function over the default inlining budget whose
// result escapes when it is not inlined (Checksum calling scan).
const shapesSrc = `// Package shapes is a fixture for pgo explain.
package shapes

// Shape is a shape with an area.
type Shape interface{ Area() float64 }

// Rect is a rectangle.
type Rect struct{ W, H float64 }

// Area returns a smoothed area of r.
func (r *Rect) Area() float64 {
	a := r.W * r.H
	for i := 0; i < 16; i++ {
		a = a*0.5 + r.W
	}
	return a
}

// Circle is a circle.
type Circle struct{ R float64 }

// Area returns the area of c.
func (c *Circle) Area() float64 { return 3.14159 * c.R * c.R }

// Total sums the areas of shapes.
func Total(shapes []Shape) float64 {
	s := 0.0
	for _, x := range shapes {
		s += x.Area()
	}
	return s
}

// Token is a parsed token.
type Token struct {
	Kind  int
	Value uint64
	Sum   uint64
}

// scan parses s into a new token; it is too large to inline by default.
func scan(s string) *Token {
	t := &Token{}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			t.Value = t.Value*10 + uint64(c-'0')
			t.Kind |= 1
		case c >= 'a' && c <= 'z':
			t.Sum = t.Sum*31 + uint64(c)
			t.Kind |= 2
		case c == ' ' || c == '\t':
			t.Kind |= 4
		default:
			t.Sum ^= uint64(c) << (i % 7)
			t.Kind |= 8
		}
	}
	return t
}

// Checksum scans each word and combines the results.
func Checksum(words []string) uint64 {
	var h uint64
	for _, w := range words {
		t := scan(w)
		h = h*1099511628211 ^ t.Value ^ t.Sum ^ uint64(t.Kind)
	}
	return h
}
`

const shapesTest = `package shapes

import (
	"strings"
	"testing"
)

var sink float64
var hsink uint64

func BenchmarkTotal(b *testing.B) {
	shapes := make([]Shape, 1000)
	for i := range shapes {
		shapes[i] = &Rect{W: float64(i), H: 2}
	}
	shapes[0] = &Circle{R: 1}
	for b.Loop() {
		sink = Total(shapes)
	}
}

func BenchmarkChecksum(b *testing.B) {
	words := []string{strings.Repeat("hello 123 ", 8), strings.Repeat("world", 10), "4242424242", strings.Repeat("go\tpgo", 6)}
	for b.Loop() {
		hsink = Checksum(words)
	}
}
`

const appSrc = `// Command app runs the shapes code.
package main

import (
	"fmt"

	"example.com/fx/shapes"
)

func main() {
	words := []string{"hello 123", "world"}
	fmt.Println(shapes.Total([]shapes.Shape{&shapes.Rect{W: 1, H: 2}}), shapes.Checksum(words))
}
`

var shapes struct {
	once         sync.Once
	dir, profile string
	err          error
}

// regenProfile makes shapesFixture profile the fixture's benchmarks again
// and write the profile to testdata, as it must after the fixture changes.
var regenProfile = flag.Bool("regen", false, "profile the shapes fixture again and write testdata/shapes.pprof")

// shapesProfile is a CPU profile of the shapes fixture's benchmarks (go
// test -bench . -cpuprofile), and shapesSum the SHA-256 of the fixture's
// sources it was made from. Being a fixed file, the standard library
// built with it stays in the build cache between test runs: a new
// profile on every run made the go command compile the standard library
// and the testing package again with it, the slowest part of these tests.
const (
	shapesProfile = "testdata/shapes.pprof"
	shapesSum     = "testdata/shapes.pprof.sum"
)

// shapesSources returns the SHA-256 of the fixture's sources, in hex.
func shapesSources() string {
	h := sha256.New()
	for _, s := range []string{shapesGoMod, shapesSrc, shapesTest} {
		fmt.Fprintf(h, "%d\n%s", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// shapesFixture returns the directory of the shapes module and a CPU
// profile of its benchmarks, made once per test binary.
func shapesFixture(t *testing.T) (dir, profile string) {
	t.Helper()
	shapes.once.Do(func() {
		dir := filepath.Join(sharedDir, "shapes")
		shapes.dir, shapes.profile = dir, filepath.Join(dir, "cpu.pprof")
		for name, content := range map[string]string{
			"go.mod":                shapesGoMod,
			"shapes/shapes.go":      shapesSrc,
			"shapes/shapes_test.go": shapesTest,
			"cmd/app/main.go":       appSrc,
		} {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
				shapes.err = err
				return
			}
			if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
				shapes.err = err
				return
			}
		}
		if *regenProfile {
			cmd := exec.Command("go", "test", "-run=^$", "-bench=.", "-benchtime=300ms", "-cpuprofile="+shapes.profile, "-o", filepath.Join(dir, "shapes.test"), "./shapes")
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				shapes.err = fmt.Errorf("profiling the fixture: %v\n%s", err, out)
				return
			}
			os.Remove(filepath.Join(dir, "shapes.test"))
			data, err := os.ReadFile(shapes.profile)
			if err == nil {
				err = os.WriteFile(shapesProfile, data, 0o666)
			}
			if err == nil {
				err = os.WriteFile(shapesSum, []byte(shapesSources()+"\n"), 0o666)
			}
			shapes.err = err
			return
		}
		sum, err := os.ReadFile(shapesSum)
		if err != nil {
			shapes.err = err
			return
		}
		if strings.TrimSpace(string(sum)) != shapesSources() {
			shapes.err = fmt.Errorf("%s was made from other sources than the shapes fixture's: run go test ./decisions -args -regen", shapesProfile)
			return
		}
		data, err := os.ReadFile(shapesProfile)
		if err == nil {
			err = os.WriteFile(shapes.profile, data, 0o666)
		}
		shapes.err = err
	})
	if shapes.err != nil {
		t.Fatal(shapes.err)
	}
	return shapes.dir, shapes.profile
}
