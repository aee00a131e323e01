package driver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/analyzer/directive"
	"github.com/goadvise/goadvise/analyzer/escape"
	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/load"
	"github.com/goadvise/goadvise/memo"
	"github.com/goadvise/goadvise/optlog"
	"github.com/goadvise/goadvise/pgo"
	"github.com/goadvise/goadvise/report"
)

// analysis is what running the analyzers over the patterns produced, from
// the findings cache or fresh.
type analysisResult struct {
	findings   []report.Finding
	suppressed int
	hot        []*hotpath.Summary // of the packages analysed (see hotpath.Summary)
	// testFiles are the _test.go files of each package analysed, by
	// import path, when the run listed them (they may hold benchmarks).
	testFiles    map[string][]string
	loadErrs     []string // packages that failed to load, one line each
	failed       int      // how many packages (not test variants) failed to load
	toolErrs     []string // analyzer failures
	packages     int
	files        int
	lines        int               // lines of the packages' non-test files, generated ones included
	pkgLines     map[string]int    // the same, by import path
	pkgElsewhere map[string]int    // of pkgLines, those of files another project's tool generated (generated.OwnTool): in the budget, no share of it
	gen          generatedFiles    // the generated files read so far
	cached       int               // packages whose findings came from the cache
	dirs         map[string]string // import path -> directory
	roots        []string          // import paths of the packages the patterns matched
	module       string            // path of the main module, if any
	moduleDir    string
	// listed is package load's listing of the packages analysed, with
	// their dependencies and export data, if it was made (the
	// whole-program passes start from it); nil otherwise.
	listed []*packages.Package
}

// analyze runs the analyzers over the packages matching patterns. Packages
// whose cache key (see package memo) is unchanged since an earlier run get
// their findings from the cache; only the others are loaded, compiled for
// escape data and analysed.
func analyze(ctx context.Context, cfg *Config) (*analysisResult, error) {
	dir, patterns, analyzers := cfg.Dir, cfg.Patterns, cfg.Analyzers
	mem := boundMemory(3, 2)
	defer mem.restore()
	res := &analysisResult{dirs: make(map[string]string), gen: generatedFiles{}}
	progress := cfg.progress
	if cfg.listing == nil {
		progress("listing packages")
	}
	run, listing, err := listForMemo(ctx, cfg)
	if err != nil {
		// go list -e fails only when the go command cannot work here at
		// all (a go.mod needing a newer toolchain, a broken go.work), and
		// loading would fail the same way: say it once.
		return nil, err
	}
	var misses []string
	if run != nil {
		for _, p := range run.Roots {
			res.packages++
			res.files += p.Files(cfg.Tests)
			var mod, modDir string
			if p.Module != nil {
				mod, modDir = p.Module.Path, p.Module.Dir
			}
			n, elsewhere := res.sourceLines(p.Dir, append(slices.Clone(p.GoFiles), p.CgoFiles...), mod, modDir)
			res.addLines(p.ImportPath, n, elsewhere)
			res.dirs[p.ImportPath] = p.Dir
			res.roots = append(res.roots, p.ImportPath)
			for _, name := range append(slices.Clone(p.TestGoFiles), p.XTestGoFiles...) {
				if res.testFiles == nil {
					res.testFiles = make(map[string][]string)
				}
				res.testFiles[p.ImportPath] = append(res.testFiles[p.ImportPath], filepath.Join(p.Dir, name))
			}
			if p.Module != nil && p.Module.Main && res.module == "" {
				res.module, res.moduleDir = p.Module.Path, p.Module.Dir
			}
			if e := new(memoEntry); memo.Get(p.Key(), e) {
				res.findings = append(res.findings, e.Findings...)
				res.suppressed += e.Suppressed
				if e.Hot != nil {
					res.hot = append(res.hot, e.Hot)
				}
				res.cached++
				continue
			}
			misses = append(misses, p.ImportPath)
		}
		if len(misses) == 0 {
			return res, nil
		}
		if len(misses) < len(run.Roots) {
			patterns = misses // load only what changed
		}
	}

	// The packages to compile, load and analyse. They are analysed in
	// batches (below), so that memory holds the syntax, types and compiler
	// decisions of a batch or two at a time, not of the whole tree.
	all := patterns
	if run != nil {
		all = misses
	}
	// First compile every package in one build for the compiler's
	// decisions, caching them without holding them; each batch then reads
	// its own from the cache. Loading needs the packages' export data:
	// given Warm's flags, the go command finds Warm's compiles in its cache
	// instead of compiling the tree a second time. Package load
	// type-checks from source, except for tests and for analyzers with
	// facts (see below).
	useLoad := !needFacts(analyzers) && !cfg.Tests
	var warmed *optlog.Warmed
	var buildFlags []string
	if suite.Requires(analyzers, escape.Analyzer) && !escapeOff() {
		progress("compiling packages for the compiler's decisions")
		var err error
		// Test variants are not compiled: no analyzer reports on _test.go
		// files, and the other files' decisions are the plain package's.
		opts := optlog.LoadOptions{Dir: dir, Patterns: all}
		if run != nil && len(misses) == len(run.Roots) {
			// Every package missed the findings cache: the decisions
			// are for the packages listed already.
			opts.Listing = listing
		}
		if useLoad {
			// The build lists the packages for package load too.
			opts.ListFlags, opts.ListFields = load.ListFlags, load.ListFields
		}
		warmed, err = optlog.Warm(ctx, opts)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// Not fatal: analyzers that need escape data say it is unavailable.
			cfg.warn(fmt.Sprintf("collecting compiler decisions: %v", err))
			warmed = nil
		} else {
			defer warmed.Close()
			buildFlags = warmed.BuildFlags()
			// The run's peak memory is its largest compile's: up to
			// most of that, collecting garbage more often than the
			// default would only cost time.
			mem.atLeast(warmed.CompilePeak() * 3 / 4)
		}
	}
	// List every package once (Warm's build did, if it ran), and
	// type-check each batch from source against the export data of its
	// dependencies (go/packages would run go list for each batch).
	// Analyzers with facts need their dependencies analysed too, and test
	// variants may be imported back by their dependencies: go/packages
	// loads those.
	var prog *load.Program
	byRoot := make(map[string][]*packages.Package)
	var listed []string // the keys of byRoot, in the order listed
	if useLoad {
		var err error
		if listing, goarch := warmed.Listing(); listing != nil {
			prog, err = load.Decode(bytes.NewReader(listing), goarch)
		} else {
			progress("listing packages")
			if warmed != nil && len(buildFlags) > 0 {
				// go list may compile packages again with Warm's
				// flags (those Warm compiled with a PGO profile:
				// load lists with -pgo=off), rewriting their logs:
				// they must be parsed first.
				warmed.Err()
			}
			prog, err = load.List(ctx, load.Config{Dir: dir, BuildFlags: buildFlags}, all...)
		}
		if err != nil {
			return nil, fmt.Errorf("loading %s: %w", strings.Join(all, " "), err)
		}
		if len(prog.Roots) == 0 {
			return nil, fmt.Errorf("no packages match %s", strings.Join(all, " "))
		}
		res.listed = prog.Roots
		for _, p := range prog.Roots {
			r := rootPath(p)
			if byRoot[r] == nil {
				listed = append(listed, r)
			}
			byRoot[r] = append(byRoot[r], p)
		}
	}
	// Warm parses the compiler's logs in the background, from the end
	// of its build (Err returns early if the run is interrupted).
	if warmed != nil {
		err := warmed.Err()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			cfg.warn(fmt.Sprintf("collecting compiler decisions: %v", err))
		}
	}
	// The root packages to analyse, in batches as large as the memory
	// limit allows, now that the compiles have set it. Without the findings
	// cache's listing or package load's, go/packages loads the patterns in
	// one batch.
	var paths []string
	switch {
	case run != nil:
		paths = misses
	case prog != nil:
		paths = listed
	}
	batches := [][]string{patterns}
	if paths != nil {
		batches = nil
		size := batchSize()
		if prog == nil {
			// go/packages runs go list for each batch: about a
			// second on golang.org/x/tools, even with nothing to
			// compile.
			size = max(size, 8)
		}
		for rest := paths; len(rest) > 0; {
			n := min(size, len(rest))
			batches = append(batches, rest[:n])
			rest = rest[n:]
		}
	}
	// Each batch is loaded while the one before it is analysed: both
	// steps wait for their slowest package, and the other step's work
	// fills the cores meanwhile. Ctrl-C stops the run between batches.
	loaded := make(chan *loadedBatch)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(loaded)
		for _, batch := range batches {
			b := &loadedBatch{}
			if paths != nil {
				b.paths = batch
			}
			switch {
			case prog != nil:
				for _, path := range batch {
					b.roots = append(b.roots, byRoot[path]...)
				}
				load.Check(b.roots)
				b.pkgs, b.loadErrs, b.failed = withoutErrors(b.roots)
			default:
				flags := buildFlags
				if warmed != nil {
					// Each flag costs the go command time for
					// each package it loads. (A batch of
					// patterns gets them all.)
					flags = warmed.FlagsFor(batch)
				}
				b.pkgs, b.loadErrs, b.failed, b.err = loadPackages(dir, batch, cfg.Tests, analyzers, flags)
			}
			switch {
			case warmed != nil && paths == nil:
				warmed.LoadAll()
			case warmed != nil:
				warmed.Load(batch)
			}
			// b belongs to the receiver once sent: decide on stopping
			// from what it held before.
			failed := b.err != nil
			select {
			case loaded <- b:
			case <-stop:
				b.release()
				return
			}
			if failed || ctx.Err() != nil {
				return
			}
		}
	}()
	analysed, total := 0, len(paths)
	tell := func() {
		if paths == nil {
			progress("analysing packages")
		} else {
			progress(fmt.Sprintf("analysing packages: %d of %d done", analysed+res.cached, total+res.cached))
		}
	}
	tell()
	for {
		var b *loadedBatch
		select {
		case b = <-loaded:
		case <-ctx.Done():
			// Type-checking takes no context: the batch loading
			// is left to finish, or not, as the process exits.
			return nil, ctx.Err()
		}
		if b == nil {
			break // every batch is analysed
		}
		err := b.err
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			b.release()
			return nil, err
		}
		res.loadErrs = append(res.loadErrs, b.loadErrs...)
		res.failed += b.failed
		if run != nil {
			// The listing counted them among the packages analysed.
			res.packages -= b.failed
		}
		if run == nil {
			res.describe(b.pkgs)
		}
		if len(b.pkgs) > 0 {
			// Analyzers take no context, and one package of thousands
			// of functions takes minutes: Ctrl-C returns without
			// waiting for them, leaving them the batch (whose release
			// would pull its syntax from under them) until the
			// process exits.
			done := make(chan error, 1)
			go func() { done <- res.analyzeBatch(ctx, b.pkgs, analyzers, run) }()
			select {
			case err = <-done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if err != nil {
				b.release()
				return nil, err
			}
		}
		analysed += len(b.paths)
		tell()
		b.release()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

// A memoEntry is what the findings cache (package memo) holds for a
// package.
type memoEntry struct {
	Findings   []report.Finding
	Suppressed int
	// Hot is the package's hot-path summary, from which check follows
	// hotness across packages (see hotpath.Propagate).
	Hot *hotpath.Summary
}

// A loadedBatch is a batch of packages loaded (and their compiler
// decisions kept) for analysis.
type loadedBatch struct {
	paths       []string // import paths of the batch's root packages
	roots, pkgs []*packages.Package
	loadErrs    []string
	failed      int // packages (not test variants) that failed to load
	err         error
}

// release drops what was kept for the batch.
func (b *loadedBatch) release() {
	optlog.Forget(b.paths)
	load.Release(b.roots)
}

// batchSize returns how many packages check loads and analyses at once:
// as many as let two batches (one analysed, the next loading) fit in the
// soft memory limit at perPackage bytes each, from 2 to 8. Larger batches
// share more imported packages and wait less for their slowest package;
// smaller ones hold less. On golang.org/x/tools (limit 64 MiB: 2), 2
// rather than 4 kept check's peak at 106-107 MB instead of 105-118 MB; on
// std (limit raised to 245 MiB after the compiles: 7), 4 rather than 2
// made the analysis 0.4-1 s faster.
func batchSize() int {
	limit := debug.SetMemoryLimit(-1)
	return int(min(max(limit/(2*perPackage), 2), 8))
}

// perPackage is about what a large package takes in memory while it is
// analysed: its syntax, types and compiler decisions.
const perPackage = 16 << 20

// memoryGoal is the soft memory limit check sets (unless GOMEMLIMIT or
// GOGC is set), so that the garbage collector keeps the process near it
// instead of letting the heap double between collections. The limit rises
// to 3/2 of the live heap when the live heap comes near it, so that a tree
// with huge packages (a generated table of composite literals, say) costs
// more memory rather than a garbage collector that runs all the time.
// (64 MiB and 80 MiB gave the same peak within noise on
// golang.org/x/tools, 108-112 MB and 110-115 MB: the peak is set by the
// largest packages, for which the limit rises anyway.)
const memoryGoal = 64 << 20

// A memoryBound holds the process's soft memory limit while check runs.
type memoryBound struct {
	mu     sync.Mutex
	limit  int64 // 0 if the user's GOMEMLIMIT or GOGC rule
	prev   int64
	prevGC int // the GOGC percentage before boundMemory
	stop   chan struct{}
	done   chan struct{}
}

// boundMemory sets the soft memory limit to memoryGoal, turning off the
// GOGC percentage so that the limit alone triggers collections, and
// raises it to num/den times the live heap whenever the live heap comes
// near it (90% of it). check analyses packages with num/den = 3/2, which costs
// little time; the whole-program passes, whose live heap grows steadily
// to its peak, use 5/4: on golang.org/x/tools check -whole peaked at
// 194-195 MB instead of 200-201 MB, in about the same time.
func boundMemory(num, den int64) *memoryBound {
	b := &memoryBound{stop: make(chan struct{}), done: make(chan struct{})}
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		close(b.done)
		return b
	}
	b.limit = memoryGoal
	b.prev = debug.SetMemoryLimit(b.limit)
	// The limit alone decides when to collect: with GOGC's default, a
	// collection would come each time the heap doubled, long before the
	// limit once it is raised to the compiles' peak (on nats-server, 1
	// s of CPU less in 27, and 0.3 s less on golang.org/x/tools and std,
	// for the same peak memory).
	b.prevGC = debug.SetGCPercent(-1)
	go func() {
		defer close(b.done)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				live := int64(sample[0].Value.Uint64())
				b.mu.Lock()
				if live > b.limit*9/10 {
					b.raiseLocked(live * num / den)
				}
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// atLeast raises the limit to n bytes, if it is lower.
func (b *memoryBound) atLeast(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.raiseLocked(n)
}

func (b *memoryBound) raiseLocked(n int64) {
	if b.limit != 0 && n > b.limit {
		b.limit = n
		debug.SetMemoryLimit(n)
	}
}

// restore stops raising the limit and restores the limit boundMemory
// found.
func (b *memoryBound) restore() {
	b.mu.Lock()
	bounded := b.limit != 0
	b.mu.Unlock()
	if !bounded {
		return
	}
	close(b.stop)
	<-b.done
	debug.SetMemoryLimit(b.prev)
	debug.SetGCPercent(b.prevGC)
}

// describe records what the loaded packages say about the run, when the
// findings cache could not list them.
func (res *analysisResult) describe(pkgs []*packages.Package) {
	for _, p := range pkgs {
		if p.ForTest == "" {
			res.packages++
			res.files += len(p.CompiledGoFiles)
			var mod, modDir string
			if p.Module != nil {
				mod, modDir = p.Module.Path, p.Module.Dir
			}
			n, elsewhere := res.sourceLines("", p.GoFiles, mod, modDir)
			res.addLines(p.PkgPath, n, elsewhere)
			res.roots = append(res.roots, p.PkgPath)
		}
		if len(p.GoFiles) > 0 {
			res.dirs[p.PkgPath] = dirOf(p.GoFiles[0])
		}
		if p.Module != nil && p.Module.Main && res.module == "" {
			res.module, res.moduleDir = p.Module.Path, p.Module.Dir
		}
	}
}

// analyzeBatch runs the analyzers on loaded packages, adds their findings
// to res, and stores in the findings cache those of every package that
// loaded and analysed cleanly, grouped by root package (an external test
// package counts for the package it tests), unless ctx was cancelled.
func (res *analysisResult) analyzeBatch(ctx context.Context, pkgs []*packages.Package, analyzers []*analysis.Analyzer, run *memo.Run) error {
	// The directive, hotpath and kind analyzers are roots too, so that
	// their results (the suppression counts, the hot-path summaries, the
	// findings' fields) are kept.
	graph, err := checker.Analyze(append(analyzers, directive.Analyzer, hotpath.Analyzer, kind.Analyzer), pkgs, nil)
	if err != nil {
		return err
	}
	fresh, toolErrs := collect(graph, res.gen)
	res.toolErrs = append(res.toolErrs, toolErrs...)
	suppressedBy := make(map[string]int)
	failed := make(map[string]bool) // root import path -> an analyzer failed
	for _, act := range graph.Roots {
		root := rootPath(act.Package)
		if act.Err != nil {
			failed[root] = true
		}
		if r, ok := act.Result.(*directive.Result); ok {
			suppressedBy[root] += r.Suppressed()
		}
	}
	for _, n := range suppressedBy {
		res.suppressed += n
	}
	res.findings = append(res.findings, fresh...)
	hot := make(map[string]*hotpath.Summary)
	for _, act := range graph.Roots {
		if act.Analyzer != hotpath.Analyzer || act.Package.ForTest != "" || act.Err != nil {
			continue
		}
		if r, ok := act.Result.(*hotpath.Result); ok {
			s := r.Summary()
			hot[act.Package.PkgPath] = s
			res.hot = append(res.hot, s)
		}
	}
	if run == nil || ctx.Err() != nil {
		// An interrupted run's findings may lack those of compiles
		// that were stopped: they are not kept.
		return nil
	}
	byRoot := make(map[string][]report.Finding)
	for _, f := range fresh {
		root := strings.TrimSuffix(f.Package, "_test")
		byRoot[root] = append(byRoot[root], f)
	}
	loaded := make(map[string]bool)
	for _, p := range pkgs {
		loaded[rootPath(p)] = true
	}
	for _, p := range run.Roots {
		if loaded[p.ImportPath] && !failed[p.ImportPath] {
			memo.Put(p.Key(), &memoEntry{Findings: byRoot[p.ImportPath], Suppressed: suppressedBy[p.ImportPath], Hot: hot[p.ImportPath]})
		}
	}
	return nil
}

// rootPath returns the import path of the package a loaded package belongs
// to: "p" for p, its test variant "p [p.test]", and its external test
// package "p_test [p.test]".
func rootPath(p *packages.Package) string {
	if p.ForTest != "" {
		return p.ForTest
	}
	return p.PkgPath
}

func dirOf(file string) string {
	i := strings.LastIndexAny(file, `/\`)
	if i < 0 {
		return "."
	}
	return file[:i]
}

// listForMemo lists the packages (with their dependencies) and keys them
// for the findings cache, and returns the listing for the compiler's
// decisions. The salt covers what besides the packages decides the
// findings: this executable, the analyzers and every flag value, and the
// content of profiles given to them. It returns no run (no caching) where
// findings cannot be keyed: a profile fetched from a URL, or files named on
// the command line.
func listForMemo(ctx context.Context, cfg *Config) (*memo.Run, *load.Listing, error) {
	if os.Getenv("GOADVISE_NOCACHE") != "" {
		return nil, nil, nil
	}
	for _, p := range cfg.Patterns {
		if strings.HasSuffix(p, ".go") {
			return nil, nil, nil
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "exe %s\n", executable(cfg.Version))
	fmt.Fprintf(h, "go %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	names := make([]string, 0, len(cfg.Analyzers))
	for _, a := range cfg.Analyzers {
		names = append(names, a.Name)
	}
	fmt.Fprintf(h, "analyzers %s\n", strings.Join(names, ","))
	var flags []string
	for _, a := range append(suite.Analyzers(), suite.Helpers()...) {
		a.Flags.VisitAll(func(f *flag.Flag) {
			flags = append(flags, a.Name+"."+f.Name+"="+f.Value.String())
		})
	}
	sort.Strings(flags)
	fmt.Fprintf(h, "flags %s\n", strings.Join(flags, " "))
	for _, src := range append(slices.Clone(cfg.Profiles), cfg.Heap...) {
		if strings.Contains(src, "://") {
			return nil, nil, nil // live data: never cached
		}
		names, err := pgo.Expand([]string{src})
		if err != nil {
			return nil, nil, err
		}
		for _, name := range names {
			f, err := os.Open(name)
			if err != nil {
				return nil, nil, err
			}
			fh := sha256.New()
			_, err = io.Copy(fh, f)
			f.Close()
			if err != nil {
				return nil, nil, err
			}
			fmt.Fprintf(h, "profile %x\n", fh.Sum(nil))
		}
	}
	if cfg.measured {
		// The profiles are the module's own benchmarks: a partial one.
		fmt.Fprintf(h, "partial\n")
	}
	listing := cfg.listing
	if listing == nil {
		var err error
		listing, err = load.Packages(ctx, load.ListOptions{Dir: cfg.Dir, Deps: true, Tests: cfg.Tests}, cfg.Patterns...)
		if err != nil {
			return nil, nil, err
		}
	}
	run, err := memo.List(ctx, memo.Options{Dir: cfg.Dir, Patterns: cfg.Patterns, Tests: cfg.Tests, Salt: hex.EncodeToString(h.Sum(nil)), Listing: listing})
	if err != nil {
		return nil, nil, err
	}
	for _, p := range run.Roots {
		if p.ImportPath == "command-line-arguments" {
			return nil, nil, nil
		}
	}
	return run, listing, nil
}

// executable identifies this executable for the caches: its name, size,
// modification time and version.
func executable(version string) string {
	return cache.Executable() + " " + version
}

// loadPackages loads the packages matching patterns with go/packages
// (load.Source). Packages with errors are reported (one line each, naming
// the package) and left out; the error result is for failures that stop
// the whole run.
func loadPackages(dir string, patterns []string, tests bool, analyzers []*analysis.Analyzer, buildFlags []string) ([]*packages.Package, []string, int, error) {
	cfg := load.SourceConfig{Dir: dir, Tests: tests, Deps: needFacts(analyzers), BuildFlags: buildFlags}
	pkgs, err := load.Source(context.Background(), cfg, patterns...)
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
			msg := packageErrors(p.Errors)
			listed := slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind == packages.ListError })
			if deps := depErrors(p); deps != "" && !listed {
				// go list gave no reason for the package itself
				// (go/packages, with -tests), and the type
				// checker's "could not import" says less than
				// go list's reasons for its imports.
				own := slices.DeleteFunc(slices.Clone(p.Errors), func(e packages.Error) bool {
					return e.Kind == packages.TypeError && strings.Contains(e.Msg, "could not import")
				})
				msg = deps
				if len(own) > 0 {
					msg += "; " + packageErrors(own)
				}
			}
			errs = append(errs, fmt.Sprintf("package %s: %s", p.ID, msg))
			if p.ForTest == "" {
				failed++
			}
			continue
		}
		ok = append(ok, p)
	}
	return ok, errs, failed
}

// depErrors says why p's direct imports do not load, if go list says so
// (a module missing, or replaced by a directory that is not there), each
// reason once: p's own errors are then the type checker's "could not
// import", which do not say why.
func depErrors(p *packages.Package) string {
	paths := slices.Sorted(maps.Keys(p.Imports))
	var msgs []string
	seen := make(map[string]bool)
	for _, path := range paths {
		for _, e := range p.Imports[path].Errors {
			if e.Kind == packages.ListError && !seen[e.Msg] {
				seen[e.Msg] = true
				msgs = append(msgs, "imports "+path+": "+e.Msg)
			}
		}
	}
	return strings.Join(msgs, "; ")
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

// escapeOff reports whether -escape.off was given.
func escapeOff() bool {
	f := escape.Analyzer.Flags.Lookup("off")
	return f != nil && f.Value.String() == "true"
}

// addLines records that the package at path has n lines.
func (res *analysisResult) addLines(path string, n, elsewhere int) {
	if res.pkgLines == nil {
		res.pkgLines = make(map[string]int)
		res.pkgElsewhere = make(map[string]int)
	}
	res.lines += n
	res.pkgLines[path] += n
	res.pkgElsewhere[path] += elsewhere
}

// sourceLines returns the number of lines of the Go files named (relative
// to dir, or absolute), generated ones included: goadvise check analyses
// them as the rest; and, of those, the lines of files generated by
// another project's tool (generated.OwnTool, for the module at path
// module in directory moduleDir; remembered in res.gen for the findings).
// A file that cannot be read counts for nothing.
func (res *analysisResult) sourceLines(dir string, names []string, module, moduleDir string) (n, elsewhere int) {
	for _, name := range names {
		if dir != "" && !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		lines := bytes.Count(src, []byte("\n"))
		n += lines
		if res.gen.of(name, src, module, moduleDir).elsewhere {
			elsewhere += lines
		}
	}
	return n, elsewhere
}
