package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/decisions"
	"github.com/goadvise/goadvise/pgo"
)

// explainUsage documents goadvise pgo explain.
const explainUsage = `usage: goadvise pgo explain [-profile FILE] [-bench REGEX] [flags] [packages]

Explain builds the named main packages (for other packages: their test
binaries) with -pgo=off and with the profile and reports what the compiler
decides differently: the call sites inlined only because the profile marks
them hot (hot-budget inlining), the calls PGO devirtualized (with the
concrete callee and its weight), the values that stay on the stack only
because of PGO inlining (and the reverse), the build cost of each variant
(median and range of repeated builds), and, with -bench, the benchmark
comparison of goadvise bench -pgo. It ends with a verdict line and warns
about known PGO hazards.

Flags:
`

// runPGOExplain runs goadvise pgo explain.
func runPGOExplain(args []string) int {
	return runPGOExplainTo(args, os.Stdout, os.Stderr)
}

func runPGOExplainTo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("goadvise pgo explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), explainUsage)
		fs.PrintDefaults()
	}
	var opts decisions.ExplainOptions
	fs.StringVar(&opts.Profile, "profile", "", "the CPU profile `file` (default: default.pgo of the first main package)")
	fs.StringVar(&opts.Bench, "bench", "", "also compare the benchmarks matching this `regexp` with and without the profile")
	fs.IntVar(&opts.Count, "count", bench.DefaultCount, "benchmark rounds (with -bench)")
	fs.StringVar(&opts.Benchtime, "benchtime", "", "benchmark `duration` or NNNx (with -bench)")
	fs.IntVar(&opts.Cost.Runs, "runs", 3, "measured builds of each kind and variant")
	fs.BoolVar(&opts.Cost.Clean, "clean", false, "also measure clean builds with an empty build cache (slow: the standard library is compiled, with the profile too)")
	fs.IntVar(&opts.Cost.CleanRuns, "clean-runs", 1, "number of clean builds of each variant (with -clean)")
	fs.BoolVar(&opts.Cost.Skip, "no-cost", false, "do not measure the build cost")
	fs.IntVar(&opts.BigCaller, "big-caller", decisions.DefaultBigCaller, "warn when the calls hot-inlined into one function cost more than `n` in total")
	format := fs.String("format", "text", "output `format`: text or json")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitError
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "goadvise pgo explain: unknown -format %q (want text or json)\n", *format)
		return exitError
	}
	if opts.Cost.Runs < 1 || opts.Cost.CleanRuns < 1 || (opts.Bench != "" && opts.Count < 1) {
		fmt.Fprintln(stderr, "goadvise pgo explain: -runs, -clean-runs and -count must be at least 1")
		return exitError
	}
	opts.Packages = fs.Args()
	if len(opts.Packages) == 0 {
		opts.Packages = []string{"."}
	}
	if opts.Profile == "" {
		p, err := pgo.DefaultProfile(opts.Packages)
		if err != nil {
			fmt.Fprintf(stderr, "goadvise pgo explain: %v\n", err)
			return exitError
		}
		opts.Profile = p
	}
	if benchIsTerminal(os.Stderr) {
		opts.Progress = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ex, err := decisions.Explain(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("interrupted")
		}
		fmt.Fprintf(stderr, "goadvise pgo explain: %v\n", err)
		return exitError
	}
	if err := ex.Write(stdout, *format); err != nil {
		fmt.Fprintf(stderr, "goadvise pgo explain: writing output: %v\n", err)
		return exitError
	}
	return exitOK
}
