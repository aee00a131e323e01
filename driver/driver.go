// Package driver runs goadvise's check pipeline: from package patterns to
// ranked findings, as stages.
//
//  1. Plan: one go list of the patterns and their dependencies (package
//     load) keys every package; those whose key is unchanged get their
//     findings from the findings cache (package memo).
//  2. Warm: the other packages are compiled once with the compiler's
//     optimization log (package optlog), from the same listing.
//  3. Load: the packages are type-checked in batches (package load), a
//     batch loading while the one before it is analysed, under a soft
//     memory limit.
//  4. Analyze: the analyzers run on each batch, and the whole-program
//     passes (package wholeprog) if asked.
//  5. Rank: findings are merged, hidden (test files, -new-from-rev, cold
//     code, code a production profile never saw), scored by a profile or
//     by their estimated saving, and cut to the density of the default
//     output (package report).
//
// The caller (cmd/goadvise) chooses the output, applies or verifies fixes
// and shows the progress.
package driver

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/load"
	"github.com/goadvise/goadvise/pgo"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/wholeprog"
	"github.com/goadvise/goadvise/worktree"
)

// Config says what to check and which findings to report.
type Config struct {
	Dir       string   // directory in which the patterns are resolved
	Patterns  []string // package patterns (default ".")
	Analyzers []*analysis.Analyzer
	Passes    []string // whole-program passes to run (see package wholeprog)
	Tests     bool     // also analyse _test.go files

	Profiles  []string // CPU profiles to rank by (files, directories or URLs)
	Heap      []string // heap profiles that also weigh allocation findings
	HeapIndex string   // alloc_space (default) or alloc_objects

	// Visibility says which findings to report. The analyzers report
	// everything to the driver, which counts what it hides. With All,
	// every finding found is reported: not only the highest ranked (at
	// most kind.PerKLOC per 1,000 lines analysed), and with a production
	// profile also those in code it never saw run; with Cold, those in
	// cold code too. The flags the user gave the analyzers widen it
	// (suite.Visibility.Of): an analyzer's -all is All for every finding,
	// its -cold (heapescape's) Cold for its own.
	Visibility suite.Visibility
	MinScore   float64 // with a profile, report only findings scoring at least this
	NewFromRev string  // report only findings on lines changed since this git revision
	// NewFromRevSource names where NewFromRev was given, for an error
	// about it: a configuration file's "FILE:LINE: new-from-rev"; ""
	// is "-new-from-rev".
	NewFromRevSource string
	// Exclude, if set, says which files' findings are dropped (the
	// configuration file's exclude globs): they are counted, not shown.
	Exclude func(file string) bool
	Top     int // report only the first Top findings (0: all)

	// Bench, if set, measures the packages' benchmarks and ranks by
	// their profiles instead of Profiles and Heap (check -bench).
	Bench *BenchConfig

	// Fix says that the caller will apply fixes to the findings (check
	// -fix): Run then holds the module's lock exclusively until
	// Result.Unlock, so that no other run reads the files while they are
	// rewritten and the fixes apply to the files analysed. Without it, the
	// lock is shared, and released when Run returns.
	Fix bool

	// Version is goadvise's version, part of the caches' keys.
	Version string
	// Warn, if set, receives warnings (one line each): the run goes on.
	Warn func(msg string)

	progress   func(string)
	repo       *worktree.Repo   // with NewFromRev, the repository holding Dir
	since      string           // with NewFromRev, the commit it names
	listing    *load.Listing    // the packages listed with their dependencies, once listed
	measured   bool             // the profiles are those Bench measured
	benches    []*measuredBench // what Bench measured, for the findings' per-operation costs
	benchRuns  int              // test binaries built or run by Bench
	benchmarks int              // benchmarks Bench measured
}

// newFromRevSource names where NewFromRev was given.
func (c *Config) newFromRevSource() string {
	if c.NewFromRevSource != "" {
		return c.NewFromRevSource
	}
	return "-new-from-rev"
}

func (c *Config) warn(msg string) {
	if c.Warn != nil {
		c.Warn(msg)
	}
}

// A Result is the outcome of a run: the report (without its duration),
// and what the fixes and their verification need.
type Result struct {
	Report *report.Report
	// Errors are the lines to print about packages that did not load,
	// analyzers that failed and passes that failed: a run with errors is
	// a failed run, though it reports what it found.
	Errors    []string
	Dirs      map[string]string // import path -> directory of every package analysed
	ModuleDir string            // directory of the main module, if any
	// Ranked are all the findings shown, in the report's order, before
	// Config.Top cut them (check -verify tries the top fixes among all).
	Ranked []report.Finding
	// BenchRuns is the number of test binaries Config.Bench built or
	// ran: 0 when every measurement came from the cache.
	BenchRuns int
	// Kinds are the kinds of findings the analyzers and passes of the
	// run report, for SARIF's rules.
	Kinds []kind.Kind

	unlock func() // releases the module's lock (Config.Fix)
}

// Unlock releases the module's lock that Run holds for the caller's fixes
// (Config.Fix). It does nothing without Config.Fix, or the second time.
func (r *Result) Unlock() {
	if r.unlock != nil {
		r.unlock()
		r.unlock = nil
	}
}

// Run runs the pipeline. progress, if not nil, is told what the run is
// doing, in a few words, whenever that changes (from the goroutine that
// called Run). Ctrl-C, as a cancelled ctx, stops the run.
//
// Runs on one module (or workspace) are kept apart: each holds the
// module's lock, shared, or exclusively with Config.Fix, waiting (after a
// warning) while another process holds it in a conflicting mode.
func Run(ctx context.Context, cfg Config, progress func(msg string)) (res *Result, err error) {
	unlock := lockModule(cfg.Dir, cfg.Fix, cfg.warn)
	defer func() {
		if res != nil && cfg.Fix {
			res.unlock = unlock
		} else {
			unlock()
		}
	}()
	return run(ctx, cfg, progress)
}

// run is Run under the module's lock.
func run(ctx context.Context, cfg Config, progress func(msg string)) (*Result, error) {
	if progress == nil {
		progress = func(string) {}
	}
	cfg.progress = progress
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"."}
	}
	if cfg.HeapIndex == "" {
		cfg.HeapIndex = "alloc_space"
	}
	if cfg.NewFromRev != "" {
		// Resolved before any work, so that a revision that does not
		// exist is refused at once.
		repo, err := worktree.Open(ctx, cfg.Dir)
		if err == nil {
			cfg.repo = repo
			cfg.since, err = repo.Resolve(ctx, cfg.NewFromRev)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cfg.newFromRevSource(), err)
		}
	}
	var benches []*measuredBench
	if cfg.Bench != nil {
		if len(cfg.Profiles) > 0 || len(cfg.Heap) > 0 {
			return nil, errors.New("-bench measures the profiles to rank by: it cannot be used with -profile or -heap")
		}
		tmp, err := os.MkdirTemp("", "goadvise-measured-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		benches, err = measureBenchmarks(ctx, &cfg, tmp)
		if err != nil && ctx.Err() != nil {
			err = fmt.Errorf("interrupted")
		}
		if err != nil {
			return nil, fmt.Errorf("-bench: %w", err)
		}
		cfg.measured, cfg.benchmarks, cfg.benches = len(benches) > 0, len(benches), benches
	}
	var hot *pgo.Hotness
	if len(cfg.Profiles) > 0 || len(cfg.Heap) > 0 {
		if len(cfg.Profiles) == 0 {
			return nil, errors.New("-heap needs -profile (a CPU profile) to rank by")
		}
		var err error
		progress("reading profiles")
		hot, err = loadProfiles(ctx, &cfg)
		if err != nil {
			return nil, err
		}
		if cfg.measured {
			hot.SetPartial()
		}
	}
	// The analyzers see the profile (or none) through the hot-path seam,
	// and report every finding: those in cold code and below the cut
	// are counted and hidden below (Config.Visibility shows them).
	cfg.Analyzers = suite.Configure(cfg.Analyzers, suite.Options{Visibility: suite.Everything, Profile: hot})
	ar, err := analyze(ctx, &cfg)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("interrupted")
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Dirs: ar.dirs, ModuleDir: ar.moduleDir}
	res.Errors = append(res.Errors, ar.loadErrs...)
	res.Errors = append(res.Errors, ar.toolErrs...)
	findings := ar.findings
	if len(cfg.Passes) > 0 {
		pf, err := runPasses(&cfg, ar)
		if err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("whole-program passes: %v", err))
		}
		findings = append(findings, pf...)
	}
	r, ranked, err := rank(&cfg, findings, hot, ar)
	if err != nil {
		return nil, err
	}
	res.Report, res.Ranked, res.BenchRuns = r, ranked, cfg.benchRuns
	res.Kinds = kinds(&cfg)
	return res, nil
}

// kinds lists the kinds of findings of the analyzers and the
// whole-program passes of the run.
func kinds(cfg *Config) []kind.Kind {
	names := slices.Clone(cfg.Passes)
	for _, a := range cfg.Analyzers {
		names = append(names, a.Name)
	}
	return suite.Kinds(names)
}

// lockModule takes the lock of the module (or workspace) that dir is in,
// shared or exclusive, and returns the function that releases it. While
// another process holds it in a conflicting mode it warns once and waits.
// Without a usable cache directory it takes no lock.
func lockModule(dir string, exclusive bool, warn func(string)) (unlock func()) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	module, workspace := load.Roots(dir)
	root := cmp.Or(workspace, module, dir)
	sum := sha256.Sum256([]byte(root))
	unlock, err := cache.Lock("module-"+hex.EncodeToString(sum[:12]), exclusive, func() {
		warn("waiting for another goadvise run on " + root + " to finish")
	})
	if err != nil {
		return func() {}
	}
	return unlock
}

// runPasses runs the whole-program passes on the packages analysed, from
// the analysis's listing if it made one, under a soft memory limit like
// the analysis's but raised by less (see boundMemory), and tells the
// progress callback which of their steps runs.
func runPasses(cfg *Config, ar *analysisResult) ([]report.Finding, error) {
	mem := boundMemory(5, 4)
	defer mem.restore()
	return wholeprog.AnalyzePaths(context.Background(), ar.roots, wholeprog.Options{
		Dir:      cfg.Dir,
		Passes:   cfg.Passes,
		Listed:   ar.listed,
		Progress: func(step string) { cfg.progress("whole-program passes: " + step) },
	})
}

// rank merges, hides, scores and ranks the findings, and describes the run.
// It also returns the ranked findings before Config.Top cut them.
func rank(cfg *Config, findings []report.Finding, hot *pgo.Hotness, ar *analysisResult) (*report.Report, []report.Finding, error) {
	// What the user's flags for the analyzers add: an -all is every
	// finding's, a -cold its analyzer's.
	shown := cfg.Visibility
	byName := make(map[string]suite.Visibility)
	all := shown.All
	for _, a := range suite.Analyzers() {
		v := shown.Of(a)
		byName[a.Name] = v
		all = all || v.All
	}
	coldShown := func(analyzer string) bool {
		if v, ok := byName[analyzer]; ok {
			return v.Cold
		}
		return shown.Cold
	}
	if !cfg.Tests {
		findings = slices.DeleteFunc(findings, func(f report.Finding) bool { return strings.HasSuffix(f.File, "_test.go") })
	}
	// One cost, one finding: before scoring, so that a finding is
	// weighed once.
	findings = report.Merge(findings)
	crossPackage(findings, ar)
	// What the module's own benchmarks measured at each line: a line
	// whose allocations they counted ran, even with no CPU sample.
	benchCosts(findings, cfg.benches, ar.module)
	// Findings in excluded files are set apart, after Merge so that each
	// cost counts once, and before scoring so that they take no share of
	// a cost from the others.
	var excludedFs []report.Finding
	if cfg.Exclude != nil {
		findings = slices.DeleteFunc(findings, func(f report.Finding) bool {
			if cfg.Exclude(f.File) {
				excludedFs = append(excludedFs, f)
				return true
			}
			return false
		})
	}
	// Hide, and count, what the user did not ask to see: each finding
	// once, for the first reason that applies. A finding in an excluded
	// file that another reason hides is counted for that reason: what is
	// counted as excluded is what the file's exclusion alone hides.
	var hidden, unchanged, hiddenCold int
	hide := func(fs *[]report.Finding, n *int, drop func(report.Finding) bool) {
		before := len(*fs)
		*fs = slices.DeleteFunc(*fs, drop)
		*n += before - len(*fs)
	}
	if cfg.NewFromRev != "" {
		changed, err := changedLines(cfg.repo, cfg.since)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", cfg.newFromRevSource(), err)
		}
		hide(&findings, &unchanged, func(f report.Finding) bool { return !changed(f) })
		hide(&excludedFs, &unchanged, func(f report.Finding) bool { return !changed(f) })
	}
	ranking := "static"
	var profStats *report.ProfileStats
	if hot != nil {
		ranking = "profile"
		opts := report.ScoreOptions{GCFactor: -1, Module: ar.module, HeapIndex: cfg.HeapIndex}
		report.Score(findings, hot, opts)
		if len(excludedFs) > 0 {
			report.Score(excludedFs, hot, opts) // on their own: whether the profile measured them
		}
	}
	// A profile is evidence: a finding it charges a measurable share
	// (report.MinSamples samples or more) is shown whatever its tier, with
	// its cost: an error path that the profile finds hot is worth a look.
	measured := func(f report.Finding) bool { return hot != nil && f.Sampled && f.Samples >= report.MinSamples }
	// With a production profile, code it never saw run is cold: -all,
	// not -cold, decides about it. The module's own benchmarks are not
	// the program's whole work: what none of them runs keeps its static
	// tier, shown after what they measured.
	partial := hot != nil && hot.Partial()
	for _, fs := range []*[]report.Finding{&findings, &excludedFs} {
		if hot != nil && !partial && !all {
			hide(fs, &hidden, func(f report.Finding) bool { return !f.Sampled })
		}
		hide(fs, &hiddenCold, func(f report.Finding) bool {
			return f.Tier == "cold" && (hot == nil || partial || f.Sampled) && !coldShown(f.Analyzer) && !measured(f)
		})
	}
	excluded := len(excludedFs)
	if hot != nil {
		if cfg.MinScore > 0 {
			findings = slices.DeleteFunc(findings, func(f report.Finding) bool { return f.Score < cfg.MinScore })
		}
		report.RankByScore(findings)
		profStats = profileStats(hot, cfg, ar.module)
		if cfg.measured {
			// Profiles just measured match the source.
			profStats.Sources, profStats.Benchmarks = []string{"-bench " + cfg.Bench.Bench}, cfg.benchmarks
		} else {
			cachedStaleness(profStats, cfg.Dir, cfg.Patterns, ar.dirs, cfg.Version)
		}
	} else {
		report.Rank(findings)
	}
	// The default shows the highest ranked findings only, at most
	// kind.PerKLOC per 1,000 lines analysed: the rest are counted.
	belowCut := 0
	if !all && cfg.Top == 0 {
		n := len(findings)
		findings = cut(findings, kind.Budget(ar.lines), ar, hot != nil, func(f report.Finding) bool {
			return measured(f) || benchmarked(f)
		})
		belowCut = n - len(findings)
	}
	total := len(findings)
	if hot == nil {
		// What the cut kept is printed by estimated saving.
		report.BySaving(findings)
	} else {
		report.Number(findings)
	}
	ranked := findings
	if cfg.Top > 0 && len(findings) > cfg.Top {
		findings = findings[:cfg.Top]
	}
	if profStats != nil {
		for _, f := range findings {
			profStats.TopCover += f.Score
		}
		shown := make(map[string]int)
		for _, f := range findings {
			shown[f.Function]++
		}
		for i := range profStats.Inside {
			profStats.Inside[i].Findings = shown[profStats.Inside[i].Function]
		}
	}
	return &report.Report{Findings: findings, Stats: report.Stats{
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
		NewFromRev: cfg.NewFromRev,
		Excluded:   excluded,
		Profile:    profStats,
		Errors:     append(slices.Clip(ar.loadErrs), ar.toolErrs...),
		Suppressed: ar.suppressed,

		HiddenCold: hiddenCold,
		BelowCut:   belowCut,
		Lines:      ar.lines,
	}}, ranked, nil
}

// benchmarked reports whether a benchmark measured a cost at f's line
// (Benchmarks), which is evidence the default always shows: an
// allocation the benchmarks ran without making (report.MeasuredFree) is
// not.
func benchmarked(f report.Finding) bool {
	return len(f.Benchmarks) > 0 && !report.MeasuredFree(f)
}

// cut returns the findings of the default output, at most budget of the
// ranked findings fs, in their order. What a profile or a benchmark
// measured (measured) is evidence of a cost and is always shown. With a
// profile the first budget findings in the profile's order are kept,
// and what else was measured after them; without
// one, the budget is shared among the packages in proportion to their
// lines (kind.Apportion), each keeping its highest ranked findings, and
// what a package cannot use goes to the highest ranked of the others; a
// package in a copy of another project's code (Finding.Copied) has no
// share.
func cut(fs []report.Finding, budget int, ar *analysisResult, profile bool, measured func(report.Finding) bool) []report.Finding {
	if len(fs) <= budget {
		return fs
	}
	keep := make([]bool, len(fs))
	left := budget
	if profile {
		// The head of the profile's ranking, whose turns take what to
		// change as well as where the cost is (report.RankByScore),
		// then what else was measured.
		for i := range min(budget, len(fs)) {
			keep[i] = true
		}
		left = 0
	}
	for i, f := range fs {
		if measured(f) && !keep[i] {
			keep[i] = true
			left--
		}
	}
	if !profile && len(ar.pkgLines) > 1 {
		// A copy of another project's code has no share of its own:
		// its findings take what the others leave, by rank.
		copied := make(map[string]bool)
		for _, f := range fs {
			if f.Copied != "" {
				copied[f.Package] = true
			}
		}
		var pkgs []string
		var sizes []int
		for p, n := range ar.pkgLines {
			// Lines another project's tool generated are its to
			// change: they give no share (see pkgElsewhere).
			n -= ar.pkgElsewhere[p]
			if copied[p] {
				n = 0
			}
			pkgs = append(pkgs, p)
			sizes = append(sizes, n)
		}
		// A fixed order, so that ties of remainders fall the same way.
		order := make([]int, len(pkgs))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(pkgs[a], pkgs[b]) })
		sorted := make([]int, len(order))
		for i, j := range order {
			sorted[i] = sizes[j]
		}
		quota := make(map[string]int)
		for i, q := range kind.Apportion(max(left, 0), sorted) {
			quota[pkgs[order[i]]] = q
		}
		for i, f := range fs {
			if !keep[i] && quota[f.Package] > 0 {
				keep[i] = true
				quota[f.Package]--
				left--
			}
		}
	}
	for i := range fs {
		if left <= 0 {
			break
		}
		if !keep[i] {
			keep[i] = true
			left--
		}
	}
	out := fs[:0]
	for i, f := range fs {
		if keep[i] {
			out = append(out, f)
		}
	}
	return out
}

func byAnalyzer(fs []report.Finding) map[string]int {
	m := make(map[string]int)
	for _, f := range fs {
		m[f.Analyzer]++
	}
	return m
}

// changedLines returns whether a finding is on lines changed since commit
// in repo: committed since, uncommitted or in untracked files.
func changedLines(repo *worktree.Repo, commit string) (func(report.Finding) bool, error) {
	ch, err := repo.Changes(context.Background(), commit, "")
	if err != nil {
		return nil, err
	}
	top, err := filepath.EvalSymlinks(repo.Top())
	if err != nil {
		return nil, err
	}
	return func(f report.Finding) bool {
		file, err := filepath.EvalSymlinks(f.File)
		if err != nil {
			file = f.File
		}
		rel, err := filepath.Rel(top, file)
		if err != nil || strings.HasPrefix(rel, "..") {
			return false // outside the repository: not changed in it
		}
		rel = filepath.ToSlash(rel)
		end := max(f.EndLine, f.Line)
		return ch.Added[rel] || worktree.Touches(ch.New[rel], f.Line, end)
	}, nil
}

// loadProfiles reads the CPU and heap profiles. It refuses a profile of
// the wrong kind or without samples, and a CPU profile none of whose
// weight falls in the packages matched by the patterns (a profile of
// another program would hide every finding); it warns when little does.
func loadProfiles(ctx context.Context, cfg *Config) (*pgo.Hotness, error) {
	hot, err := pgo.Load(context.Background(), cfg.Profiles, cfg.Heap, pgo.LoadOptions{})
	if ke := (*pgo.KindError)(nil); errors.As(err, &ke) && ke.Got == pgo.Heap {
		err = fmt.Errorf("%v (give heap profiles with -heap)", err)
	} else if errors.As(err, &ke) && ke.Got == pgo.CPU {
		err = fmt.Errorf("%v (give CPU profiles with -profile)", err)
	}
	if err != nil {
		return nil, err
	}
	// The names the profile may give the packages' functions, from the
	// run's one listing: listing them again with their test variants
	// took a second go list on every run.
	cfg.progress("listing packages")
	listing, err := load.Packages(ctx, load.ListOptions{Dir: cfg.Dir, Deps: true, Tests: cfg.Tests}, cfg.Patterns...)
	if err != nil {
		return hot, nil // the analysis reports why the packages do not load
	}
	cfg.listing = listing
	dirs := make(map[string]string)
	for _, p := range listing.Packages {
		if p.ForTest == "" && !p.Standard && p.Dir != "" {
			dirs[p.Dir] = p.ImportPath
		}
	}
	hot.SetPackageDirs(dirs)
	loaded := pgo.ListedNames(listing)
	for _, c := range hot.Coverage(func(pkg string) bool { return loaded[pkg] }) {
		switch {
		case cfg.measured:
			// The module's own benchmarks: a short one may spend all its
			// few samples in the runtime, which says nothing about the
			// profile's origin.
		case c.Percent == 0:
			return nil, fmt.Errorf("%s: none of the profile's samples is in the packages analysed (a profile of another program?)", c.Source)
		case c.Percent < pgo.MinCoverage:
			cfg.warn(fmt.Sprintf("warning: %s: only %.2f%% of the profile's samples are in the packages analysed; it says little about them", c.Source, c.Percent))
		}
	}
	return hot, nil
}

// profileStats describes the profile for the report: its size, the GC
// factor used, and the hottest functions outside the analysed module.
func profileStats(hot *pgo.Hotness, cfg *Config, module string) *report.ProfileStats {
	samples, dur := hot.Total()
	ps := &report.ProfileStats{
		Sources:   append(slices.Clone(cfg.Profiles), cfg.Heap...),
		Samples:   samples,
		DurationS: dur.Seconds(),
		GCFactor:  report.GCFactor(hot),
	}
	if module != "" {
		for _, h := range hot.Inside(module, 10) {
			ps.Inside = append(ps.Inside, report.HotSpot{Function: h.Name, Flat: h.Flat * 100, Cum: h.Cum * 100})
		}
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
