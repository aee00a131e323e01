package optlog

import (
	"context"
	"os/exec"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
	"github.com/goadvise/goadvise/load"
)

// logFixture has what the compiler's log files do not tell apart by
// their names: two main packages (the compiler logs both under "main"),
// a package whose store.go has the base name of the store.go of an
// imported package with a generic function compiled here (the log files
// of both are store.json, and the imported one's, written last, replaced
// the package's), and, in cgoFixture, a cgo package (logged under the
// name of the file cgo generated).
var logFixture = map[string]string{
	"go.mod":              "module lf\n\ngo 1.26\n",
	"cmd/a/main.go":       "package main\n\nvar sink any\n\nfunc main() {\n\tx := 1\n\tsink = &x\n\tsink = make([]int, x)\n}\n",
	"cmd/b/main.go":       "package main\n\nimport \"lf/app\"\n\nvar sink any\n\nfunc main() {\n\ty := 2\n\tsink = &y\n\tapp.Put(y)\n}\n",
	"internal/x/store.go": "package x\n\ntype Box[T any] struct{ v *T }\n\nfunc New[T any](v T) *Box[T] { return &Box[T]{v: &v} }\n\nfunc Make(n int) []byte { return make([]byte, n) }\n",
	"app/store.go": `package app

import "lf/internal/x"

var sink any

func Put(n int) {
	b := x.New(n)
	sink = b
	s := x.Make(n)
	sink = s
	y := n
	sink = &y
}
`,
}

var cgoFixture = map[string]string{
	"c/c.go": `package c

// int two(void) { return 2; }
import "C"

var sink any

func F() int {
	b := make([]byte, 8)
	sink = b
	return int(C.two()) + G()
}
`,
	"c/g.go": "package c\n\nfunc G() int { p := new(int); sink = p; return 1 }\n",
}

// haveCgo skips the test if cgo cannot build.
func haveCgo(t *testing.T) {
	t.Helper()
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	if err != nil || string(out) != "1\n" {
		t.Skip("cgo is disabled (go env CGO_ENABLED)")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		if _, err := exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler (gcc or cc) for cgo")
		}
	}
}

// TestLogNames collects the packages of logFixture in one build and
// checks each against go build -gcflags=-m: with the build's file names
// apart from the start, no package is compiled again to recover records;
// without them, app's store.go is.
//
// Listed as the driver lists (the build's go list output is the listing
// of the packages), the names of the files cgo generated come from that
// listing: no go list runs for them.
func TestLogNames(t *testing.T) {
	files := map[string]string{}
	for k, v := range logFixture {
		files[k] = v
	}
	pkgs := []string{"lf/cmd/a", "lf/cmd/b", "lf/app"}
	cgo := true
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || string(out) != "1\n" {
		cgo = false
	} else if _, err := exec.LookPath("gcc"); err != nil {
		cgo = false
	}
	if cgo {
		for k, v := range cgoFixture {
			files[k] = v
		}
		pkgs = append(pkgs, "lf/c")
	} else {
		t.Log("no cgo (CGO_ENABLED=0 or no gcc): the cgo package is not checked")
	}
	// One tree and one -m build per package for the three collections:
	// a collection does not change the tree.
	dir := gittest.NewTree(t, files)
	want := make(map[string]map[string]bool)
	for _, pkg := range pkgs {
		want[pkg] = compilerHeap(t, dir, pkg)
	}
	t.Run("renamed", func(t *testing.T) { testLogNames(t, dir, want, cgo, true, false) })
	t.Run("recovered", func(t *testing.T) { testLogNames(t, dir, want, cgo, false, false) })
	t.Run("listed", func(t *testing.T) { testLogNames(t, dir, want, cgo, true, true) })
}

func testLogNames(t *testing.T, dir string, want map[string]map[string]bool, cgo, rename, listed bool) {
	defer func(old bool) { renameFiles = old }(renameFiles)
	renameFiles = rename
	recoveries.Store(0)
	compiledLists.Store(0)
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	opts := LoadOptions{Dir: dir, Patterns: []string{"./..."}}
	if listed {
		opts.ListFlags, opts.ListFields = load.ListFlags, load.ListFields
	}
	res, err := Collect(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	byPath := make(map[string]*PackageResult)
	for _, r := range res {
		byPath[r.ImportPath] = r
	}
	for pkg, heap := range want {
		r := byPath[pkg]
		if r == nil || r.Err != "" {
			t.Errorf("%s: got %+v, want records", pkg, r)
			continue
		}
		diffSets(t, pkg, heap, heapSet(r.Records))
	}
	if n := compiledLists.Load(); cgo && listed && n != 0 {
		t.Errorf("go list -compiled ran %d times for the cgo package, listed already", n)
	} else if cgo && !listed && n == 0 {
		t.Errorf("the cgo package's generated files came from nowhere: go list -compiled did not run")
	}
	switch n := recoveries.Load(); {
	case rename && n != 0:
		t.Errorf("%d packages compiled again to recover their records, want none", n)
	case !rename && n == 0:
		t.Errorf("no package compiled again: the fixture no longer loses records to a file of the same name")
	}
}

// TestMissingLog checks that a compile without a log is an error, not a
// package without decisions.
func TestMissingLog(t *testing.T) {
	if recs, err := parseLogDir(t.TempDir(), "p"); err == nil {
		t.Errorf("empty log directory: got %d records and no error, want an error", len(recs))
	}
}
