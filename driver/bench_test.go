package driver

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/report"
)

// TestBench runs check -bench on the benchlib fixture, whose allocation
// is in package enc and whose benchmark is in package reader: the
// allocation ranks first, with the exact allocs/op of the sub-benchmark
// that runs it and of the benchmark that runs it in a goroutine of its
// own; an allocation no benchmark runs is shown after it, with its static
// tier; the failing benchmark is reported and skipped; the user's tree is
// not written; and a second run takes every measurement from the cache,
// running no go test, and names the failing benchmark again.
func TestBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks a fixture module")
	}
	log := logGoCommand(t)
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	t.Setenv("GOADVISE_BENCHLIB_PASS", "")
	os.Unsetenv("GOADVISE_BENCHLIB_PASS")
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/benchlib")); err != nil {
		t.Fatal(err)
	}
	before := treeFiles(t, dir)
	makeLine := lineOf(t, filepath.Join(dir, "enc", "enc.go"), "make([]byte, 16)")
	markLine := lineOf(t, filepath.Join(dir, "enc", "enc.go"), "b[0] = m") - 1

	for _, run := range []string{"cold", "cached"} {
		os.Remove(log)
		var warnings []string
		cfg := Config{
			Dir: dir, Patterns: []string{"./..."}, Analyzers: suite.Analyzers(), Visibility: suite.Visibility{All: true},
			Bench: &BenchConfig{Bench: ".", Benchtime: "20ms", Budget: time.Minute},
			Warn:  func(msg string) { warnings = append(warnings, msg) },
		}
		res, err := Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatalf("%s run: %v", run, err)
		}
		if res.Report.Stats.Ranking != "profile" || len(res.Report.Findings) == 0 {
			t.Fatalf("%s run: ranking %s, %d findings; want the measured profile's ranking", run, res.Report.Stats.Ranking, len(res.Report.Findings))
		}
		f := res.Report.Findings[0]
		if f.Analyzer != "smallalloc" || filepath.Base(f.File) != "enc.go" || f.Line != makeLine {
			t.Errorf("%s run: first finding %s at %s:%d, want smallalloc at enc.go:%d", run, f.Analyzer, filepath.Base(f.File), f.Line, makeLine)
		}
		// BenchmarkServer's allocation is in a goroutine its set-up
		// started, with no frame of the testing package: it counts.
		want := []report.BenchCost{
			{Benchmark: "BenchmarkReader/plain", Package: "example.com/benchlib/reader", AllocsPerOp: 2, BytesPerOp: 32},
			{Benchmark: "BenchmarkServer", Package: "example.com/benchlib/reader", AllocsPerOp: 1, BytesPerOp: 16},
		}
		ok := len(f.Benchmarks) == len(want)
		for i := 0; ok && i < len(want); i++ {
			g := f.Benchmarks[i]
			ok = g.Benchmark == want[i].Benchmark && g.Package == want[i].Package && g.AllocsPerOp == want[i].AllocsPerOp && g.BytesPerOp == want[i].BytesPerOp
		}
		if !ok || !strings.HasPrefix(f.Benchmarks[0].Text, "BenchmarkReader/plain: 2 allocs/op, 32 B/op (") {
			t.Errorf("%s run: first finding's benchmarks %+v, want %+v", run, f.Benchmarks, want)
		}
		// Mark, which no benchmark runs, keeps the tier the source
		// gives it and is shown after what the benchmarks measured: that
		// they do not run it is no evidence that a program seldom does.
		i := slices.IndexFunc(res.Report.Findings, func(f report.Finding) bool { return f.Line == markLine })
		if i < 1 {
			t.Fatalf("%s run: Mark's finding at index %d of %d, want after the measured ones", run, i, len(res.Report.Findings))
		}
		if m := res.Report.Findings[i]; m.Tier != "unknown" || !strings.Contains(m.Message, "no benchmark runs it") {
			t.Errorf("%s run: Mark's finding, tier %s: %s; want unknown, no benchmark runs it", run, m.Tier, m.Message)
		}
		for _, f := range res.Report.Findings[i+1:] {
			if len(f.Benchmarks) > 0 {
				t.Errorf("%s run: a measured finding at line %d after Mark's, which no benchmark runs", run, f.Line)
			}
		}
		fail := "benchmark BenchmarkFail of example.com/benchlib/reader skipped: failed: reader_test.go:39: GOADVISE_BENCHLIB_PASS is not set"
		if !slices.Contains(warnings, fail) {
			t.Errorf("%s run: warnings %q lack %q", run, warnings, fail)
		}
		data, _ := os.ReadFile(log)
		var tests []string
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "test ") {
				tests = append(tests, line)
			}
		}
		switch {
		case run == "cold" && (len(tests) != 1 || res.BenchRuns == 0):
			t.Errorf("cold run: %d test binaries built or run, go test %q; want one go test -c", res.BenchRuns, tests)
		case run == "cached" && (len(tests) != 0 || res.BenchRuns != 0):
			t.Errorf("cached run: %d test binaries built or run, go test %q; want none", res.BenchRuns, tests)
		}
		if run == "cached" && !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, "(1 from the cache)") }) {
			t.Errorf("cached run: warnings %q do not say the package came from the cache", warnings)
		}
	}
	if after := treeFiles(t, dir); !slices.Equal(before, after) {
		t.Errorf("check -bench wrote in the user's tree: files before %q, after %q", before, after)
	}
}

// TestBenchNone checks that a module without benchmarks gets one line
// saying what -bench needs, and the static ranking.
func TestBenchNone(t *testing.T) {
	if testing.Short() {
		t.Skip("lists a fixture module")
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/benchlib")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "reader", "reader_test.go")); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	cfg := Config{
		Dir: dir, Patterns: []string{"./..."}, Analyzers: suite.Analyzers(), Visibility: suite.Visibility{All: true},
		Bench: &BenchConfig{Bench: "."},
		Warn:  func(msg string) { warnings = append(warnings, msg) },
	}
	res, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(warnings, []string{NoBenchmarks}) || res.Report.Stats.Ranking != "static" || res.BenchRuns != 0 {
		t.Errorf("warnings %q, ranking %s, %d runs; want %q alone, static, none", warnings, res.Report.Stats.Ranking, res.BenchRuns, NoBenchmarks)
	}
}

// treeFiles returns the files under dir with their sizes.
func treeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, path+" "+fi.ModTime().String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// lineOf returns the line of file holding text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, text)
	return 0
}

// TestBenchNoCPUSample runs check -bench for one iteration, too short for
// a CPU sample in the module: the allocation the heap profile counted is
// still shown, first, with its allocs/op (the CPU profile alone would call
// the code never run, and cold).
func TestBenchNoCPUSample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks a fixture module")
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/benchlib")); err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Dir: dir, Patterns: []string{"./..."}, Analyzers: suite.Analyzers(), Visibility: suite.Visibility{All: true},
		Bench: &BenchConfig{Bench: "Reader", Benchtime: "1x", Budget: time.Minute},
		Warn:  func(string) {},
	}
	res, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	fs := res.Report.Findings
	if len(fs) == 0 || fs[0].Analyzer != "smallalloc" || len(fs[0].Benchmarks) == 0 || fs[0].Benchmarks[0].AllocsPerOp != 2 {
		t.Fatalf("findings %+v; want smallalloc first, at 2 allocs/op", fs)
	}
}
