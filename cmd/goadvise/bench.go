package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/internal/cli"
	"github.com/goadvise/goadvise/report/html"
)

// Exit statuses of goadvise bench (documented in README.md). Unlike check,
// bench reserves 1 for regressions, as CI scripts expect of a comparison.
const (
	benchExitOK         = 0
	benchExitRegression = 1
	benchExitError      = 2
)

func init() {
	register(&command{
		name:  "bench",
		usage: "bench [-base REV] [-head REV] [-bench REGEX] [-count N] [-benchtime D] [-cpu LIST] [-pgo FILE|off] [-threshold PCT] [-format text|json|csv|html] [packages]\n       goadvise bench -old OLD.txt -new NEW.txt",
		short: "compare the benchmarks of two versions with statistics",
		long:  helpText("bench"),
		run:   runBench,
	})
}

func runBench(args []string) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var opts bench.Options
	fs.StringVar(&opts.Base, "base", "", "base git revision (default HEAD)")
	fs.StringVar(&opts.Head, "head", "", "head git revision (default: the working tree)")
	fs.StringVar(&opts.Bench, "bench", ".", "run only benchmarks matching this regular expression")
	fs.IntVar(&opts.Count, "count", bench.DefaultCount, "number of rounds (samples per benchmark and version)")
	cli.CheckedVar(fs, &opts.Benchtime, "benchtime", "", "run each benchmark for this `duration` or NNNx iterations", bench.CheckBenchtime)
	fs.StringVar(&opts.CPU, "cpu", "", "comma-separated GOMAXPROCS values")
	fs.StringVar(&opts.PGO, "pgo", "", "profile FILE: compare -pgo=off with -pgo=FILE on the same code; off: build both with -pgo=off")
	fs.StringVar(&opts.BasePGO, "base-pgo", "", "-pgo build flag for the base (off, auto or a profile)")
	fs.StringVar(&opts.HeadPGO, "head-pgo", "", "-pgo build flag for the head (off, auto or a profile)")
	fs.Float64Var(&opts.Threshold, "threshold", 5, "percent change below which a significant slowdown is not a regression")
	fs.Float64Var(&opts.Alpha, "alpha", bench.DefaultAlpha, "significance level")
	format := fs.String("format", "text", "output format: text, json, csv or html (one self-contained page)")
	oldFile := fs.String("old", "", "compare this file of benchmark output (with -new)")
	newFile := fs.String("new", "", "against this one (with -old)")
	pkgs, err := cli.Parse(fs, commandUsage("bench"), args, os.Stdout, os.Stderr)
	if err == cli.ErrHelp {
		return benchExitOK
	} else if err != nil {
		return benchExitError
	}
	switch *format {
	case bench.FormatText, bench.FormatJSON, bench.FormatCSV, "html":
	default:
		fmt.Fprintf(os.Stderr, "goadvise bench: unknown -format %q (want text, json, csv or html)\n", *format)
		return benchExitError
	}
	if opts.Count < 1 {
		fmt.Fprintf(os.Stderr, "goadvise bench: -count must be at least 1\n")
		return benchExitError
	}
	if opts.Alpha <= 0 || opts.Alpha >= 1 || opts.Threshold < 0 {
		fmt.Fprintf(os.Stderr, "goadvise bench: -alpha must be in (0,1) and -threshold non-negative\n")
		return benchExitError
	}

	var cmp *bench.Comparison
	if *oldFile != "" || *newFile != "" {
		if *oldFile == "" || *newFile == "" || len(pkgs) > 0 {
			fmt.Fprintf(os.Stderr, "goadvise bench: -old and -new go together and take no packages\n")
			return benchExitError
		}
		cmp, err = bench.CompareFiles(*oldFile, *newFile, bench.CompareOptions{Alpha: opts.Alpha, Threshold: opts.Threshold})
	} else {
		opts.Packages = pkgs
		if cli.IsTerminal(os.Stderr) {
			opts.Progress = os.Stderr
		}
		// Ctrl-C cancels the run; Run removes its worktrees before
		// returning.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		cmp, err = bench.Run(ctx, opts)
		if err != nil && ctx.Err() != nil {
			err = fmt.Errorf("interrupted")
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise bench: %v\n", err)
		return benchExitError
	}
	// Render everything before writing, so that a failure leaves no
	// partial output.
	var out bytes.Buffer
	if *format == "html" {
		err = html.WriteBench(&out, cmp, html.BenchOptions{Version: cli.Version(), Generated: time.Now()})
	} else {
		err = bench.Write(&out, cmp, *format)
	}
	if err == nil {
		_, err = os.Stdout.Write(out.Bytes())
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise bench: writing output: %v\n", err)
		return benchExitError
	}
	if cmp.Regressed() {
		return benchExitRegression
	}
	return benchExitOK
}
