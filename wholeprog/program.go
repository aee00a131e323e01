// Package program runs goadvise's whole-program passes: advice that needs
// every package of a service at once, its SSA form and its call graph.
//
// Two passes exist:
//
//   - devirt: an interface method call in hot code whose receiver can only
//     ever hold one concrete type in the whole program. Calling the concrete
//     type instead (a field of that type, or a type switch with a fast path)
//     lets the compiler inline the call, and the arguments that escape to
//     the heap only because the callee is unknown stop escaping; the
//     finding lists those escapes, read from the compiler.
//   - loopalloc: a heap allocation in a function reached from a loop
//     through the call graph, attributed to the loop, when one allocation
//     could serve every iteration: "make([]byte, 65536) in scan allocates
//     on every call, once per iteration of the loop in (*Server).serve via
//     decode -> scan".
//
// # Loading and soundness
//
// [Analyze] loads the roots' packages and all their dependencies from
// source (packages.LoadAllSyntax), builds SSA for all of them with generic
// functions instantiated, and computes the call graph with VTA (variable
// type analysis) seeded by CHA. Only the packages of the roots' main
// module (or the roots themselves outside a module) are reported on.
//
// An interface call is reported as single-implementation only if VTA finds
// exactly one concrete type flowing to its receiver and no other type
// implementing the interface is ever converted to an interface value
// anywhere in the program. The second condition covers what VTA cannot
// see: values built by reflection (reflect.New of a type obtained from a
// value of it), and plugin-like registries filled with interface values.
// Values created by cgo, by assembly or by unsafe conversions are not
// seen; a program that builds interface values that way can get a false
// report. Test files are not loaded: a type used only by tests does not
// count, so an interface kept for test doubles can be reported (the
// receiver is one type in the program, but following the advice means
// changing the tests).
//
// The call graph sees one program, but a package that other programs can
// import (not main, no "internal" element in its path) also runs in
// theirs, with their implementations. So devirt reports a call only in a
// package that a main package among the roots imports (nothing when no
// root is a main package; see [Options.AssumeClosed]), and, outside main
// packages, only when the receiver is closed: every way the value is made
// is in code no other program can reach with its own values. A parameter
// of an exported function of an importable package, an exported field or
// variable, a value captured by a closure (an option setter), a map or
// slice element or the result of a dynamic call is open; a parameter of an
// unexported function (or any function of an internal package) not used as
// a value and not an exported method of a type converted to an interface
// (which importers could call), whose every call passes a closed argument, an unexported field
// whose every store is closed, and a static call's result that is closed
// on every return are closed. Functions of internal packages count as
// visible to the program only if the roots include every package of the
// module that calls them (check ./...). devirt also stays silent when the
// single concrete type is unexported in another package, since the advice
// could not be followed there.
//
// loopalloc only follows calls that have a single callee, to a depth of
// [Options.Depth], through packages of the main module (whose compiler
// decisions are collected with package optlog). The call in the loop
// must run on every iteration (every cycle of the loop's blocks goes
// through it; calls in an outer loop that contains an inner loop do not
// qualify), each call on the path must run on every call of its caller,
// and the allocation must be made on every call of the callee: its block
// is on every path from the function's entry to a return. A callee that
// the compiler can inline is not reported, since inlined into the loop
// its allocation may stay on the stack; the per-package analyzers
// (smallalloc, heapescape) see those at the call site. Allocations inside
// inlined calls within the callee, append growth, constants converted to
// interfaces and values passed to panic are not reported either. Only an
// allocation that one value made before the loop could replace is
// reported: a make of constant length and capacity, a new or a composite
// literal's address, whose value does not outlive the call (it is only
// read, written into, indexed, sliced, copied and measured, and passed
// only to functions that do the same or to the Read and Write methods of
// io.Reader and io.Writer, which must not retain it; it is not returned,
// stored, appended, captured or sent). What depends
// on the iteration, such as a value boxed for fmt.Sprintf or a buffer
// kept per item, has to be made anew and is not reported.
package wholeprog

import (
	"context"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/optlog"
	"github.com/goadvise/goadvise/report"
)

// A Pass describes one whole-program pass, for help and SARIF rules.
type Pass struct {
	Name string
	Doc  string // first line: a one-sentence summary
	URL  string
}

// The pass names.
const (
	Devirt    = "devirt"
	LoopAlloc = "loopalloc"
)

// Passes returns the whole-program passes.
func Passes() []Pass {
	return []Pass{
		{
			Name: Devirt,
			Doc: `devirt: find hot interface calls with a single implementation

An interface method call in hot code whose receiver, by the whole-program
call graph (VTA), can only ever be one concrete type, while no other
implementation of the interface is ever converted to an interface value.
Calling the concrete type (a field of that type, or a type switch with a
fast path) makes the call direct, so the compiler can inline it, and
arguments that escape only because the callee is unknown can stay on the
stack; the finding lists them, with the method's own inlining cost.
Reported only in packages a main package imports, and in an importable
(non-main, non-internal) package only when no other program can supply the
receiver: not through a parameter of an exported function, an exported
field, an option closure or a registry. Not reported when the concrete
type is unexported in another package.`,
			URL: "https://pkg.go.dev/github.com/goadvise/goadvise/wholeprog",
		},
		{
			Name: LoopAlloc,
			Doc: `loopalloc: find heap allocations in callees of loops

A heap allocation (as the compiler reports it) made on every call of a
function that a loop calls on every iteration, directly or through
single-callee calls made on every call, up to a depth of 4, within the
main module, when one allocation made before the loop could serve every
iteration: a make of constant size, a new or a composite literal whose
value does not outlive the call (not returned, stored, appended, captured,
sent or passed to code that may keep it). The finding is placed at the call in the
loop and names the path: "make([]byte, 65536) in scan allocates on every
call, once per iteration of the loop in (*Server).serve via decode ->
scan". Callees the compiler can inline, allocations on branches, and
work that depends on the iteration (formatting, boxing, kept values) are
not reported.`,
			URL: "https://pkg.go.dev/github.com/goadvise/goadvise/wholeprog",
		},
	}
}

// Options configure [Analyze].
type Options struct {
	Dir    string   // directory for loading and for the go command ("" for the current one)
	Env    []string // environment of the go command (nil for os.Environ())
	Passes []string // passes to run (nil: all)
	Depth  int      // loopalloc: how many calls deep to follow (0: 4)
	// Escape, if not nil, supplies the compiler's decisions instead of
	// collecting them with optlog.Collect (for tests and for callers that
	// already have them).
	Escape []*optlog.PackageResult
	// AssumeClosed makes devirt treat the program as the only user of
	// every package: it reports even when no root is a main package, and
	// on receivers that other programs importing a package could supply.
	// Without it, devirt only counts those candidates (in Stats).
	AssumeClosed bool
	// Stats, if not nil, is filled with counts of the run.
	Stats *Stats
}

// Stats are counts of one run, for measurement.
type Stats struct {
	Packages      int // packages in the program
	Functions     int // SSA functions
	Reported      int // packages reported on
	InvokeSites   int // interface method call sites in reported packages
	SingleType    int // of those, sites with exactly one concrete receiver type
	HotSingleType int // of those, in hot code
	Candidates    int // of those, with no other implementation converted to an interface (reported if the program is closed)

	Load, SSA, CallGraph, Escape, Passes time.Duration // time of each phase
}

// program is the state of one analysis.
type program struct {
	opts     Options
	prog     *ssa.Program
	cg       *callgraph.Graph
	reported map[*types.Package]bool
	records  map[string][]optlog.Record // by import path
	escErr   error
	// converted holds the types converted to an interface anywhere.
	converted map[types.Type]bool
	perItem   map[*ssa.Function]string // why a function runs per item
	// fromMain holds the packages that a main package among the roots
	// imports, directly or not, and the main packages themselves.
	fromMain map[*types.Package]bool
	all      map[*ssa.Function]bool
	open     *openness // built on first use
	stats    *Stats
}

// Analyze runs the whole-program passes on the program made of pkgs and
// their dependencies and returns the findings, unranked.
//
// pkgs are the roots as goadvise check loaded them; only their import
// paths and directory matter, since the program is loaded again from
// source with all dependencies.
func Analyze(ctx context.Context, pkgs []*packages.Package, opts Options) ([]report.Finding, error) {
	var paths []string
	for _, p := range pkgs {
		// Test variants and test binaries are not part of the program.
		if p.PkgPath != "" && !strings.Contains(p.ID, " [") {
			paths = append(paths, p.PkgPath)
		}
	}
	return AnalyzePaths(ctx, paths, opts)
}

// AnalyzePaths is Analyze for the packages with the given import paths.
func AnalyzePaths(ctx context.Context, importPaths []string, opts Options) ([]report.Finding, error) {
	if opts.Depth <= 0 {
		opts.Depth = 4
	}
	var paths []string
	for _, p := range importPaths {
		if p != "" && !strings.HasSuffix(p, ".test") && !strings.HasSuffix(p, "_test") {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil, errors.New("program: no packages to analyse")
	}
	sort.Strings(paths)
	paths = compact(paths)
	cfg := &packages.Config{Context: ctx, Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: opts.Dir, Env: opts.Env}
	t0 := time.Now()
	initial, err := packages.Load(cfg, paths...)
	if opts.Stats != nil {
		opts.Stats.Load = time.Since(t0)
	}
	if err != nil {
		return nil, fmt.Errorf("program: loading %s: %w", strings.Join(paths, " "), err)
	}
	var loadErrs []string
	packages.Visit(initial, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, p.PkgPath+": "+e.Msg)
		}
	})
	if len(loadErrs) > 0 {
		if len(loadErrs) > 5 {
			loadErrs = append(loadErrs[:5], fmt.Sprintf("and %d more", len(loadErrs)-5))
		}
		return nil, fmt.Errorf("program: packages do not load: %s", strings.Join(loadErrs, "; "))
	}
	return analyzeLoaded(ctx, initial, opts)
}

func compact(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// analyzeLoaded runs the passes on packages loaded with all syntax.
func analyzeLoaded(ctx context.Context, initial []*packages.Package, opts Options) ([]report.Finding, error) {
	stats := opts.Stats
	if stats == nil {
		stats = new(Stats)
	}
	t0 := time.Now()
	phase := func(d *time.Duration) {
		*d = time.Since(t0)
		t0 = time.Now()
	}

	prog, _ := ssautil.AllPackages(initial, ssa.InstantiateGenerics)
	prog.Build()
	phase(&stats.SSA)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	p := &program{opts: opts, prog: prog, reported: make(map[*types.Package]bool)}
	// The packages reported on: those of the roots' main module, or the
	// roots themselves when they are not in a module (std).
	var repPaths []string
	mainMod := ""
	p.fromMain = make(map[*types.Package]bool)
	var mains []*packages.Package
	for _, r := range initial {
		if r.Module != nil && r.Module.Main {
			mainMod = r.Module.Path
		}
		if r.Name == "main" {
			mains = append(mains, r)
		}
	}
	packages.Visit(mains, nil, func(lp *packages.Package) {
		if lp.Types != nil {
			p.fromMain[lp.Types] = true
		}
	})
	packages.Visit(initial, nil, func(lp *packages.Package) {
		in := false
		if mainMod != "" {
			in = lp.Module != nil && lp.Module.Main && lp.Module.Path == mainMod
		} else {
			for _, r := range initial {
				in = in || r == lp
			}
		}
		if in && lp.Types != nil {
			p.reported[lp.Types] = true
			repPaths = append(repPaths, lp.PkgPath)
		}
	})
	sort.Strings(repPaths)

	all := ssautil.AllFunctions(prog)
	p.all = all
	p.cg = vta.CallGraph(all, cha.CallGraph(prog))
	// Synthetic wrappers (promoted and bound methods, thunks) are kept:
	// their receiver types are the types of the values at call sites.
	// singleCallee looks through them.
	p.converted = make(map[types.Type]bool)
	for fn := range all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					p.converted[mi.X.Type()] = true
				}
			}
		}
	}
	p.perItem = p.perItemFuncs(all)
	phase(&stats.CallGraph)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	if p.enabled(LoopAlloc) || p.enabled(Devirt) {
		p.loadEscape(ctx, repPaths)
	}
	phase(&stats.Escape)
	stats.Packages = len(prog.AllPackages())
	stats.Functions = len(all)
	stats.Reported = len(repPaths)
	p.stats = stats

	// Functions of reported packages, in a deterministic order.
	var funcs []*ssa.Function
	for fn := range all {
		if fn.Pkg != nil && p.reported[fn.Pkg.Pkg] && len(fn.Blocks) > 0 && fn.Syntax() != nil && !isWrapper(fn) {
			funcs = append(funcs, fn)
		}
	}
	sort.Slice(funcs, func(i, j int) bool {
		if funcs[i].Pos() != funcs[j].Pos() {
			return funcs[i].Pos() < funcs[j].Pos()
		}
		return funcs[i].String() < funcs[j].String()
	})

	var out []report.Finding
	if p.enabled(Devirt) {
		out = append(out, p.devirt(funcs)...)
	}
	if p.enabled(LoopAlloc) {
		if p.escErr != nil {
			return out, fmt.Errorf("program: loopalloc needs the compiler's decisions: %w", p.escErr)
		}
		out = append(out, p.loopalloc(funcs)...)
	}
	phase(&stats.Passes)
	return dedupe(out), nil
}

func (p *program) enabled(name string) bool {
	if p.opts.Passes == nil {
		return true
	}
	for _, n := range p.opts.Passes {
		if n == name {
			return true
		}
	}
	return false
}

// loadEscape collects the compiler's decisions for the reported packages.
func (p *program) loadEscape(ctx context.Context, paths []string) {
	res := p.opts.Escape
	if res == nil {
		var err error
		res, err = optlog.Collect(ctx, optlog.LoadOptions{Dir: p.opts.Dir, Patterns: paths, Env: p.opts.Env})
		if err != nil {
			p.escErr = err
			return
		}
	}
	p.records = make(map[string][]optlog.Record)
	for _, r := range res {
		if !r.Test && r.Err == "" {
			p.records[r.ImportPath] = r.Records
		}
	}
}

// position converts a token.Pos of the program.
func (p *program) position(pos token.Pos) token.Position { return p.prog.Fset.Position(pos) }

// finding builds a finding located at pos in fn.
func (p *program) finding(pass string, fn *ssa.Function, pos token.Pos, tier hotpath.Tier, msg string) report.Finding {
	ps := p.position(pos)
	f := report.Finding{
		Analyzer: pass,
		File:     ps.Filename,
		Line:     ps.Line,
		Column:   ps.Column,
		Function: funcname.OfSSA(fn),
		Message:  msg,
		Tier:     tier.String(),
		Fixes:    []report.Fix{},
	}
	if fn.Pkg != nil {
		f.Package = fn.Pkg.Pkg.Path()
	}
	return f
}

func dedupe(fs []report.Finding) []report.Finding {
	seen := make(map[string]bool)
	out := fs[:0]
	for _, f := range fs {
		k := fmt.Sprint(f.Analyzer, "\x00", f.File, "\x00", f.Line, "\x00", f.Column, "\x00", f.Message)
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

// shortFile returns the base name of a file, for messages.
func shortFile(name string) string { return filepath.Base(name) }
