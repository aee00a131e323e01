// Command programstd runs goadvise's whole-program passes (package
// program) on a set of packages, by default the whole standard library,
// and prints counts, time and peak memory. It is a measurement tool, run by
// scripts/program-std.sh; it is not part of the test suite because SSA and
// the call graph of all of std take tens of seconds and gigabytes.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/goadvise/goadvise/internal/heapprof"
	"github.com/goadvise/goadvise/load"
	"github.com/goadvise/goadvise/wholeprog"
)

func main() {
	passes := flag.String("passes", "devirt", "comma-separated passes to run (devirt, loopalloc); loopalloc compiles every package with the optimization log")
	show := flag.Int("show", 10, "print the first `N` findings")
	closed := flag.Bool("closed", false, "report devirt findings even though the packages have no main package (std is a library: its callers are unknown)")
	open := flag.Bool("open", false, "treat the program's importable packages as other programs' too (a module that is also a library)")
	memprofile := flag.String("memprofile", "", "write a heap profile to `file` at the largest live heap (checked every 100 ms)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: programstd [-passes devirt,loopalloc] [-show N] [packages (default std)]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"std"}
	}
	start := time.Now()
	listing, err := load.Packages(context.Background(), load.ListOptions{}, patterns...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "programstd: %v\n", err)
		os.Exit(1)
	}
	var roots []string
	for _, p := range listing.Packages {
		roots = append(roots, p.ImportPath)
	}
	var stats wholeprog.Stats
	opts := wholeprog.Options{Passes: strings.Split(*passes, ","), Stats: &stats, AssumeClosed: *closed, OpenWorld: *open}
	stopProfile := func() error { return nil }
	if *memprofile != "" {
		stopProfile = heapprof.Peak(*memprofile, 100*time.Millisecond)
	}
	fs, err := wholeprog.AnalyzePaths(context.Background(), roots, opts)
	elapsed := time.Since(start)
	if err := stopProfile(); err != nil {
		fmt.Fprintf(os.Stderr, "programstd: %v\n", err)
		os.Exit(1)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "programstd: %v\n", err)
		os.Exit(1)
	}
	byPass := make(map[string]int)
	byTier := make(map[string]int)
	for _, f := range fs {
		byPass[f.Analyzer]++
		byTier[f.Tier]++
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("patterns:            %s\n", strings.Join(patterns, " "))
	fmt.Printf("packages in program: %d (with bodies: %d, reported on: %d; loaded later for loopalloc: %d)\n", stats.Packages, stats.Bodies, stats.Reported, stats.DepBodies)
	fmt.Printf("SSA functions:       %d with bodies\n", stats.Functions)
	fmt.Printf("interface call sites in reported packages: %d; single concrete type by VTA: %d; of those hot: %d; and no other implementation converted: %d\n",
		stats.InvokeSites, stats.SingleType, stats.HotSingleType, stats.Candidates)
	fmt.Printf("findings:            %d %v by tier %v\n", len(fs), sorted(byPass), sorted(byTier))
	fmt.Printf("wall time:           %.1fs (load %.1fs, SSA %.1fs, call graph %.1fs, escape data %.1fs, passes %.1fs)\n",
		elapsed.Seconds(), stats.Load.Seconds(), stats.SSA.Seconds(), stats.CallGraph.Seconds(), stats.Escape.Seconds(), stats.Passes.Seconds())
	fmt.Printf("peak RSS:            %s\n", peakRSS())
	fmt.Printf("Go heap total alloc: %d MB, sys %d MB\n", ms.TotalAlloc>>20, ms.Sys>>20)
	for i, f := range fs {
		if i >= *show {
			break
		}
		fmt.Printf("  %s %s:%d: %s\n", f.Analyzer, f.File, f.Line, f.Message)
	}
}

func sorted(m map[string]int) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// peakRSS reads the process's peak resident set size from /proc (Linux).
func peakRSS() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
