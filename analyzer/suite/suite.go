// Package suite lists the analyzers that goadvise runs. Every entry point
// (the goadvise command, go vet -vettool, the golangci-lint plugin) takes its
// analyzers from here so that they all run the same checks.
package suite

import (
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/byvalue"
	"github.com/goadvise/goadvise/analyzer/deepequal"
	"github.com/goadvise/goadvise/analyzer/directive"
	"github.com/goadvise/goadvise/analyzer/escape"
	"github.com/goadvise/goadvise/analyzer/heapescape"
	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/idiom"
	"github.com/goadvise/goadvise/analyzer/inlinebudget"
	"github.com/goadvise/goadvise/analyzer/internal/gen"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/analyzer/optional"
	"github.com/goadvise/goadvise/analyzer/percall"
	"github.com/goadvise/goadvise/analyzer/redundantbranch"
	"github.com/goadvise/goadvise/analyzer/smallalloc"
	"github.com/goadvise/goadvise/pgo"
)

// reporting lists the analyzers that report findings, in documentation order.
var reporting = []*analysis.Analyzer{
	deepequal.Analyzer,
	idiom.Analyzer,
	heapescape.Analyzer,
	smallalloc.Analyzer,
	byvalue.Analyzer,
	optional.Analyzer,
	redundantbranch.Analyzer,
	inlinebudget.Analyzer,
	percall.Analyzer,
}

// Visibility says which of their findings the analyzers report. Every
// driver states it the same way: goadvise check asks for everything (it
// counts, ranks and cuts the findings itself, across packages), go vet's
// user with -hotpath.cold and -hotpath.all, the golangci-lint plugin with
// its cold and all settings. Without it the analyzers report what goadvise
// check shows by default, for the drivers that print every diagnostic they
// get.
type Visibility struct {
	// Cold reports the findings in cold code (tier "cold") too.
	Cold bool
	// All reports every finding of a package, not only the highest
	// ranked (kind.Weight) of each analyzer, at most kind.PerKLOC per
	// 1,000 lines of the package's files.
	All bool
	// Generated analyses generated files as the rest: their code runs
	// like any other. Without it they are skipped, as linters do.
	Generated bool
}

// Everything is the visibility of a driver that hides and cuts findings
// itself: every finding is reported, generated files' too.
var Everything = Visibility{Cold: true, All: true, Generated: true}

// Of returns v for the analyzer a, widened by the flags the user gave
// it: hotpath's -cold and -all, which go vet passes on, and a's own -cold
// and -all (heapescape's, redundantbranch's).
func (v Visibility) Of(a *analysis.Analyzer) Visibility {
	if in := inner.get(a); in != nil {
		a = in
	}
	return Visibility{
		Cold:      v.Cold || hotpath.ReportCold() || flagSet(a, "cold"),
		All:       v.All || hotpath.ReportAll() || flagSet(a, "all"),
		Generated: v.Generated,
	}
}

// Options configure the suite's analyzers for one driver's run.
type Options struct {
	Visibility Visibility
	// Profile, if not nil, decides hotness instead of the static
	// estimate or the profiles -hotpath.profile names.
	Profile *pgo.Hotness
}

// Configure returns analyzers, the suite's as Analyzers or Select returns
// them, reporting as opts says; any other analyzer is returned as it is.
// The visibility and the profile reach each analyzer's run through the
// hot-path result it reads (hotpath.Result.With): no global changes, and
// two runs configured differently do not see each other's options.
func Configure(analyzers []*analysis.Analyzer, opts Options) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		if in := inner.get(a); in != nil {
			a = wrap(in, opts)
			inner.set(a, in)
		}
		out[i] = a
	}
	return out
}

// inner maps the suite's wrapped analyzers, with any options, to the
// analyzers they wrap.
var inner = &wrappers{m: make(map[*analysis.Analyzer]*analysis.Analyzer)}

// wrapped holds the reporting analyzers wrapped (see wrap) with the
// default options. Wrapping happens once so that every caller gets the
// same *analysis.Analyzer values. Every analyzer they depend on is
// guarded against panics in place.
var wrapped = func() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(reporting))
	seen := make(map[*analysis.Analyzer]bool)
	for i, a := range reporting {
		for _, r := range a.Requires {
			guardAll(r, seen)
		}
		out[i] = wrap(a, Options{})
		inner.set(out[i], a)
	}
	return out
}()

// wrap returns a reporting as opts say, its panics turned into errors,
// its findings suppressed by //goadvise:ignore and //nolint directives,
// its files read once however often it asks, and its runs counted for
// progress reports.
func wrap(a *analysis.Analyzer, opts Options) *analysis.Analyzer {
	w := directive.Wrap(hideCold(a, opts))
	guard(w)
	readOnce(w)
	run := w.Run
	w.Run = func(pass *analysis.Pass) (any, error) {
		defer completed.Add(1)
		return run(pass)
	}
	return w
}

// hideCold returns a, reporting what opts.Visibility widened by a's flags
// (Visibility.Of) asks for: no findings in cold code (tier "cold") unless
// Cold, and of the others only the first of the package in the order of
// kind.Interleave (by kind.Weight, and by the functions' kind.Spend), at
// most kind.PerKLOC per 1,000 lines of its files, unless All. With the default options that is what goadvise check shows by
// default, where every other driver (go vet, golangci-lint, nogo) would
// print all it gets.
func hideCold(a *analysis.Analyzer, opts Options) *analysis.Analyzer {
	w := *a
	w.Run = func(pass *analysis.Pass) (any, error) {
		v := opts.Visibility.Of(a)
		cold, all := v.Cold, v.All
		if hot, ok := pass.ResultOf[hotpath.Analyzer].(*hotpath.Result); ok && (opts.Profile != nil || cold || v.Generated) {
			pass.ResultOf[hotpath.Analyzer] = hot.With(opts.Profile, cold, v.Generated)
		}
		if cold && all {
			return a.Run(pass)
		}
		col, _ := pass.ResultOf[kind.Analyzer].(*kind.Collector)
		report := pass.Report
		type weighed struct {
			d         analysis.Diagnostic
			w, spend  float64
			enclosing token.Pos // the function declaration, or the file
		}
		var kept []weighed
		pass.Report = func(d analysis.Diagnostic) {
			f, _ := col.Lookup(d)
			switch {
			case !cold && f.Tier == "cold":
			case all:
				report(d)
			default:
				kept = append(kept, weighed{d, kind.Weight(&f), kind.Spend(&f), enclosing(pass, d.Pos)})
			}
		}
		res, err := a.Run(pass)
		pass.Report = report
		slices.SortStableFunc(kept, func(x, y weighed) int {
			return cmp.Or(cmp.Compare(y.w, x.w), cmp.Compare(x.d.Pos, y.d.Pos))
		})
		order := kind.Interleave(len(kept), func(i int) token.Pos { return kept[i].enclosing }, func(i int) float64 { return kept[i].spend })
		taken := make([]weighed, 0, len(kept))
		for _, i := range order[:min(len(order), kind.Budget(lines(pass)))] {
			taken = append(taken, kept[i])
		}
		kept = taken
		slices.SortStableFunc(kept, func(x, y weighed) int { return cmp.Compare(x.d.Pos, y.d.Pos) })
		for _, k := range kept {
			report(k.d)
		}
		return res, err
	}
	for _, r := range []*analysis.Analyzer{kind.Analyzer, hotpath.Analyzer} {
		if !slices.Contains(w.Requires, r) {
			w.Requires = append(slices.Clip(w.Requires), r)
		}
	}
	return &w
}

// enclosing returns the position of the function declaration that holds
// pos, or of its file at package level: the group of kind.Interleave.
func enclosing(pass *analysis.Pass, pos token.Pos) token.Pos {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			i, found := slices.BinarySearchFunc(f.Decls, pos, func(d ast.Decl, p token.Pos) int {
				if d.End() <= p {
					return -1
				}
				if d.Pos() > p {
					return 1
				}
				return 0
			})
			if found {
				if fd, ok := f.Decls[i].(*ast.FuncDecl); ok {
					return fd.Pos()
				}
			}
			return f.FileStart
		}
	}
	return token.NoPos
}

// lines returns the number of lines of the pass's files that goadvise
// reports on: not generated, not tests.
func lines(pass *analysis.Pass) int {
	n := 0
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil || gen.IsGenerated(pass, f) || strings.HasSuffix(tf.Name(), "_test.go") {
			continue
		}
		n += tf.LineCount()
	}
	return n
}

// wrappers maps wrapped analyzers to the analyzers they wrap, for
// concurrent use.
type wrappers struct {
	mu sync.Mutex
	m  map[*analysis.Analyzer]*analysis.Analyzer
}

func (w *wrappers) get(a *analysis.Analyzer) *analysis.Analyzer {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.m[a]
}

func (w *wrappers) set(wrapped, a *analysis.Analyzer) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.m[wrapped] = a
}

// flagSet reports whether a has the boolean flag name and it is set.
func flagSet(a *analysis.Analyzer, name string) bool {
	f := a.Flags.Lookup(name)
	return f != nil && f.Value.String() == "true"
}

// completed counts finished runs of the reporting analyzers (one per
// analyzer and package), for progress reports.
var completed atomic.Int64

// Completed returns how many runs of a reporting analyzer on a package
// have finished in this process.
func Completed() int64 { return completed.Load() }

// guardAll guards a and everything it requires.
func guardAll(a *analysis.Analyzer, seen map[*analysis.Analyzer]bool) {
	if seen[a] {
		return
	}
	seen[a] = true
	for _, r := range a.Requires {
		guardAll(r, seen)
	}
	guard(a)
	readOnce(a)
}

// readOnce makes pass.ReadFile read each file once in a's passes: the
// analyzers read a file's source for each finding (to quote it or to
// indent a fix), and reading a large generated file again each time took
// time quadratic in its length. The analyzers only read the content.
func readOnce(a *analysis.Analyzer) {
	run := a.Run
	a.Run = func(pass *analysis.Pass) (any, error) {
		read := pass.ReadFile
		if read == nil {
			return run(pass)
		}
		var mu sync.Mutex
		contents := make(map[string][]byte)
		pass.ReadFile = func(name string) ([]byte, error) {
			mu.Lock()
			defer mu.Unlock()
			if b, ok := contents[name]; ok {
				return b, nil
			}
			b, err := read(name)
			if err == nil {
				contents[name] = b
			}
			return b, err
		}
		return run(pass)
	}
}

// guard makes a panic in a's Run an error of that analysis, naming the
// analyzer, the package and where it panicked, so that drivers report it
// and go on with the other packages instead of crashing.
func guard(a *analysis.Analyzer) {
	run := a.Run
	a.Run = func(pass *analysis.Pass) (res any, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("internal error: analyzer %s panicked on package %s: %v (at %s); please report it", a.Name, pass.Pkg.Path(), r, panicSite())
			}
		}()
		return run(pass)
	}
}

// panicSite returns the file:line of the function that panicked, called
// from a deferred function during the panic, and, if that function is
// not goadvise's (go/types asserting, say), the goadvise code that called
// it.
func panicSite() string {
	pc := make([]uintptr, 64)
	n := runtime.Callers(3, pc)
	frames := runtime.CallersFrames(pc[:n])
	site := ""
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") && !strings.Contains(f.Function, "/suite.guard") {
			at := fmt.Sprintf("%s:%d in %s", f.File, f.Line, f.Function)
			switch {
			case site == "":
				site = at
				if strings.HasPrefix(f.Function, ownPrefix) {
					return site
				}
			case strings.HasPrefix(f.Function, ownPrefix):
				return site + ", called from " + at
			}
		}
		if !more {
			break
		}
	}
	if site == "" {
		return "unknown"
	}
	return site
}

// ownPrefix starts the names of goadvise's functions.
const ownPrefix = "github.com/goadvise/goadvise/"

// Analyzers returns goadvise's analyzers that report findings, in the order
// they are documented, each honouring suppression directives. Helper
// analyzers they require are not listed: drivers run them as dependencies.
func Analyzers() []*analysis.Analyzer {
	return append([]*analysis.Analyzer(nil), wrapped...)
}

// Helpers returns the analyzers that report nothing themselves but compute
// results for the others. Drivers accept their flags too (for example
// -escape.off or -hotpath.profile).
func Helpers() []*analysis.Analyzer {
	return []*analysis.Analyzer{hotpath.Analyzer, escape.Analyzer, directive.Analyzer}
}

// Requires reports whether any of analyzers depends, directly or not, on
// the analyzer dep.
func Requires(analyzers []*analysis.Analyzer, dep *analysis.Analyzer) bool {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer) bool
	visit = func(a *analysis.Analyzer) bool {
		if a == dep {
			return true
		}
		if seen[a] {
			return false
		}
		seen[a] = true
		for _, r := range a.Requires {
			if visit(r) {
				return true
			}
		}
		return false
	}
	for _, a := range analyzers {
		if visit(a) {
			return true
		}
	}
	return false
}

// Select returns the analyzers of the suite named in enable (all if it is
// empty) minus those named in disable, in suite order. Unknown names are an
// error, and so is selecting nothing.
func Select(enable, disable []string) ([]*analysis.Analyzer, error) {
	all := Analyzers()
	known := make(map[string]bool)
	for _, a := range all {
		known[a.Name] = true
	}
	set := func(names []string, what string) (map[string]bool, error) {
		m := make(map[string]bool)
		for _, n := range names {
			if !known[n] {
				return nil, fmt.Errorf("%s: unknown analyzer %q (run 'goadvise help' for the list)", what, n)
			}
			m[n] = true
		}
		return m, nil
	}
	on, err := set(enable, "-enable")
	if err != nil {
		return nil, err
	}
	off, err := set(disable, "-disable")
	if err != nil {
		return nil, err
	}
	var out []*analysis.Analyzer
	for _, a := range all {
		if (len(on) == 0 || on[a.Name]) && !off[a.Name] {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no analyzers left to run after -enable/-disable")
	}
	return out, nil
}

// Kinds returns the registered kinds of findings of the analyzers (and
// whole-program passes) named, sorted by ID: the rules of a SARIF log.
func Kinds(names []string) []kind.Kind {
	var out []kind.Kind
	for _, k := range kind.All() {
		if slices.Contains(names, k.ID.Analyzer()) {
			out = append(out, k)
		}
	}
	return out
}
