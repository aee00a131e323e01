package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	goacache "github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/report"
)

// TestCheckProfileCharge profiles the charge fixture for a fixed amount of
// work (CPU and heap) and checks that allocations are charged to the
// frame that can avoid them: (*Reader).Next's per-call buffer ranks
// first, the constructor NewReader's call in Drain second, and the
// allocator helper's own line, which allocates every byte, gets nothing
// but a breakdown naming its callers with their known shares: 10 of the
// 11 buffers of a Drain come from Next, 1 from NewReader.
func TestCheckProfileCharge(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a benchmark")
	}
	dir := profiledFixture(t, "charge", "100000x", "-cpuprofile", "cpu.pprof", "-memprofile", "heap.pprof")
	// A directory with both kinds, for -profile DIR.
	profs := filepath.Join(dir, "profiles")
	cpu, heap := filepath.Join(profs, "cpu.pprof"), filepath.Join(profs, "heap.pprof")
	if err := os.Mkdir(profs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{cpu, heap} {
		if err := os.Rename(filepath.Join(dir, filepath.Base(f)), f); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(dir, "charge.test"))

	check := func(args ...string) report.Report {
		t.Helper()
		stdout, stderr, code := runCmd(t, dir, bin, append([]string{"check", "-format", "json", "-all", "-cold", "-heapescape.all"}, append(args, "./...")...)...)
		if code != exitFindings {
			t.Fatalf("check %v: exit %d\n%s", args, code, stderr)
		}
		var r report.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("check output is not JSON: %v\n%s", err, stdout)
		}
		return r
	}
	lineOf := func(fs []report.Finding, line int) report.Finding {
		t.Helper()
		for _, f := range fs {
			if f.Analyzer == "heapescape" && f.Line == line {
				return f
			}
		}
		t.Fatalf("no heapescape finding at line %d: %+v", line, fs)
		return report.Finding{}
	}
	const (
		helperLine = 12 // return make([]byte, n) in allocBytes
		nextLine   = 28 // buf := allocBytes(4096) in (*Reader).Next
		drainLine  = 36 // r := NewReader(src) in Drain
	)
	// A directory with both kinds of profile: the heap profile ranks.
	r := check("-profile", profs)
	next, drain, helper := lineOf(r.Findings, nextLine), lineOf(r.Findings, drainLine), lineOf(r.Findings, helperLine)
	if next.Rank != 1 || drain.Rank != 2 {
		t.Errorf("ranks: Next's call %d, Drain's NewReader %d, allocBytes %d; want 1, 2, later", next.Rank, drain.Rank, helper.Rank)
	}
	if next.Samples < report.MinSamples || !strings.Contains(next.Cost, "of the bytes allocated") {
		t.Errorf("Next's call: %d samples, cost %q; want a heap-based measurement", next.Samples, next.Cost)
	}
	if ratio := next.Score / drain.Score; ratio < 7 || ratio > 14 {
		t.Errorf("Next's call scores %.2f%%, Drain's %.2f%%: ratio %.1f, want about 10", next.Score, drain.Score, ratio)
	}
	if helper.Score != 0 {
		t.Errorf("the allocator helper's line scores %.2f%%, want 0: its allocations are its callers'", helper.Score)
	}
	wantCallers := []struct {
		fn, via string
		share   float64
	}{
		{"example.com/charge.(*Reader).Next", "example.com/charge.allocBytes", 100.0 * 10 / 11},
		{"example.com/charge.Drain", "example.com/charge.NewReader", 100.0 * 1 / 11},
	}
	if len(helper.Callers) != len(wantCallers) {
		t.Fatalf("allocBytes callers: %+v, want %d", helper.Callers, len(wantCallers))
	}
	for i, w := range wantCallers {
		c := helper.Callers[i]
		if c.Function != w.fn || c.Via != w.via || math.Abs(c.Share-w.share) > 3 {
			t.Errorf("caller %d: %s via %s %.1f%%, want %s via %s %.1f%%", i, c.Function, c.Via, c.Share, w.fn, w.via, w.share)
		}
	}
	if !strings.HasPrefix(helper.Callers[0].Text, "9") || !strings.Contains(helper.Callers[0].Text, "of this line's allocations come from charge.(*Reader).Next via charge.allocBytes") {
		t.Errorf("breakdown text %q", helper.Callers[0].Text)
	}

	// The CPU profile alone charges the same way.
	r = check("-profile", cpu)
	next, helper = lineOf(r.Findings, nextLine), lineOf(r.Findings, helperLine)
	if next.Rank != 1 || helper.Score != 0 || len(helper.Callers) == 0 || helper.Callers[0].Function != wantCallers[0].fn {
		t.Errorf("CPU only: Next's call rank %d; allocBytes score %.2f, callers %+v", next.Rank, helper.Score, helper.Callers)
	}

	// The text report shows the breakdown.
	stdout, _, _ := runCmd(t, dir, bin, "check", "-all", "-heapescape.all", "-profile", profs, "./...")
	if !strings.Contains(stdout, "of this line's allocations come from charge.(*Reader).Next via charge.allocBytes (charge.go:28)") || !strings.HasPrefix(strings.SplitN(stdout, "\n", 3)[1], "#1 ") {
		t.Errorf("text report lacks the rank or the breakdown:\n%s", stdout)
	}

	// The staleness of the profile is cached by content: a planted
	// answer is read back while nothing changed, and a source edit
	// recomputes it.
	cache := t.TempDir()
	match := func() float64 {
		t.Helper()
		stdout, stderr, _ := runCmdEnv(t, dir, []string{"GOADVISE_CACHE=" + cache}, bin, "check", "-format", "json", "-profile", cpu, "./...")
		var r report.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil || r.Stats.Profile == nil || r.Stats.Profile.Match == nil {
			t.Fatalf("no staleness in the report (%v):\n%s%s", err, stdout, stderr)
		}
		return *r.Stats.Profile.Match
	}
	if m := match(); m < 99 {
		t.Fatalf("fresh profile matches %.0f%%", m)
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "staleness", "*", "*.v1"))
	if len(entries) != 1 {
		t.Fatalf("staleness cache entries: %v, want 1", entries)
	}
	t.Setenv("GOADVISE_CACHE", cache)
	key := strings.TrimSuffix(filepath.Base(entries[0]), ".v1")
	if err := goacache.New("staleness").Put(key, []byte(`{"match":12,"stale":["example.com/charge.Gone"]}`)); err != nil {
		t.Fatal(err)
	}
	if m := match(); m != 12 {
		t.Errorf("second run matches %.0f%%, want the cached 12%%", m)
	}
	src := filepath.Join(dir, "charge.go")
	data, _ := os.ReadFile(src)
	if err := os.WriteFile(src, append(data, "\n// An edit.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if m := match(); m < 99 {
		t.Errorf("after a source edit the cached answer (%.0f%%) was used", m)
	}
}
