package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/decisions"
	"github.com/goadvise/goadvise/internal/atomicfile"
	"github.com/goadvise/goadvise/internal/cli"
	"github.com/goadvise/goadvise/report/html"
)

// runPGOExplain runs goadvise pgo explain.
func runPGOExplain(args []string) int {
	return runPGOExplainTo(args, os.Stdout, os.Stderr)
}

func runPGOExplainTo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("goadvise pgo explain", flag.ContinueOnError)
	var opts decisions.ExplainOptions
	fs.StringVar(&opts.Profile, "profile", "", "the CPU profile `file` (default: default.pgo of the first main package)")
	fs.StringVar(&opts.Bench, "bench", "", "also compare the benchmarks matching this `regexp` with and without the profile")
	fs.IntVar(&opts.Count, "count", bench.DefaultCount, "benchmark rounds (with -bench)")
	cli.CheckedVar(fs, &opts.Benchtime, "benchtime", "", "benchmark `duration` or NNNx (with -bench)", bench.CheckBenchtime)
	fs.IntVar(&opts.Cost.Runs, "runs", 3, "measured builds of each kind and variant")
	fs.BoolVar(&opts.Cost.Clean, "clean", false, "also measure clean builds with an empty build cache (slow: the standard library is compiled, with the profile too)")
	fs.IntVar(&opts.Cost.CleanRuns, "clean-runs", 1, "number of clean builds of each variant (with -clean)")
	fs.BoolVar(&opts.Cost.Skip, "no-cost", false, "do not measure the build cost")
	fs.IntVar(&opts.BigCaller, "big-caller", decisions.DefaultBigCaller, "warn when the calls hot-inlined into one function cost more than `n` in total")
	format := fs.String("format", "text", "output `format`: text, json or html (one self-contained page)")
	output := fs.String("o", "", "write the output to `file`, which must not exist, instead of standard output")
	pkgs, err := cli.Parse(fs, cli.Usage{Name: "pgo explain", Line: "pgo explain [-profile FILE] [-bench REGEX] [flags] [packages]", Long: helpText("explain")}, args, stdout, stderr)
	if err == cli.ErrHelp {
		return exitOK
	} else if err != nil {
		return exitUsage
	}
	if *format != "text" && *format != "json" && *format != "html" {
		fmt.Fprintf(stderr, "goadvise pgo explain: unknown -format %q (want text, json or html)\n", *format)
		return exitError
	}
	// Refuse a bad -o now rather than after minutes of builds.
	if *output != "" {
		if err := atomicfile.CheckDir(*output); err != nil {
			fmt.Fprintf(stderr, "goadvise pgo explain: %v\n", err)
			return exitError
		}
	}
	if opts.Cost.Runs < 1 || opts.Cost.CleanRuns < 1 || (opts.Bench != "" && opts.Count < 1) {
		fmt.Fprintln(stderr, "goadvise pgo explain: -runs, -clean-runs and -count must be at least 1")
		return exitError
	}
	opts.Packages = pkgs
	if len(opts.Packages) == 0 {
		opts.Packages = []string{"."}
	}
	if !requireModule(opts.Packages, stderr) {
		return exitError
	}
	if cli.IsTerminal(os.Stderr) {
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
	// Render everything before writing, so that a failure leaves no
	// partial output.
	var buf bytes.Buffer
	if *format == "html" {
		wd, _ := os.Getwd() // positions are shown relative to it when possible
		err = html.WriteExplain(&buf, ex, html.ExplainOptions{Version: cli.Version(), Generated: time.Now(), Dir: wd})
	} else {
		err = ex.Write(&buf, *format)
	}
	if err == nil {
		if *output != "" {
			err = writeOutput(*output, buf.Bytes()) // says which file
		} else if _, err = stdout.Write(buf.Bytes()); err != nil {
			err = fmt.Errorf("writing output: %w", err)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "goadvise pgo explain: %v\n", err)
		return exitError
	}
	return exitOK
}
