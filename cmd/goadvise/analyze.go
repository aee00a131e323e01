package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/analyzer/directive"
	"github.com/goadvise/goadvise/escape"
	"github.com/goadvise/goadvise/memo"
	"github.com/goadvise/goadvise/pgo"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/suite"
)

// analysis is what running the analyzers over the patterns produced, from
// the findings cache or fresh.
type analysisResult struct {
	findings   []report.Finding
	suppressed int
	loadErrs   []string // packages that failed to load, one line each
	toolErrs   []string // analyzer failures
	packages   int
	files      int
	cached     int               // packages whose findings came from the cache
	dirs       map[string]string // import path -> directory
	roots      []string          // import paths of the packages the patterns matched
	module     string            // path of the main module, if any
	moduleDir  string
	loaded     []*packages.Package // the packages analysed in this run (not the cached ones)
}

// analyze runs the analyzers over the packages matching patterns. Packages
// whose cache key (see package memo) is unchanged since an earlier run get
// their findings from the cache; only the others are loaded, compiled for
// escape data and analysed.
func analyze(ctx context.Context, dir string, patterns []string, cf checkFlags, analyzers []*analysis.Analyzer) (*analysisResult, error) {
	res := &analysisResult{dirs: make(map[string]string)}
	st := newStatus()
	defer st.stop()
	st.set(func() string { return "listing packages" })
	run, err := listForMemo(ctx, dir, patterns, cf, analyzers)
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
			res.files += p.Files(cf.tests)
			res.dirs[p.ImportPath] = p.Dir
			res.roots = append(res.roots, p.ImportPath)
			if p.Module != nil && p.Module.Main && res.module == "" {
				res.module, res.moduleDir = p.Module.Path, p.Module.Dir
			}
			if e, ok := memo.Get(p.Key()); ok {
				res.findings = append(res.findings, e.Findings...)
				res.suppressed += e.Suppressed
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

	// Load the packages and, at the same time, collect the compiler's
	// decisions for them with one build: both are go command runs that
	// mostly wait on the build cache, so they overlap well.
	n := len(misses)
	if run == nil {
		n = 0
	}
	st.set(func() string {
		if n > 0 {
			return fmt.Sprintf("loading and compiling %d packages (%d cached)", n, res.cached)
		}
		return "loading and compiling packages"
	})
	escapeDone := make(chan error, 1)
	if suite.Requires(analyzers, escape.Analyzer) && !escapeOff() {
		go func() {
			escapeDone <- escape.Preload(ctx, escape.LoadOptions{Dir: dir, Patterns: patterns, Tests: cf.tests})
		}()
	} else {
		escapeDone <- nil
	}
	pkgs, loadErrs, err := load(dir, patterns, cf.tests, analyzers)
	if perr := <-escapeDone; perr != nil {
		// Not fatal: analyzers that need escape data say it is unavailable.
		fmt.Fprintf(os.Stderr, "goadvise: collecting compiler decisions: %v\n", perr)
	}
	if err != nil {
		return nil, err
	}
	res.loadErrs = loadErrs
	res.loaded = pkgs
	if len(pkgs) == 0 {
		return res, nil // every package to analyse failed to load
	}
	if run == nil {
		for _, p := range pkgs {
			if p.ForTest == "" {
				res.packages++
				res.files += len(p.CompiledGoFiles)
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

	// The directive analyzer is a root too, so that its results (the
	// suppression counts) are kept.
	base, total := suite.Completed(), len(analyzers)*len(pkgs)
	st.set(func() string {
		return fmt.Sprintf("analysed %d/%d (analyzer, package) pairs", suite.Completed()-base, total)
	})
	graph, err := checker.Analyze(append(analyzers, directive.Analyzer), pkgs, nil)
	st.stop()
	if err != nil {
		return nil, err
	}
	fresh, toolErrs := report.Collect(graph)
	res.toolErrs = toolErrs
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

	// Store the fresh findings of every package that loaded and analysed
	// cleanly, grouped by root package (an external test package counts
	// for the package it tests).
	if run != nil {
		byRoot := make(map[string][]report.Finding)
		for _, f := range fresh {
			root := strings.TrimSuffix(f.Package, "_test")
			byRoot[root] = append(byRoot[root], f)
		}
		ok := make(map[string]bool)
		for _, p := range pkgs {
			ok[rootPath(p)] = true
		}
		for _, p := range run.Roots {
			if ok[p.ImportPath] && !failed[p.ImportPath] && slices.Contains(misses, p.ImportPath) {
				memo.Put(p.Key(), &memo.Entry{Findings: byRoot[p.ImportPath], Suppressed: suppressedBy[p.ImportPath]})
			}
		}
	}
	return res, nil
}

// A status line shows what a long run is doing on stderr, when stderr is a
// terminal and the run has taken more than two seconds; otherwise it
// prints nothing.
type status struct {
	mu    sync.Mutex
	msg   func() string
	done  chan struct{}
	ended chan struct{}
}

func newStatus() *status {
	s := &status{msg: func() string { return "" }, done: make(chan struct{}), ended: make(chan struct{})}
	fi, err := os.Stderr.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		close(s.ended)
		return s
	}
	go func() {
		defer close(s.ended)
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		begin := time.Now()
		shown := false
		for {
			select {
			case <-s.done:
				if shown {
					fmt.Fprint(os.Stderr, "\r\033[K")
				}
				return
			case <-tick.C:
				if time.Since(begin) < 2*time.Second {
					continue
				}
				s.mu.Lock()
				msg := s.msg()
				s.mu.Unlock()
				fmt.Fprintf(os.Stderr, "\r\033[Kgoadvise: %s", msg)
				shown = true
			}
		}
	}()
	return s
}

// set changes the message; f is called at each refresh.
func (s *status) set(f func() string) {
	s.mu.Lock()
	s.msg = f
	s.mu.Unlock()
}

// stop clears the line and stops refreshing.
func (s *status) stop() {
	select {
	case <-s.done:
	default:
		close(s.done)
	}
	<-s.ended
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

// listForMemo lists the packages with their cache keys. The salt covers
// what besides the packages decides the findings: this executable, the
// analyzers and every flag value, and the content of profiles given to
// them. It returns nil (no caching) where findings cannot be keyed: a
// profile fetched from a URL, or files named on the command line.
func listForMemo(ctx context.Context, dir string, patterns []string, cf checkFlags, analyzers []*analysis.Analyzer) (*memo.Run, error) {
	if os.Getenv("GOADVISE_NOCACHE") != "" {
		return nil, nil
	}
	for _, p := range patterns {
		if strings.HasSuffix(p, ".go") {
			return nil, nil
		}
	}
	h := sha256.New()
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "exe %s %d %d %s\n", exe, fi.Size(), fi.ModTime().UnixNano(), version())
		}
	}
	fmt.Fprintf(h, "go %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	names := make([]string, 0, len(analyzers))
	for _, a := range analyzers {
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
	for _, src := range append(splitList(cf.profile), splitList(cf.heap)...) {
		if strings.Contains(src, "://") {
			return nil, nil // live data: never cached
		}
		names, err := pgo.Expand([]string{src})
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			f, err := os.Open(name)
			if err != nil {
				return nil, err
			}
			fh := sha256.New()
			_, err = io.Copy(fh, f)
			f.Close()
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(h, "profile %x\n", fh.Sum(nil))
		}
	}
	run, err := memo.List(ctx, memo.Options{Dir: dir, Patterns: patterns, Tests: cf.tests, Salt: hex.EncodeToString(h.Sum(nil))})
	if err != nil {
		return nil, err
	}
	for _, p := range run.Roots {
		if p.ImportPath == "command-line-arguments" {
			return nil, nil
		}
	}
	return run, nil
}
