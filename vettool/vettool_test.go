package vettool

import (
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/analyzer/suite"
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

// TestEscapeRuns checks when a go vet unit starts its compile early: only
// when an analyzer that needs the compiler's decisions will run.
func TestEscapeRuns(t *testing.T) {
	analyzers := append(suite.Analyzers(), suite.Helpers()...)
	for _, tc := range []struct {
		flags []string
		want  bool
	}{
		{nil, true},
		{[]string{"-hotpath.profile=x.pprof"}, true},
		{[]string{"-escape.off"}, false},
		{[]string{"-escape.off=true"}, false},
		{[]string{"-escape.off=false"}, true},
		{[]string{"-deepequal"}, false},
		{[]string{"-deepequal=true", "-redundantbranch"}, false},
		{[]string{"-deepequal", "-heapescape"}, true},
		{[]string{"-smallalloc=true"}, true},
		{[]string{"-deepequal=false"}, true},
	} {
		if got := escapeRuns(tc.flags, analyzers); got != tc.want {
			t.Errorf("escapeRuns(%q) = %v, want %v", tc.flags, got, tc.want)
		}
	}
}
