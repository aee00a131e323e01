package verify

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/report"
)

// A chooser chooses the benchmarks that measure a fix: those given by
// Options.Bench, or else the benchmarks of the fix's package that execute
// the finding's line, by their coverage, computed once per package.
type chooser struct {
	pattern   string // Options.Bench
	moduleDir string
	progress  func(format string, args ...any)
	cover     map[string]*bench.Coverage // by package directory
	coverErr  map[string]error
}

// choose returns the -bench pattern that measures the fix of f, whose
// package is in dir, the benchmarks it names (nil with Options.Bench) and
// what they execute: the finding's line or, when no benchmark executes
// it (a case whose body never runs, merged into another), its function.
// When no benchmark executes either it returns an empty pattern and says
// so in unmeasured.
func (c *chooser) choose(ctx context.Context, f *report.Finding, dir string) (pattern string, names []string, runs, unmeasured string, err error) {
	if c.pattern != "" {
		return c.pattern, nil, "", "", nil
	}
	cov, err := c.coverage(ctx, dir, f.Package)
	if err != nil {
		return "", nil, "", "", err
	}
	line := fmt.Sprintf("%s:%d", relTo(c.moduleDir, f.File), f.Line)
	if names = cov.Covering(f.File, f.Line); len(names) > 0 {
		return benchPattern(names), names, line, "", nil
	}
	if names = cov.CoveringFunc(f.File, f.Line); len(names) > 0 {
		return benchPattern(names), names, "the function around " + line + " (none runs the line itself)", "", nil
	}
	return "", nil, "", fmt.Sprintf("no benchmark runs %s or its function; not measured", line), nil
}

// coverage returns the benchmark coverage of the package pkg in dir,
// computing it on first use.
func (c *chooser) coverage(ctx context.Context, dir, pkg string) (*bench.Coverage, error) {
	if cov, ok := c.cover[dir]; ok {
		return cov, c.coverErr[dir]
	}
	c.progress("finding the benchmarks of %s that run the fixes' lines (each once with coverage, -benchtime=%s) ...", pkg, bench.CoverBenchtime)
	cov, err := bench.BenchmarkCoverage(ctx, dir)
	if err != nil {
		err = fmt.Errorf("choosing the benchmarks (choose them with -verify-bench): %w", err)
	}
	if err == nil && len(cov.Unreadable) > 0 {
		c.progress("%s of %s print while they run, which breaks their result lines: they are not used to measure fixes", strings.Join(cov.Unreadable, ", "), pkg)
	}
	c.cover[dir], c.coverErr[dir] = cov, err
	return cov, err
}

// measuredBenchmarks chooses the benchmarks that measure the fix of f
// from what check -bench measured: those whose profiles ran the finding's
// line (report.Finding.Benchmarks), in whatever package they are. They
// must be in one package, since a fix is measured in one: the package of
// the benchmark that allocates the most at the line. It returns the -bench
// pattern, the top-level benchmarks it runs, the directory of their
// package and what they run; ok is false when -bench did not measure the
// line or the benchmark's package directory is unknown.
func measuredBenchmarks(f *report.Finding, dirOf map[string]string, moduleDir string) (pattern string, names []string, dir, runs string, ok bool) {
	if len(f.Benchmarks) == 0 {
		return "", nil, "", "", false
	}
	pkg := f.Benchmarks[0].Package
	if dir = dirOf[pkg]; dir == "" {
		return "", nil, "", "", false
	}
	var leaves []string
	for _, b := range f.Benchmarks {
		if b.Package != pkg {
			continue
		}
		leaves = append(leaves, b.Benchmark)
		top, _, _ := strings.Cut(b.Benchmark, "/")
		if !slices.Contains(names, top) {
			names = append(names, top)
		}
	}
	pattern = benchPattern(names)
	if len(leaves) == 1 && leaves[0] != names[0] {
		// One sub-benchmark: that one alone.
		parts := strings.Split(leaves[0], "/")
		for i, p := range parts {
			parts[i] = "^" + regexp.QuoteMeta(p) + "$"
		}
		pattern = strings.Join(parts, "/")
	}
	runs = fmt.Sprintf("%s:%d (measured by -bench: %s)", relTo(moduleDir, f.File), f.Line, strings.Join(leaves, ", "))
	return pattern, names, dir, runs, true
}

// benchPattern returns the go test -bench pattern that runs exactly the
// top-level benchmarks names, with their sub-benchmarks.
func benchPattern(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

// unread returns an error naming the chosen benchmarks that gave no result
// goadvise could read, before or after the fix: a benchmark that prints
// to stdout while it runs breaks its own result line, and a fix judged
// without it would be judged on the others alone.
func unread(res *bench.VerifyResult, names []string) error {
	if res == nil || res.Comparison == nil || len(names) == 0 {
		return nil
	}
	both := make(map[string]bool)
	for _, r := range res.Comparison.Rows {
		if r.Base != nil && r.Head != nil {
			name, _, _ := strings.Cut(r.Name, "/")
			both["Benchmark"+procsSuffix.ReplaceAllString(name, "")] = true
		}
	}
	var missing []string
	for _, n := range names {
		if !both[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%s gave no result that could be read before and after the fix (a benchmark that prints to its output breaks its result line): measure with -verify-bench naming the others", strings.Join(missing, ", "))
}

// procsSuffix is the -GOMAXPROCS suffix of a benchmark's name.
var procsSuffix = regexp.MustCompile(`-\d+$`)

// relTo returns path relative to dir when it lies inside it.
func relTo(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}
