package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/goadvise/goadvise/internal/cli"
	"github.com/goadvise/goadvise/pgo"
)

func init() {
	register(&command{
		name:  "pgo",
		usage: "pgo merge|check|explain [flags] ...",
		short: "merge CPU profiles into a PGO profile, check one against the code, or explain what it changes",
		long:  helpText("pgo"),
		run:   runPGO,
	})
}

func runPGO(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: goadvise pgo merge|check|explain [flags] ... (run 'goadvise help pgo')")
		return exitError
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 {
			return runPGO([]string{args[1], "-h"})
		}
		c := commands["pgo"]
		fmt.Printf("usage: goadvise %s\n\n%s\n\n%s\n", c.usage, c.short, c.long)
		return exitOK
	case "merge":
		return runPGOMerge(args[1:], os.Stdout, os.Stderr)
	case "check":
		return runPGOCheck(args[1:], os.Stdout, os.Stderr)
	case "explain":
		return runPGOExplain(args[1:])
	}
	fmt.Fprintf(os.Stderr, "goadvise pgo: unknown subcommand %q (want merge, check or explain)\n", args[0])
	return exitError
}

const pgoMergeUsage = "pgo merge -o PATH [flags] SOURCES..."

func runPGOMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("goadvise pgo merge", flag.ContinueOnError)
	out := fs.String("o", "", "write the merged profile to `path` (a directory means path/default.pgo)")
	force := fs.Bool("force", false, "replace an existing output file")
	weight := fs.String("weight", "samples", "weigh inputs by raw `samples`, give each input equal weight (equal), or divide by each input's duration (duration)")
	keepLabels := fs.Bool("keep-labels", false, "keep sample labels (dropped by default: the compiler ignores them)")
	mainOnly := fs.Bool("main-only", false, "keep only frames of the main binary's mapping")
	trim := fs.Float64("trim", 0, "keep only the hottest call edges covering `percent` (99 to 100, e.g. 99.9) of the weight; the compiler's hot call sites stay the same")
	exclude := fs.String("exclude", "", "drop call edges into functions matching `regexp`, so PGO does not inline them")
	skip := fs.Bool("skip-invalid", false, "skip inputs that are not usable CPU profiles instead of failing")
	maxSize := fs.Int64("max-size", pgo.DefaultMaxSize, "limit on the decompressed size of one profile, in `bytes`")
	timeout := fs.Duration("timeout", 0, "limit on one HTTP fetch (default: the seconds parameter + 30s)")
	verbose := fs.Bool("v", false, "print each input's samples and duration")
	sources, err := cli.Parse(fs, cli.Usage{Name: "pgo merge", Line: pgoMergeUsage}, args, stdout, stderr)
	if err == cli.ErrHelp {
		return exitOK
	} else if err != nil {
		return exitUsage
	}
	if *out == "" || len(sources) == 0 {
		fmt.Fprintln(stderr, "usage: goadvise "+pgoMergeUsage)
		return exitError
	}
	w, err := pgo.ParseWeighting(*weight)
	if err != nil {
		fmt.Fprintf(stderr, "goadvise pgo merge: -weight: %v\n", err)
		return exitError
	}
	if *trim != 0 && (*trim < 99 || *trim >= 100) {
		fmt.Fprintf(stderr, "goadvise pgo merge: -trim %g: want a percentage from 99 to below 100\n", *trim)
		return exitError
	}
	opts := pgo.MergeOptions{
		Open:        pgo.OpenOptions{MaxSize: *maxSize, Timeout: *timeout},
		KeepLabels:  *keepLabels,
		Weighting:   w,
		MainOnly:    *mainOnly,
		Trim:        *trim,
		SkipInvalid: *skip,
		Warn:        func(s string) { fmt.Fprintf(stderr, "goadvise pgo merge: warning: %s\n", s) },
	}
	if *verbose {
		opts.Verbose = func(s string) { fmt.Fprintln(stderr, s) }
	}
	if *exclude != "" {
		re, err := regexp.Compile(*exclude)
		if err != nil {
			fmt.Fprintf(stderr, "goadvise pgo merge: -exclude: %v\n", err)
			return exitError
		}
		opts.Exclude = re
	}
	// Fail early, before reading any input, if the output exists.
	if _, err := pgo.Destination(*out, *force); err != nil {
		fmt.Fprintf(stderr, "goadvise pgo merge: %v\n", err)
		return exitError
	}
	p, stats, err := pgo.Merge(context.Background(), sources, opts)
	if err != nil {
		fmt.Fprintf(stderr, "goadvise pgo merge: %v\n", err)
		return exitError
	}
	path, err := pgo.WriteFile(p, *out, *force)
	if err != nil {
		fmt.Fprintf(stderr, "goadvise pgo merge: %v\n", err)
		return exitError
	}
	fmt.Fprintln(stdout, stats.Summary(path))
	return exitOK
}

func runPGOCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("goadvise pgo check", flag.ContinueOnError)
	prof := fs.String("profile", "", "the profile `file` or URL (default: default.pgo of the first main package)")
	cdf := fs.Float64("cdf", pgo.DefaultHotCDF, "the compiler's hot call-site threshold in `percent` (-d=pgoinlinecdfthreshold)")
	top := fs.Int("top", 10, "list the `n` hottest stale functions and hot edges")
	minShare := fs.Float64("min-match", 90, "exit with status 3 if less than `percent` of the checked weight matches the source")
	patterns, err := cli.Parse(fs, cli.Usage{Name: "pgo check", Line: "pgo check [-profile FILE] [flags] [packages]"}, args, stdout, stderr)
	if err == cli.ErrHelp {
		return exitOK
	} else if err != nil {
		return exitUsage
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	if !requireModule(patterns, stderr) {
		return exitError
	}
	rep, err := pgo.Check(context.Background(), *prof, patterns, pgo.CheckOptions{HotCDF: *cdf, Top: *top, Preprofile: true})
	if err != nil {
		fmt.Fprintf(stderr, "goadvise pgo check: %v\n", err)
		return exitError
	}
	fmt.Fprint(stdout, rep.Format())
	if rep.Checked == 0 {
		fmt.Fprintf(stderr, "goadvise pgo check: %s: no call-edge weight of the profile falls in the packages %s (a profile of another program?)\n", rep.Profile, strings.Join(patterns, " "))
		return exitError
	}
	if rep.Preprofile != "ok" && rep.Preprofile != "not run for a URL" {
		return exitFindings
	}
	if rep.Checked > 0 && 100*rep.Share() < *minShare {
		return exitFindings
	}
	return exitOK
}
