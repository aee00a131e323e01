package driver

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/internal/plural"
	"github.com/goadvise/goadvise/memo"
	"github.com/goadvise/goadvise/pgo"
	"github.com/goadvise/goadvise/report"
)

// NoBenchmarks is the line check prints when -bench finds no benchmark to
// run.
const NoBenchmarks = "no benchmark matches -bench in the packages analysed, so the findings are ranked without a profile: -bench needs a Benchmark function in a _test.go file; -profile takes a production profile"

// defaultHeapPeriod is the heap profile's sampling period that the
// measured heap profiles claim (the runtime's default rate): they record
// every allocation, but a finding's sample count, which decides whether it
// is a measurement, is then what a production heap profile would have.
const defaultHeapPeriod = 512 * 1024

// BenchConfig asks Run to measure the packages' own benchmarks and rank by
// the profiles they give (check -bench).
type BenchConfig struct {
	Bench     string        // benchmark regular expression, as for go test -bench
	Benchtime string        // -benchtime of the CPU-profiled runs ("" for bench.DefaultProfileBenchtime)
	Budget    time.Duration // bound on the time spent running benchmarks (0 for bench.DefaultBudget)
}

// A measured benchmark, loaded for the findings' per-operation costs.
type measuredBench struct {
	*bench.Measured
	hot *pgo.Hotness // its CPU profile and its heap profile of Ops iterations
}

// measureBenchmarks runs the benchmarks of the packages matching the
// patterns (see bench.Profile), writes their profiles to dir and sets the
// config's profiles to them. It returns the benchmarks measured, or none
// when no package has a matching benchmark.
func measureBenchmarks(ctx context.Context, cfg *Config, dir string) ([]*measuredBench, error) {
	cfg.progress("listing packages and their tests")
	salt := "goadvise-bench-v1\n" + executable(cfg.Version)
	run, err := memo.List(ctx, memo.Options{Dir: cfg.Dir, Patterns: cfg.Patterns, Tests: true, Salt: salt})
	if err != nil {
		return nil, err
	}
	var pkgs []bench.ProfilePackage
	for _, p := range run.Roots {
		if p.Error == nil && hasBenchmark(p.Dir, append(slices.Clip(p.TestGoFiles), p.XTestGoFiles...)) {
			key := p.Key()
			if os.Getenv("GOADVISE_NOCACHE") != "" {
				key = ""
			}
			pkgs = append(pkgs, bench.ProfilePackage{ImportPath: p.ImportPath, Dir: p.Dir, Key: key})
		}
	}
	if len(pkgs) == 0 {
		cfg.warn(NoBenchmarks)
		return nil, nil
	}
	start := time.Now()
	m, err := bench.Profile(ctx, bench.ProfileOptions{
		Dir:       cfg.Dir,
		Packages:  pkgs,
		Bench:     cfg.Bench.Bench,
		Benchtime: cfg.Bench.Benchtime,
		Budget:    cfg.Bench.Budget,
		Progress:  cfg.progress,
	})
	if err != nil {
		return nil, err
	}
	var notRun []string
	for _, s := range m.Skipped {
		if s.Reason == bench.NotRun {
			notRun = append(notRun, s.Name)
			continue
		}
		what := s.Package
		if s.Name != "" {
			what = s.Name + " of " + s.Package
		}
		cfg.warn(fmt.Sprintf("benchmark %s skipped: %s", what, s.Reason))
	}
	if len(notRun) > 0 {
		// Often hundreds: one line.
		names := strings.Join(notRun[:min(len(notRun), 5)], ", ")
		if len(notRun) > 5 {
			names += fmt.Sprintf(" and %d more", len(notRun)-5)
		}
		cfg.warn(fmt.Sprintf("%d %s not run, the -bench-budget of %v being spent: %s", len(notRun), plural.Noun(len(notRun), "benchmark", "benchmarks"), budget(cfg.Bench.Budget), names))
	}
	cfg.benchRuns = m.Runs
	if len(m.Benchmarks) == 0 {
		if len(m.Skipped) == 0 {
			cfg.warn(NoBenchmarks)
		}
		return nil, nil
	}
	cfg.warn(fmt.Sprintf("measured %d %s of %d %s (%d from the cache) in %v",
		len(m.Benchmarks), plural.Noun(len(m.Benchmarks), "benchmark", "benchmarks"), m.Packages, plural.Noun(m.Packages, "package", "packages"),
		m.Cached, time.Since(start).Round(100*time.Millisecond)))

	var out []*measuredBench
	for i, b := range m.Benchmarks {
		cpu, err := profile.ParseData(b.CPU)
		if err != nil {
			return nil, fmt.Errorf("CPU profile of %s: %w", b.Name, err)
		}
		heap, err := profile.ParseData(b.Heap)
		if err != nil {
			return nil, fmt.Errorf("heap profile of %s: %w", b.Name, err)
		}
		if pgo.CheckWeights(cpu, pgo.CPU) == nil {
			name := filepath.Join(dir, fmt.Sprintf("%d.cpu.pprof", i))
			if err := os.WriteFile(name, b.CPU, 0o666); err != nil {
				return nil, err
			}
			cfg.Profiles = append(cfg.Profiles, name)
		}
		// For the ranking, the allocations of as many iterations as the
		// CPU profile ran, so that each benchmark's allocations weigh as
		// much as its CPU time does.
		scaled := heap.Copy()
		scaled.Scale(float64(b.N) / float64(b.Ops))
		scaled.Period = defaultHeapPeriod
		if pgo.CheckWeights(scaled, pgo.Heap) == nil {
			var buf bytes.Buffer
			if err := scaled.Write(&buf); err != nil {
				return nil, err
			}
			name := filepath.Join(dir, fmt.Sprintf("%d.heap.pprof", i))
			if err := os.WriteFile(name, buf.Bytes(), 0o666); err != nil {
				return nil, err
			}
			cfg.Heap = append(cfg.Heap, name)
		}
		hot, err := pgo.NewHotness(cpu, heap)
		if err != nil {
			return nil, fmt.Errorf("profiles of %s: %w", b.Name, err)
		}
		out = append(out, &measuredBench{Measured: b, hot: hot})
	}
	if len(cfg.Profiles) == 0 {
		// No profile to rank by: the ranking is static, but the
		// allocations counted still give the findings their costs.
		cfg.warn("the benchmarks ran too briefly for a CPU profile sample, so the ranking is static; raise -benchtime")
		cfg.Heap = nil
	}
	return out, nil
}

// hasBenchmark reports whether one of the files of dir declares a
// benchmark, by its text: the test binary lists them exactly.
func hasBenchmark(dir string, files []string) bool {
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil && bytes.Contains(src, []byte("func Benchmark")) {
			return true
		}
	}
	return false
}

// maxBenchCosts bounds the benchmarks named in a finding.
const maxBenchCosts = 3

// benchCosts sets the Benchmarks of each finding: what the line costs per
// operation in each benchmark that ran it, in any package, most
// allocations first. The allocations counted are those the finding is
// about (report.AllocCharger.Made): a finding about an inlined call of
// bufio.NewReaderSize counts the reader's buffer, which the profile
// records at bufio's line.
func benchCosts(findings []report.Finding, benches []*measuredBench, module string) {
	if len(benches) == 0 {
		return
	}
	charger := report.NewAllocCharger(findings, module)
	allocs := make([]*pgo.Allocs, len(benches))
	for i, b := range benches {
		allocs[i] = b.hot.Allocations(charger.Own())
	}
	for i := range findings {
		f := &findings[i]
		var costs []report.BenchCost
		// Free until a benchmark that ran the function allocates at the
		// line: the heap profiles record every allocation.
		ran, allocated := false, false
		for j, b := range benches {
			w := charger.Made(allocs[j], f)
			bytes, objects := w.Bytes, w.Objects
			if f.Function != "" && b.hot.Func(f.Function).Cum > 0 {
				ran = true
			}
			allocated = allocated || objects > 0
			cpu := b.hot.Line(f.File, f.Line).Cum
			if objects == 0 && cpu == 0 {
				continue
			}
			c := report.BenchCost{
				Benchmark:   b.Name,
				Package:     b.Package,
				AllocsPerOp: float64(objects) / float64(b.Ops),
				BytesPerOp:  float64(bytes) / float64(b.Ops),
				CPU:         cpu * 100,
			}
			c.Text = costText(c)
			costs = append(costs, c)
		}
		slices.SortStableFunc(costs, func(a, b report.BenchCost) int {
			if c := cmp.Compare(b.AllocsPerOp, a.AllocsPerOp); c != 0 {
				return c
			}
			return cmp.Compare(b.CPU, a.CPU)
		})
		if len(costs) > maxBenchCosts {
			costs = costs[:maxBenchCosts]
		}
		f.Benchmarks = costs
		if len(costs) > 0 {
			f.Sampled = true
		}
		f.Free = (ran || len(costs) > 0) && !allocated
	}
}

// costText spells a benchmark's cost at a line: "BenchmarkReader/plain: 2
// allocs/op, 16 B/op (3.1% of its CPU) here".
func costText(c report.BenchCost) string {
	var b strings.Builder
	b.WriteString(c.Benchmark + ": ")
	if c.AllocsPerOp > 0 {
		fmt.Fprintf(&b, "%s allocs/op, %s B/op ", perOp(c.AllocsPerOp), perOp(c.BytesPerOp))
	} else {
		b.WriteString("no allocations ")
	}
	if c.CPU > 0 {
		fmt.Fprintf(&b, "(%.1f%% of its CPU) here", c.CPU)
	} else {
		b.WriteString("(no CPU sample) here")
	}
	return b.String()
}

// perOp formats a per-operation figure with at most two decimals, none
// from 100 up.
func perOp(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(float64(int64(v+0.5)), 'f', -1, 64)
	}
	return strconv.FormatFloat(float64(int64(v*100+0.5))/100, 'f', -1, 64)
}

// budget returns the budget of a run.
func budget(d time.Duration) time.Duration {
	if d == 0 {
		return bench.DefaultBudget
	}
	return d
}
