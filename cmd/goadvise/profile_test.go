package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// A stackSpec is one sample: its value and its stack of function names,
// leaf first, each at line 1 of its function.
type stackSpec struct {
	value int64
	fns   []string
}

// writeTestProfile writes a profile with the given sample types (type/unit
// pairs, the value of a sample repeated in each) and samples to dir/name,
// and returns its path.
func writeTestProfile(t *testing.T, dir, name string, types [][2]string, samples []stackSpec) string {
	t.Helper()
	p := &profile.Profile{DurationNanos: 30e9}
	for _, ty := range types {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: ty[0], Unit: ty[1]})
	}
	if types[0][0] == "samples" {
		p.PeriodType = &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}
		p.Period = 10_000_000
	}
	m := &profile.Mapping{ID: 1, File: "/bin/prog", HasFunctions: true}
	p.Mapping = []*profile.Mapping{m}
	funcs := map[string]*profile.Function{}
	for _, s := range samples {
		var locs []*profile.Location
		for _, fn := range s.fns {
			f := funcs[fn]
			if f == nil {
				f = &profile.Function{ID: uint64(len(p.Function) + 1), Name: fn, SystemName: fn, Filename: "/src/" + fn + ".go", StartLine: 1}
				funcs[fn] = f
				p.Function = append(p.Function, f)
			}
			l := &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(len(p.Location) + 1), Mapping: m, Line: []profile.Line{{Function: f, Line: 2}}}
			p.Location = append(p.Location, l)
			locs = append(locs, l)
		}
		v := make([]int64, len(types))
		for i := range v {
			v[i] = s.value
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: locs, Value: v})
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	cpuTypes  = [][2]string{{"samples", "count"}, {"cpu", "nanoseconds"}}
	heapTypes = [][2]string{{"alloc_objects", "count"}, {"alloc_space", "bytes"}, {"inuse_objects", "count"}, {"inuse_space", "bytes"}}
)

// TestCheckProfileRefused checks that check -profile and -heap refuse a
// profile that would silently hide every finding: of the wrong kind,
// without samples, or of another program; and that pgo check does not
// pass a profile that matches none of the packages.
func TestCheckProfileRefused(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/rank")); err != nil {
		t.Fatal(err)
	}
	own := []stackSpec{{100, []string{"runtime.mallocgc", "example.com/rank.Hot", "main.main"}}}
	other := []stackSpec{{100, []string{"runtime.mallocgc", "example.com/other.Serve", "main.main"}}}
	cpu := writeTestProfile(t, dir, "cpu.pprof", cpuTypes, own)
	heap := writeTestProfile(t, dir, "heap.pprof", heapTypes, own)
	empty := writeTestProfile(t, dir, "empty.pprof", cpuTypes, []stackSpec{{0, own[0].fns}})
	emptyHeap := writeTestProfile(t, dir, "emptyheap.pprof", heapTypes, []stackSpec{{0, own[0].fns}})
	foreign := writeTestProfile(t, dir, "other.pprof", cpuTypes, other)

	for _, tc := range []struct {
		args []string
		want []string // in the error line
	}{
		{[]string{"-profile", heap}, []string{heap, "not a CPU profile", "-heap"}},
		{[]string{"-profile", cpu, "-heap", cpu}, []string{cpu, "not a heap profile", "-profile"}},
		{[]string{"-profile", empty}, []string{empty, "no samples"}},
		{[]string{"-profile", cpu, "-heap", emptyHeap}, []string{emptyHeap, "no samples"}},
		{[]string{"-profile", foreign}, []string{foreign, "none of the profile's samples"}},
		{[]string{"-profile", cpu + "," + foreign}, []string{foreign, "none of the profile's samples"}},
	} {
		stdout, stderr, code := runCmd(t, dir, bin, append(append([]string{"check"}, tc.args...), "./...")...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != exitError || len(lines) != 1 || stdout != "" {
			t.Errorf("check %v: exit %d, want %d with one error line\nstdout:\n%s\nstderr:\n%s", tc.args, code, exitError, stdout, stderr)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(lines[0], w) {
				t.Errorf("check %v: error %q does not say %q", tc.args, lines[0], w)
			}
		}
	}

	// A profile of which a little falls in the packages is used, with a
	// warning.
	little := writeTestProfile(t, dir, "little.pprof", cpuTypes, append([]stackSpec{{1, own[0].fns}}, stackSpec{999, other[0].fns}))
	_, stderr, code := runCmd(t, dir, bin, "check", "-profile", little, "./...")
	if code == exitError || !strings.Contains(stderr, "warning: "+little+": only 0.10% of the profile's samples") {
		t.Errorf("check -profile of a profile 0.1%% in the packages: exit %d, want a warning\n%s", code, stderr)
	}

	// pgo check fails on a profile that matches no package, and on one
	// without samples.
	for _, p := range []string{foreign, empty} {
		_, stderr, code := runCmd(t, dir, bin, "pgo", "check", "-profile", p, "./...")
		if code != exitError || !strings.Contains(stderr, p+": ") {
			t.Errorf("pgo check -profile %s: exit %d, want %d naming the file\n%s", filepath.Base(p), code, exitError, stderr)
		}
	}
	if _, stderr, code := runCmd(t, dir, bin, "pgo", "check", "-profile", cpu, "./..."); code == exitError {
		t.Errorf("pgo check of the package's own profile: exit %d\n%s", code, stderr)
	}
}

// TestMergeSkipInvalidAndEmpty checks that pgo merge -skip-invalid skips an
// unparseable file with a warning naming it, and that a merge of profiles
// without samples fails and writes nothing.
func TestMergeSkipInvalidAndEmpty(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	own := []stackSpec{{100, []string{"runtime.mallocgc", "example.com/rank.Hot", "main.main"}}}
	writeTestProfile(t, in, "a.pprof", cpuTypes, own)
	junk := filepath.Join(in, "b.pprof")
	if err := os.WriteFile(junk, []byte("not a profile at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeTestProfile(t, in, "c.pprof", cpuTypes, own)
	out := filepath.Join(dir, "merged.pgo")
	stdout, stderr, code := runCmd(t, dir, bin, "pgo", "merge", "-skip-invalid", "-o", out, in)
	if code != exitOK || !strings.Contains(stderr, "warning: "+junk+": skipped: ") || !strings.Contains(stdout, "2 profiles merged (1 skipped)") {
		t.Errorf("pgo merge -skip-invalid with an unparseable file: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	writeTestProfile(t, empty, "a.pprof", cpuTypes, []stackSpec{{0, own[0].fns}})
	writeTestProfile(t, empty, "b.pprof", cpuTypes, []stackSpec{{0, own[0].fns}})
	out = filepath.Join(dir, "empty.pgo")
	_, stderr, code = runCmd(t, dir, bin, "pgo", "merge", "-o", out, empty)
	if code != exitError || !strings.Contains(stderr, "no samples") {
		t.Errorf("pgo merge of profiles without samples: exit %d, want %d saying so\n%s", code, exitError, stderr)
	}
	if _, err := os.Lstat(out); err == nil {
		t.Errorf("pgo merge of profiles without samples wrote %s", out)
	}
}
