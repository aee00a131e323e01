package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/report"
)

// frame is one function and line of a sample's stack, leaf first.
type frame struct {
	fn   string
	line int64
}

func stacks(p *profile.Profile) (samples [][]frame, values []int64) {
	vi := len(p.SampleType) - 1 // cpu/nanoseconds
	for _, s := range p.Sample {
		var st []frame
		for _, loc := range s.Location {
			for _, l := range loc.Line { // innermost (inlined) first
				st = append(st, frame{l.Function.Name, l.Line})
			}
		}
		samples = append(samples, st)
		values = append(values, s.Value[vi])
	}
	return samples, values
}

// TestCheckProfileRanking generates a CPU profile of a fixture whose
// findings have a known order, and checks that check -profile ranks them
// in that order, with scores that match the shares measured directly from
// the profile: within 0.5 percentage points (the profile is the same; the
// tolerance only absorbs rounding of the score to 4 digits and the split of
// a line's weight when several findings share it).
func TestCheckProfileRanking(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark with -cpuprofile")
	}
	// 10000 iterations give about 250 samples, about 8 of them in
	// Lookup's DeepEqual; 3000 gave about 75 and 2, and now and then none,
	// which left the finding without a measured weight.
	built := profiledFixture(t, "rank", "10000x", "-cpuprofile", "cpu.pprof")
	prof := filepath.Join(built, "cpu.pprof")
	// The source is checked in another directory than the one the
	// profiled binary was built in (a service built by CI, checked in a
	// developer's clone): the package is at the module's root, so its
	// file shares only its base name with the profile's, and is matched
	// by its package.
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "rank"))); err != nil {
		t.Fatal(err)
	}

	checkJSON := func(args ...string) report.Report {
		t.Helper()
		stdout, stderr, code := runCmd(t, dir, bin, append([]string{"check", "-format", "json", "-profile", prof}, append(args, "./...")...)...)
		if code != exitFindings {
			t.Fatalf("check %v: exit %d\n%s", args, code, stderr)
		}
		var r report.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("check output is not JSON: %v\n%s", err, stdout)
		}
		return r
	}
	r := checkJSON("-all")
	if r.Stats.Ranking != "profile" || r.Stats.Profile == nil || r.Stats.Profile.Samples == 0 {
		t.Fatalf("stats do not describe a profile ranking: %+v", r.Stats)
	}
	// find returns the finding at line of the analyzer, or one that has
	// folded the analyzer's diagnostic at that line (see report.Merge).
	find := func(fs []report.Finding, analyzer string, line int) (report.Finding, bool) {
		for _, f := range fs {
			if f.Analyzer == analyzer && f.Line == line {
				return f, true
			}
			for _, r := range f.Related {
				if r.Analyzer == analyzer && r.Line == line {
					return f, true
				}
			}
		}
		return report.Finding{}, false
	}
	hot, ok1 := find(r.Findings, "heapescape", 19) // make in Hot
	deq, ok2 := find(r.Findings, "deepequal", 30)  // DeepEqual in Lookup
	rare, ok3 := find(r.Findings, "deepequal", 39) // DeepEqual in Rare
	if !ok1 || !ok2 || !ok3 {
		t.Fatalf("missing findings (hot %v, deepequal %v, rare %v):\n%+v", ok1, ok2, ok3, r.Findings)
	}
	if !(hot.Rank < deq.Rank && deq.Rank < rare.Rank) {
		t.Errorf("ranks: Hot alloc %d, DeepEqual %d, Rare alloc %d; want that order", hot.Rank, deq.Rank, rare.Rank)
	}
	if rare.Score != 0 || rare.Cost != "never sampled in the profile" {
		t.Errorf("Rare's finding: score %v cost %q; want 0 and never sampled", rare.Score, rare.Cost)
	}
	for _, f := range []report.Finding{hot, deq} {
		if f.Hot == nil || !strings.HasPrefix(f.Cost, "~") || !strings.Contains(f.Cost, "of CPU") {
			t.Errorf("finding %s:%d lacks its measured weight: hot %+v cost %q", f.Analyzer, f.Line, f.Hot, f.Cost)
		}
	}

	// Measure the same shares directly from the profile.
	data, err := os.Open(prof)
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(data)
	data.Close()
	if err != nil {
		t.Fatal(err)
	}
	samples, values := stacks(p)
	var total, allocAtHot, deepEqualAtLookup float64
	isAlloc := func(fn string) bool {
		return fn == "runtime.mallocgc" || fn == "runtime.newobject" || fn == "runtime.makeslice" || strings.HasPrefix(fn, "runtime.mallocgc")
	}
	for i, st := range samples {
		v := float64(values[i])
		total += v
		counted := false
		for j := 0; j+1 < len(st) && !counted; j++ {
			if isAlloc(st[j].fn) && st[j+1] == (frame{"example.com/rank.Hot", 19}) {
				allocAtHot += v
				counted = true
			}
		}
		for j := 0; j+1 < len(st); j++ {
			if st[j].fn == "reflect.DeepEqual" && st[j+1] == (frame{"example.com/rank.Lookup", 30}) {
				deepEqualAtLookup += v
				break
			}
		}
	}
	gc := r.Stats.Profile.GCFactor
	wantHot := allocAtHot / total * (1 + gc) * 100
	if math.Abs(hot.Score-wantHot) > 0.5 {
		t.Errorf("Hot alloc score %.3f%%, measured %.3f%% (alloc %.3f%% x (1+%.2f GC))", hot.Score, wantHot, allocAtHot/total*100, gc)
	}
	wantDeq := deepEqualAtLookup / total * 100
	if math.Abs(deq.Score-wantDeq) > 0.5 {
		t.Errorf("DeepEqual score %.3f%%, measured %.3f%%", deq.Score, wantDeq)
	}
	if wantHot < 10 {
		t.Errorf("the fixture's Hot allocation is only %.1f%% of CPU; the construction no longer holds", wantHot)
	}

	// Without -all, code the profile never saw run is hidden and counted.
	r2 := checkJSON()
	if _, ok := find(r2.Findings, "deepequal", 39); ok || r2.Stats.Hidden == 0 {
		t.Errorf("Rare's finding is shown without -all (hidden %d)", r2.Stats.Hidden)
	}
	if m := r2.Stats.Profile.Match; m == nil || *m < 99 {
		t.Errorf("a fresh profile matches %v%% of the source, want 100", m)
	}
	// The ranking is deterministic.
	r3 := checkJSON()
	if !reflect.DeepEqual(r2.Findings, r3.Findings) {
		t.Error("two runs with the same profile rank differently")
	}

	// After renaming the hottest function the profile no longer matches
	// the source: the function, or its caller, is named among those that
	// do not match, and below 90% of matching weight the text report
	// warns. (The compiler's profile graph has an edge from the last two
	// frames of each sample only, so Hot is a caller only in the samples
	// that end in a function it calls directly, and otherwise the callee
	// of BenchmarkWork's stale call; which carries the weight, as the
	// share of the weight the renamed function carries, depends on the
	// load of the machine while the profile was taken.)
	src, _ := os.ReadFile(filepath.Join(dir, "rank.go"))
	src = []byte(strings.ReplaceAll(string(src), "Hot(", "Warm("))
	os.WriteFile(filepath.Join(dir, "rank.go"), src, 0o644)
	test, _ := os.ReadFile(filepath.Join(dir, "rank_test.go"))
	os.WriteFile(filepath.Join(dir, "rank_test.go"), []byte(strings.ReplaceAll(string(test), "Hot(", "Warm(")), 0o644)
	p4 := checkJSON().Stats.Profile
	if p4 == nil || p4.Match == nil || *p4.Match >= 100 || !slices.ContainsFunc(p4.Stale, func(s string) bool { return s == "example.com/rank.Hot" || s == "example.com/rank.BenchmarkWork" }) {
		t.Fatalf("after renaming Hot: profile stats %+v; want a match below 100%% naming example.com/rank.Hot or its caller", p4)
	}
	if *p4.Match < 90 {
		stdout, _, _ := runCmd(t, dir, bin, "check", "-profile", prof, "./...")
		if !strings.Contains(stdout, "the profile is stale") || !strings.Contains(stdout, "example.com/rank.Hot") && !strings.Contains(stdout, "example.com/rank.BenchmarkWork") {
			t.Errorf("no staleness warning at %.0f%% of matching weight:\n%s", *p4.Match, stdout)
		}
	}
}

// profiledFixture copies the module testdata/name to a new directory and
// runs its benchmarks there, with the profiling flags given (file names
// are relative to the module), for a fixed number of iterations: not a
// duration, so that the profiles do not depend on the machine's load. It
// returns the directory.
func profiledFixture(t *testing.T, name, iterations string, flags ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"test", "-run", "^$", "-bench", ".", "-benchtime", iterations, "-o", filepath.Join(t.TempDir(), name+".test")}, flags...)
	if out, stderr, code := runCmd(t, dir, "go", append(args, ".")...); code != 0 {
		t.Fatalf("benchmark failed:\n%s%s", out, stderr)
	}
	return dir
}
