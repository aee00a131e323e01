package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/escape"
	"github.com/goadvise/goadvise/page"
	"github.com/goadvise/goadvise/pgo"
	"github.com/goadvise/goadvise/program"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/suite"
)

func init() {
	register(&command{
		name:  "check",
		usage: "check [flags] [packages]",
		short: "run the analyzers and print ranked findings (the default command)",
		long: `Check loads the named packages (default ".") and runs goadvise's analyzers
on them. Findings are printed hottest first.

Exit status: 0 no findings, 3 findings reported, 1 usage error, load
failure or tool error. With -fix, 0 when every finding was fixed.`,
		run: runCheck,
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
	minScore  float64
	verify    verifyFlags
	cpuprof   string
	whole     bool
	passes    []string // whole-program passes to run
}

func runCheck(args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var cf checkFlags
	fs.StringVar(&cf.format, "format", "text", "output `format`: text, json, sarif or html")
	fs.BoolVar(&cf.fix, "fix", false, "apply the suggested fixes to the source files")
	fs.BoolVar(&cf.diff, "diff", false, "print the suggested fixes as unified diffs instead of applying them")
	fs.BoolVar(&cf.tests, "tests", false, "also analyse _test.go files")
	fs.StringVar(&cf.enable, "enable", "", "comma-separated `analyzers` to run (default all)")
	fs.StringVar(&cf.disable, "disable", "", "comma-separated `analyzers` not to run")
	fs.IntVar(&cf.top, "top", 0, "report only the first `N` findings (0: all)")
	fs.StringVar(&cf.output, "o", "", "write the report to `file` instead of standard output")
	fs.StringVar(&cf.profile, "profile", "", "rank findings by the CPU `profiles` given (comma-separated files, directories or URLs)")
	fs.StringVar(&cf.heap, "heap", "", "also weigh allocation findings by these heap `profiles` (alloc_space/alloc_objects)")
	fs.StringVar(&cf.heapIndex, "heap_index", "alloc_space", "with heap profiles, rank allocation findings by `alloc_space` or alloc_objects")
	fs.BoolVar(&cf.all, "all", false, "with -profile, also show findings in code the profile never saw run")
	fs.BoolVar(&cf.verify.on, "verify", false, "try the fixes of the top findings in a copy of the module: run the package's tests and benchmarks before and after (with -fix, apply only the fixes that pass and do not regress)")
	fs.IntVar(&cf.verify.top, "verify-top", 5, "with -verify, how many of the top findings with a fix to try")
	fs.IntVar(&cf.verify.count, "verify-count", 6, "with -verify, benchmark rounds per version")
	fs.StringVar(&cf.verify.benchtime, "verify-benchtime", "", "with -verify, -benchtime for the benchmarks (default the go test default)")
	fs.BoolVar(&cf.whole, "whole", false, "also run the whole-program passes (devirt, loopalloc): loads every dependency from source and builds SSA and a call graph")
	fs.StringVar(&cf.cpuprof, "cpuprofile", "", "write a CPU profile of goadvise itself to `file` (for goadvise's developers)")
	fs.Float64Var(&cf.minScore, "min-score", 0, "with -profile, report only findings whose score is at least `pct` percent of CPU")
	all := append(suite.Analyzers(), suite.Helpers()...)
	registerAnalyzerFlags(fs, all)
	fs.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: goadvise check [flags] [packages]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitError
	}
	// The whole-program passes are chosen with -whole or by name in
	// -enable; they are not analyzers of the suite.
	enable, passes := splitPasses(splitList(cf.enable), cf.whole)
	cf.passes = passes
	analyzers, err := suite.Select(enable, splitList(cf.disable))
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
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
	if cf.output != "" {
		if _, err := os.Stat(cf.output); err == nil {
			fmt.Fprintf(os.Stderr, "goadvise: %s already exists; remove it or choose another -o file\n", cf.output)
			return exitError
		}
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	if cf.cpuprof != "" {
		f, err := os.Create(cf.cpuprof)
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			return exitError
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			return exitError
		}
		defer pprof.StopCPUProfile()
	}
	return check(cf, analyzers, patterns)
}

// splitPasses takes the names of whole-program passes out of an -enable
// list; -whole selects all of them. An -enable list that names only
// passes leaves the analyzers of the suite at their default (all).
func splitPasses(enable []string, whole bool) (analyzers, passes []string) {
	known := make(map[string]bool)
	for _, p := range program.Passes() {
		known[p.Name] = true
		if whole {
			passes = append(passes, p.Name)
		}
	}
	for _, n := range enable {
		if known[n] {
			if !slices.Contains(passes, n) {
				passes = append(passes, n)
			}
		} else {
			analyzers = append(analyzers, n)
		}
	}
	return analyzers, passes
}

// passAnalyzers describes whole-program passes as analyzers (name,
// documentation, URL) for the SARIF rules and help; they are never run.
func passAnalyzers(names []string) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, p := range program.Passes() {
		if slices.Contains(names, p.Name) {
			out = append(out, &analysis.Analyzer{Name: p.Name, Doc: p.Doc, URL: p.URL})
		}
	}
	return out
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

// profileStats describes the profile for the report: its size, the GC
// factor used, and the hottest functions outside the analysed module.
func profileStats(hot *pgo.Hotness, cf checkFlags, module string) *report.ProfileStats {
	samples, dur := hot.Total()
	ps := &report.ProfileStats{
		Sources:   append(splitList(cf.profile), splitList(cf.heap)...),
		Samples:   samples,
		DurationS: dur.Seconds(),
		GCFactor:  report.GCFactor(hot),
	}
	if module != "" {
		for _, h := range hot.Outside(module, 5) {
			ps.Outside = append(ps.Outside, report.HotSpot{Function: h.Name, Flat: h.Flat * 100, Cum: h.Cum * 100})
		}
	}
	return ps
}

// staleness measures how well the first CPU profile matches the current
// source (pgo check's answer) and records it in ps. Failing that, it
// leaves ps alone: the ranking does not depend on it.
func staleness(ps *report.ProfileStats, dir string, patterns []string) {
	if len(ps.Sources) == 0 || strings.Contains(ps.Sources[0], "://") {
		return
	}
	rep, err := pgo.Check(context.Background(), ps.Sources[0], patterns, pgo.CheckOptions{Dir: dir, Top: 3})
	if err != nil || rep.Checked == 0 {
		return
	}
	m := rep.Share() * 100
	ps.Match = &m
	for _, f := range rep.Stale {
		ps.Stale = append(ps.Stale, f.Name)
	}
}

// escapeOff reports whether -escape.off was given.
func escapeOff() bool {
	f := escape.Analyzer.Flags.Lookup("off")
	return f != nil && f.Value.String() == "true"
}

// registerAnalyzerFlags exposes each analyzer's flags as -NAME.FLAG, the
// spelling go vet uses.
func registerAnalyzerFlags(fs *flag.FlagSet, analyzers []*analysis.Analyzer) {
	for _, a := range analyzers {
		a.Flags.VisitAll(func(f *flag.Flag) {
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
	var hot *pgo.Hotness
	if cf.profile != "" || cf.heap != "" {
		if cf.profile == "" {
			fmt.Fprintln(os.Stderr, "goadvise: -heap needs -profile (a CPU profile) to rank by")
			return exitError
		}
		sources := append(splitList(cf.profile), splitList(cf.heap)...)
		hot, err = pgo.LoadHotness(context.Background(), sources, pgo.LoadOptions{})
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			return exitError
		}
		// The analyzers see the same profile through the hot-path seam.
		hotpath.SetProfile(hot)
	}
	// Ctrl-C stops the analysis; the go commands it runs are interrupted
	// too, and remove their work directories, as analyze removes its own.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	ar, err := analyze(ctx, dir, patterns, cf, analyzers)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("interrupted")
	}
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	status := exitOK
	for _, e := range append(ar.loadErrs, ar.toolErrs...) {
		fmt.Fprintf(os.Stderr, "goadvise: %s\n", e)
		status = exitError
	}
	findings := ar.findings
	if len(cf.passes) > 0 {
		pf, err := program.AnalyzePaths(context.Background(), ar.roots, program.Options{Dir: dir, Passes: cf.passes})
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: whole-program passes: %v\n", err)
			status = exitError
		}
		findings = append(findings, pf...)
	}
	if !cf.tests {
		findings = slices.DeleteFunc(findings, func(f report.Finding) bool { return strings.HasSuffix(f.File, "_test.go") })
	}
	// One cost, one finding: before scoring, so that a finding is
	// weighed once.
	findings = report.Merge(findings)
	ranking, hidden := "static", 0
	var profStats *report.ProfileStats
	if hot != nil {
		ranking = "profile"
		report.Score(findings, hot, report.ScoreOptions{GCFactor: -1, Module: ar.module, HeapIndex: cf.heapIndex})
		if !cf.all {
			n := len(findings)
			findings = slices.DeleteFunc(findings, func(f report.Finding) bool { return !f.Sampled })
			hidden = n - len(findings)
		}
		if cf.minScore > 0 {
			findings = slices.DeleteFunc(findings, func(f report.Finding) bool { return f.Score < cf.minScore })
		}
		report.RankByScore(findings)
		profStats = profileStats(hot, cf, ar.module)
		cachedStaleness(profStats, dir, patterns, ar.dirs)
	} else {
		report.Rank(findings)
	}
	total := len(findings)
	if cf.top > 0 && len(findings) > cf.top {
		findings = findings[:cf.top]
	}
	if profStats != nil {
		for _, f := range findings {
			profStats.TopCover += f.Score
		}
	}

	if cf.verify.on {
		good, err := verifyFindings(findings, ar.dirs, cf.verify)
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			return exitError
		}
		if cf.fix {
			// Apply only what passed; the others stay reported.
			return fixFindings(cf, dir, good, status)
		}
	}
	if cf.fix || cf.diff {
		return fixFindings(cf, dir, findings, status)
	}

	r := &report.Report{Findings: findings, Stats: report.Stats{
		Packages:   ar.packages,
		Failed:     ar.failed,
		Files:      ar.files,
		Cached:     ar.cached,
		Findings:   len(findings),
		Total:      total,
		ByAnalyzer: byAnalyzer(findings),
		Ranking:    ranking,
		Hidden:     hidden,
		Profile:    profStats,
		DurationMS: time.Since(start).Milliseconds(),
		Errors:     append(ar.loadErrs, ar.toolErrs...),
		Suppressed: ar.suppressed,
	}}
	var buf bytes.Buffer
	switch cf.format {
	case "json":
		err = report.WriteJSON(&buf, r)
	case "sarif":
		root := ar.moduleDir
		if root == "" {
			root = dir
		}
		err = report.WriteSARIF(&buf, r, append(analyzers, passAnalyzers(cf.passes)...), root, version())
	case "html":
		opts := page.CheckOptions{Dir: dir, Version: version(), Generated: time.Now()}
		if p := r.Stats.Profile; p != nil && p.Match != nil {
			opts.Staleness = fmt.Sprintf("%.0f%% of the profile's call-edge weight matches the current source", *p.Match)
			if len(p.Stale) > 0 {
				opts.Staleness += "; no longer matching: " + strings.Join(p.Stale, ", ")
			}
		}
		err = page.WriteCheck(&buf, r, opts)
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
	if status == exitOK && len(findings) > 0 {
		status = exitFindings
	}
	return status
}

// writeOutput writes the report to path (atomically, refusing to replace an
// existing file) or, if path is empty, to standard output.
func writeOutput(path string, data []byte) error {
	if path == "" {
		_, err := os.Stdout.Write(data)
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, err = io.Copy(tmp, bytes.NewReader(data))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// A report is for sharing: readable by all, like a file the
		// shell would create (CreateTemp makes it private).
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		// Link instead of rename: it fails if path appeared meanwhile.
		err = os.Link(tmp.Name(), path)
	}
	os.Remove(tmp.Name())
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func fixFindings(cf checkFlags, dir string, findings []report.Finding, status int) int {
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
		// All files or none: Ctrl-C before the last write restores them.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := report.WriteFiles(ctx, res)
		stop()
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			return exitError
		}
		fmt.Fprintf(os.Stderr, "goadvise: applied %d of %d fixes to %d files; %d findings have no automatic fix\n",
			res.Applied, res.Findings, len(res.Files), len(findings)-res.Findings)
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

// loadPackages loads the packages matching patterns with go/packages.
// Packages with errors are reported (one line each, naming the package)
// and left out; the error result is for failures that stop the whole run.
func loadPackages(dir string, patterns []string, tests bool, analyzers []*analysis.Analyzer, buildFlags []string) ([]*packages.Package, []string, int, error) {
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
		packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule
	if needFacts(analyzers) {
		mode |= packages.NeedDeps
	}
	cfg := &packages.Config{Mode: mode, Dir: dir, Tests: tests, BuildFlags: buildFlags}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, nil, 0, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	ok, errs, failed := withoutErrors(pkgs)
	return ok, errs, failed, nil
}

// withoutErrors returns the packages without errors, one line for each
// of the others, and how many of those are packages in their own right
// (not test variants or external test packages).
func withoutErrors(pkgs []*packages.Package) (ok []*packages.Package, errs []string, failed int) {
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			errs = append(errs, fmt.Sprintf("package %s: %s", p.ID, packageErrors(p.Errors)))
			if p.ForTest == "" {
				failed++
			}
			continue
		}
		ok = append(ok, p)
	}
	return ok, errs, failed
}

// packageErrors turns a package's errors into one line: each error once,
// with its position, without the "# pkg" header go list puts on compiler
// output.
func packageErrors(errs []packages.Error) string {
	var msgs []string
	seen := make(map[string]bool)
	for _, e := range errs {
		msg := e.Msg
		if strings.HasPrefix(msg, "# ") {
			_, msg, _ = strings.Cut(msg, "\n")
		}
		for _, line := range strings.Split(msg, "\n") {
			line = strings.TrimSpace(line)
			if e.Pos != "" && e.Pos != "-" && !strings.Contains(line, e.Pos) {
				line = e.Pos + ": " + line
			}
			// go list and the type checker report the same error with
			// relative and absolute paths: compare without the path.
			key := line
			if i := strings.Index(line, ".go:"); i >= 0 {
				key = line[i:]
			}
			if line != "" && !seen[key] {
				seen[key] = true
				msgs = append(msgs, line)
			}
		}
	}
	return strings.Join(msgs, "; ")
}

func needFacts(analyzers []*analysis.Analyzer) bool {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer) bool
	visit = func(a *analysis.Analyzer) bool {
		if seen[a] {
			return false
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			return true
		}
		return slices.ContainsFunc(a.Requires, visit)
	}
	return slices.ContainsFunc(analyzers, visit)
}

func byAnalyzer(fs []report.Finding) map[string]int {
	m := make(map[string]int)
	for _, f := range fs {
		m[f.Analyzer]++
	}
	return m
}
