package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/goadvise/goadvise/decisions"
	"github.com/goadvise/goadvise/internal/cli"
	"github.com/goadvise/goadvise/pgo"
)

func init() {
	register(&command{
		name:  "diff",
		usage: "diff -base REV [-head REV] [-pgo FILE|off] [-profile FILE] [-fail-on escapes,inline,bounds] [-format text|json] [packages]",
		short: "report how the compiler's inlining, escape and bounds-check decisions changed between two versions",
		long:  helpText("diff"),
		run:   runDiff,
	})
}

func runDiff(args []string) int {
	return runDiffTo(args, os.Stdout, os.Stderr)
}

func runDiffTo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("goadvise diff", flag.ContinueOnError)
	var opts decisions.DiffOptions
	fs.StringVar(&opts.Base, "base", "", "base git `revision` (required)")
	fs.StringVar(&opts.Head, "head", "", "head git `revision` (default: the working tree)")
	fs.StringVar(&opts.Profile, "profile", "", "CPU profile `file`: mark hot functions, and gate only on them")
	fs.StringVar(&opts.PGO, "pgo", "off", "build both versions with this profile `file`, or off (a default.pgo is ignored)")
	fs.Float64Var(&opts.HotCDF, "cdf", pgo.DefaultHotCDF, "the compiler's hot call-site threshold in `percent`")
	failOn := fs.String("fail-on", "", "exit with status 3 on these `changes`: escapes, inline, bounds (comma-separated)")
	format := fs.String("format", "text", "output `format`: text or json")
	pkgs, err := cli.Parse(fs, commandUsage("diff"), args, stdout, stderr)
	if err == cli.ErrHelp {
		return exitOK
	} else if err != nil {
		return exitUsage
	}
	if opts.Base == "" {
		fmt.Fprintln(stderr, "goadvise diff: -base REV is required")
		return exitError
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "goadvise diff: unknown -format %q (want text or json)\n", *format)
		return exitError
	}
	gate, err := decisions.ParseGate(*failOn)
	if err != nil {
		fmt.Fprintf(stderr, "goadvise diff: -fail-on: %v\n", err)
		return exitError
	}
	opts.Packages = pkgs
	// Ctrl-C cancels the run; Diff removes its worktree before returning.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st := cli.NewStatus(*format != "json")
	opts.Progress = st.Set
	rep, err := decisions.Diff(ctx, opts)
	st.Stop()
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("interrupted")
		}
		fmt.Fprintf(stderr, "goadvise diff: %v\n", err)
		return exitError
	}
	if len(gate) > 0 {
		rep.Gate = gate
		rep.Failures = rep.GateFailures(gate)
	}
	if err := rep.Write(stdout, *format); err != nil {
		fmt.Fprintf(stderr, "goadvise diff: writing output: %v\n", err)
		return exitError
	}
	if len(rep.Failures) > 0 {
		return exitFindings
	}
	return exitOK
}
