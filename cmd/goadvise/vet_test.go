package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// vetProfileModule writes a module with a package at its root and one in
// sub, each with an if whose branches do the same thing in a function, and a
// CPU profile at the root in which only sub's function runs.
func vetProfileModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	// Equal arms, not a DeepEqual: a package with no imports keeps each
	// go vet to two units (one that imports reflect type-checks its 40
	// dependencies again for every new set of flags).
	same := func(pkg string) string {
		return "package " + pkg + `

// Scale returns n scaled by k, exactly or not.
func Scale(n, k int, exact bool) int {
	if exact {
		return n * k
	} else {
		return n * k
	}
}
`
	}
	gittest.WriteFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/vp\n\ngo 1.22\n",
		"vp.go":      same("vp"),
		"sub/sub.go": same("sub"),
	})
	writeTestProfile(t, dir, "cpu.pprof", cpuTypes, []stackSpec{{100, []string{"example.com/vp/sub.Scale"}}})
	return dir
}

// TestVetToolProfilePath runs go vet -vettool with a profile path relative
// to the directory go vet runs in, which go vet passes unchanged to a
// process per package run in the package's own directory: every package
// must read the same profile, and a missing one is named in one line.
func TestVetToolProfilePath(t *testing.T) {
	t.Parallel() // end-to-end runs in their own directory
	dir := vetProfileModule(t)
	hot := regexp.MustCompile(`(?m)^(sub/)?sub.go:5:2: both branches of this if do the same thing.*\[hot-loop: profile: 100.0% of CPU in Scale\]$`)
	for _, tc := range []struct{ dir, flag, pattern string }{
		{".", "-hotpath.profile=cpu.pprof", "./..."},
		{".", "--hotpath.profile=cpu.pprof", "./sub"},
		{"sub", "-hotpath.profile=../cpu.pprof", "./..."},
	} {
		args := []string{"vet", "-vettool=" + bin, "-redundantbranch", tc.flag, tc.pattern}
		_, stderr, code := runCmd(t, filepath.Join(dir, tc.dir), "go", args...)
		if code != 1 || !hot.MatchString(stderr) || strings.Contains(stderr, "failed prerequisites") || strings.Contains(stderr, "vp.go") {
			t.Errorf("in %s: go vet %s: exit %d, want 1 with sub.Scale's hot branch alone (vp.Scale is not in the profile: cold)\n%s", tc.dir, strings.Join(args[1:], " "), code, stderr)
		}
	}
	// go vet caches each package's findings by the flags as written: the
	// tool's ID holds the profile's content, so that a new profile at the
	// same path is read (where go vet's command line can be seen).
	if runtime.GOOS == "linux" {
		writeTestProfile(t, dir, "cpu.pprof", cpuTypes, []stackSpec{{100, []string{"example.com/vp.Scale"}}})
		_, stderr, code := runCmd(t, dir, "go", "vet", "-vettool="+bin, "-redundantbranch", "-hotpath.profile=cpu.pprof", "./...")
		if code != 1 || !strings.Contains(stderr, "vp.go:5:2: both branches") || strings.Contains(stderr, "sub.go") {
			t.Errorf("go vet with a new profile at the same path, in which only vp.Scale runs: exit %d, want its finding alone\n%s", code, stderr)
		}
	}
	// A missing profile: one line that names it, in each package, and no
	// compile started and left behind.
	tmp := t.TempDir()
	_, stderr, code := runCmdEnv(t, dir, []string{"TMPDIR=" + tmp}, "go", "vet", "-vettool="+bin, "-hotpath.profile=missing.pprof", "./...")
	if left, _ := filepath.Glob(filepath.Join(tmp, "goadvise-*")); len(left) > 0 {
		t.Errorf("go vet -hotpath.profile=missing.pprof left %s", left)
	}
	want := "goadvise: -hotpath.profile: no such file: ./missing.pprof (a relative path is taken in the directory go vet runs in)\n"
	if code == 0 || strings.Contains(stderr, "failed prerequisites") || strings.Count(stderr, want) != 2 {
		t.Errorf("go vet -hotpath.profile=missing.pprof: exit %d, want an error and %q for each package:\n%s", code, want, stderr)
	}
}

// TestVetJSONFixes checks the route editors take (gopls and VS Code's
// go.vetFlags run go vet -vettool=goadvise -json): the JSON diagnostics
// carry each finding's suggested fix as text edits with byte offsets into
// the file, which, applied, give code that builds.
func TestVetJSONFixes(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	stdout, stderr, code := runCmd(t, dir, "go", "vet", "-vettool="+bin, "-hotpath.all", "-deepequal", "-json", "./...")
	if code != 0 {
		t.Fatalf("go vet -json: exit %d\n%s", code, stderr)
	}
	out := stdout + stderr
	var tree map[string]map[string][]struct {
		Posn           string `json:"posn"`
		Message        string `json:"message"`
		SuggestedFixes []struct {
			Message string `json:"message"`
			Edits   []struct {
				Filename string `json:"filename"`
				Start    int    `json:"start"`
				End      int    `json:"end"`
				New      string `json:"new"`
			} `json:"edits"`
		} `json:"suggested_fixes"`
	}
	if i := strings.Index(out, "{"); i < 0 || json.NewDecoder(strings.NewReader(out[i:])).Decode(&tree) != nil {
		t.Fatalf("go vet -json output does not hold a JSON object:\n%s", out)
	}
	diags := tree["example.com/fixture/shop"]["deepequal"]
	if len(diags) != len(wantFixture) {
		t.Fatalf("go vet -json: %d deepequal diagnostics, want %d\n%s", len(diags), len(wantFixture), out)
	}
	file := filepath.Join(dir, "shop", "shop.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	built := false
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 || len(d.SuggestedFixes[0].Edits) == 0 || d.SuggestedFixes[0].Message == "" {
			t.Errorf("%s: no suggested fix with edits in the vet JSON: %+v", d.Posn, d)
			continue
		}
		for _, e := range d.SuggestedFixes[0].Edits {
			if e.Filename != file || e.Start < 0 || e.Start > e.End || e.End > len(src) {
				t.Errorf("%s: edit %+v is not within %s", d.Posn, e, file)
			}
		}
		if !strings.HasSuffix(d.Posn, "shop.go:31:15") {
			continue
		}
		// Dedup's fix, applied as an editor applies it (the edits from
		// last to first), replaces the call and builds.
		fix := d.SuggestedFixes[0]
		if len(fix.Edits) != 1 || string(src[fix.Edits[0].Start:fix.Edits[0].End]) != "reflect.DeepEqual(it, items[i-1])" || fix.Edits[0].New != "it == items[i-1]" {
			t.Fatalf("Dedup's fix %+v does not replace reflect.DeepEqual(it, items[i-1]) with it == items[i-1]", fix)
		}
		e := fix.Edits[0]
		fixed := string(src[:e.Start]) + e.New + string(src[e.End:])
		if err := os.WriteFile(file, []byte(fixed), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := runCmd(t, dir, "go", "build", "./..."); code != 0 {
			t.Errorf("the fixed fixture does not build:\n%s", stderr)
		}
		built = true
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !built {
		t.Errorf("no diagnostic at shop.go:31:15 (Dedup's DeepEqual) in the vet JSON:\n%s", out)
	}
	// go fix runs a vet tool's fixes too: -diff prints them.
	stdout, stderr, code = runCmd(t, dir, "go", "fix", "-fixtool="+bin, "-deepequal", "-diff", "./...")
	if code == 0 || !strings.Contains(stdout, "\n-\t\tif i > 0 && reflect.DeepEqual(it, items[i-1]) {\n+\t\tif i > 0 && it == items[i-1] {\n") {
		t.Errorf("go fix -fixtool=goadvise -diff: exit %d, want non-zero with Dedup's fix in the diff\n%s%s", code, stdout, stderr)
	}
}
