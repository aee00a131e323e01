package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/report"
)

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

// keptPackages returns the packages of the findings, whose tests a
// combined run of their fixes must pass wherever it measures them.
func keptPackages(kept []report.Finding) []string {
	var pkgs []string
	for _, f := range kept {
		if !slices.Contains(pkgs, f.Package) {
			pkgs = append(pkgs, f.Package)
		}
	}
	return pkgs
}
