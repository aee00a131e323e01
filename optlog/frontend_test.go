package optlog

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/load"
)

// TestCollectFrontEnd collects the decisions for packages of the
// standard library as goadvise check does (the build's listing serves the
// driver), with the go command's build cache holding their plain
// compiles, once with the front-end copy of the compiler and once without
// it, and checks that the copy gives the decisions of the build with the
// log: the same records in the packages' own files, none from the back
// end, and the standard library's other files named as the build with
// the log names them. runtime/trace declares functions the runtime
// supplies, which the go command compiles without -complete.
func TestCollectFrontEnd(t *testing.T) {
	pkgs := []string{"strings", "fmt", "runtime/trace", "encoding/json"}
	dir := t.TempDir()
	// The plain compiles, as go build leaves them in the build cache.
	if out, err := exec.Command("go", append([]string{"build"}, pkgs...)...).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	collect := func(frontEnd string) map[string]*PackageResult {
		t.Setenv("GOADVISE_CACHE", t.TempDir())
		t.Setenv("GOADVISE_FRONTEND", frontEnd)
		res, err := Collect(context.Background(), LoadOptions{Dir: dir, Patterns: pkgs, ListFlags: load.ListFlags, ListFields: load.ListFields})
		if err != nil {
			t.Fatal(err)
		}
		m := make(map[string]*PackageResult)
		for _, r := range res {
			if r.Err != "" {
				t.Fatalf("GOADVISE_FRONTEND=%q: %s: %s", frontEnd, r.ImportPath, r.Err)
			}
			m[r.ImportPath] = r
		}
		return m
	}
	full, fe := collect("off"), collect("")
	own := func(r *PackageResult) (map[string]bool, int) {
		dirs := make(map[string]bool)
		for _, f := range r.Files {
			dirs[filepath.Dir(f)] = true
		}
		set := make(map[string]bool)
		back := 0
		for _, rec := range r.Records {
			if strings.HasPrefix(rec.Pos.File, "$GOROOT") {
				t.Errorf("%s: record names %s", r.ImportPath, rec.Pos.File)
			}
			switch {
			case rec.Kind == BoundsCheck || rec.Kind == SliceBoundsCheck || rec.Kind == NilCheck:
				back++
			case rec.Kind == Other && strings.HasSuffix(rec.Message, " bytes"):
				back++ // a large copy, from the back end
			case dirs[filepath.Dir(rec.Pos.File)]:
				set[rec.Kind.String()+" "+rec.Pos.String()+" "+rec.Message] = true
			}
		}
		return set, back
	}
	for _, p := range pkgs {
		want, wantBack := own(full[p])
		got, gotBack := own(fe[p])
		if wantBack == 0 || gotBack != 0 {
			t.Errorf("%s: back-end records: %d with the log build, %d with the front end; want some, none (the copy did not compile it)", p, wantBack, gotBack)
		}
		if len(want) < 10 {
			t.Errorf("%s: only %d records; the test checks nothing", p, len(want))
		}
		for d := range want {
			if !got[d] {
				t.Errorf("%s: front end lacks %s", p, d)
			}
		}
		for d := range got {
			if !want[d] {
				t.Errorf("%s: front end adds %s", p, d)
			}
		}
	}
}
