package optlog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/internal/gocmd"
	"github.com/goadvise/goadvise/load"
)

// LoadOptions says which packages [Preload] collects.
type LoadOptions struct {
	Dir      string   // directory in which to run the go command ("" for the current one)
	Patterns []string // package patterns, as for go build
	Tests    bool     // also collect the test variants of the packages
	Env      []string // environment of the go command (nil for os.Environ())

	// ListFlags and ListFields, if ListFields is set, make the build of
	// Warm also list the packages for the driver, so that it need not run
	// go list again: the build's go list runs with these flags (such as
	// -deps and -compiled) and prints these -json fields too, over every
	// package Patterns match, and [Warmed.Listing] returns its output.
	ListFlags  []string
	ListFields string

	// Listing, if set, is the go list -deps listing of Patterns (from
	// [load.Packages]), so that the packages are not listed again.
	Listing *load.Listing
}

// PackageResult is the outcome of collecting one package.
type PackageResult struct {
	ImportPath string   // package path ("p", or "p_test" for an external test package)
	Test       bool     // the test variant (the package compiled with its _test.go files)
	Files      []string // absolute names of the Go files compiled
	Records    []Record // sorted by position; TokPos is not set
	Err        string   // why the package has no records (compile error, skipped), or ""
	Cached     bool     // the records came from goadvise's cache

	key string // cache key
}

// table holds the results of Preload and of earlier fallback runs, keyed
// by tableKey.
var table = struct {
	sync.Mutex
	m map[string]*PackageResult
}{m: make(map[string]*PackageResult)}

func tableKey(importPath string, test bool) string {
	if test {
		return importPath + " [test]"
	}
	return importPath
}

func store(results []*PackageResult) {
	table.Lock()
	defer table.Unlock()
	for _, r := range results {
		table.m[tableKey(r.ImportPath, r.Test)] = r
	}
}

// Forget drops what Preload stored for the packages with the given import
// paths, their test variants and external test packages, so that a driver
// analysing packages in batches holds the decisions of one batch at a time.
func Forget(importPaths []string) {
	table.Lock()
	defer table.Unlock()
	for _, p := range importPaths {
		for _, path := range []string{p, p + "_test"} {
			delete(table.m, tableKey(path, false))
			delete(table.m, tableKey(path, true))
		}
	}
}

func lookup(importPath string, test bool) *PackageResult {
	table.Lock()
	defer table.Unlock()
	return table.m[tableKey(importPath, test)]
}

// Preload collects the compiler's decisions for the packages matched by
// opts, with one go build (plus one go test -c if opts.Tests) for all
// packages not in the cache, and keeps them for the Analyzer. A package that
// does not compile gets its compile error as its result; Preload fails only
// if the packages cannot be listed or the go command cannot run.
func Preload(ctx context.Context, opts LoadOptions) error {
	res, err := Collect(ctx, opts)
	if err != nil {
		return err
	}
	store(res)
	return nil
}

// Collect is like Preload but returns the results instead of keeping them.
func Collect(ctx context.Context, opts LoadOptions) ([]*PackageResult, error) {
	collects.Add(1)
	c := &collector{opts: opts}
	return c.run(ctx)
}

// collects counts the calls of Collect, for tests.
var collects atomic.Int64

// Warm compiles, in one build, the packages matched by opts whose
// decisions are not cached yet, and caches them without keeping them:
// memory holds one package's records at a time. A driver that then loads
// the packages in batches (Preload per batch) gets them from the cache,
// and the compiles still run with the go command's full parallelism.
//
// A driver that also needs the packages compiled (go/packages loading
// types from export data) passes [Warmed.BuildFlags] to its go command, so
// that it reuses Warm's compiles instead of compiling everything again,
// and calls [Warmed.Close] when done.
func Warm(ctx context.Context, opts LoadOptions) (*Warmed, error) {
	c := &collector{opts: opts, cacheOnly: true, deferParse: true}
	res, err := c.run(ctx)
	if err != nil {
		c.removeLogDir()
		return nil, err
	}
	// The logs are parsed while the driver goes on (it lists and loads
	// the packages meanwhile); Load, Err and Close wait for them.
	w := &Warmed{results: res, logDir: c.logDir, flags: c.flags, flagOf: c.flagOf, depsOf: c.depsOf, peak: c.peak, listing: c.listing,
		goarch: c.env.GOARCH, parsed: make(chan struct{}), ctx: ctx}
	go func() {
		defer close(w.parsed)
		w.err = c.parseLogs(c.pending)
	}()
	openWarm.Store(w)
	return w, nil
}

// openWarm is the Warmed of the run, until it is closed. The compiles of
// edited packages (CompileEdited) give its BuildFlags to the go command so
// that it reuses Warm's compiles of their dependencies rather than compile
// those again with its default flags (which, in a module whose files all
// changed, are not in the build cache: on nats-server, inlinebudget's
// compile of its server package compiled four of its packages again), and
// PackageRecords reads its decisions. The compiles of both stop with the
// run that opened it (see withRun).
var openWarm atomic.Pointer[Warmed]

// withRun returns ctx, cancelled also when the context of the run of the
// open Warm is: analyzers take no context, and their compiles for the run
// (inlinebudget's) must stop when the run is interrupted.
func withRun(ctx context.Context) (context.Context, context.CancelFunc) {
	w := openWarm.Load()
	if w == nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(w.ctx, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// PackageRecords returns the decisions for the packages (not their test
// variants) with the given import paths, by import path, for an analyzer
// that wants those of packages other than its pass's (inlinebudget, the
// inlining costs of callees). If the run's build (an open [Warm]) compiled
// a package, its decisions are read from the cache, with no go command:
// on std that saved three go list runs of about 0.7 s each, one after the
// other. The others are collected together from dir, in one build (the
// cache applies): on nats-server, looking up fmt's and then errors' took
// 0.6 and 0.2 s, one after the other. A package whose decisions cannot
// be had is left out of the map, and the error names the first.
func PackageRecords(ctx context.Context, dir string, importPaths []string) (map[string][]Record, error) {
	ctx, cancel := withRun(ctx)
	defer cancel()
	out := make(map[string][]Record, len(importPaths))
	var rest []string
	if w := openWarm.Load(); w != nil {
		for _, p := range importPaths {
			if recs, err := w.Records(p); err == nil {
				out[p] = recs
			} else {
				rest = append(rest, p)
			}
		}
	} else {
		rest = importPaths
	}
	if len(rest) == 0 {
		return out, nil
	}
	res, err := Collect(ctx, LoadOptions{Dir: dir, Patterns: rest})
	if err != nil {
		return out, err
	}
	var first error
	for _, p := range rest {
		i := slices.IndexFunc(res, func(pr *PackageResult) bool { return pr.ImportPath == p && !pr.Test })
		switch {
		case i < 0:
			err = fmt.Errorf("no compiler decisions for %s", p)
		case res[i].Err != "":
			err = fmt.Errorf("%s: %s", p, res[i].Err)
		default:
			out[p] = res[i].Records
			continue
		}
		if first == nil {
			first = err
		}
	}
	return out, first
}

// Warmed is what Warm listed and compiled.
type Warmed struct {
	results []*PackageResult // without records; key set
	logDir  string           // the compiler log directory named in flags
	flags   []string
	flagOf  map[string]string   // import path -> its flag in flags
	depsOf  map[string][]string // import path -> its dependencies, as listed
	peak    int64               // see CompilePeak
	listing []byte              // see Listing
	goarch  string
	parsed  chan struct{}   // closed when the logs are parsed
	err     error           // from parsing, once parsed is closed
	ctx     context.Context // the run's, for the compiles of the analyzers (see withRun)
}

// BuildFlags returns the flags with which Warm compiled the packages: a go
// command given them reuses those compiles from the build cache (the
// compiler's flags are part of each compile's cache key). The flags name
// a log directory that exists until Close.
func (w *Warmed) BuildFlags() []string { return w.flags }

// FlagsFor is like BuildFlags for a go command that loads only the
// packages with the given import paths, their test variants and their
// dependencies: it returns the flags of those packages only, or all of
// them if one of the packages was not listed. Each flag costs the go
// command time for each package it loads: given all of std's 362, go list
// -export of net/http, with nothing to compile, took 0.71 s instead of
// 0.08 s.
func (w *Warmed) FlagsFor(importPaths []string) []string {
	var need []string
	for _, p := range importPaths {
		if _, ok := w.depsOf[p]; !ok {
			return w.flags
		}
		need = append(need, p)
		for _, v := range []string{p, p + " [" + p + ".test]", p + "_test [" + p + ".test]"} {
			need = append(need, w.depsOf[v]...)
		}
	}
	return w.flagsOf(need)
}

// flagsOf returns the flags of the packages, in the order of BuildFlags.
func (w *Warmed) flagsOf(importPaths []string) []string {
	want := make(map[string]bool)
	for _, p := range importPaths {
		// A package recompiled for a test ("q [p.test]") has q's flag.
		p, _, _ = strings.Cut(p, " [")
		if f, ok := w.flagOf[p]; ok {
			want[f] = true
		}
	}
	var flags []string
	for _, f := range w.flags {
		if want[f] {
			flags = append(flags, f)
		}
	}
	return flags
}

// CompilePeak returns the peak resident set size, in bytes, of the
// largest process of Warm's build (in practice its largest compile), or 0
// if it is not known or nothing was compiled. A driver that holds its own
// memory below that figure does not raise the peak of the whole run.
func (w *Warmed) CompilePeak() int64 { return w.peak }

// Listing returns the output of the build's go list, if Warm listed the
// packages for the driver (see [LoadOptions.ListFields]), and the target
// architecture. It returns nil if Warm did not: when it had nothing to
// compile, or when a main package has a default.pgo (its dependencies are
// compiled, and listed, once per profile). A nil Warmed has no listing.
func (w *Warmed) Listing() (out []byte, goarch string) {
	if w == nil {
		return nil, ""
	}
	return w.listing, w.goarch
}

// Err waits until the compiler's logs are parsed, and reports why they
// could not be (a log format this version of goadvise does not know), or
// until the context given to Warm is done, and returns its error.
func (w *Warmed) Err() error {
	select {
	case <-w.parsed:
		return w.err
	case <-w.ctx.Done():
		return w.ctx.Err()
	}
}

// Close removes the compiler log directory of Warm's compiles. Once the
// context given to Warm is done it does not wait for the logs to be
// parsed (the logs of one huge package take seconds): the directory is
// removed when they are, if the process lives that long.
func (w *Warmed) Close() error {
	openWarm.CompareAndSwap(w, nil)
	select {
	case <-w.parsed:
	case <-w.ctx.Done():
		go func() {
			<-w.parsed
			os.RemoveAll(w.logDir)
		}()
		return nil
	}
	if w.logDir == "" {
		return nil
	}
	err := os.RemoveAll(w.logDir)
	w.logDir = ""
	return err
}

// Load keeps for the Analyzer, as Preload does, the decisions of the
// packages with the given import paths (with their test variants and
// external test packages), reading them from the cache: no go command runs.
func (w *Warmed) Load(importPaths []string) {
	want := make(map[string]bool)
	for _, p := range importPaths {
		want[p], want[p+"_test"] = true, true
	}
	w.load(func(path string) bool { return want[path] })
}

// LoadAll is like Load for every package Warm listed.
func (w *Warmed) LoadAll() { w.load(func(string) bool { return true }) }

func (w *Warmed) load(want func(path string) bool) {
	<-w.parsed
	var out []*PackageResult
	for _, r := range w.results {
		if !want(r.ImportPath) {
			continue
		}
		c := *r
		if c.Err == "" && w.err != nil {
			c.Err = w.err.Error()
		}
		if c.Err == "" && c.Records == nil {
			if recs, ok := cacheGet(r.key); ok {
				c.Records, c.Cached = recs, true
			} else {
				c.Err = "compiler decisions missing from the cache (removed during the run?)"
			}
		}
		out = append(out, &c)
	}
	store(out)
}

// Records returns the decisions for the package (not its test variant)
// with the given import path, reading them from the cache as Load does,
// or why there are none. Unlike Load it keeps nothing: a driver that
// needs the decisions of many packages, a few at a time (the
// whole-program passes), holds only those it uses.
func (w *Warmed) Records(importPath string) ([]Record, error) {
	<-w.parsed
	for _, r := range w.results {
		if r.ImportPath != importPath || r.Test {
			continue
		}
		switch {
		case r.Err != "":
			return nil, errors.New(r.Err)
		case w.err != nil:
			return nil, w.err
		case r.Records != nil:
			return r.Records, nil
		}
		if recs, ok := cacheGet(r.key); ok {
			return recs, nil
		}
		return nil, errors.New("compiler decisions missing from the cache (removed during the run?)")
	}
	return nil, fmt.Errorf("no compiler decisions for %s", importPath)
}

// listedPackage is a package as go list describes it.
type listedPackage = load.Package

type collector struct {
	opts      LoadOptions
	cacheOnly bool // Warm: cache the records, do not return them
	// deferParse leaves the logs of the plain build to parse later: the
	// targets are in pending.
	deferParse bool
	pending    []*target
	logDir     string              // where the compiler writes its log ("" until a build)
	logSubs    map[string]string   // import path -> its log directory's name in logDir
	ctx        context.Context     // of the run, for the go commands of parseLogs
	flags      []string            // the -gcflags of the builds
	flagOf     map[string]string   // import path -> its flag in flags
	depsOf     map[string][]string // import path -> its dependencies, as listed
	env        goEnv
	deps       *load.Keys
	peak       int64  // the largest peak RSS of the builds, in bytes
	pgo        bool   // a main package has a default.pgo
	listing    []byte // go list's output, if the build listed for the driver

	compiledOnce sync.Once
	compiled     map[string][]string // CompiledGoFiles in listing, by import path (see compiledGoFiles)
}

// goEnv is the part of the go command's environment that determines the
// compiler's decisions.
type goEnv struct {
	GOVERSION, GOOS, GOARCH, GOFLAGS, GOEXPERIMENT, CGO_ENABLED string
	GOAMD64, GOARM64, GOARM, GO386, GOMIPS, GOPPC64, GORISCV64  string
	GOMODCACHE, GOROOT, GOTOOLDIR                               string
}

func (c *collector) goCmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	// Interrupted, the go command removes its work directory; killed, it
	// would leave it behind.
	gocmd.InterruptOnCancel(cmd)
	cmd.Dir = c.opts.Dir
	if c.opts.Env != nil {
		cmd.Env = c.opts.Env
	}
	return cmd
}

func (c *collector) run(ctx context.Context) ([]*PackageResult, error) {
	c.ctx = ctx
	// go env and go list are independent: run them at once, as both
	// are a good part of a warm run.
	envErr := make(chan error, 1)
	go func() { envErr <- c.loadEnv(ctx) }()
	pkgs, err := c.listPackages(ctx)
	if eerr := <-envErr; eerr != nil {
		return nil, eerr
	}
	if err != nil {
		return nil, err
	}
	targets := c.targets(pkgs)

	var results []*PackageResult
	var plain, tests []*target
	for _, t := range targets {
		res := &PackageResult{ImportPath: t.importPath, Test: t.test, Files: t.files, key: t.key}
		t.res = res
		results = append(results, res)
		if t.skip != "" {
			res.Err = t.skip
			continue
		}
		if c.cacheOnly && cacheHas(t.key) {
			res.Cached = true
			continue
		}
		if recs, ok := cacheGet(t.key); ok {
			res.Records, res.Cached = recs, true
			continue
		}
		if t.test {
			tests = append(tests, t)
		} else {
			plain = append(plain, t)
		}
	}
	if !c.cacheOnly {
		defer c.removeLogDir()
	}
	if err := c.build(ctx, plain, false); err != nil {
		return nil, err
	}
	if err := c.build(ctx, tests, true); err != nil {
		return nil, err
	}
	return results, nil
}

func (c *collector) removeLogDir() {
	if c.logDir != "" {
		os.RemoveAll(c.logDir)
	}
}

func (c *collector) loadEnv(ctx context.Context) error {
	e, err := load.ReadEnv(ctx, c.opts.Dir, c.opts.Env)
	if err != nil {
		return err
	}
	c.env = goEnv{
		GOVERSION: e.GOVERSION, GOOS: e.GOOS, GOARCH: e.GOARCH, GOFLAGS: e.GOFLAGS, GOEXPERIMENT: e.GOEXPERIMENT, CGO_ENABLED: e.CGO_ENABLED,
		GOAMD64: e.GOAMD64, GOARM64: e.GOARM64, GOARM: e.GOARM, GO386: e.GO386, GOMIPS: e.GOMIPS, GOPPC64: e.GOPPC64, GORISCV64: e.GORISCV64,
		GOMODCACHE: e.GOMODCACHE, GOROOT: e.GOROOT, GOTOOLDIR: e.GOTOOLDIR,
	}
	return nil
}

// target is one package to collect.
type target struct {
	importPath string // without the " [p.test]" suffix
	test       bool
	forTest    string // for a test variant, the package whose test it belongs to
	dir        string
	files      []string
	cgo        bool            // the package has cgo files
	std        bool            // the package is in the standard library
	logDirs    []string        // where its compile may have logged, set by build
	renamed    map[string]bool // the files the build renamed (see renameFlag), set by build
	frontEnd   bool            // compiled by the front-end copy of the compiler after the build (see frontEndTargets)
	key        string
	skip       string // why the package is skipped, or ""
	res        *PackageResult
}

// listPackages lists the patterns with their dependencies, unless
// opts.Listing holds that listing already.
func (c *collector) listPackages(ctx context.Context) ([]*listedPackage, error) {
	l := c.opts.Listing
	if l == nil {
		var err error
		l, err = load.Packages(ctx, load.ListOptions{Dir: c.opts.Dir, Env: c.opts.Env, Deps: true, Tests: c.opts.Tests}, c.opts.Patterns...)
		if err != nil {
			return nil, err
		}
	}
	c.deps = l.Keys
	c.depsOf = make(map[string][]string, len(l.Packages))
	for _, p := range l.Packages {
		c.depsOf[p.ImportPath] = p.Deps
	}
	if c.opts.Tests || !l.Tests {
		return l.Packages, nil
	}
	// A listing with the test variants, when they are not collected.
	var order []*listedPackage
	for _, p := range l.Packages {
		if p.ForTest == "" && !(p.Name == "main" && strings.HasSuffix(p.ImportPath, ".test")) {
			order = append(order, p)
		}
	}
	return order, nil
}

// targets selects the packages to collect and computes their cache keys.
func (c *collector) targets(order []*listedPackage) []*target {
	global := c.globalKey(order)
	var targets []*target
	for _, p := range order {
		if p.DepOnly || strings.HasSuffix(p.ImportPath, ".test") {
			continue
		}
		path, isTest := p.ImportPath, false
		if p.ForTest != "" {
			path, _, _ = strings.Cut(p.ImportPath, " ")
			isTest = true
		} else if c.opts.Tests && strings.HasSuffix(p.ImportPath, "_test") {
			continue // an external test package without its variant suffix: not built
		}
		t := &target{importPath: path, test: isTest, forTest: p.ForTest, dir: p.Dir, std: p.Standard}
		for _, f := range p.GoFiles {
			t.files = append(t.files, filepath.Join(p.Dir, f))
		}
		for _, f := range p.CgoFiles {
			t.files = append(t.files, filepath.Join(p.Dir, f))
			t.cgo = true
		}
		sort.Strings(t.files)
		switch {
		case p.Error != nil:
			t.skip = "does not load: " + strings.TrimSpace(p.Error.Err)
		case len(t.files) == 0:
			t.skip = "no Go files to compile"
		}
		if t.skip == "" {
			t.key = c.packageKey(global, p)
		}
		targets = append(targets, t)
	}
	return targets
}

// globalKey hashes what determines every package's result besides its own
// content: the cache format, goadvise's executable (which parses the log),
// the toolchain, the target platform, flags and experiments, and any PGO
// profile.
func (c *collector) globalKey(pkgs []*listedPackage) string {
	h := sha256.New()
	fmt.Fprintf(h, "goadvise-escape-cache-v2\n%+v\nexe %s\n", c.env, cache.Executable())
	for _, p := range pkgs {
		if p.Name == "main" && !p.DepOnly {
			if data, err := os.ReadFile(filepath.Join(p.Dir, "default.pgo")); err == nil {
				fmt.Fprintf(h, "pgo %s %x\n", p.ImportPath, sha256.Sum256(data))
				c.pgo = true
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// packageKey is the package's key in the cache (see [load.Keys.Key]):
// through inlining, a change in a dependency can change the compiler's
// decisions in the package, and records hold absolute file names, so a
// copy of the same package elsewhere must not reuse them.
func (c *collector) packageKey(global string, p *listedPackage) string {
	return c.deps.Key(global, p, false)
}

// build compiles the targets with the optimization log enabled, parses the
// log of each, and caches the results. Packages that fail to compile get
// the compiler's errors.
//
// Plain packages are compiled by go list -export, which compiles them
// (for their export data) but links nothing: go build would also link
// every main package, which costs about as much CPU as the compiles and
// adds nothing to the log. Test variants need go test -c.
func (c *collector) build(ctx context.Context, targets []*target, tests bool) error {
	if len(targets) == 0 {
		return nil
	}
	// Both builds of a run log to one directory, so that the -gcflags of
	// a package are the same in both (see BuildFlags). The test build
	// rewrites the logs of the packages it compiles again, and those of
	// the plain build are parsed already: clear them first.
	if len(c.pending) > 0 {
		// The test build is about to clear the plain build's logs.
		pending := c.pending
		c.pending = nil
		if err := c.parseLogs(pending); err != nil {
			return err
		}
	}
	if c.logDir == "" {
		dir, err := os.MkdirTemp("", "goadvise-escape-")
		if err != nil {
			return fmt.Errorf("creating compiler log directory: %w", err)
		}
		c.logDir = dir
	} else if err := clearDir(c.logDir); err != nil {
		return fmt.Errorf("clearing compiler log directory: %w", err)
	}
	logDir := c.logDir

	args := []string{"list", "-e", "-export", "-buildvcs=false"}
	fields := "ImportPath,Error,DepsErrors" // for listErrors
	listing := !tests && c.opts.ListFields != "" && !c.pgo
	if listing {
		args = append(args, c.opts.ListFlags...)
		fields += "," + c.opts.ListFields
	}
	args = append(args, "-json="+fields)
	if tests {
		args = []string{"test", "-c", "-o", filepath.Join(logDir, "bin") + string(filepath.Separator)}
	}
	var compiler string
	if listing {
		compiler = c.frontEndTargets(ctx, targets)
	}
	seen := make(map[string]bool)
	var paths []string
	for _, t := range targets {
		if t.frontEnd {
			continue // compiled as go build would, for its export data
		}
		// Each package's log goes to the log directory. The test variant
		// of p and the external test package p_test are both built by
		// "go test -c p".
		t.renamed = c.renames(t)
		if !seen[t.importPath] {
			seen[t.importPath] = true
			// The log directory is fresh, so the flag changes the compile
			// action and the go command cannot reuse a cached compile
			// (which would write no log). Each package logs to a
			// directory of its own: the compiler names the log's
			// subdirectory after the package path it is given, which
			// is "main" for every main package.
			flag := "-gcflags=" + t.importPath + "=" + gocmd.Quote("-json=0,"+c.pkgLogDir(t.importPath)) + c.compileFlags(t) + renameFlag(t)
			args = append(args, flag)
			if !slices.Contains(c.flags, flag) {
				c.flags = append(c.flags, flag)
			}
			if c.flagOf == nil {
				c.flagOf = make(map[string]string)
			}
			c.flagOf[t.importPath] = flag
		}
		path := t.importPath
		t.logDirs = []string{c.pkgLogDir(t.importPath)}
		if tests && t.forTest != "" {
			path = t.forTest
			// go test -c gives the flags of a package to its test
			// packages too.
			t.logDirs = append(t.logDirs, c.pkgLogDir(t.forTest))
		}
		if !seen["build "+path] {
			seen["build "+path] = true
			paths = append(paths, path)
		}
	}
	if !tests {
		// go test does not accept "--" before its packages; package
		// paths never start with "-", so it is only a precaution.
		args = append(args, "--")
	}
	if listing {
		// The driver wants every package listed; those whose
		// decisions are cached compile as they would for it.
		paths = c.opts.Patterns
	}
	args = append(args, paths...)
	cmd := c.goCmd(ctx, args...)
	if limit := compileMemoryLimit(targets); limit != "" && c.tuneGC() && !c.envSet("GOMEMLIMIT") {
		cmd.Env = append(cmd.Environ(), "GOMEMLIMIT="+limit)
	}
	// go test -c prints compile errors to its output; go list -e -json
	// puts them in the JSON, and its stderr says what else went wrong.
	var out, stderr bytes.Buffer
	diag := &out
	cmd.Stdout = &out
	cmd.Stderr = &out
	if !tests {
		cmd.Stderr = &stderr
		diag = &stderr
	}
	runErr := gocmd.Run(cmd)
	if cmd.ProcessState != nil {
		c.peak = max(c.peak, gocmd.PeakRSS(cmd.ProcessState))
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var failed map[string]string
	if tests {
		failed = buildErrors(out.String())
	} else {
		var err error
		failed, err = listErrors(bytes.NewReader(out.Bytes()))
		if err != nil {
			return fmt.Errorf("go list -export: %v", err)
		}
	}
	if runErr != nil && len(failed) == 0 {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return fmt.Errorf("go %s: %v", args[0], runErr)
		}
		// The go command failed without naming a package: give its
		// output to every target rather than fail them silently.
		msg := restoreNames(strings.TrimSpace(diag.String()), targets)
		for _, t := range targets {
			t.res.Err = "go " + args[0] + " failed: " + msg
		}
		return nil // and no listing: the driver's go list will say why
	}
	if listing {
		c.listing = out.Bytes()
		if bytes.IndexByte(c.listing, renameMark) >= 0 {
			// Compile errors name the files by their new names.
			c.listing = []byte(restoreNames(string(c.listing), targets))
		}
	}
	var parse, frontEnd []*target
	for _, t := range targets {
		if msg, ok := failed[t.importPath]; ok {
			t.res.Err = "does not compile: " + restoreNames(msg, targets)
			continue
		}
		if msg, ok := failed[t.importPath+" [test]"]; ok && t.test {
			t.res.Err = "does not compile: " + restoreNames(msg, targets)
			continue
		}
		if t.frontEnd {
			frontEnd = append(frontEnd, t)
			continue
		}
		if runErr != nil && !slices.ContainsFunc(t.logDirs, hasLog) {
			// The go command failed and wrote no log for the package:
			// say so rather than report a package without decisions.
			t.res.Err = "go " + args[0] + " failed: " + restoreNames(firstLines(diag.String(), 10), targets)
			continue
		}
		parse = append(parse, t)
	}
	if len(frontEnd) > 0 {
		compiled, err := c.compileFrontEnd(ctx, frontEnd, targets, compiler)
		if err != nil {
			return err
		}
		parse = append(parse, compiled...)
	}
	if c.deferParse && !tests {
		c.pending = parse
		return nil
	}
	return c.parseLogs(parse)
}

// frontEndTargets marks the targets whose decisions goadvise's copy of
// the compiler that stops after escape analysis (package frontend) gives
// after the build, and returns the copy's path ("" if none).
//
// The build compiles a package with the log, whatever the go command's
// build cache holds, since the log is written only by a compile; but the
// packages of the standard library are usually compiled there already,
// by the user's builds. Those go list does not call stale, without cgo
// (whose generated files a compile from source lacks) and with no
// dependency the build compiles with the log (which would change the
// export data they were compiled against, and compile them again), are
// compiled by the build as go build would, found in the cache, and then
// by the copy for the log alone: on std that is 331 of 362 packages, at a
// quarter of a compile's cost or less each.
//
// Only a build of the driver's listing, which has every package's
// export data, without a PGO profile and without GOFLAGS that give the
// compiler flags of their own, uses it; GOADVISE_FRONTEND=off turns it
// off.
func (c *collector) frontEndTargets(ctx context.Context, targets []*target) string {
	if c.pgo || c.env.GOTOOLDIR == "" || os.Getenv("GOADVISE_FRONTEND") == "off" {
		return ""
	}
	// Flags that make the go command give the compiler flags of its own
	// (instrumentation, a profile, the user's -gcflags), which the copy
	// would not get.
	for _, f := range []string{"-race", "-msan", "-asan", "-cover", "-gcflags", "-pgo"} {
		if strings.Contains(c.env.GOFLAGS, f) {
			return ""
		}
	}
	var paths []string
	for _, t := range targets {
		if t.std && !t.cgo && !t.test && t.skip == "" {
			paths = append(paths, t.importPath)
		}
	}
	if len(paths) == 0 {
		return ""
	}
	compiler := frontEndIn(ctx, c.env.GOTOOLDIR)
	if compiler == "" {
		return ""
	}
	stale, err := load.Stale(ctx, load.ListOptions{Dir: c.opts.Dir, Env: c.opts.Env}, paths...)
	if err != nil {
		return "" // the build's go list will say what is wrong
	}
	eligible := make(map[string]bool)
	for _, p := range paths {
		eligible[p] = !stale[p]
	}
	logged := make(map[string]bool)
	for _, t := range targets {
		if t.skip == "" && !eligible[t.importPath] {
			logged[t.importPath] = true
		}
	}
	marked := false
	for _, t := range targets {
		if !eligible[t.importPath] {
			continue
		}
		if slices.ContainsFunc(c.depsOf[t.importPath], func(d string) bool { return logged[d] }) {
			continue // Deps is transitive: one pass is enough
		}
		t.frontEnd, marked = true, true
	}
	if !marked {
		return ""
	}
	return compiler
}

// compileFrontEnd compiles the targets with the front-end copy of the
// compiler, against the export data of the build's listing, on all
// cores, each with the flags and log directory the build would have
// given it, and returns those that compiled, whose logs parseLogs reads
// as it reads the build's. all are the build's targets.
func (c *collector) compileFrontEnd(ctx context.Context, targets, all []*target, compiler string) ([]*target, error) {
	byPath := make(map[string]*listed)
	exports := make(map[string]string)
	dec := json.NewDecoder(bytes.NewReader(c.listing))
	for {
		p := new(listed)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list -export output: %w", err)
		}
		byPath[p.ImportPath] = p
		exports[p.ImportPath] = p.Export
	}
	var env []string
	if limit := compileMemoryLimit(all); limit != "" && c.tuneGC() && !c.envSet("GOMEMLIMIT") {
		env = c.opts.Env
		if env == nil {
			env = os.Environ()
		}
		env = append(slices.Clip(env), "GOMEMLIMIT="+limit)
	}
	for _, t := range targets { // pkgLogDir is not safe for concurrent use
		t.renamed = c.renames(t)
		t.logDirs = []string{c.pkgLogDir(t.importPath)}
	}
	var (
		mu       sync.Mutex
		compiled []*target
	)
	forEach(targets, func(t *target) {
		if err := c.compileOne(ctx, t, byPath[t.importPath], exports, compiler, env); err != nil {
			t.res.Err = err.Error()
			return
		}
		mu.Lock()
		compiled = append(compiled, t)
		mu.Unlock()
	})
	return compiled, ctx.Err()
}

// forEach calls f for each of the targets, on all cores, and returns
// when every call has.
func forEach(targets []*target, f func(*target)) {
	var wg sync.WaitGroup
	next := make(chan *target)
	for range min(runtime.GOMAXPROCS(0), len(targets)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				f(t)
			}
		}()
	}
	for _, t := range targets {
		next <- t
	}
	close(next)
	wg.Wait()
}

// listed is what compileFrontEnd reads of the build's listing.
type listed struct {
	ImportPath, Export string
	SFiles             []string
	ImportMap          map[string]string
}

// compileOne compiles t, which the build's listing describes as p, with
// compiler, logging where the build would have (see build, and
// compileFrontEnd, which sets t.logDirs and t.renamed): its files renamed
// as the build renames them, the build's compile flags.
func (c *collector) compileOne(ctx context.Context, t *target, p *listed, exports map[string]string, compiler string, env []string) error {
	if p == nil {
		return fmt.Errorf("%s is not in the build's listing", t.importPath)
	}
	dir, err := os.MkdirTemp(c.logDir, "fe-")
	if err != nil {
		return fmt.Errorf("creating compiler log directory: %w", err)
	}
	defer os.RemoveAll(dir)
	flags := append([]string{"-json=0," + t.logDirs[0]}, strings.Fields(c.compileFlags(t))...)
	if r := renameRules(t); r != "" {
		flags = append(flags, r)
	}
	cfg := &vetConfigFile{ImportPath: t.importPath, Dir: t.dir, GoFiles: t.files, NonGoFiles: p.SFiles,
		ImportMap: p.ImportMap, PackageFile: exports, Standard: map[string]bool{t.importPath: t.std}}
	cmd, err := vetCompileCmd(ctx, cfg, t.files, dir, compiler, flags...)
	if err != nil {
		return err
	}
	cmd.Env = env
	gocmd.InterruptOnCancel(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := gocmd.Run(cmd); err != nil {
		// go list compiled the package: the failure is the copy's.
		msg := restoreNames(strings.TrimSpace(out.String()), []*target{t})
		return fmt.Errorf("goadvise's front-end copy of the compiler failed (GOADVISE_FRONTEND=off compiles with the toolchain's): %s", firstLines(msg, 5))
	}
	return nil
}

// parseLogs parses the logs of the targets, on all cores, and caches the
// records.
func (c *collector) parseLogs(targets []*target) error {
	var (
		mu      sync.Mutex
		unknown error
	)
	forEach(targets, func(t *target) {
		recs, err := c.parseTarget(t)
		if err != nil {
			var ufe *UnknownFormatError
			if errors.As(err, &ufe) {
				mu.Lock()
				unknown = err
				mu.Unlock()
			}
			t.res.Err = err.Error()
			return
		}
		// Warm keeps in memory only what it could not cache.
		if !cachePut(t.key, recs) || !c.cacheOnly {
			t.res.Records = recs
			if recs == nil {
				t.res.Records = []Record{} // not "read it from the cache"
			}
		}
	})
	return unknown
}

// listErrors decodes the output of go list -e -export -json and returns
// the compile errors of each package that has some, keyed as by
// buildErrors. A package whose dependency does not compile gets that
// dependency's error.
func listErrors(r io.Reader) (map[string]string, error) {
	type listError struct{ Err string }
	failed := make(map[string]string)
	dec := json.NewDecoder(r)
	for {
		var p struct {
			ImportPath string
			Error      *listError
			DepsErrors []*listError
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		var msgs []string
		if p.Error != nil {
			msgs = errorLines(p.Error.Err, p.ImportPath)
		} else {
			for _, e := range p.DepsErrors {
				msgs = append(msgs, errorLines(e.Err, "")...)
			}
		}
		if len(msgs) > 0 {
			failed[p.ImportPath] = strings.Join(msgs[:min(len(msgs), 10)], "; ")
		}
	}
	return failed, nil
}

// errorLines returns the non-empty lines of a go list error. A compiler
// error starts with a "# importpath" header: it is dropped for the package
// itself (self) and names the dependency otherwise.
func errorLines(s, self string) []string {
	var lines []string
	prefix := ""
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if h, ok := strings.CutPrefix(l, "# "); ok && len(lines) == 0 && prefix == "" {
			if h != self {
				prefix = "dependency " + h + " does not compile: "
			}
			continue
		}
		lines = append(lines, prefix+l)
		prefix = ""
	}
	return lines
}

// compileFlags returns the compiler flags, besides the log's, of the
// compiles for the compiler's decisions: flags that make a compile cheaper
// without changing its decisions (the logs of all of std are identical
// with and without them).
//
// -dwarf=false: nothing links these compiles (they are for the log and for
// export data), so debug information is wasted work. Without it, std's
// compile took 30.1 s instead of 36.2 s (47 s of CPU instead of 58 s), and
// the compile of go/ssa (the largest of golang.org/x/tools) peaked at
// 103 MB instead of 116 MB.
//
// With tuneGC, -c=1 -d=gcstart=64: by default the compiler lets its heap
// grow to 128 MB before its first collection, and the optimization log
// makes it hold more: the compile of go/ssa peaked at 145 MB. One backend
// goroutine (-c=1; the go command already runs a compile per core) and a
// 64 MB starting heap brought that to 120 MB in the same time.
//
// Not for a package of more than bigPackage bytes of source (t, if not
// nil): its compile is the build's longest, often alone at its end, and
// the go command's concurrent backend is what keeps its wall time near
// go build's (nats-server's server package, 4.3 MB: 15 s with -c=1;
// go-redis's root package, 1.95 MB, is also the last compile of its
// module's build).
func (c *collector) compileFlags(t *target) string {
	f := " -dwarf=false"
	if c.tuneGC() && (t == nil || !big(t)) {
		f += " -c=1 -d=gcstart=64"
	}
	return f
}

// bigPackage is the size of source above which a package outside the
// standard library is big (see big). The largest package of
// golang.org/x/tools, internal/stdlib, has 0.8 MB.
const bigPackage = 1 << 20

// big reports whether t is a big package: outside the standard library,
// with more than bigPackage bytes of source. Its compile keeps the go
// command's concurrent backend and starting heap (see compileFlags). The
// standard library's compiles are measured to fit the defaults (its
// runtime has 2.7 MB of source, mostly comments, and its compile peaks at
// 200 MB), and its packages cannot grow.
func big(t *target) bool {
	return !t.std && sourceSize(t) > bigPackage
}

// sourceSize returns the size of t's files.
func sourceSize(t *target) int64 {
	var n int64
	for _, f := range t.files {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// tuneGC reports whether the compiler is recent enough for compileFlags'
// -d=gcstart (Go 1.25) and for compileMemoryLimit (with an older compiler
// a GOMEMLIMIT would turn off its larger starting heap).
func (c *collector) tuneGC() bool {
	v := strings.TrimPrefix(c.env.GOVERSION, "go1.")
	minor, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(minor)
	return err == nil && n >= 25
}

// compileMemoryLimit is the soft memory limit (GOMEMLIMIT) of the compiles
// that log, unless the user set one, or "" for none. The compiler holds its
// whole log until the end of a compile, and in a few packages the log is
// huge: in std, go/types logs 173 MB of leak explanations, and its compile
// peaked at 430 MB, the largest process of the whole run by far (the next,
// the runtime, takes 200 MB). With this limit it peaks at 287 MB and takes
// 0.4 s longer; below it the collector runs all the time, since about
// 260 MB of the compile's heap is live at its end: 260 MiB made the
// compile take 8 s instead of 5 (scripts/compile-mem.sh measures this).
// Compiles that stay below the limit (every other package of std) are
// unaffected. GOMEMLIMIT=off in the environment lifts the limit.
//
// Only a build of the standard library's packages alone gets it: they are
// measured and cannot change. A package whose compile needs more than the
// limit live must not get it, as the collector would then run without
// pause, and outside std the source does not tell how much a compile
// needs: under a limit of 200 bytes per byte of source, nats-server's
// server package (4.3 MB, a plain compile peaks at 660 MB) fitted, while
// go-redis's root package (1.95 MB, a plain compile peaks at 1 GB) took
// 28 s instead of 10. Other packages' compiles use memory as a plain
// go build's do.
func compileMemoryLimit(targets []*target) string {
	for _, t := range targets {
		if !t.std {
			return ""
		}
	}
	return "280MiB"
}

// envSet reports whether the go command's environment sets name.
func (c *collector) envSet(name string) bool {
	env := c.opts.Env
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); ok && k == name {
			return true
		}
	}
	return false
}

// clearDir removes the contents of dir.
func clearDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// pkgLogDir returns the directory, in the log directory, to which the
// compile of the package importPath writes its log. Its name is the same
// in the plain and the test build of a run, as are the -gcflags.
func (c *collector) pkgLogDir(importPath string) string {
	if c.logSubs == nil {
		c.logSubs = make(map[string]string)
	}
	sub, ok := c.logSubs[importPath]
	if !ok {
		sub = strconv.Itoa(len(c.logSubs))
		c.logSubs[importPath] = sub
	}
	return filepath.Join(c.logDir, sub)
}

// hasLog reports whether the compiler wrote a log in dir.
func hasLog(dir string) bool {
	ents, err := os.ReadDir(dir)
	return err == nil && len(ents) > 0
}

// firstLines returns the first n non-empty lines of s, joined by "; ".
func firstLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && len(lines) < n {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "; ")
}

// buildErrors splits go build output into the error text of each package,
// from its "# importpath" header. Test variants appear as "# p [p.test]"
// and are keyed "p [test]".
func buildErrors(out string) map[string]string {
	failed := make(map[string]string)
	var cur string
	var buf []string
	flush := func() {
		if cur != "" && len(buf) > 0 {
			failed[cur] = strings.Join(buf, "; ")
		}
		buf = buf[:0]
	}
	for _, line := range strings.Split(out, "\n") {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			flush()
			cur = h
			if path, rest, ok := strings.Cut(h, " "); ok && strings.HasPrefix(rest, "[") {
				cur = path + " [test]"
			}
			continue
		}
		if cur != "" && strings.TrimSpace(line) != "" && len(buf) < 10 {
			buf = append(buf, strings.TrimSpace(line))
		}
	}
	flush()
	return failed
}
