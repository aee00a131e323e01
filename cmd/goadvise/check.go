package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
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
	"github.com/goadvise/goadvise/internal/atomicfile"
	"github.com/goadvise/goadvise/page"
	"github.com/goadvise/goadvise/pgo"
	"github.com/goadvise/goadvise/program"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/suite"
	"github.com/goadvise/goadvise/worktree"
)

func init() {
	register(&command{
		name:  "check",
		usage: "check [flags] [packages]",
		short: "run the analyzers and print ranked findings (the default command)",
		long: `Check loads the named packages (default ".") and runs goadvise's analyzers
on them. Findings are printed hottest first.

Findings in cold code and inherent allocations are not shown but counted
in the summary: -cold and -heapescape.all show them.

Exit status: 0 no findings, 3 findings reported (findings not shown do
not count), 1 usage error, load failure or tool error. With -fix, 0 when
every finding was fixed.`,
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
	cold      bool // show findings in cold code
	heapCold  bool // show heapescape's findings in cold code (-heapescape.cold=true)
	inherent  bool // show inherent allocations (-heapescape.all=true)
	minScore  float64
	verify    verifyFlags
	cpuprof   string
	whole     bool
	passes    []string // whole-program passes to run
	// newFromRev keeps only findings on lines changed since this git
	// revision (with the uncommitted and untracked changes).
	newFromRev string
}

func runCheck(args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var cf checkFlags
	fs.StringVar(&cf.format, "format", "text", "output `format`: text, json, sarif or html")
	jsonOut := fs.Bool("json", false, "same as -format json (as go vet spells it)")
	fs.BoolVar(&cf.fix, "fix", false, "apply the suggested fixes to the source files")
	fs.BoolVar(&cf.diff, "diff", false, "print the suggested fixes as unified diffs instead of applying them")
	fs.BoolVar(&cf.tests, "tests", false, "also analyse _test.go files")
	fs.StringVar(&cf.enable, "enable", "", "comma-separated `analyzers` to run (default all)")
	fs.StringVar(&cf.disable, "disable", "", "comma-separated `analyzers` not to run")
	fs.IntVar(&cf.top, "top", 0, "report only the first `N` findings (0: all)")
	fs.StringVar(&cf.output, "o", "", "write the report to `file` instead of standard output (with -verify: a directory for fixes.patch and summary.md)")
	fs.StringVar(&cf.profile, "profile", "", "rank findings by the CPU `profiles` given (comma-separated files, directories or URLs)")
	fs.StringVar(&cf.heap, "heap", "", "also weigh allocation findings by these heap `profiles` (alloc_space/alloc_objects)")
	fs.StringVar(&cf.heapIndex, "heap_index", "alloc_space", "with heap profiles, rank allocation findings by `alloc_space` or alloc_objects")
	fs.BoolVar(&cf.all, "all", false, "with -profile, also show findings in code the profile never saw run")
	fs.BoolVar(&cf.cold, "cold", false, "also show findings in cold code: error paths, init, main outside its loops, set-up, sync.Once bodies, code only tests call")
	fs.BoolVar(&cf.verify.on, "verify", false, "try the fixes of the top findings in a copy of the module: run the package's tests and benchmarks before and after (with -fix, apply only the fixes that pass and do not regress)")
	fs.IntVar(&cf.verify.top, "verify-top", 5, "with -verify, how many of the top findings with a fix to try")
	fs.IntVar(&cf.verify.count, "verify-count", 6, "with -verify, benchmark rounds per version")
	fs.StringVar(&cf.verify.benchtime, "verify-benchtime", "", "with -verify, -benchtime for the benchmarks (default the go test default)")
	fs.BoolVar(&cf.whole, "whole", false, "also run the whole-program passes (devirt, loopalloc): loads every dependency from source and builds SSA and a call graph")
	fs.StringVar(&cf.cpuprof, "cpuprofile", "", "write a CPU profile of goadvise itself to `file` (for goadvise's developers)")
	fs.StringVar(&cf.newFromRev, "new-from-rev", "", "report only findings on lines changed since the git `revision` (uncommitted and untracked changes included), to adopt goadvise on an old code base")
	fs.Float64Var(&cf.minScore, "min-score", 0, "with -profile, report only findings whose score is at least `pct` percent of CPU")
	all := append(suite.Analyzers(), suite.Helpers()...)
	registerAnalyzerFlags(fs, all)
	patterns, err := parseArgs(fs, commandUsage("check"), args, os.Stdout, os.Stderr)
	if err == errHelp {
		return exitOK
	} else if err != nil {
		return exitError
	}
	findAll(fs, all, &cf)
	// The whole-program passes are chosen with -whole or by name in
	// -enable; they are not analyzers of the suite.
	analyzers, passes, err := selectChecks(splitList(cf.enable), splitList(cf.disable), cf.whole)
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

// onChangedLines keeps the findings whose lines changed since the git
// revision rev in the repository holding dir: committed since, uncommitted
// or in untracked files.
func onChangedLines(dir, rev string, findings []report.Finding) ([]report.Finding, error) {
	ctx := context.Background()
	repo, err := worktree.Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	commit, err := repo.Resolve(ctx, rev)
	if err != nil {
		return nil, err
	}
	ch, err := repo.Changes(ctx, commit, "")
	if err != nil {
		return nil, err
	}
	top, err := filepath.EvalSymlinks(repo.Top())
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(findings, func(f report.Finding) bool {
		file, err := filepath.EvalSymlinks(f.File)
		if err != nil {
			file = f.File
		}
		rel, err := filepath.Rel(top, file)
		if err != nil || strings.HasPrefix(rel, "..") {
			return true // outside the repository: not changed in it
		}
		rel = filepath.ToSlash(rel)
		end := max(f.EndLine, f.Line)
		return !ch.Added[rel] && !worktree.Touches(ch.New[rel], f.Line, end)
	}), nil
}

// selectChecks chooses the analyzers and the whole-program passes to run
// from -enable, -disable and -whole. -enable and -disable take the names of
// both; -whole adds every pass. An -enable list naming only passes runs
// only them; with no -enable, every analyzer runs.
func selectChecks(enable, disable []string, whole bool) ([]*analysis.Analyzer, []string, error) {
	isPass := make(map[string]bool)
	for _, p := range program.Passes() {
		isPass[p.Name] = true
	}
	split := func(names []string) (as, ps []string) {
		for _, n := range names {
			if isPass[n] {
				ps = append(ps, n)
			} else {
				as = append(as, n)
			}
		}
		return as, ps
	}
	enableA, enableP := split(enable)
	disableA, disableP := split(disable)
	var passes []string
	for _, p := range program.Passes() {
		if (whole || slices.Contains(enableP, p.Name)) && !slices.Contains(disableP, p.Name) {
			passes = append(passes, p.Name)
		}
	}
	if len(enableA) == 0 && len(enableP) > 0 {
		if len(passes) == 0 {
			return nil, nil, errors.New("no analyzers left to run after -enable/-disable")
		}
		return nil, passes, nil
	}
	analyzers, err := suite.Select(enableA, disableA)
	if err != nil && len(passes) > 0 && len(enableA) == 0 {
		// Every analyzer disabled, but passes remain: run those.
		return nil, passes, nil
	}
	return analyzers, passes, err
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

// loadProfiles reads the -profile (CPU) and -heap profiles. It refuses a
// profile of the wrong kind or without samples, and a CPU profile none of
// whose weight falls in the packages matched by patterns (a profile of
// another program would hide every finding); it warns when little does.
func loadProfiles(cf checkFlags, dir string, patterns []string) (*pgo.Hotness, error) {
	hot, err := pgo.Load(context.Background(), splitList(cf.profile), splitList(cf.heap), pgo.LoadOptions{})
	if ke := (*pgo.KindError)(nil); errors.As(err, &ke) && ke.Got == pgo.Heap {
		err = fmt.Errorf("%v (give heap profiles with -heap)", err)
	} else if errors.As(err, &ke) && ke.Got == pgo.CPU {
		err = fmt.Errorf("%v (give CPU profiles with -profile)", err)
	}
	if err != nil {
		return nil, err
	}
	loaded, err := pgo.Packages(context.Background(), dir, patterns)
	if err != nil {
		return hot, nil // the analysis reports why the packages do not load
	}
	for _, c := range hot.Coverage(func(pkg string) bool { return loaded[pkg] }) {
		switch {
		case c.Percent == 0:
			return nil, fmt.Errorf("%s: none of the profile's samples is in the packages analysed (a profile of another program?)", c.Source)
		case c.Percent < pgo.MinCoverage:
			fmt.Fprintf(os.Stderr, "goadvise: warning: %s: only %.2f%% of the profile's samples are in the packages analysed; it says little about them\n", c.Source, c.Percent)
		}
	}
	return hot, nil
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

// findAll makes heapescape report what check hides by default (cold
// code, inherent allocations), so that check can count what it hides. A
// value the user gave is kept, and decides whether to show them: findAll
// records in cf whether the user asked to see heapescape's cold findings
// (-heapescape.cold=true) and inherent ones (-heapescape.all=true).
func findAll(fs *flag.FlagSet, analyzers []*analysis.Analyzer, cf *checkFlags) {
	given := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, a := range analyzers {
		if a.Name != "heapescape" {
			continue
		}
		for _, name := range []string{"cold", "all"} {
			f := a.Flags.Lookup(name)
			if f == nil {
				continue // not (yet) a flag of heapescape
			}
			if !given[a.Name+"."+name] {
				f.Value.Set("true")
			} else if name == "all" {
				cf.inherent = f.Value.String() == "true"
			} else {
				cf.heapCold = f.Value.String() == "true"
			}
		}
	}
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
	defer lockModule(dir, cf.fix && !cf.diff)()
	var hot *pgo.Hotness
	if cf.profile != "" || cf.heap != "" {
		if cf.profile == "" {
			fmt.Fprintln(os.Stderr, "goadvise: -heap needs -profile (a CPU profile) to rank by")
			return exitError
		}
		hot, err = loadProfiles(cf, dir, patterns)
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
	// Hide, and count, what the user did not ask to see: each finding
	// once, for the first reason that applies.
	hide := func(drop func(report.Finding) bool) int {
		n := len(findings)
		findings = slices.DeleteFunc(findings, drop)
		return n - len(findings)
	}
	unchanged := 0
	if cf.newFromRev != "" {
		n := len(findings)
		findings, err = onChangedLines(dir, cf.newFromRev, findings)
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: -new-from-rev: %v\n", err)
			return exitError
		}
		unchanged = n - len(findings)
	}
	var hiddenInherent, hiddenCold int
	if !cf.inherent {
		hiddenInherent = hide(func(f report.Finding) bool { return f.Class == "inherent" })
	}
	ranking, hidden := "static", 0
	var profStats *report.ProfileStats
	if hot != nil {
		ranking = "profile"
		report.Score(findings, hot, report.ScoreOptions{GCFactor: -1, Module: ar.module, HeapIndex: cf.heapIndex})
		if !cf.all {
			hidden = hide(func(f report.Finding) bool { return !f.Sampled })
		}
	}
	if !cf.cold {
		// With a profile, code it never saw run is cold: -all, not
		// -cold, decides about it.
		hiddenCold = hide(func(f report.Finding) bool {
			return f.Tier == "cold" && (hot == nil || f.Sampled) && !(f.Analyzer == "heapescape" && cf.heapCold)
		})
	}
	if hot != nil {
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
	ranked := findings // -verify tries the top findings that have a fix, among all
	if cf.top > 0 && len(findings) > cf.top {
		findings = findings[:cf.top]
	}
	if profStats != nil {
		for _, f := range findings {
			profStats.TopCover += f.Score
		}
	}

	verifyStatus := -1
	if cf.verify.on {
		cf.verify.dir, cf.output = cf.output, "" // with -verify, -o names a directory
		good, vs, err := verifyFindings(ranked, ar.dirs, ar.moduleDir, cf.verify)
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
			return verifyError
		}
		verifyStatus = vs
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
		Unchanged:  unchanged,
		NewFromRev: cf.newFromRev,
		Profile:    profStats,
		DurationMS: time.Since(start).Milliseconds(),
		Errors:     append(ar.loadErrs, ar.toolErrs...),
		Suppressed: ar.suppressed,

		HiddenCold:     hiddenCold,
		HiddenInherent: hiddenInherent,
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
