package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/config"
	"github.com/goadvise/goadvise/driver"
	"github.com/goadvise/goadvise/internal/atomicfile"
	"github.com/goadvise/goadvise/internal/cli"
	"github.com/goadvise/goadvise/internal/heapprof"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/report/html"
)

func init() {
	register(&command{
		name:  "check",
		usage: "check [flags] [packages]",
		short: "run the analyzers and print ranked findings (the default command)",
		long:  helpText("check"),
		run:   runCheck,
	})
}

// checkFlags are the flags of the check command.
type checkFlags struct {
	format    string
	fix       bool
	diff      bool
	tests     bool
	enable    string
	disable   string
	top       int
	output    string
	profile   string
	heap      string
	heapIndex string
	all       bool
	cold      bool // show findings in cold code
	minScore  float64
	verify    verifyFlags
	cpuprof   string
	memprof   string
	whole     bool
	passes    []string // whole-program passes to run
	bench     benchFlags
	// newFromRev keeps only findings on lines changed since this git
	// revision (with the uncommitted and untracked changes).
	newFromRev string
	// newFromRevSource names the configuration file's line that gave
	// newFromRev, if it did.
	newFromRevSource string
	conf             *config.Config // the configuration file's, applied to the flags
	// sarifLevels are the SARIF levels by tier (-sarif.level).
	sarifLevels map[string]string
}

// levels returns the SARIF levels by tier: the configuration file's,
// overridden tier by tier by -sarif.level.
func (cf *checkFlags) levels() map[string]string {
	l := make(map[string]string)
	if cf.conf != nil {
		maps.Copy(l, cf.conf.SARIFLevels)
	}
	maps.Copy(l, cf.sarifLevels)
	return l
}

func runCheck(args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var cf checkFlags
	fs.StringVar(&cf.format, "format", "text", "output `format`: text, json, sarif or html")
	jsonOut := fs.Bool("json", false, "same as -format json (as go vet spells it)")
	fs.BoolVar(&cf.fix, "fix", false, "apply the suggested fixes to the source files")
	fs.BoolVar(&cf.diff, "diff", false, "print the suggested fixes as unified diffs instead of applying them")
	fs.BoolVar(&cf.tests, "tests", false, "also analyse _test.go files")
	fs.StringVar(&cf.enable, "enable", "", "comma-separated `analyzers` and whole-program passes to run, exactly those (default every analyzer, and with -whole every pass)")
	fs.StringVar(&cf.disable, "disable", "", "comma-separated `analyzers` not to run")
	fs.IntVar(&cf.top, "top", 0, "report only the first `N` findings (0: all)")
	fs.StringVar(&cf.output, "o", "", "write the report to `file` instead of standard output (with -verify: a directory for fixes.patch and summary.md)")
	fs.StringVar(&cf.profile, "profile", "", "rank findings by the CPU `profiles` given (comma-separated files, directories or URLs)")
	fs.StringVar(&cf.heap, "heap", "", "also weigh allocation findings by these heap `profiles` (alloc_space/alloc_objects)")
	fs.StringVar(&cf.heapIndex, "heap_index", "alloc_space", "with heap profiles, rank allocation findings by `alloc_space` or alloc_objects")
	fs.BoolVar(&cf.all, "all", false, "show every finding, not only the highest ranked (3 per 1,000 lines); with -profile, also those in code the profile never saw run")
	fs.BoolVar(&cf.cold, "cold", false, "also show findings in cold code: error paths, init, main outside its loops, set-up, sync.Once bodies, code only tests call")
	fs.BoolVar(&cf.verify.on, "verify", false, "try the fixes of the top findings in a copy of the module: run the package's tests and benchmarks before and after (with -fix, apply only the fixes that pass and do not regress)")
	cli.MinIntVar(fs, &cf.verify.top, "verify-top", 5, 1, "with -verify, how many of the top findings with a fix to try, `N` at least 1")
	cli.MinIntVar(fs, &cf.verify.count, "verify-count", 6, 1, "with -verify, benchmark rounds per version, `N` at least 1")
	cli.CheckedVar(fs, &cf.verify.benchtime, "verify-benchtime", "", "with -verify, -benchtime for the benchmarks: a `duration` or Nx iterations (default the go test default)", bench.CheckBenchtime)
	fs.StringVar(&cf.verify.bench, "verify-bench", "", "with -verify, the benchmarks to run for every fix, a `regexp` as for go test -bench (default: for each fix, the package's benchmarks that execute the finding's line, found by running each once with coverage, or else those that execute its function; a fix neither is executed by is not measured)")
	fs.BoolVar(&cf.whole, "whole", false, "also run the whole-program passes (devirt, loopalloc, or those -enable names): builds SSA and a call graph of the module, reading its dependencies from export data; the program its main packages make is the closed world")
	fs.StringVar(&cf.cpuprof, "cpuprofile", "", "write a CPU profile of goadvise itself to `file` (for goadvise's developers)")
	fs.StringVar(&cf.memprof, "memprofile", "", "write a heap profile of goadvise itself at its largest live heap to `file` (for goadvise's developers)")
	fs.StringVar(&cf.newFromRev, "new-from-rev", "", "report only findings on lines changed since the git `revision` (uncommitted and untracked changes included), to adopt goadvise on an old code base")
	fs.Func("sarif.level", "with -format sarif, the SARIF `levels` by tier, as tier=level pairs: hot-loop=error,per-item=warning (every tier not named: "+report.DefaultSARIFLevel+")", func(s string) error {
		l, err := report.ParseSARIFLevels(s)
		cf.sarifLevels = l
		return err
	})
	registerBenchFlags(fs, &cf.bench)
	fs.Float64Var(&cf.minScore, "min-score", 0, "with -profile, report only findings whose score is at least `pct` percent of CPU")
	showConfig := fs.Bool("config", false, "print the effective configuration (the .goadvise.yaml file found from the module's root up, merged with the flags) and exit")
	all := append(suite.Analyzers(), suite.Helpers()...)
	registerAnalyzerFlags(fs, all)
	patterns, err := cli.Parse(fs, commandUsage("check"), args, os.Stdout, os.Stderr)
	if err == cli.ErrHelp {
		return exitOK
	} else if err != nil {
		return exitUsage
	}
	// The configuration file gives the flags not given their values.
	revGiven := false
	fs.Visit(func(f *flag.Flag) { revGiven = revGiven || f.Name == "new-from-rev" })
	if cf.conf, err = applyConfig(fs, all); err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	if !revGiven && cf.conf.NewFromRev != "" {
		cf.newFromRevSource = cf.conf.Where(config.KeyNewFromRev) + ": " + config.KeyNewFromRev
	}
	if *showConfig {
		return printConfig(fs, all, cf)
	}
	// The whole-program passes are chosen with -whole or by name in
	// -enable; they are not analyzers of the suite.
	analyzers, passes, err := driver.Select(splitList(cf.enable), splitList(cf.disable), cf.whole)
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	cf.passes = passes
	if *jsonOut {
		if cf.format != "text" && cf.format != "json" {
			fmt.Fprintf(os.Stderr, "goadvise: -json and -format %s cannot be used together\n", cf.format)
			return exitError
		}
		cf.format = "json"
	}
	switch cf.format {
	case "text", "json", "sarif", "html":
	default:
		fmt.Fprintf(os.Stderr, "goadvise: unknown -format %q (want text, json, sarif or html)\n", cf.format)
		return exitError
	}
	if cf.heapIndex != "alloc_space" && cf.heapIndex != "alloc_objects" {
		fmt.Fprintf(os.Stderr, "goadvise: unknown -heap_index %q (want alloc_space or alloc_objects)\n", cf.heapIndex)
		return exitError
	}
	if cf.fix && cf.diff {
		fmt.Fprintln(os.Stderr, "goadvise: -fix and -diff cannot be used together")
		return exitError
	}
	if cf.verify.bench != "" {
		if _, err := regexp.Compile(cf.verify.bench); err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: -verify-bench: %v\n", err)
			return exitError
		}
	}
	if err := cf.bench.check(); err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	if !requireModule(patterns, os.Stderr) {
		return exitError
	}
	stopProfiles, err := heapprof.Start(cf.cpuprof, cf.memprof)
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	defer func() {
		if err := stopProfiles(); err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: -memprofile: %v\n", err)
		}
	}()
	return check(cf, analyzers, patterns)
}

// splitList splits a comma-separated flag value.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// registerAnalyzerFlags exposes each analyzer's flags as -NAME.FLAG, the
// spelling go vet uses.
func registerAnalyzerFlags(fs *flag.FlagSet, analyzers []*analysis.Analyzer) {
	for _, a := range analyzers {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if a.Name == "hotpath" && f.Name == "cold" {
				return // check's own -cold decides what it shows (see driver.Run)
			}
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
}

func check(cf checkFlags, analyzers []*analysis.Analyzer, patterns []string) int {
	start := time.Now()
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	tmp, err := cli.NewTemp()
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	interrupted := false
	defer func() {
		if interrupted {
			cli.CleanUp(tmp)
		} else {
			cli.RemoveTemp(tmp)
		}
	}()
	cfg := driver.Config{
		Dir:              dir,
		Patterns:         patterns,
		Analyzers:        analyzers,
		Passes:           cf.passes,
		Tests:            cf.tests,
		Profiles:         splitList(cf.profile),
		Heap:             splitList(cf.heap),
		HeapIndex:        cf.heapIndex,
		Visibility:       suite.Visibility{Cold: cf.cold, All: cf.all},
		MinScore:         cf.minScore,
		NewFromRev:       cf.newFromRev,
		NewFromRevSource: cf.newFromRevSource,
		Exclude:          cf.conf.Excluded,
		Top:              cf.top,
		Bench:            cf.bench.config(),
		Fix:              cf.fix && !cf.diff,
		Version:          cli.Version(),
		Warn:             func(msg string) { fmt.Fprintf(os.Stderr, "goadvise: %s\n", msg) },
	}
	// Ctrl-C or SIGTERM stops the run: the go commands it runs are
	// interrupted, the analysis stops between packages, and an analyzer
	// in the middle of one is left to the process's exit. The go
	// commands' work directories are in tmp, with the run's other
	// temporary files.
	st := cli.NewStatus(cf.format != "json" && cf.format != "sarif")
	in := cli.OnInterrupt(tmp, st.Stop)
	res, err := driver.Run(in.Context(), cfg, st.Set)
	interrupted = in.End()
	st.Stop()
	if interrupted {
		fmt.Fprintln(os.Stderr, "goadvise: interrupted")
		return exitError
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	defer res.Unlock() // with -fix, held until the fixes are written
	status := exitOK
	for _, e := range res.Errors {
		fmt.Fprintf(os.Stderr, "goadvise: %s\n", e)
		status = exitError
	}
	r := res.Report
	findings := r.Findings
	verifyStatus := -1
	if cf.verify.on {
		cf.verify.dir, cf.output = cf.output, "" // with -verify, -o names a directory
		good, vs, err := verifyFindings(res, cf.verify)
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			return verifyError
		}
		verifyStatus = vs
		if cf.fix {
			// Apply only what passed; the others stay reported, and a
			// fix rejected is -verify's exit status.
			st := fixFindings(cf, dir, res.ModuleDir, good, status)
			if st == exitOK && vs != verifyKept {
				return vs
			}
			return st
		}
	}
	if cf.fix || cf.diff {
		return fixFindings(cf, dir, res.ModuleDir, findings, status)
	}

	r.Stats.DurationMS = time.Since(start).Milliseconds()
	var buf bytes.Buffer
	switch cf.format {
	case "json":
		err = report.WriteJSON(&buf, r)
	case "sarif":
		root := res.ModuleDir
		if root == "" {
			root = dir
		}
		err = report.WriteSARIF(&buf, r, res.Kinds,
			report.SARIFOptions{Root: root, Version: cli.Version(), Levels: cf.levels()})
	case "html":
		err = html.WriteCheck(&buf, r, html.CheckOptions{Dir: dir, Version: cli.Version(), Generated: time.Now()})
	default:
		err = report.WriteText(&buf, r, dir)
	}
	if err == nil {
		err = writeOutput(cf.output, buf.Bytes())
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	if verifyStatus >= 0 {
		return verifyExit(status, verifyStatus)
	}
	if status == exitOK && len(findings) > 0 {
		status = exitFindings
	}
	return status
}

// writeOutput writes the report to path, replacing it atomically as go
// build -o does, or, if path is empty, to standard output.
func writeOutput(path string, data []byte) error {
	if path == "" {
		_, err := os.Stdout.Write(data)
		return err
	}
	return atomicfile.WriteFile(path, data, atomicfile.Replace)
}

// fixFindings applies the fixes of findings (or, with -diff, prints
// them). Before any file is written, the changed packages and their
// importers in the module in modDir (dir if "") are built and vetted with
// the fixed files: if the fixes break them, nothing is written.
func fixFindings(cf checkFlags, dir, modDir string, findings []report.Finding, status int) int {
	res, err := report.ApplyFixes(findings, os.ReadFile)
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(os.Stderr, "goadvise: skipped fix: %s\n", s)
	}
	if cf.diff {
		if err := report.WriteDiff(os.Stdout, res, dir); err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			return exitError
		}
	} else {
		if modDir == "" {
			modDir = dir
		}
		// All files or none: Ctrl-C before the last write restores them.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := res.Write(ctx, modDir)
		stop()
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			return exitError
		}
		fmt.Fprintf(os.Stderr, "goadvise: %s\n", res.Summary(len(findings)))
	}
	if status != exitOK {
		return status
	}
	if cf.fix && res.Applied == len(findings) {
		return exitOK
	}
	if len(findings) > 0 {
		return exitFindings
	}
	return exitOK
}
