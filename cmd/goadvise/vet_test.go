package main

import (
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestTuneGC checks that a unit's process collects less often, a small
// one's least, and never against the user's GOGC.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, c := range []struct {
		size int64
		gogc string
		want int
	}{
		{100 << 10, "", 400},
		{smallUnit, "", 400},
		{smallUnit + 1, "", 200},
		{-1, "", 100},
		{100 << 10, "100", 100},
	} {
		t.Setenv("GOGC", c.gogc)
		debug.SetGCPercent(100)
		tuneGC(c.size)
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("tuneGC(%d) with GOGC=%q: GC percent %d, want %d", c.size, c.gogc, got, c.want)
		}
	}
}

// vetProfileModule writes a module with a package at its root and one in
// sub, each comparing items with reflect.DeepEqual in a function, and a
// CPU profile at the root in which only sub's function runs.
func vetProfileModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	same := func(pkg string) string {
		return "package " + pkg + `

import "reflect"

// An Item is a line of an order.
type Item struct {
	SKU   string
	Count int
}

// Same reports whether a and b hold the same items.
func Same(a, b []Item) bool {
	return reflect.DeepEqual(a, b)
}
`
	}
	gittest.WriteFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/vp\n\ngo 1.22\n",
		"vp.go":      same("vp"),
		"sub/sub.go": same("sub"),
	})
	writeTestProfile(t, dir, "cpu.pprof", cpuTypes, []stackSpec{{100, []string{"example.com/vp/sub.Same"}}})
	return dir
}

// TestVetToolProfilePath runs go vet -vettool with a profile path relative
// to the directory go vet runs in, which go vet passes unchanged to a
// process per package run in the package's own directory: every package
// must read the same profile, and a missing one is named in one line.
func TestVetToolProfilePath(t *testing.T) {
	t.Parallel() // end-to-end runs in their own directory
	dir := vetProfileModule(t)
	hot := regexp.MustCompile(`(?m)^(sub/)?sub.go:13:9: reflect.DeepEqual on \[\]Item .*\[hot-loop: profile: 100.0% of CPU in Same\]$`)
	for _, tc := range []struct{ dir, flag, pattern string }{
		{".", "-hotpath.profile=cpu.pprof", "./..."},
		{".", "--hotpath.profile=cpu.pprof", "./sub"},
		{"sub", "-hotpath.profile=../cpu.pprof", "./..."},
	} {
		args := []string{"vet", "-vettool=" + bin, "-deepequal", tc.flag, tc.pattern}
		_, stderr, code := runCmd(t, filepath.Join(dir, tc.dir), "go", args...)
		if code != 1 || !hot.MatchString(stderr) || strings.Contains(stderr, "failed prerequisites") || strings.Contains(stderr, "vp.go") {
			t.Errorf("in %s: go vet %s: exit %d, want 1 with sub.Same's hot DeepEqual alone (vp.Same is not in the profile: cold)\n%s", tc.dir, strings.Join(args[1:], " "), code, stderr)
		}
	}
	// A missing profile: one line that names it, in each package.
	_, stderr, code := runCmd(t, dir, "go", "vet", "-vettool="+bin, "-hotpath.profile=missing.pprof", "./...")
	want := "goadvise: -hotpath.profile: no such file: ./missing.pprof (a relative path is taken in the directory go vet runs in)\n"
	if code == 0 || strings.Contains(stderr, "failed prerequisites") || strings.Count(stderr, want) != 2 {
		t.Errorf("go vet -hotpath.profile=missing.pprof: exit %d, want an error and %q for each package:\n%s", code, want, stderr)
	}
}

// TestResolveVetPaths checks the resolution of go vet's path flags, with
// the directory go vet runs in known and, as under -toolexec or outside
// Linux, not: then the package directory and its parents up to the
// module root are tried.
func TestResolveVetPaths(t *testing.T) {
	dir := t.TempDir()
	gittest.WriteFiles(t, dir, map[string]string{"go.mod": "module m\n", "cpu.pprof": "", "sub/pkg/x.go": "package pkg\n", "sub/own.pprof": ""})
	pkg := filepath.Join(dir, "sub", "pkg")
	for _, tc := range []struct {
		args       []string
		base       string
		want, fail string
	}{
		{[]string{"-hotpath.profile=cpu.pprof", "-deepequal"}, dir, "-hotpath.profile=" + filepath.Join(dir, "cpu.pprof") + " -deepequal", ""},
		{[]string{"--hotpath.profile", "cpu.pprof,sub/own.pprof"}, dir, "--hotpath.profile " + filepath.Join(dir, "cpu.pprof") + "," + filepath.Join(dir, "sub", "own.pprof"), ""},
		{[]string{"-hotpath.profile=../../cpu.pprof"}, pkg, "-hotpath.profile=" + filepath.Join(dir, "cpu.pprof"), ""},
		{[]string{"-hotpath.profile=http://host/debug/pprof/profile,/abs/cpu.pprof"}, dir, "-hotpath.profile=http://host/debug/pprof/profile,/abs/cpu.pprof", ""},
		{[]string{"-hotpath.profile=cpu.pprof"}, "", "-hotpath.profile=" + filepath.Join(dir, "cpu.pprof"), ""},
		{[]string{"-hotpath.profile=own.pprof"}, "", "-hotpath.profile=" + filepath.Join(dir, "sub", "own.pprof"), ""},
		{[]string{"-hotpath.profile=cpu.pprof"}, pkg, "", "-hotpath.profile: no such file: " + filepath.Join(pkg, "cpu.pprof") + " (a relative path is taken in the directory go vet runs in)"},
		{[]string{"-hotpath.profile=gone.pprof"}, "", "", "-hotpath.profile: no such file: gone.pprof, in the package's directory " + pkg + " or above it up to the module root"},
	} {
		got, err := resolveVetPaths(tc.args, tc.base, pkg)
		switch {
		case tc.fail != "":
			if err == nil || err.Error() != tc.fail {
				t.Errorf("resolveVetPaths(%q, %q) = %q, %v; want error %q", tc.args, tc.base, got, err, tc.fail)
			}
		case err != nil || strings.Join(got, " ") != tc.want:
			t.Errorf("resolveVetPaths(%q, %q) = %q, %v; want %q", tc.args, tc.base, got, err, tc.want)
		}
	}
}
