// Package wholeprog runs goadvise's whole-program passes: advice that needs
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
// [Analyze] builds SSA with function bodies only for the packages it
// reports on: those of the roots' main module (or the roots themselves
// outside a module, as for std), and the packages that import them, if
// any (a dependency may import the main module back). It lists the
// program once without compiling (or takes goadvise check's listing),
// compiles only the dependencies those packages import, reads every other
// package (std, other modules) from export data, and type-checks the
// packages with bodies from source one at a time in dependency order,
// building each one's SSA (generic functions instantiated) as soon as it
// is checked and dropping its type annotations: memory holds the SSA of
// the module, the types of the program and the syntax trees and
// annotations of one package at a time. Statements of the syntax trees
// that the SSA no longer needs (the bodies of non-generic functions,
// whose positions are all the passes read; the annotations outside
// generic functions, which go/ssa keeps for instantiating them) and
// package-level tables of constants (they convert nothing and call
// nothing) are dropped too. The call graph is computed with VTA (variable
// type analysis), seeded by CHA, over the functions with bodies. On
// golang.org/x/tools this takes a tenth of the memory that loading every
// package from source took; see docs/performance.md.
//
// An interface call is reported as single-implementation only if VTA finds
// exactly one concrete type flowing to its receiver, no other type
// implementing the interface is ever converted to an interface value in
// code with a body or handed as a type argument to generic code without
// one (which may convert it), and no type declared in a package without
// bodies implements the interface (for a generic type, has methods of its
// names): such a type's values are made by code the analysis does not see.
// The conversion condition covers what VTA cannot see: values built by
// reflection (reflect.New of a type obtained from a value of it), and
// plugin-like registries filled with interface values. Values created by
// cgo, by assembly, by unsafe conversions or by reflection on the fields
// or elements of a value are not seen; a program that builds interface
// values that way can get a false report. Test files are not loaded: a
// type used only by tests does not count, so an interface kept for test
// doubles can be reported (the receiver is one type in the program, but
// following the advice means changing the tests).
//
// Code without a body (a dependency's) can still hand the program values:
// as results, in its variables and struct fields, as arguments of
// callbacks. Unless the interface is sealed (one of its methods is
// unexported from, or names in its signature a type of, a package with
// bodies, which no dependency can refer to, so that only types of the
// program and instances of generic types can implement it), the receiver
// must be visible: every value it can hold is made by code with a body.
// A value that comes out of a function without a body (a dependency's
// function or method, or a call through an interface or function value,
// which may be one), a dependency's variable or struct field, a
// parameter of a function that code without a body may call (one used
// as a value, or a method of a type converted to an interface or handed
// as a type argument), and a map, slice or channel element are not
// visible; a parameter whose every caller passes a visible value, a
// static call's result that is visible on every return, and a field,
// variable or captured variable whose every store is visible are.
//
// The call graph sees one program: the main packages among the roots and
// what they import are the closed world that whole-program advice is for.
// So devirt reports a call only in a package that a main package among
// the roots imports; a library (no main package among the roots) is open
// to any importer's implementations, and nothing is reported (see
// [Options.AssumeClosed]). A package that other programs can import (not
// main, no "internal" element in its path) may also run in theirs, with
// their implementations: with [Options.OpenWorld], for a module that is a
// library as well as a program, devirt reports a call outside main
// packages only when the receiver is closed: every way the value is made
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
// decisions are collected with package optlog); a call through an
// interface or function value counts only if its receiver or function is
// visible, or, through a sealed interface, the receiver's type is the
// only implementation, as for devirt. The call in the loop
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
// stored, appended, captured or sent). A dependency's function that the
// value is passed to (io.ReadFull, binary.BigEndian.Uint32) is
// type-checked from source for this, its package alone. What depends
// on the iteration, such as a value boxed for fmt.Sprintf or a buffer
// kept per item, has to be made anew and is not reported.
package wholeprog

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/load"
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

// The kinds of the passes' findings.
const (
	SingleImplementation kind.ID = "devirt/single-implementation"
	PassBuffer           kind.ID = "loopalloc/pass-buffer"
)

func init() {
	kind.Register(
		kind.Kind{ID: SingleImplementation, Title: "an interface call with one receiver type in the whole program",
			Doc: "An interface method call whose receiver, by the whole program's call graph, is always of one type " +
				"is a dynamic call the compiler cannot inline; called on a value of that type (or behind a type switch " +
				"with a fast path for it) it becomes direct, can be inlined, and what escaped only because the callee " +
				"was unknown can stay on the stack.",
			Scoring: kind.ScoreCum, CostNS: 5, Rewrite: true},
		kind.Kind{ID: PassBuffer, Title: "a callee's allocation made once per iteration of a caller's loop",
			Doc: "A function that allocates a buffer of constant size on every call, which does not outlive the call, " +
				"called once per iteration of a loop in another function, allocates once per iteration; the caller can " +
				"allocate one before the loop and pass it down.",
			Scoring: kind.ScoreAlloc, CostNS: 30, Rewrite: true, Owns: true},
	)
}

// Passes returns the whole-program passes.
func Passes() []Pass {
	return []Pass{
		{
			Name: Devirt,
			Doc: `devirt: find hot interface calls with a single implementation

An interface method call in hot code whose receiver, by the whole-program
call graph (VTA), can only ever be one concrete type, while no other
implementation of the interface is ever converted to an interface value
and no type of a dependency implements it. Dependencies are read from
export data, without their code: a receiver that may come from their
code (a result, a variable, a callback's argument) is not reported,
unless the interface names a type of the module. Calling the concrete type (a field of that type, or a type switch with a
fast path) makes the call direct, so the compiler can inline it, and
arguments that escape only because the callee is unknown can stay on the
stack; the finding lists them, with the method's own inlining cost.
Reported only in packages a main package imports: the program is the
closed world, and a library (no main package among the packages checked)
is open to its importers' implementations. Not reported when the concrete
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
	// Listed, if not nil, is a listing of the packages by package load
	// ([load.List] or [load.Decode]: the roots, with their dependencies
	// through Imports and their export data compiled), as goadvise check
	// makes for its own analysis. If it lists every package to analyse,
	// the passes run no go list. They set the Types of the packages
	// they check from source, and [load.Release] them when done.
	Listed []*packages.Package
	// OpenWorld makes devirt treat the packages of the program that
	// other programs can import (not main, no "internal" element in
	// their path) as theirs too: a receiver they could supply (through an
	// exported function's parameter, an exported field, an option
	// closure, a registry) is not reported. For a module that is a
	// library as well as a program. Without it, the program that the
	// roots' main packages make is the closed world.
	OpenWorld bool
	// AssumeClosed makes devirt treat every package as the program's:
	// it reports even when no root is a main package. Without it, a
	// library (no main package among the roots) is open to any importer,
	// and devirt only counts its candidates (in Stats).
	AssumeClosed bool
	// Progress, if not nil, is told which step the passes are at, in a
	// few words ("loading", "building SSA", "call graph", "compiler
	// decisions", "passes"), from the goroutine that called Analyze.
	Progress func(step string)
	// Stats, if not nil, is filled with counts of the run.
	Stats *Stats
}

// Stats are counts of one run, for measurement.
type Stats struct {
	Packages      int // packages of the program in SSA form: those with bodies and the dependencies they import
	Bodies        int // of those, packages whose functions have bodies (checked from source)
	Functions     int // SSA functions with bodies
	Reported      int // packages reported on
	InvokeSites   int // interface method call sites in reported packages
	SingleType    int // of those, sites with exactly one concrete receiver type
	HotSingleType int // of those, in hot code
	Candidates    int // of those, with no other implementation converted to an interface (reported if the program is closed)
	DepBodies     int // packages loaded from source later, for the bodies of functions that loopalloc follows

	Load, SSA, CallGraph, Escape, Passes time.Duration // time of each phase
}

// program is the state of one analysis.
type program struct {
	ctx      context.Context
	opts     Options
	prog     *ssa.Program
	cg       *callgraph.Graph
	reported map[*types.Package]bool
	// bodies holds the packages checked from source, whose functions
	// have bodies; every other package was read from export data.
	bodies map[*types.Package]bool
	// allBodies is set when every package has bodies (std): then every
	// value is made by code the call graph sees.
	allBodies bool
	records   map[string][]optlog.Record // by import path, from Options.Escape
	warm      *optlog.Warmed             // the compiler's decisions otherwise (see recordsOf)
	recent    []cachedRecords            // recordsOf's packages, the most recent first
	escErr    error
	// converted holds the types converted to an interface in code with a
	// body, and those handed to generic code without a body as type
	// arguments (which may convert them).
	converted map[types.Type]bool
	perItem   map[*ssa.Function]string // why a function runs per item
	// fromMain holds the packages that a main package among the roots
	// imports, directly or not, and the main packages themselves.
	fromMain   map[*types.Package]bool
	all        map[*ssa.Function]bool // the functions with a body
	open       *openness              // for other programs' values; built on first use
	seen       *openness              // for values made by code without a body; built on first use
	depTypes   []types.Type           // types declared in packages without bodies; computed on first use
	depImpl    map[*types.Interface]bool
	impls      map[*types.Interface][]types.Type // the implementations converted, by interface (otherConverted)
	sealedMemo map[*types.Interface]bool
	deps       map[string]*ssa.Package // packages loaded from source on demand (see depBody), nil if they failed
	stats      *Stats
}

// Analyze runs the whole-program passes on the program made of pkgs and
// their dependencies and returns the findings, unranked.
//
// pkgs are the roots as goadvise check loaded them; only their import
// paths and directory matter, since the program is loaded again.
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
// A panic in building or analysing the program (go/ssa and VTA on code
// they do not handle) is returned as an error: the caller's other
// findings still stand.
func AnalyzePaths(ctx context.Context, importPaths []string, opts Options) (fs []report.Finding, err error) {
	defer func() {
		if r := recover(); r != nil {
			fs, err = nil, fmt.Errorf("program: internal error: %v", r)
		}
	}()
	if opts.Depth <= 0 {
		opts.Depth = 4
	}
	if opts.Progress == nil {
		opts.Progress = func(string) {}
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
	stats := opts.Stats
	if stats == nil {
		stats = new(Stats)
	}
	t0 := time.Now()
	phase := func(d *time.Duration) {
		*d = time.Since(t0)
		t0 = time.Now()
	}

	opts.Progress("loading")
	roots, err := listRoots(ctx, paths, opts)
	if err != nil {
		return nil, err
	}
	g := newGraph(roots)
	if err := g.listErrors(); err != nil {
		return nil, err
	}
	if opts.Listed == nil || !g.exported() {
		// Only the dependencies read from export data are compiled:
		// those that packages checked from source import.
		var need []*packages.Package
		seen := make(map[*packages.Package]bool)
		for _, lp := range g.order {
			if !g.source[lp] {
				continue
			}
			for _, dep := range lp.Imports {
				if !g.source[dep] && !seen[dep] && dep.ExportFile == "" && dep.PkgPath != "unsafe" {
					seen[dep] = true
					need = append(need, dep)
				}
			}
		}
		if err := load.Export(ctx, load.Config{Dir: opts.Dir, Env: opts.Env}, need); err != nil {
			return nil, fmt.Errorf("program: %w", err)
		}
	}
	phase(&stats.Load)

	// Type-check the packages with bodies in dependency order, building
	// each one's SSA as soon as it is checked, so that memory holds the
	// syntax trees and type annotations of one package at a time beside
	// the SSA (which keeps each function's syntax).
	opts.Progress("building SSA")
	fset := token.NewFileSet()
	prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	var checked []*packages.Package
	defer func() { load.Release(checked) }()
	err = load.CheckProgram(ctx, fset, roots, func(lp *packages.Package) bool { return g.source[lp] }, func(lp *packages.Package, imported []*types.Package) error {
		checked = append(checked, lp)
		if len(lp.Errors) > 0 {
			return fmt.Errorf("program: packages do not load: %s", packageErrors(lp))
		}
		for _, t := range imported {
			prog.CreatePackage(t, nil, nil, true)
		}
		pruneTables(lp.Syntax, lp.TypesInfo)
		prog.CreatePackage(lp.Types, lp.Syntax, lp.TypesInfo, true).Build()
		pruneInfo(lp.Syntax, lp.TypesInfo)
		pruneBodies(lp.Syntax)
		return nil
	})
	if err != nil {
		return nil, err
	}
	phase(&stats.SSA)

	p := &program{ctx: ctx, opts: opts, prog: prog, stats: stats,
		reported: make(map[*types.Package]bool),
		bodies:   make(map[*types.Package]bool),
		fromMain: make(map[*types.Package]bool),
		deps:     make(map[string]*ssa.Package),
	}
	p.allBodies = true
	for _, lp := range g.order {
		if !g.source[lp] && lp.PkgPath != "unsafe" {
			p.allBodies = false
		}
	}
	var repPaths []string
	for _, lp := range checked {
		p.bodies[lp.Types] = true
		if g.reported[lp] {
			p.reported[lp.Types] = true
			repPaths = append(repPaths, lp.PkgPath)
		}
		if g.fromMain[lp] {
			p.fromMain[lp.Types] = true
		}
	}
	sort.Strings(repPaths)
	return p.analyze(repPaths, phase)
}

// functions returns the functions with a body that the program may run,
// and the functions that VTA must know as possible callees. The first are
// every function and method of the packages with bodies (whether or not
// anything refers to them: code without a body may call a method of a
// type given to it as a type argument), the functions they refer to, and
// the methods (with their wrappers) of the types that they convert to
// interfaces. The second add the methods without bodies of those types.
// VTA keeps only the callees of a call through an interface or function
// value that its initial call graph (here CHA over the same functions)
// has, so every method of a type whose values the code converts must be
// among them; the types are all it can propagate. This is
// ssautil.AllFunctions without the methods of every type that
// dependencies read from export data make available to reflection, which
// on golang.org/x/tools made a tenth of the memory.
func (p *program) functions() (bodies, vtaFuncs map[*ssa.Function]bool) {
	seen := make(map[*ssa.Function]bool)
	var queue []*ssa.Function
	function := func(fn *ssa.Function) {
		if fn != nil && !seen[fn] {
			seen[fn] = true
			queue = append(queue, fn)
		}
	}
	methodsDone := make(map[types.Type]bool)
	methodsOf := func(t types.Type) {
		if types.IsInterface(t) || methodsDone[t] {
			return
		}
		methodsDone[t] = true
		mset := p.prog.MethodSets.MethodSet(t)
		for sel := range mset.Methods() {
			if sel.Obj().(*types.Func).Signature().TypeParams() == nil {
				function(p.prog.MethodValue(sel))
			}
		}
	}
	for _, pkg := range p.prog.AllPackages() {
		if !p.bodies[pkg.Pkg] {
			continue
		}
		for _, mem := range pkg.Members {
			switch mem := mem.(type) {
			case *ssa.Function:
				function(mem)
			case *ssa.Type:
				if named, ok := mem.Type().(*types.Named); ok && named.TypeParams() == nil {
					methodsOf(named)
					methodsOf(types.NewPointer(named))
				}
			}
		}
	}
	var ops []*ssa.Value
	for len(queue) > 0 {
		fn := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mi, ok := instr.(*ssa.MakeInterface); ok {
					methodsOf(mi.X.Type())
				}
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if f, ok := (*op).(*ssa.Function); ok {
						function(f)
					}
				}
			}
		}
		for _, anon := range fn.AnonFuncs {
			function(anon)
		}
	}
	bodies = make(map[*ssa.Function]bool)
	for fn := range seen {
		if len(fn.Blocks) > 0 {
			bodies[fn] = true
		}
	}
	return bodies, seen
}

// minTable is the number of constants from which pruneTables empties a
// package-level table.
const minTable = 256

// pruneTables empties the composite literals that initialise package-level
// variables with tables of constants, at least minTable of them, before
// the SSA is built: golang.org/x/tools/internal/stdlib's table of the
// standard library's symbols made half of all the SSA instructions of
// golang.org/x/tools. Such a table holds no interface or function value
// and runs once, at init, so it is nothing to the passes: it converts no
// type to an interface and calls nothing, and loopalloc looks at loops.
// The literal keeps its type: the variable is still initialised, empty.
func pruneTables(files []*ast.File, info *types.Info) {
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					if lit, ok := ast.Unparen(v).(*ast.CompositeLit); ok {
						if n, ok := constantTable(lit, info); ok && n >= minTable {
							lit.Elts = nil
						}
					}
				}
			}
		}
	}
}

// constantTable reports whether a composite literal holds only constants
// (in nested literals too), and how many, and whether its type and those
// of the nested literals hold no interface, function or channel.
func constantTable(lit *ast.CompositeLit, info *types.Info) (int, bool) {
	tv, ok := info.Types[lit]
	if !ok || !plainData(tv.Type, make(map[types.Type]bool)) {
		return 0, false
	}
	_, isStruct := tv.Type.Underlying().(*types.Struct)
	n := 0
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if !isStruct {
				// A map key or an array index.
				c, ok := constantElem(kv.Key, info)
				if !ok {
					return 0, false
				}
				n += c
			}
			e = kv.Value
		}
		c, ok := constantElem(e, info)
		if !ok {
			return 0, false
		}
		n += c
	}
	return n, true
}

// constantElem is constantTable for an element of a composite literal: a
// constant, a nested literal or its address.
func constantElem(e ast.Expr, info *types.Info) (int, bool) {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		return constantTable(lit, info)
	}
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return 1, true
	}
	return 0, false
}

// plainData reports whether values of type t hold no interface, function
// or channel, directly or in their elements and fields.
func plainData(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Pointer:
		return plainData(u.Elem(), seen)
	case *types.Slice:
		return plainData(u.Elem(), seen)
	case *types.Array:
		return plainData(u.Elem(), seen)
	case *types.Map:
		return plainData(u.Key(), seen) && plainData(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !plainData(u.Field(i).Type(), seen) {
				return false
			}
		}
		return true
	}
	return false
}

// pruneBodies drops the statements of the function bodies (and function
// literals) of files whose SSA is built: each ssa.Function keeps its
// syntax, but the passes only read its positions (which the declaration,
// or the literal's type, and the body's braces keep), and the SSA builder
// needs the bodies of generic functions only, from which it builds
// instances on demand. On golang.org/x/tools this frees most of the
// syntax trees, a sixth of the program's memory.
func pruneBodies(files []*ast.File) {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && (fd.Type.TypeParams != nil || (fd.Recv != nil && genericRecv(fd.Recv))) {
				continue // generic
			}
			var bodies []*ast.BlockStmt
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					if n.Body != nil {
						bodies = append(bodies, n.Body)
					}
				case *ast.FuncLit:
					bodies = append(bodies, n.Body)
				}
				return true
			})
			for _, b := range bodies {
				b.List = nil
			}
		}
	}
}

// pruneInfo drops, once a package's SSA is built, the type annotations of
// the syntax outside its generic functions. go/ssa keeps a package's
// types.Info as long as the package has a generic function, to build its
// instances on demand from the function's syntax, and it only looks up
// that syntax: the rest of the annotations, of every other function of
// the package, are kept for nothing (on golang.org/x/tools, a sixth of
// the program's memory). The maps are replaced, not emptied, since a Go
// map keeps its size.
func pruneInfo(files []*ast.File, info *types.Info) {
	type span struct{ from, to token.Pos }
	var keep []span
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && (fd.Type.TypeParams != nil || (fd.Recv != nil && genericRecv(fd.Recv))) {
				keep = append(keep, span{fd.Pos(), fd.End()})
			}
		}
	}
	if len(keep) == 0 {
		return // go/ssa keeps nothing of info
	}
	in := func(n ast.Node) bool {
		pos := n.Pos()
		for _, s := range keep {
			if s.from <= pos && pos < s.to {
				return true
			}
		}
		return false
	}
	info.Types = filterMap(info.Types, in)
	info.Defs = filterMap(info.Defs, in)
	info.Uses = filterMap(info.Uses, in)
	info.Implicits = filterMap(info.Implicits, in)
	info.Instances = filterMap(info.Instances, in)
	info.Scopes = filterMap(info.Scopes, in)
	info.Selections = filterMap(info.Selections, in)
}

// filterMap returns a new map of the entries of m whose key keep accepts.
func filterMap[K interface {
	ast.Node
	comparable
}, V any](m map[K]V, keep func(ast.Node) bool) map[K]V {
	out := make(map[K]V)
	for k, v := range m {
		if keep(k) {
			out[k] = v
		}
	}
	return out
}

// genericRecv reports whether a method's receiver is a generic type
// (func (b *Box[T]) ...).
func genericRecv(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr, *ast.IndexListExpr:
			return true
		default:
			return false
		}
	}
}

// listRoots returns the packages with the given import paths, with their
// dependencies through Imports: from opts.Listed if it has them all, or
// else listed (without compiling anything).
func listRoots(ctx context.Context, paths []string, opts Options) ([]*packages.Package, error) {
	if opts.Listed != nil {
		byPath := make(map[string]*packages.Package)
		packages.Visit(opts.Listed, nil, func(lp *packages.Package) { byPath[lp.PkgPath] = lp })
		var roots []*packages.Package
		for _, path := range paths {
			if lp := byPath[path]; lp != nil {
				roots = append(roots, lp)
			}
		}
		if len(roots) == len(paths) {
			return roots, nil
		}
	}
	listed, err := load.List(ctx, load.Config{Dir: opts.Dir, Env: opts.Env, NoExport: true}, paths...)
	if err != nil {
		return nil, fmt.Errorf("program: loading %s: %w", strings.Join(paths, " "), err)
	}
	if len(listed.Roots) == 0 {
		return nil, fmt.Errorf("program: no packages match %s", strings.Join(paths, " "))
	}
	return listed.Roots, nil
}

// A graph is the listed program: which packages are reported on, which
// are checked from source (have bodies), which a main package imports.
type graph struct {
	roots    []*packages.Package
	order    []*packages.Package // every package, dependencies first
	reported map[*packages.Package]bool
	source   map[*packages.Package]bool
	fromMain map[*packages.Package]bool
}

// newGraph decides what is loaded how. The packages reported on are those
// of the roots' main module, or the roots themselves outside a module
// (std). They are checked from source, with the packages that import them
// (a module's dependency may import it back): then no package read from
// export data refers to one with bodies, and no code without a body calls
// a function of a reported package except through a function value or an
// interface (or a type parameter). Every other package is read from export
// data.
func newGraph(roots []*packages.Package) *graph {
	g := &graph{roots: roots, reported: make(map[*packages.Package]bool), source: make(map[*packages.Package]bool), fromMain: make(map[*packages.Package]bool)}
	mainMod := ""
	isRoot := make(map[*packages.Package]bool)
	var mains []*packages.Package
	for _, r := range roots {
		isRoot[r] = true
		if r.Module != nil && r.Module.Main && mainMod == "" {
			mainMod = r.Module.Path
		}
		if r.Name == "main" {
			mains = append(mains, r)
		}
	}
	packages.Visit(roots, nil, func(lp *packages.Package) {
		g.order = append(g.order, lp)
		switch {
		case lp.PkgPath == "unsafe":
			// Not a package of source code: go/types provides it.
		case mainMod != "":
			g.reported[lp] = lp.Module != nil && lp.Module.Main && lp.Module.Path == mainMod
		default:
			g.reported[lp] = isRoot[lp]
		}
		// Dependencies come first: the packages it imports are decided.
		g.source[lp] = g.reported[lp]
		for _, dep := range lp.Imports {
			g.source[lp] = g.source[lp] || g.source[dep]
		}
	})
	packages.Visit(mains, nil, func(lp *packages.Package) { g.fromMain[lp] = true })
	return g
}

// listErrors reports the packages that go list could not list or
// compile, among those checked from source and those they import.
func (g *graph) listErrors() error {
	var msgs []string
	seen := make(map[*packages.Package]bool)
	note := func(lp *packages.Package) {
		if !seen[lp] && len(lp.Errors) > 0 {
			seen[lp] = true
			msgs = append(msgs, packageErrors(lp))
		}
	}
	for _, lp := range g.order {
		if g.source[lp] {
			note(lp)
			for _, dep := range lp.Imports {
				note(dep)
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	if len(msgs) > 5 {
		msgs = append(msgs[:5], fmt.Sprintf("and %d more", len(msgs)-5))
	}
	return fmt.Errorf("program: packages do not load: %s", strings.Join(msgs, "; "))
}

// exported reports whether every package imported by a package checked
// from source has its export data.
func (g *graph) exported() bool {
	for _, lp := range g.order {
		if g.source[lp] {
			for _, dep := range lp.Imports {
				if !g.source[dep] && dep.ExportFile == "" && dep.PkgPath != "unsafe" {
					return false
				}
			}
		}
	}
	return true
}

// packageErrors describes a package's errors in one line: its path and
// the first errors.
func packageErrors(lp *packages.Package) string {
	var msgs []string
	for i, e := range lp.Errors {
		if i == 5 {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(lp.Errors)-5))
			break
		}
		msgs = append(msgs, e.Msg)
	}
	return lp.PkgPath + ": " + strings.Join(msgs, "; ")
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

// analyze computes the call graph and runs the passes on the built
// program.
func (p *program) analyze(repPaths []string, phase func(*time.Duration)) ([]report.Finding, error) {
	ctx, stats := p.ctx, p.stats
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.opts.Progress("call graph")
	// VTA runs over the functions with bodies only: those of the
	// packages checked from source and the synthetic wrappers. A value
	// that comes out of code without a body is not seen, so the passes
	// treat it as unknown (see package openness).
	var vtaFuncs map[*ssa.Function]bool
	p.all, vtaFuncs = p.functions()
	// VTA's initial call graph is CHA over the same functions, computed
	// lazily for the sites it needs.
	p.cg = vta.CallGraph(vtaFuncs, nil)
	// Synthetic wrappers (promoted and bound methods, thunks) are kept:
	// their receiver types are the types of the values at call sites.
	// singleCallee looks through them.
	p.converted = p.convertedTypes()
	p.perItem = p.perItemFuncs(p.all)
	phase(&stats.CallGraph)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	if p.enabled(LoopAlloc) || p.enabled(Devirt) {
		p.opts.Progress("compiler decisions")
		p.loadEscape(ctx, repPaths)
		if p.warm != nil {
			defer p.warm.Close()
		}
	}
	phase(&stats.Escape)
	stats.Packages = len(p.prog.AllPackages())
	stats.Bodies = len(p.bodies)
	stats.Functions = len(p.all)
	stats.Reported = len(repPaths)

	p.opts.Progress("passes")
	// Functions of reported packages, in a deterministic order.
	var funcs []*ssa.Function
	for fn := range p.all {
		if fn.Pkg != nil && p.reported[fn.Pkg.Pkg] && fn.Syntax() != nil && !isWrapper(fn) {
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

// loadEscape makes the compiler's decisions for the reported packages
// available to recordsOf: from opts.Escape, or compiled for those not in
// goadvise's cache yet (goadvise check has done that) and read from the
// cache as the passes need them.
func (p *program) loadEscape(ctx context.Context, paths []string) {
	if res := p.opts.Escape; res != nil {
		p.records = make(map[string][]optlog.Record)
		for _, r := range res {
			if !r.Test && r.Err == "" {
				p.records[r.ImportPath] = r.Records
			}
		}
		return
	}
	w, err := optlog.Warm(ctx, optlog.LoadOptions{Dir: p.opts.Dir, Patterns: paths, Env: p.opts.Env})
	if err != nil {
		p.escErr = err
		return
	}
	p.warm = w
}

// recentRecords is how many packages' decisions recordsOf keeps: the
// passes visit the functions package by package.
const recentRecords = 8

// recordsOf returns the compiler's decisions for the package with the
// given import path, and whether they are known, keeping those of the
// last few packages asked for rather than all: on golang.org/x/tools all
// made a tenth of the memory.
func (p *program) recordsOf(path string) ([]optlog.Record, bool) {
	if p.records != nil || p.warm == nil {
		recs, ok := p.records[path]
		return recs, ok
	}
	for i, r := range p.recent {
		if r.path == path {
			copy(p.recent[1:i+1], p.recent[:i])
			p.recent[0] = r
			return r.records, r.ok
		}
	}
	recs, err := p.warm.Records(path)
	if len(p.recent) < recentRecords {
		p.recent = append(p.recent, cachedRecords{})
	}
	copy(p.recent[1:], p.recent)
	p.recent[0] = cachedRecords{path, recs, err == nil}
	return recs, err == nil
}

// cachedRecords are a package's decisions, kept by recordsOf.
type cachedRecords struct {
	path    string
	records []optlog.Record
	ok      bool
}

// position converts a token.Pos of the program.
func (p *program) position(pos token.Pos) token.Position { return p.prog.Fset.Position(pos) }

// finding builds a finding with the fields f located at pos in fn.
func (p *program) finding(fn *ssa.Function, pos token.Pos, f kind.Fields) report.Finding {
	ps := p.position(pos)
	kind.Complete(&f)
	r := report.Finding{
		Analyzer: f.Kind.Analyzer(),
		File:     ps.Filename,
		Line:     ps.Line,
		Column:   ps.Column,
		Function: funcname.OfSSA(fn),
		Message:  f.Message(),
		Fixes:    []report.Fix{},
		Fields:   f,
	}
	if fn.Pkg != nil {
		r.Package = fn.Pkg.Pkg.Path()
	}
	return r
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
