package driver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/heapescape"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/internal/gittest"
	"github.com/goadvise/goadvise/internal/proftest"
	"github.com/goadvise/goadvise/pgo"
	"github.com/goadvise/goadvise/report"
)

// TestRankHides checks what rank hides without a profile, and counts:
// findings in test files (unless Tests), cold code (unless Cold;
// heapescape's with its -cold flag), and findings in excluded files, each once,
// for the first reason that hides it (exclusion last); nothing for its
// class; and the cut of the default output to kind.PerKLOC findings per
// 1,000 lines, or of Top, after ranking by estimated saving.
func TestRankHides(t *testing.T) {
	mk := func(analyzer, file string, line int, tier string, ns float64, class string) report.Finding {
		f := report.Finding{Analyzer: analyzer, File: file, Line: line}
		f.Tier, f.CostNS, f.Class, f.Rewrite = tier, ns, class, class != "inherent"
		return f
	}
	findings := func() []report.Finding {
		return []report.Finding{
			mk("deepequal", "/m/a.go", 1, "cold", 300, ""),
			mk("heapescape", "/m/a.go", 2, "cold", 30, ""),
			mk("heapescape", "/m/a.go", 3, "hot-loop", 30, "inherent"),
			mk("heapescape", "/m/a.go", 4, "cold", 30, "inherent"),
			mk("deepequal", "/m/a_test.go", 5, "hot-loop", 300, ""),
			mk("smallalloc", "/m/a.go", 6, "per-item", 30, ""),
			mk("deepequal", "/m/a.go", 7, "hot-loop", 300, ""),
			mk("redundantbranch", "/m/a.go", 8, "hot-loop", 1, "negligible"),
		}
	}
	excludeA := func(file string) bool { return file == "/m/a.go" }
	lines := func(r *report.Report) []int {
		var out []int
		for _, f := range r.Findings {
			out = append(out, f.Line)
		}
		return out
	}
	for _, tc := range []struct {
		name                            string
		cfg                             Config
		loc                             int
		want                            []int
		total, cold, belowCut, excluded int
	}{
		{"default", Config{}, 10000, []int{7, 6, 8, 3}, 4, 3, 0, 0},
		{"tests", Config{Tests: true}, 10000, []int{7, 5, 6, 8, 3}, 5, 3, 0, 0},
		{"cold", Config{Visibility: suite.Visibility{Cold: true}}, 10000, []int{7, 6, 8, 1, 3, 2, 4}, 7, 0, 0, 0},
		{"heapescape cold", Config{}, 10000, []int{7, 6, 8, 3, 2, 4}, 6, 1, 0, 0},
		{"density", Config{}, 700, []int{7, 6}, 2, 3, 2, 0},
		{"all", Config{Visibility: suite.Visibility{All: true}}, 700, []int{7, 6, 8, 3}, 4, 3, 0, 0},
		{"top", Config{Top: 1}, 10000, []int{7}, 4, 3, 0, 0},
		// Excluded counts only what the exclusion alone hides.
		{"exclude", Config{Exclude: excludeA}, 10000, nil, 0, 3, 0, 4},
		{"exclude, cold", Config{Exclude: excludeA, Visibility: suite.Visibility{Cold: true}, Tests: true}, 10000, []int{5}, 1, 0, 0, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "heapescape cold" {
				setFlag(t, heapescape.Analyzer, "cold", "true")
			}
			r, ranked, err := rank(&tc.cfg, findings(), nil, &analysisResult{lines: tc.loc})
			if err != nil {
				t.Fatal(err)
			}
			if len(ranked) != r.Stats.Total || len(r.Findings) > len(ranked) {
				t.Errorf("ranked %d findings, report %d of %d", len(ranked), len(r.Findings), r.Stats.Total)
			}
			if got := lines(r); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("lines reported = %v, want %v", got, tc.want)
			}
			s := r.Stats
			if s.Total != tc.total || s.Findings != len(tc.want) || s.HiddenCold != tc.cold || s.BelowCut != tc.belowCut || s.Excluded != tc.excluded || s.Ranking != "static" {
				t.Errorf("stats: total %d, findings %d, cold %d, below the cut %d, excluded %d, ranking %s; want %d, %d, %d, %d, %d, static",
					s.Total, s.Findings, s.HiddenCold, s.BelowCut, s.Excluded, s.Ranking, tc.total, len(tc.want), tc.cold, tc.belowCut, tc.excluded)
			}
			// Each finding is counted once: shown (before Top), ranked
			// below the cut, or hidden for one reason.
			found := len(findings())
			if !tc.cfg.Tests {
				found-- // a_test.go's
			}
			if n := s.Total + s.BelowCut + s.HiddenCold + s.Excluded; n != found {
				t.Errorf("stats count %d findings, want each of the %d once", n, found)
			}
		})
	}
}

// TestRankShares checks that without a profile the default output's
// findings are shared among the packages in proportion to their lines,
// each showing its highest ranked, in the order of the ranking.
func TestRankShares(t *testing.T) {
	var fs []report.Finding
	for i := 1; i <= 5; i++ {
		fs = append(fs, shareFinding("big", i, float64(100*i)))
	}
	fs = append(fs, shareFinding("small", 1, 10), shareFinding("small", 2, 5))
	r, got := rankShown(t, fs, map[string]int{"big": 600, "small": 400})
	if want := []string{"big:5", "big:4", "small:1"}; !slices.Equal(got, want) {
		t.Errorf("shown %v, want %v", got, want)
	}
	if r.Stats.BelowCut != 4 {
		t.Errorf("%d below the cut, want 4", r.Stats.BelowCut)
	}
}

// TestRankCopiedShare checks that a package in a copy of another
// project's code has no share of the default output of its own: its
// findings weigh less and take what the others leave.
func TestRankCopiedShare(t *testing.T) {
	var fs []report.Finding
	for i := 1; i <= 4; i++ {
		c := shareFinding("third_party/x", i, float64(1000*i))
		c.Copied = "third_party/x"
		fs = append(fs, shareFinding("own", i, float64(10*i)), c)
	}
	_, got := rankShown(t, fs, map[string]int{"own": 400, "third_party/x": 600})
	if want := []string{"own:4", "own:3", "own:2"}; !slices.Equal(got, want) {
		t.Errorf("shown %v, want %v", got, want)
	}
}

// shareFinding returns a per-item finding of pkg at line with a checked
// rewrite, whose code costs ns.
func shareFinding(pkg string, line int, ns float64) report.Finding {
	f := report.Finding{Analyzer: "heapescape", File: "/m/" + pkg + ".go", Line: line, Package: pkg}
	f.Tier, f.CostNS, f.Rewrite = "per-item", ns, true
	return f
}

// rankShown ranks fs without a profile, for 1,000 lines shared among the
// packages as pkgLines says, and returns the report and "package:line" of
// each finding it shows, in order.
func rankShown(t *testing.T, fs []report.Finding, pkgLines map[string]int) (*report.Report, []string) {
	t.Helper()
	r, _, err := rank(&Config{}, fs, nil, &analysisResult{lines: 1000, pkgLines: pkgLines})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		got = append(got, fmt.Sprintf("%s:%d", f.Package, f.Line))
	}
	return r, got
}

// TestRunListsOnce runs a cold check through a go command that logs its
// arguments: the packages are listed (go list -deps) once, for the
// findings cache and the compiler's decisions alike, go env runs once,
// and the findings come out ranked.
func TestRunListsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a fixture module")
	}
	log := logGoCommand(t)
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	files := manyPackages("example.com/once", 3)
	// p01 is a copy of another project's code, which keeps its license.
	files["p01/LICENSE.txt"] = "Copyright another project.\n"
	// p02 has a generated file: analysed as the rest, marked, no fix;
	// its tool (gen) is not the module's. p00's is made by the module's
	// own tools/gen.
	files["p02/z_gen.go"] = "// Code generated by gen. DO NOT EDIT.\n\npackage p02\n\nimport \"reflect\"\n\n// Gen compares.\nfunc Gen(a, b []int) bool { return reflect.DeepEqual(a, b) }\n"
	files["p00/z_own.go"] = "// Code generated by tools/gen. DO NOT EDIT.\n\npackage p00\n\nimport \"reflect\"\n\n// Own compares.\nfunc Own(a, b []int) bool { return reflect.DeepEqual(a, b) }\n"
	files["tools/gen/README"] = "The module's generator.\n"
	dir := gittest.NewTree(t, files)
	res, err := Run(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: suite.Analyzers(), Visibility: suite.Everything}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Report.Stats.Packages; got != 3 || len(res.Report.Findings) != 5 || len(res.Errors) > 0 {
		t.Errorf("%d packages, %d findings, errors %q; want 3 packages with a finding each and one in each generated file", got, len(res.Report.Findings), res.Errors)
	}
	generated := 0
	for _, f := range res.Report.Findings {
		if want := map[bool]string{true: "p01"}[strings.HasSuffix(f.Package, "/p01")]; f.Copied != want {
			t.Errorf("%s: Copied %q, want %q", f.Package, f.Copied, want)
		}
		if want := strings.HasPrefix(filepath.Base(f.File), "z_"); f.Generated != want {
			t.Errorf("%s: Generated %v, want %v", filepath.Base(f.File), f.Generated, want)
		}
		if want := strings.HasSuffix(f.File, "z_gen.go"); f.GeneratedElsewhere != want {
			t.Errorf("%s: GeneratedElsewhere %v, want %v", filepath.Base(f.File), f.GeneratedElsewhere, want)
		}
		if f.Generated {
			generated++
			if len(f.Fixes) > 0 {
				t.Errorf("%s: a fix edits the generated file: %+v", filepath.Base(f.File), f.Fixes)
			}
		} else if len(f.Fixes) == 0 {
			t.Errorf("%s: no fix; the test needs one that the generated file's finding would have", filepath.Base(f.File))
		}
	}
	if generated != 2 {
		t.Errorf("%d findings in the generated files, want 2", generated)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var listings, envs []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "list ") && strings.Contains(line, "-deps") && !strings.Contains(line, "-export") {
			listings = append(listings, line)
		}
		if strings.HasPrefix(line, "env ") {
			envs = append(envs, line)
		}
	}
	if len(listings) != 1 {
		t.Errorf("a cold run listed the packages %d times, want once:\n%s", len(listings), strings.Join(listings, "\n"))
	}
	// The findings cache's keys and the compiler's settings come from one
	// go env (load.ReadEnv).
	if len(envs) != 1 {
		t.Errorf("a cold run ran go env %d times, want once:\n%s", len(envs), strings.Join(envs, "\n"))
	}

	// With a profile, the run lists once too: the profile's coverage of
	// the packages comes from the same listing (it used to take a second
	// go list, of the test variants, on every run).
	prof := filepath.Join(t.TempDir(), "cpu.pprof")
	proftest.WriteCPU(t, prof, "example.com/once/p00.Same", "example.com/once/p01.Same")
	for _, run := range []string{"cold", "warm"} {
		if err := os.Remove(log); err != nil {
			t.Fatal(err)
		}
		res, err = Run(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: suite.Analyzers(), Visibility: suite.Everything, Profiles: []string{prof}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(res.Report.Findings); got != 5 {
			t.Errorf("%s run with a profile: %d findings, want 5", run, got)
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		var lists []string
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "list ") && !strings.Contains(line, "-export") {
				lists = append(lists, line)
			}
		}
		if len(lists) != 1 {
			t.Errorf("a %s run with a profile ran go list %d times, want once:\n%s", run, len(lists), strings.Join(lists, "\n"))
		}
	}
}

// TestRunWholeProgress checks that the whole-program passes say which of
// their steps runs, through Run's progress callback, in order, after the
// analysis's own steps.
func TestRunWholeProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("builds SSA for a fixture module")
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, manyPackages("example.com/whole", 2))
	var msgs []string
	res, err := Run(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: suite.Analyzers(), Passes: []string{"devirt", "loopalloc"}}, func(msg string) {
		msgs = append(msgs, msg)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %q", res.Errors)
	}
	want := []string{"loading", "building SSA", "call graph", "compiler decisions", "passes"}
	var got []string
	for _, m := range msgs {
		if step, ok := strings.CutPrefix(m, "whole-program passes: "); ok {
			got = append(got, step)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("whole-program steps %q, want %q (all messages: %q)", got, want, msgs)
	}
	if i := slices.Index(msgs, "whole-program passes: loading"); i < 1 || !strings.HasPrefix(msgs[i-1], "analysing packages") {
		t.Errorf("the passes should start after the analysis: %q", msgs)
	}
}

// TestCutBenchmarked checks that with a profile the head of the ranking
// is shown, within the budget, and after it what a benchmark measured,
// except an allocation every benchmark that ran it made none of (ranked
// last by report.RankByScore): with a budget of two, the first two
// ranked, the measured allocation after them, not the measured-free one.
func TestCutBenchmarked(t *testing.T) {
	mk := func(line int, allocs ...float64) report.Finding {
		f := report.Finding{Analyzer: "heapescape", File: "/m/a.go", Line: line, Package: "m"}
		f.Scoring, f.Tier = kind.ScoreAlloc, "per-item"
		for _, a := range allocs {
			f.Benchmarks = append(f.Benchmarks, report.BenchCost{Benchmark: "BenchmarkA", AllocsPerOp: a, CPU: 3})
		}
		return f
	}
	fs := []report.Finding{mk(1), mk(2), mk(3, 0, 2), mk(4, 0)}
	fs[3].Free = true // as benchCosts sets it: no benchmark allocated at the line
	got := cut(fs, 2, &analysisResult{}, true, benchmarked)
	var lines []int
	for _, f := range got {
		lines = append(lines, f.Line)
	}
	if !slices.Equal(lines, []int{1, 2, 3}) {
		t.Errorf("shown lines %v, want [1 2 3]", lines)
	}
}

// TestCutGeneratedElsewhere checks that a package's lines in files
// another project's tool generated (a .pb.go package) give it no share of
// the static budget: its findings, ranked first, take only what the
// module's own packages leave.
func TestCutGeneratedElsewhere(t *testing.T) {
	mk := func(pkg string, line int) report.Finding {
		return report.Finding{Analyzer: "heapescape", File: "/m/" + pkg + "/a.go", Line: line, Package: pkg}
	}
	var fs []report.Finding
	for i := range 4 {
		fs = append(fs, mk("pb", i+1)) // ranked first
	}
	for i := range 4 {
		fs = append(fs, mk("own", i+1))
	}
	count := func(got []report.Finding) map[string]int {
		n := make(map[string]int)
		for _, f := range got {
			n[f.Package]++
		}
		return n
	}
	ar := &analysisResult{pkgLines: map[string]int{"pb": 1000, "own": 1000}, pkgElsewhere: map[string]int{"pb": 1000}}
	if got := count(cut(slices.Clone(fs), 4, ar, false, func(report.Finding) bool { return false })); got["own"] != 4 || got["pb"] != 0 {
		t.Errorf("shown by package %v; want the 4 of own, none of the generated package", got)
	}
	ar.pkgElsewhere = nil
	if got := count(cut(slices.Clone(fs), 4, ar, false, func(report.Finding) bool { return false })); got["own"] != 2 || got["pb"] != 2 {
		t.Errorf("without generated lines, shown by package %v; want 2 and 2", got)
	}
}

// TestRankProfileEvidence checks that a profile is evidence: a finding
// the profile charges a measurable share is shown whatever its class or
// tier, while an inherent finding it charges nothing stays hidden and
// counted, as does one in code it never saw run; the module's hottest
// functions are listed with the number of findings shown in each.
func TestRankProfileEvidence(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.pprof")
	proftest.WriteCPU(t, prof, "example.com/m.Hot", "example.com/m.Warm")
	hot, err := pgo.Load(context.Background(), []string{prof}, nil, pgo.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(file string, line int, tier, class, fn string) report.Finding {
		f := report.Finding{Analyzer: "redundantbranch", File: file, Line: line, Function: fn, Package: "example.com/m"}
		f.Tier, f.Class, f.Scoring = tier, class, kind.ScoreFlat
		return f
	}
	findings := func() []report.Finding {
		return []report.Finding{
			mk("p.go", 6, "cold", "inherent", "example.com/m.Hot"),
			mk("/m/q.go", 6, "cold", "", "example.com/m.Cold"),
			mk("/m/q.go", 9, "per-item", "inherent", "example.com/m.Cold"),
		}
	}
	r, _, err := rank(&Config{}, findings(), hot, &analysisResult{module: "example.com/m", lines: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 1 || r.Findings[0].Function != "example.com/m.Hot" {
		t.Fatalf("shown %+v; want the measured inherent cold finding of Hot alone", r.Findings)
	}
	if r.Stats.Hidden != 2 {
		t.Errorf("hidden: %d never sampled; want 2", r.Stats.Hidden)
	}
	p := r.Stats.Profile
	if p == nil || len(p.Inside) != 2 || p.Inside[0].Findings+p.Inside[1].Findings != 1 {
		t.Errorf("the module's hottest functions: %+v; want Hot (1 finding) and Warm (none)", p)
	}

	// Excluded, the measured finding is counted as excluded (it would be
	// shown), the others for the reasons that hide them.
	r, _, err = rank(&Config{Exclude: func(string) bool { return true }}, findings(), hot, &analysisResult{module: "example.com/m", lines: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Stats; len(r.Findings) != 0 || s.Excluded != 1 || s.Hidden != 2 {
		t.Errorf("all excluded: %d shown, %d excluded, %d never sampled; want 0, 1, 2", len(r.Findings), s.Excluded, s.Hidden)
	}
}

// logGoCommand puts first on PATH a go command that appends its arguments
// to a log, one run a line, then runs the real one; it returns the log's
// path. It skips the test when there is no go command.
func logGoCommand(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	script := "#!/bin/sh\necho \"$*\" >> " + log + "\nexec " + goCmd + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

// TestNewFromRevFirst checks that a revision that does not exist is
// refused before any work: no go command runs, no benchmark is measured,
// and the error names where the revision was given.
func TestNewFromRevFirst(t *testing.T) {
	log := logGoCommand(t)
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewRepo(t, manyPackages("example.com/rev", 1))
	for _, tc := range []struct{ source, want string }{
		{"", `-new-from-rev: unknown git revision "nosuch"`},
		{"/m/.goadvise.yaml:3: new-from-rev", `/m/.goadvise.yaml:3: new-from-rev: unknown git revision "nosuch"`},
	} {
		progress := 0
		_, err := Run(context.Background(), Config{
			Dir: dir, Patterns: []string{"./..."}, Analyzers: suite.Analyzers(),
			NewFromRev: "nosuch", NewFromRevSource: tc.source,
			Bench: &BenchConfig{Bench: ".", Budget: time.Minute},
		}, func(string) { progress++ })
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Run with NewFromRev nosuch from %q: error %v, want %s", tc.source, err, tc.want)
		}
		if progress > 0 {
			t.Errorf("Run with NewFromRev nosuch reported progress %d times before its error", progress)
		}
	}
	if data, err := os.ReadFile(log); err == nil && len(data) > 0 {
		t.Errorf("go commands ran before the revision was refused:\n%s", data)
	}
}

// setFlag sets the flag name of a for the test, as the user's command line
// does.
func setFlag(t *testing.T, a *analysis.Analyzer, name, value string) {
	t.Helper()
	f := a.Flags.Lookup(name)
	old := f.Value.String()
	if err := f.Value.Set(value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set(old) })
}

// TestRunLocksModule checks that runs on one module are kept apart by the
// driver itself: while a run whose findings are being fixed (Config.Fix)
// holds the module's lock, another run, from a subdirectory, warns that it
// waits and does not finish before Unlock.
func TestRunLocksModule(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, manyPackages("example.com/lock", 2))
	deq, err := suite.Select([]string{"deepequal"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fixing, err := Run(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: deq, Fix: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), Config{
			Dir: filepath.Join(dir, "p01"), Patterns: []string{"."}, Analyzers: deq,
			Warn: func(msg string) { waiting <- msg },
		}, nil)
		done <- err
	}()
	select {
	case msg := <-waiting:
		if want := "waiting for another goadvise run on " + dir + " to finish"; msg != want {
			t.Errorf("warning %q, want %q", msg, want)
		}
	case err := <-done:
		t.Fatalf("a run finished (error %v) while another held the module's lock for its fixes", err)
	case <-time.After(time.Minute):
		t.Fatal("a run neither waited for the module's lock nor finished")
	}
	select {
	case err := <-done:
		t.Fatalf("a run finished (error %v) before the fixing run unlocked the module", err)
	case <-time.After(200 * time.Millisecond):
	}
	fixing.Unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	fixing.Unlock() // a second time does nothing
}
