package main

import (
	"flag"
	"fmt"
	"regexp"
	"time"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/driver"
	"github.com/goadvise/goadvise/internal/cli"
)

// benchFlags are check's flags that measure the module's own benchmarks
// to rank by (see driver.BenchConfig).
type benchFlags struct {
	bench     string
	benchtime string
	budget    time.Duration
}

func registerBenchFlags(fs *flag.FlagSet, bf *benchFlags) {
	fs.StringVar(&bf.bench, "bench", "", "rank by the CPU and heap profiles of the packages' own benchmarks matching this `regexp` (as for go test -bench), measured in a copy of the module and cached")
	cli.CheckedVar(fs, &bf.benchtime, "benchtime", bench.DefaultProfileBenchtime, "with -bench, the -benchtime of each benchmark's CPU-profiled run: a `duration` or Nx iterations, as go test takes it", bench.CheckBenchtime)
	cli.PositiveDurationVar(fs, &bf.budget, "bench-budget", bench.DefaultBudget, "with -bench, the most `time` to spend running benchmarks; those not done by then are skipped")
}

// check validates the flags that their parsing does not.
func (bf *benchFlags) check() error {
	if bf.bench == "" {
		return nil
	}
	if _, err := regexp.Compile(bf.bench); err != nil {
		return fmt.Errorf("-bench: %v", err)
	}
	return nil
}

// config returns the driver's configuration, or nil without -bench.
func (bf *benchFlags) config() *driver.BenchConfig {
	if bf.bench == "" {
		return nil
	}
	return &driver.BenchConfig{Bench: bf.bench, Benchtime: bf.benchtime, Budget: bf.budget}
}
