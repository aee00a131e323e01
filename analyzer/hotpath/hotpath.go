// Package hotpath defines an Analyzer that estimates, for every position in
// a package, how often the code there runs. Other goadvise analyzers require
// it and use its result to rank and filter their findings.
//
// Without a profile the estimate is static and coarse: code inside a loop
// is [Loop], unless it is in a block that leaves the function (it ends in
// a return or a panic, with no break, continue or goto), which runs once
// per call however long the loop; a function that is called from a loop
// in the same package, or a method whose name marks per-item work (Read,
// Next, ServeHTTP, Parse*, ..., but not ParseConfig), is [PerItem];
// code with no evidence either way (exported API, callbacks) is
// [Unknown]. Code that runs once or rarely is [Cold]
// whatever its loops or names say: init, package-level initialisers,
// sync.Once bodies, flag registration, main outside its loops, error
// paths (returning an error, panicking, exiting, recovering, logging a
// warning or an error, building an error value, an error type's Error
// method; see errpath.go and once.go), the
// handling of an OS signal (a select case receiving from, or a range
// over, a channel of os.Signal), trace and debug output (the block of
// "if trace {"), functions no other package can call (and unexported
// methods that no interface of the package names) whose only callers are
// such code or tests, functions, methods and function literals that
// take a *testing.T, *testing.B, *testing.F or testing.TB, or an
// interface of testing.TB's methods that asks for Helper (a test
// reporter such as testify's), which only tests can call, the functions of a non-test file that uses package
// testing for more than testing.Testing (a fake server for tests), and
// the whole of a package of test support such as .../e2e or
// .../testutil, of examples (.../examples/chat) or of a benchmark harness
// (.../benchmark) below the module's path (see once.go). Profile-based hotness is added through the
// same result, so analyzers never need to know which one they got.
package hotpath

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/goadvise/goadvise/analyzer/internal/gen"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/pgo"
)

// Analyzer computes the hot-path estimate of a package.
var Analyzer = &analysis.Analyzer{
	Name:             "hotpath",
	Doc:              "estimate which code runs per item or in loops (used by other goadvise analyzers)",
	URL:              "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/hotpath",
	Run:              run,
	Requires:         []*analysis.Analyzer{inspect.Analyzer},
	ResultType:       reflect.TypeFor[*Result](),
	RunDespiteErrors: true,
}

// Tier is a coarse estimate of how often code runs. Larger is hotter.
type Tier int

// The tiers, from coldest to hottest.
const (
	Cold    Tier = iota // runs rarely, on evidence: set-up, error paths, main, tests
	Unknown             // no evidence either way: exported API, code reached through values
	PerItem             // runs once per item of work (a request, a message, a record)
	Loop                // runs once per iteration of a loop
)

func (t Tier) String() string {
	switch t {
	case Loop:
		return "hot-loop"
	case PerItem:
		return "per-item"
	case Unknown:
		return "unknown"
	default:
		return "cold"
	}
}

// Info describes the hotness of one position.
type Info struct {
	Tier   Tier
	Reason string // why, in a few words: "inside a loop", "method Next runs per item"
	Func   string // the enclosing named function, e.g. "(*Reader).Next"; empty at package level
}

// Result answers hotness questions for one package.
type Result struct {
	prof *pgo.Hotness // nil without a profile
	cold bool         // the run reports findings in cold code (see With)
	// generated says the run analyses generated files (see With).
	generated bool
	pkg       string // package path, to name functions as profiles do
	fset      *token.FileSet
	funcs     []funcSpan // sorted by pos
	loops     []loopSpan // loop bodies, sorted by pos
	exits     []loopSpan // blocks that leave the function (see exitBlocks), sorted by pos
	calls     map[*types.Func]string
	// xcalls are the calls for the package's summary (see Summary).
	xcalls []Call

	regions   []region              // code that runs once, and holes; sorted by pos
	regionEnd []token.Pos           // regionEnd[i]: the largest end of regions[:i+1]
	class     map[*types.Func]class // functions that run once
	coldPkg   string                // the reason all the package's code is cold: test support, examples, benchmark harnesses
}

type span struct{ pos, end token.Pos }

// A loopSpan is a loop body or an exit block, with the start of the
// function (declaration or literal) it belongs to: a return leaves only
// that function.
type loopSpan struct {
	span
	owner token.Pos
}

type funcSpan struct {
	span
	name   string
	obj    *types.Func // nil for function literals
	perItm string      // non-empty if the name marks per-item work
}

// PerItemNames are method names that conventionally do one unit of work per
// call. Names ending in a listed prefix's wildcard ("Handle*") match by prefix.
var PerItemNames = []string{
	"Read", "ReadByte", "ReadRune", "ReadString", "ReadLine", "ReadMsg", "ReadMessage",
	"Write", "WriteByte", "WriteRune", "WriteString", "WriteTo", "ReadFrom",
	"Next", "Message", "Scan", "Encode", "Decode", "Marshal", "Unmarshal",
	"MarshalJSON", "UnmarshalJSON", "MarshalBinary", "UnmarshalBinary",
	"Equal", "Less", "Compare", "Hash", "Sum", "Len", "Swap",
	"ServeHTTP", "Serve", "Handle*", "Process*", "Parse*", "Get", "Set", "Put", "Lookup",
}

// PerItemName reports whether a function or method name marks per-item
// work (see PerItemNames). A name matched by a prefix is not, when the
// prefix is only the start of a longer word (HandlerFor, a constructor of
// Prometheus' handlers; Processor) or a word after the prefix names
// set-up work: ProcessSignal, ParseConfig, HandleFlags, HandleFunc
// (nats-server's ProcessSignal reloads the configuration; pgx's
// ParseConfig runs once per pool; a mux's HandleFunc registers a handler).
func PerItemName(name string) bool {
	for _, p := range PerItemNames {
		if pre, ok := strings.CutSuffix(p, "*"); ok {
			// The prefix is a word of its own: HandleConn, not
			// HandlerFor (a constructor) or Processor.
			rest, ok := strings.CutPrefix(name, pre)
			if ok && (rest == "" || !unicode.IsLower(rune(rest[0]))) && !namesSetup(rest) {
				return true
			}
		} else if name == p {
			return true
		}
	}
	return false
}

// setupWords are the words of a name that say it does set-up work, not
// work per item.
var setupWords = []string{"Config", "Configs", "Conf", "Signal", "Signals", "Flag", "Flags",
	"Option", "Options", "Opts", "Setting", "Settings", "Env", "Args", "DSN", "Init", "Setup", "Reload", "Func"}

// namesSetup reports whether the mixedCaps name has a word of setupWords,
// one followed by the end of the name or an upper-case letter:
// "ConfigFile" and "DSN" do, "Envelope" does not.
func namesSetup(name string) bool {
	for _, w := range setupWords {
		for i := 0; ; {
			j := strings.Index(name[i:], w)
			if j < 0 {
				break
			}
			end := i + j + len(w)
			if end == len(name) || 'A' <= name[end] && name[end] <= 'Z' {
				return true
			}
			i += j + 1
		}
	}
	return false
}

// At reports the hotness of the code at pos. With a profile, a function
// the profile never saw run is cold (unless the profile is partial, the
// module's own benchmarks: then it keeps its static tier), one with at
// least HotShare of the CPU under it is hot-loop, and the others keep their
// static tier; the reason then gives the measured share. Code on an error
// path stays cold.
func (r *Result) At(pos token.Pos) Info {
	info := r.static(pos)
	if r.prof == nil || info.Func == "" {
		return info
	}
	if reg := r.region(pos); reg != nil && reg.kind == errPath {
		// A profile measures whole functions: an error path in a hot
		// function is no hotter for it.
		return info
	}
	w := r.prof.Func(r.pkg + "." + info.Func)
	switch {
	case w.Cum == 0 && r.heapSaw(pos):
		// No CPU sample, but the heap profile counted allocations at
		// this line (a short benchmark of check -bench): it ran.
		if info.Reason != "" {
			info.Reason += "; "
		}
		info.Reason += "the heap profile saw it allocate"
	case w.Cum == 0 && r.prof.Partial():
		// The module's own benchmarks do not run it: that says nothing
		// of how often a program does.
		if info.Reason != "" {
			info.Reason += "; "
		}
		info.Reason += "no benchmark runs it"
	case w.Cum == 0:
		info.Tier, info.Reason = Cold, "never sampled in the profile"
	case w.Cum >= HotShare:
		info.Tier, info.Reason = Loop, fmt.Sprintf("profile: %.1f%% of CPU in %s", w.Cum*100, info.Func)
	default:
		if info.Reason != "" {
			info.Reason += "; "
		}
		info.Reason += fmt.Sprintf("profile: %.2f%% of CPU in %s", w.Cum*100, info.Func)
	}
	return info
}

// heapSaw reports whether the heap profile counted allocations at the
// line of pos.
func (r *Result) heapSaw(pos token.Pos) bool {
	p := r.fset.Position(pos)
	_, objects := r.prof.HeapLine(p.Filename, p.Line)
	return objects > 0
}

// ByCallers reports whether fn runs per item because of where the
// package calls it (in a loop, or from per-item code), rather than by its
// own name or kind.
func (r *Result) ByCallers(fn *types.Func) bool {
	_, ok := r.calls[fn]
	return ok
}

// Profiled reports whether the result comes from a profile.
func (r *Result) Profiled() bool { return r.prof != nil }

// With returns the result as a run of the analyzers configured by a
// driver sees it: with the profile prof deciding hotness, if it is not
// nil, reporting findings in cold code if cold (see ColdReported), and
// analysing generated files if generated (see GeneratedAnalysed). It
// is how package suite hands each analyzer the driver's configuration:
// r itself is not changed.
func (r *Result) With(prof *pgo.Hotness, cold, generated bool) *Result {
	w := *r
	if prof != nil {
		w.prof = prof
	}
	w.cold = w.cold || cold
	w.generated = w.generated || generated
	return &w
}

// Skip reports whether an analyzer skips the file f of pass: a generated
// file (gen.IsGenerated), unless the driver analyses generated files as
// the rest (GeneratedAnalysed of the hot-path result the pass has, when
// the analyzer requires this one).
func Skip(pass *analysis.Pass, f *ast.File) bool {
	if hot, ok := pass.ResultOf[Analyzer].(*Result); ok && hot.GeneratedAnalysed() {
		return false
	}
	return gen.IsGenerated(pass, f)
}

// GeneratedAnalysed reports whether the run analyses generated files as
// the rest (the driver's configuration): their code runs like any other,
// and its cost is real, though the change belongs in the generator.
func (r *Result) GeneratedAnalysed() bool { return r.generated }

// ColdReported reports whether the run reports findings in cold code
// (-hotpath.cold, or the driver's configuration): an analyzer may spare
// itself explaining those it would otherwise drop.
func (r *Result) ColdReported() bool { return r.cold }

func (r *Result) static(pos token.Pos) Info {
	var info Info
	fn := r.enclosing(pos)
	if fn != nil {
		info.Func = fn.name
	}
	if r.coldPkg != "" {
		info.Reason = r.coldPkg
		return info
	}
	loop := r.inLoop(pos)
	// Code that runs once is cold, whatever its name or callers say; in a
	// hole (a function literal run elsewhere), the function's estimate
	// holds.
	reg := r.region(pos)
	var c class
	switch {
	case reg == nil:
		if fn != nil && fn.obj != nil {
			c = r.class[fn.obj]
		}
	case reg.kind != hole:
		c = class{reg.kind, reg.reason}
	case r.testHelper(fn):
		// A function literal made by a test helper runs in tests only.
		c = r.class[fn.obj]
	case reg.local:
		// A local helper runs when the code around it calls it: once,
		// where that code runs once whatever its loops.
		if k, _ := r.context(reg.pos - 1); k == startup || k == errPath || r.setupNamedAt(reg.pos-1) {
			return r.static(reg.pos - 1)
		}
	}
	if c.kind == startup || c.kind == errPath || (c.kind == mainOnce && !loop) {
		info.Reason = c.reason
		return info
	}
	if c.kind == setupNamed {
		info.Tier, info.Reason = Unknown, c.reason
		return info
	}
	if loop {
		info.Tier, info.Reason = Loop, "inside a loop"
		return info
	}
	if fn == nil {
		info.Tier, info.Reason = Unknown, unknownLit
		return info
	}
	if why, ok := r.calls[fn.obj]; ok && fn.obj != nil {
		info.Tier, info.Reason = PerItem, why
		return info
	}
	if fn.perItm != "" {
		info.Tier, info.Reason = PerItem, fn.perItm
		return info
	}
	info.Tier, info.Reason = Unknown, r.unknownReason(fn, reg != nil && reg.kind == hole)
	return info
}

// The reasons of code about which nothing says how often it runs.
const (
	unknownLit      = "in a function literal run elsewhere: how often is not known"
	unknownExported = "exported: how often its callers run it is not known"
	unknownLocal    = "no loop or per-item code of the package calls it"
	unknownMethod   = "a method other packages may call through an interface: how often is not known"
)

// exportedType reports whether a receiver type is exported (through a
// pointer).
func exportedType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Exported()
}

// unknownReason says why the code of fn (in a function literal that runs
// elsewhere, if inLit) has no estimate.
func (r *Result) unknownReason(fn *funcSpan, inLit bool) string {
	switch {
	case inLit:
		return unknownLit
	case fn.obj != nil && fn.obj.Exported() && fn.obj.Pkg() != nil && fn.obj.Pkg().Name() != "main":
		if recv := fn.obj.Type().(*types.Signature).Recv(); recv != nil && !exportedType(recv.Type()) {
			return unknownMethod
		}
		return unknownExported
	}
	return unknownLocal
}

// FuncTier reports the tier of a whole function, as if at its first statement
// but outside any loop.
func (r *Result) FuncTier(fn *types.Func) Info {
	for i := range r.funcs {
		if r.funcs[i].obj == fn {
			f := &r.funcs[i]
			info := Info{Func: f.name}
			if r.coldPkg != "" {
				info.Reason = r.coldPkg
				return info
			}
			if c, ok := r.class[fn]; ok {
				info.Reason = c.reason
				if c.kind == setupNamed {
					info.Tier = Unknown
				}
			} else if why, ok := r.calls[fn]; ok {
				info.Tier, info.Reason = PerItem, why
			} else if f.perItm != "" {
				info.Tier, info.Reason = PerItem, f.perItm
			} else {
				info.Tier, info.Reason = Unknown, r.unknownReason(f, false)
			}
			return info
		}
	}
	return Info{}
}

// enclosing returns the function declaration containing pos, or nil.
// Declarations do not nest, so it is the last one starting at or before
// pos, if it ends after it.
func (r *Result) enclosing(pos token.Pos) *funcSpan {
	i := sort.Search(len(r.funcs), func(i int) bool { return r.funcs[i].pos > pos })
	if i > 0 && pos < r.funcs[i-1].end {
		return &r.funcs[i-1]
	}
	return nil
}

func (r *Result) inLoop(pos token.Pos) bool {
	i := sort.Search(len(r.loops), func(i int) bool { return r.loops[i].pos > pos })
	for j := i - 1; j >= 0; j-- {
		if l := r.loops[j]; pos < l.end && !r.exitsLoop(pos, l) {
			return true
		}
	}
	return false
}

// exitsLoop reports whether pos, inside loop l, is in an exit block within
// l of the same function: the code there runs at most once per call of
// the function, however many times l iterates.
func (r *Result) exitsLoop(pos token.Pos, l loopSpan) bool {
	i := sort.Search(len(r.exits), func(i int) bool { return r.exits[i].pos > pos })
	for j := i - 1; j >= 0 && r.exits[j].pos >= l.pos; j-- {
		if e := r.exits[j]; pos < e.end && e.owner == l.owner {
			return true
		}
	}
	return false
}

// exitBlocks returns the blocks and case bodies that end in a return or a
// call of panic and have no break, continue or goto in them (outside
// function literals): once such a block starts, the function is left
// before any loop around it iterates again. A match found in a loop and
// returned, or an error built just before returning it, runs once per call.
func exitBlocks(root inspector.Cursor) []loopSpan {
	var exits []loopSpan
	add := func(c inspector.Cursor, pos, end token.Pos, list []ast.Stmt) {
		if len(list) == 0 || !leaves(list[len(list)-1]) || hasJump(list) {
			return
		}
		exits = append(exits, loopSpan{span{pos, end}, ownerOf(c)})
	}
	for c := range root.Preorder((*ast.BlockStmt)(nil), (*ast.CaseClause)(nil), (*ast.CommClause)(nil)) {
		switch n := c.Node().(type) {
		case *ast.BlockStmt:
			add(c, n.Lbrace, n.Rbrace, n.List)
		case *ast.CaseClause:
			add(c, n.Colon, n.End(), n.Body)
		case *ast.CommClause:
			add(c, n.Colon, n.End(), n.Body)
		}
	}
	return exits
}

// ownerOf returns the start of the function declaration or literal that
// contains c.
func ownerOf(c inspector.Cursor) token.Pos {
	for f := range c.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return f.Node().Pos()
	}
	return token.NoPos
}

// leaves reports whether s leaves the function: a return, or a call of
// the builtin panic (not shadowed: a local panic function is rare enough).
func leaves(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := call.Fun.(*ast.Ident)
		return ok && id.Name == "panic"
	}
	return false
}

// hasJump reports whether list has a break, continue or goto outside
// function literals that may leave the block other than by its end: a
// continue could run the block's first statements again in the next
// iteration. A break or continue without a label inside a loop of the
// block, or a break without a label inside its switch or select, stays
// there; a goto or a labeled one may not.
func hasJump(list []ast.Stmt) bool {
	found := false
	var walk func(n ast.Node, inLoop, inSwitch bool)
	walk = func(n ast.Node, inLoop, inSwitch bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, true, inSwitch)
					return false
				}
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, inLoop, true)
					return false
				}
			case *ast.BranchStmt:
				switch {
				case m.Tok == token.FALLTHROUGH:
				case m.Label != nil || m.Tok == token.GOTO:
					found = true
				case m.Tok == token.CONTINUE && !inLoop:
					found = true
				case m.Tok == token.BREAK && !inLoop && !inSwitch:
					found = true
				}
			}
			return !found
		})
	}
	walk(&ast.BlockStmt{List: list}, false, false)
	return found
}

// The profile seam. A driver that has loaded profiles itself hands them
// to the analyzers through [Result.With] (package suite does); otherwise
// the -profile flag names profiles that the analyzer loads once per
// process (go vet runs one process per package).
var (
	profileFlag string
	profMu      sync.Mutex
	prof        *pgo.Hotness
	profErr     error
	profLoaded  bool
)

func init() {
	Analyzer.Flags.StringVar(&profileFlag, "profile", "", "comma-separated CPU `profiles` that decide hotness instead of the static estimate")
	Analyzer.Flags.BoolVar(&reportCold, "cold", false, "also report findings in cold code (goadvise check counts them, and shows them with -cold)")
	Analyzer.Flags.BoolVar(&reportAll, "all", false, "report every finding of each package, not only the highest ranked (at most 3 per 1,000 lines per analyzer)")
}

// reportAll is the value of the Analyzer's -all flag.
var reportAll bool

// ReportAll reports whether -hotpath.all asks for every finding: otherwise
// the analyzers of package suite report only the highest ranked of each
// package, unless their driver asks for all (see suite.Visibility).
func ReportAll() bool { return reportAll }

// reportCold is the value of the Analyzer's -cold flag.
var reportCold bool

// ReportCold reports whether -hotpath.cold asks for the findings in cold
// code: otherwise the analyzers of package suite drop them, unless their
// driver asks for them (see suite.Visibility).
func ReportCold() bool { return reportCold }

func loadProfile() (*pgo.Hotness, error) {
	profMu.Lock()
	defer profMu.Unlock()
	if !profLoaded && profileFlag != "" {
		profLoaded = true
		prof, profErr = pgo.LoadHotness(context.Background(), strings.Split(profileFlag, ","), pgo.LoadOptions{})
	}
	return prof, profErr
}

// HotShare is the share of CPU (cumulative, in a function) from which a
// profile makes a function hot-loop tier.
const HotShare = 0.05

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	p, err := loadProfile()
	if err != nil {
		return nil, err
	}
	r := &Result{prof: p, cold: reportCold, pkg: pass.Pkg.Path(), fset: pass.Fset, calls: make(map[*types.Func]string)}

	// Function declarations and loop bodies, with the function each loop
	// belongs to (see exitsLoop).
	for c := range ins.Root().Preorder((*ast.FuncDecl)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		switch n := c.Node().(type) {
		case *ast.FuncDecl:
			obj, _ := pass.TypesInfo.Defs[n.Name].(*types.Func)
			if n.Body == nil || obj == nil {
				continue
			}
			f := funcSpan{span: span{n.Pos(), n.End()}, name: funcname.InPackage(obj), obj: obj}
			if PerItemName(obj.Name()) && !flagSetter(obj) {
				f.perItm = "method " + obj.Name() + " runs per item"
				if n.Recv == nil {
					f.perItm = "function " + obj.Name() + " runs per item"
				}
			} else if httpHandler(obj.Type().(*types.Signature)) {
				f.perItm = "an HTTP handler: runs per request"
			}
			r.funcs = append(r.funcs, f)
		case *ast.ForStmt:
			// The condition and post statement run per iteration too.
			start := n.Body.Pos()
			if n.Cond != nil {
				start = n.Cond.Pos()
			}
			r.loops = append(r.loops, loopSpan{span{start, n.Body.End()}, ownerOf(c)})
		case *ast.RangeStmt:
			r.loops = append(r.loops, loopSpan{span{n.Body.Pos(), n.Body.End()}, ownerOf(c)})
		}
	}
	r.exits = exitBlocks(ins.Root())
	sort.Slice(r.funcs, func(i, j int) bool { return r.funcs[i].pos < r.funcs[j].pos })
	sort.Slice(r.loops, func(i, j int) bool { return r.loops[i].pos < r.loops[j].pos })
	sort.Slice(r.exits, func(i, j int) bool { return r.exits[i].pos < r.exits[j].pos })
	r.regions = onceRegions(pass)
	r.regionEnd = make([]token.Pos, len(r.regions))
	for i, reg := range r.regions {
		r.regionEnd[i] = reg.end
		if i > 0 {
			r.regionEnd[i] = max(reg.end, r.regionEnd[i-1])
		}
	}
	r.class = make(map[*types.Func]class)
	if elem := testSupport(pass.Pkg.Path()); elem != "" {
		r.coldPkg = testsOnly + ": in a test-support package (" + elem + ")"
	} else if testNamed(pass) {
		r.coldPkg = testsOnly + ": in a test-support package (" + pass.Pkg.Name() + ")"
	} else {
		var mod string
		if pass.Module != nil {
			mod = pass.Module.Path
		}
		r.coldPkg = demoPackage(pass.Pkg.Path(), mod)
		if r.coldPkg == "" {
			r.coldPkg = generator(pass)
		}
	}
	r.classify(pass)

	// Calls from loops, and from per-item functions, to functions of this
	// package, followed transitively: a helper of a hot function is hot.
	type edge struct {
		callee *types.Func
		why    string
	}
	callees := make(map[*types.Func][]*types.Func) // caller -> callees in this package
	var work []edge
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
		call := n.(*ast.CallExpr)
		// Tests call code in loops to check it, not because it is hot; and
		// results must not depend on whether tests were loaded.
		if strings.HasSuffix(pass.Fset.File(call.Pos()).Name(), "_test.go") {
			return
		}
		callee := staticCallee(pass.TypesInfo, call)
		if callee == nil {
			return
		}
		if k, _ := r.context(call.Pos()); k == startup || k == errPath || r.setupNamedAt(call.Pos()) {
			// A loop at start-up or on an error path does not make its
			// callees hot, nor one of a function whose frequency is not
			// known (setupNamed).
			return
		}
		caller := r.enclosing(call.Pos())
		r.recordCall(caller, callee, r.inLoop(call.Pos()))
		if callee.Pkg() != pass.Pkg {
			return
		}
		if r.inLoop(call.Pos()) {
			who := "package level"
			if caller != nil {
				who = caller.name
			}
			work = append(work, edge{callee, "called in a loop in " + who})
		}
		if caller != nil && caller.obj != nil {
			callees[caller.obj] = append(callees[caller.obj], callee)
		}
	})
	for _, f := range r.funcs {
		if _, once := r.class[f.obj]; f.perItm != "" && f.obj != nil && !once {
			for _, c := range callees[f.obj] {
				work = append(work, edge{c, "called from " + f.name + ", which runs per item"})
			}
		}
	}
	for len(work) > 0 {
		e := work[0]
		work = work[1:]
		if _, seen := r.calls[e.callee]; seen {
			continue
		}
		r.calls[e.callee] = e.why
		for _, c := range callees[e.callee] {
			work = append(work, edge{c, "called from " + funcname.InPackage(e.callee) + ", which runs per item"})
		}
	}
	return r, nil
}

// flagSetter reports whether fn is the Set method of a flag.Value
// (Set(string) error): it runs when a flag or a configuration value is
// parsed, not per item.
func flagSetter(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if fn.Name() != "Set" || sig.Recv() == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return false
	}
	p, ok := sig.Params().At(0).Type().(*types.Basic)
	return ok && p.Kind() == types.String && types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
}

// staticCallee returns the function or method statically called by call, if any.
func staticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok { // generic instantiation f[T](...)
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok && sel.Kind() == types.MethodVal {
			if fn, ok := sel.Obj().(*types.Func); ok {
				if _, isIface := sel.Recv().Underlying().(*types.Interface); isIface {
					return nil
				}
				return fn.Origin()
			}
			return nil
		}
		id = f.Sel
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

// setupNamedAt reports whether pos is in the body of a function classed
// setupNamed, outside any function literal of it.
func (r *Result) setupNamedAt(pos token.Pos) bool {
	if r.region(pos) != nil {
		return false
	}
	fn := r.enclosing(pos)
	return fn != nil && fn.obj != nil && r.class[fn.obj].kind == setupNamed
}
