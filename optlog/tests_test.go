package optlog

import (
	"context"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/internal/gittest"
)

// testsFixture is a package with an internal test file and an external
// test package, each with one heap allocation of its own.
var testsFixture = map[string]string{
	"go.mod": "module tfix\n\ngo 1.26\n",
	"a/a.go": "package a\n\nvar G any\n\nfunc F(v int) { G = v }\n",
	"a/a_test.go": `package a

import "testing"

func TestX(t *testing.T) { G = &t }
`,
	"a/x_test.go": `package a_test

import (
	"testing"

	"tfix/a"
)

func TestY(t *testing.T) { a.G = &t }
`,
}

// testHeap runs go test -c with -gcflags=<pkg>=-m for the test of pkg and
// returns the heap positions the compiler reports in the files of dir.
func testHeap(t *testing.T, dir, pkg string) map[string]bool {
	t.Helper()
	cmd := exec.Command("go", "test", "-c", "-o", t.TempDir()+string(filepath.Separator),
		"-gcflags="+pkg+"=-m", "-gcflags="+pkg+"_test=-m", pkg)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -c -gcflags=-m %s: %v\n%s", pkg, err, out)
	}
	set := make(map[string]bool)
	for _, line := range strings.Split(string(out), "\n") {
		m := mPos.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		if filepath.Dir(file) != filepath.Join(dir, "a") {
			continue // the generated test main package
		}
		set[file+":"+m[2]+m[3]] = true
	}
	return set
}

// TestTests checks LoadOptions.Tests: the test variant of a package and its
// external test package are collected, agree with go test -c
// -gcflags=-m, and are found by ForPass after Preload, as goadvise
// check -tests does.
func TestTests(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, testsFixture)
	opts := LoadOptions{Dir: dir, Patterns: []string{"./..."}, Tests: true}
	res, err := Collect(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	byKey := make(map[string]*PackageResult)
	for _, r := range res {
		if r.Err != "" {
			t.Errorf("%s (test %v): %s", r.ImportPath, r.Test, r.Err)
		}
		byKey[tableKey(r.ImportPath, r.Test)] = r
	}
	plain, variant, xtest := byKey["tfix/a"], byKey["tfix/a [test]"], byKey["tfix/a_test [test]"]
	if plain == nil || variant == nil || xtest == nil {
		t.Fatalf("got results %v, want tfix/a, its test variant and tfix/a_test", keys(byKey))
	}
	// The test variant holds the package's own decisions and those of
	// its _test.go files; -m output of the test build covers both test
	// packages.
	want := testHeap(t, dir, "tfix/a")
	got := heapSet(variant.Records)
	for p := range heapSet(xtest.Records) {
		got[p] = true
	}
	diffSets(t, "tests of tfix/a", want, got)
	for _, c := range []struct {
		r    *PackageResult
		file string
	}{{plain, "a.go"}, {variant, "a_test.go"}, {xtest, "x_test.go"}} {
		if !hasHeapIn(c.r.Records, c.file) {
			t.Errorf("%s (test %v): no heap record in %s", c.r.ImportPath, c.r.Test, c.file)
		}
	}
	if hasHeapIn(plain.Records, "a_test.go") {
		t.Errorf("tfix/a without tests has records of a_test.go")
	}

	// A second collection is served from the cache.
	again, err := Collect(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range again {
		if !r.Cached {
			t.Errorf("%s (test %v): not cached on the second run", r.ImportPath, r.Test)
		}
	}

	// ForPass gives every pass the decisions of the package's own
	// files: the test variant gets the plain package's, the external test
	// package none, and neither makes it compile anything.
	if err := Preload(context.Background(), LoadOptions{Dir: dir, Patterns: []string{"./..."}}); err != nil {
		t.Fatal(err)
	}
	found := make(map[string]bool)
	passes := 0
	for _, r := range analysistest.Run(t, dir, forPassAnalyzer, "./...") {
		if isTestMain(r.Pass) {
			continue
		}
		passes++
		er := r.Result.(*Result)
		if !er.Available() {
			t.Errorf("%s: %v", r.Pass.Pkg.Path(), er.Err())
			continue
		}
		for _, rec := range er.Records() {
			if rec.Kind.IsHeap() && rec.TokPos.IsValid() {
				found[filepath.Base(r.Pass.Fset.File(rec.TokPos).Name())] = true
			}
		}
	}
	if passes < 2 || !found["a.go"] || found["a_test.go"] || found["x_test.go"] {
		t.Errorf("ForPass over %d passes: heap records in %v, want in a.go only", passes, found)
	}
}

func hasHeapIn(recs []Record, base string) bool {
	for _, r := range recs {
		if r.Kind.IsHeap() && filepath.Base(r.Pos.File) == base {
			return true
		}
	}
	return false
}

func keys(m map[string]*PackageResult) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// forPassAnalyzer returns ForPass's result, as the escape Analyzer does
// (which this package cannot import).
var forPassAnalyzer = &analysis.Analyzer{
	Name:       "forpass",
	Doc:        "return ForPass(pass)",
	Run:        func(pass *analysis.Pass) (any, error) { return ForPass(pass), nil },
	ResultType: reflect.TypeFor[*Result](),
}
