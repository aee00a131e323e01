package hotpath

import (
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// Code that runs once: the static estimate rates it cold whatever its
// loops or names say. It is found in two steps. Regions are syntax: init
// bodies, package-level initialisers, sync.Once bodies and flag calls run
// once (loops included); main's body runs once outside its loops; a
// function literal that is not called where it is written (a handler, a
// callback) is a hole, about which nothing is known; error paths (see
// errpath.go) are cold, loops included, and so are the New function of a
// sync.Pool the package puts values back into, the fill of a cache keyed
// by type (typecache.go) and a function that ends by handing a listener
// to its server (server.go). Then a function of the package
// that no other package can call, whose every reference in non-test files
// is a call from such code, runs once (or only on error paths) too; one
// that only tests call (no reference outside _test.go files, a mention in
// one) is cold as well, and so is a function or method that takes a
// *testing.T, *testing.B, *testing.F or testing.TB, or a test reporter
// (an interface of testing.TB's methods with Helper): only a test has one
// to pass. A function named for set-up work, or a method of a settings
// type, is not cold by its name: it is of unknown frequency (setupNamed).

// kind classifies code that runs once.
type kind int

// The kinds, from hottest to coldest (hole aside): a function called from
// code of several kinds gets the least cold of them.
const (
	normal   kind = iota
	mainOnce      // runs once per run of main outside its loops: cold, except in its loops
	errPath       // runs only on an error path (see errpath.go): cold, loops included
	startup       // runs once at start-up, in a sync.Once or only in tests: cold, loops included
	hole          // a function literal that runs elsewhere (only for regions)
	// setupNamed is a function named for set-up work, or a method of a
	// settings type: a name is no evidence of how often it runs (on the
	// development release pairs maintainers changed such functions more
	// often than those of unknown frequency), so it is of unknown
	// frequency, loops included, and its loops make nothing it calls per
	// item. context reports it as normal.
	setupNamed
)

// ErrorPath is the reason of code on an error path.
const ErrorPath = "on an error path"

// A region is a piece of syntax that runs once, or a hole.
type region struct {
	span
	kind   kind
	who    string // the code, for reasons: "init", "a sync.Once body", "main"
	reason string // the cold reason of the code in it
	// local marks the hole of a local helper (see localHelpers): it runs
	// when the code around it runs once whatever its loops (set-up, an
	// error path).
	local bool
}

// A class says whether a whole function runs once, and why.
type class struct {
	kind   kind
	reason string
}

// onceRegions returns the regions of the files, sorted by position.
func onceRegions(pass *analysis.Pass) []region {
	var regs []region
	add := func(n ast.Node, k kind, who, reason string) {
		regs = append(regs, region{span: span{n.Pos(), n.End()}, kind: k, who: who, reason: reason})
	}
	inPlace := make(map[*ast.FuncLit]bool) // called where written, or a sync.Once body
	goCalls := make(map[*ast.CallExpr]bool)
	refilled := poolNews(pass.TypesInfo, pass.Files)
	changed := changedCaches(pass.TypesInfo, pass.Files)
	kept := func(cache types.Object) bool { return !changed[cache] }
	for _, f := range pass.Files {
		helpers := localHelpers(pass.TypesInfo, f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil || d.Body == nil {
					continue
				}
				if d.Name.Name == "init" {
					add(d.Body, startup, "init", "runs once: in init")
				} else if d.Name.Name == "main" && pass.Pkg.Name() == "main" {
					add(d.Body, mainOnce, "main, outside its loops", "runs once: in main, outside its loops")
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					for _, v := range s.(*ast.ValueSpec).Values {
						add(v, startup, "a package-level initialiser", "runs once: in a package-level initialiser")
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				goCalls[n.Call] = true
			case *ast.CallExpr:
				// A goroutine started once may loop for the whole run: its
				// literal is a hole.
				if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok && !goCalls[n] {
					inPlace[lit] = true
				}
				fn := staticCallee(pass.TypesInfo, n)
				switch {
				case onceFunc(fn) && len(n.Args) > 0:
					if lit, ok := ast.Unparen(n.Args[0]).(*ast.FuncLit); ok {
						inPlace[lit] = true
						add(lit.Body, startup, "a sync.Once body", "runs once: in a sync.Once body")
					}
				case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "flag":
					add(n, startup, "flag registration", "runs once: flag registration")
				}
			case *ast.CommClause:
				// case sig := <-sigc: of a channel of os.Signal runs
				// when the process gets a signal.
				if n.Comm != nil && receivesSignal(pass.TypesInfo, n.Comm) {
					add(n, startup, "an OS signal's handling", "runs rarely: handles an OS signal")
				}
			case *ast.RangeStmt:
				if isSignalChan(pass.TypesInfo.TypeOf(n.X)) {
					add(n.Body, startup, "an OS signal's handling", "runs rarely: handles an OS signal")
				}
			case *ast.FuncLit:
				if !inPlace[n] {
					add(n.Body, hole, "", "")
					regs[len(regs)-1].local = helpers[n]
				}
				if refilled[n] {
					// After the hole, so innermost.
					add(n.Body, startup, "a sync.Pool's New", poolNewReason)
				}
				if sig, ok := pass.TypesInfo.TypeOf(n).(*types.Signature); ok {
					if t := testingParam(sig); t != "" {
						// t.Run(name, func(t *testing.T) {...}) in a
						// non-test file: after the hole, so innermost.
						add(n.Body, startup, "a test function literal", testsOnly+": takes a "+t)
					}
				}
			}
			return true
		})
		regs = append(regs, errorRegions(pass.TypesInfo, f)...)
		regs = append(regs, unnamedRegions(pass.TypesInfo, f)...)
		regs = append(regs, typeCacheRegions(pass.TypesInfo, f, kept)...)
		regs = append(regs, serverRegions(pass.TypesInfo, f)...)
	}
	// The innermost region is the last one that starts before a position
	// and contains it: of two that start together, the outer comes first.
	sort.SliceStable(regs, func(i, j int) bool {
		if regs[i].pos != regs[j].pos {
			return regs[i].pos < regs[j].pos
		}
		return regs[i].end > regs[j].end
	})
	return regs
}

// onceFunc reports whether fn runs its first argument at most once:
// (*sync.Once).Do, sync.OnceFunc, sync.OnceValue, sync.OnceValues.
func onceFunc(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return false
	}
	switch fn.Name() {
	case "OnceFunc", "OnceValue", "OnceValues":
		return fn.Type().(*types.Signature).Recv() == nil
	case "Do":
		recv := fn.Type().(*types.Signature).Recv()
		if recv == nil {
			return false
		}
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		return ok && n.Obj().Name() == "Once"
	}
	return false
}

// region returns the innermost region containing pos, or nil.
func (r *Result) region(pos token.Pos) *region {
	i := sort.Search(len(r.regions), func(i int) bool { return r.regions[i].pos > pos })
	for j := i - 1; j >= 0; j-- {
		if r.regionEnd[j] <= pos {
			break // no earlier region reaches pos
		}
		if reg := &r.regions[j]; pos < reg.end {
			return reg
		}
	}
	return nil
}

// context says how often the code at pos runs, given the classes known so
// far: startup, mainOnce or normal, and who runs it.
func (r *Result) context(pos token.Pos) (kind, string) {
	fn := r.enclosing(pos)
	if reg := r.region(pos); reg != nil {
		switch reg.kind {
		case startup, errPath:
			return reg.kind, reg.who
		case mainOnce:
			if !r.inLoop(pos) {
				return mainOnce, reg.who
			}
		case hole:
			if r.testHelper(fn) {
				return startup, fn.name // a literal made by a test helper
			}
			if reg.local {
				// Before the body: the literal's own position.
				if k, who := r.context(reg.pos - 1); k == startup || k == errPath {
					return k, who
				}
			}
		}
		return normal, ""
	}
	if fn == nil || fn.obj == nil {
		return normal, ""
	}
	switch c := r.class[fn.obj]; c.kind {
	case startup, errPath:
		return c.kind, fn.name
	case mainOnce:
		if !r.inLoop(pos) {
			return mainOnce, fn.name + ", outside its loops"
		}
	}
	return normal, ""
}

// classify finds the functions of the package that run once (see the
// comment at the top of this file) and records them in r.class.
func (r *Result) classify(pass *analysis.Pass) {
	cands := make(map[*types.Func]bool)
	named := make(map[*types.Func]bool)      // set-up by their names (see setupName)
	settings := make(map[*types.Func]string) // methods of settings types (see settingsType)
	testing := testingFiles(pass)
	var ifaces map[string]bool
	for _, f := range r.funcs {
		if f.obj == nil {
			continue
		}
		if t := testingParam(f.obj.Type().(*types.Signature)); t != "" {
			// A helper of tests in a non-test file (raft's testing.go,
			// a testutil package): only a test has the value to pass.
			r.class[f.obj] = class{startup, testsOnly + ": takes a " + t}
			continue
		}
		if why := testing[pass.Fset.File(f.pos)]; why != "" {
			// lib/pq's internal/pqtest: a fake server for its tests.
			r.class[f.obj] = class{startup, testsOnly + ": " + why}
			continue
		}
		if setupName(f.obj.Name()) && !PerItemName(f.obj.Name()) {
			named[f.obj] = true // decided after the others (see below)
		}
		if errorMethod(f.obj) {
			// An error type's Error method builds the message of an
			// error being reported, printed or wrapped: an error path.
			r.class[f.obj] = class{startup, "on an error path: builds an error's message"}
			continue
		}
		if name := settingsType(f.obj); name != "" && !PerItemName(f.obj.Name()) {
			// badger's Options.String, nats-server's
			// (*Options).processConfigFileLine: the options are set up
			// once, and printed when the program starts; decided once the
			// references are known (see below).
			settings[f.obj] = name
			continue
		}
		if f.obj.Type().(*types.Signature).Recv() != nil {
			// A method may be called through an interface: an exported
			// one through any package's, an unexported one only through
			// an interface of this package that has a method of its
			// name.
			if ifaces == nil {
				ifaces = InterfaceMethods(pass)
			}
			if f.obj.Exported() || ifaces[f.obj.Name()] {
				continue
			}
		}
		if n := f.obj.Name(); n == "init" || n == "_" || (n == "main" && pass.Pkg.Name() == "main") {
			continue
		}
		if f.obj.Exported() && pass.Pkg.Name() != "main" {
			continue // other packages may call it
		}
		cands[f.obj] = true
	}
	if len(cands) == 0 && len(named) == 0 && len(settings) == 0 {
		return
	}
	type ref struct {
		pos    token.Pos
		kind   kind // startup for a sync.Once argument; normal: decided by context(pos)
		goStmt bool // a go statement: at most mainOnce, as its loops may run for the whole run
	}
	refs := make(map[*types.Func][]ref)
	value := make(map[*types.Func]bool) // used other than by a call: runs who knows when
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			continue // tests neither make code hot nor keep it from being cold
		}
		calls := make(map[*ast.Ident]ref)
		goCalls := make(map[*ast.CallExpr]bool)
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				goCalls[n.Call] = true
			case *ast.CallExpr:
				if id := funIdent(n.Fun); id != nil {
					calls[id] = ref{pos: n.Pos(), goStmt: goCalls[n]}
				}
				if onceFunc(staticCallee(pass.TypesInfo, n)) && len(n.Args) > 0 {
					if id, ok := ast.Unparen(n.Args[0]).(*ast.Ident); ok {
						calls[id] = ref{pos: n.Pos(), kind: startup}
					}
				}
			case *ast.Ident:
				fn, _ := pass.TypesInfo.Uses[n].(*types.Func)
				if fn == nil || !cands[fn.Origin()] && !named[fn.Origin()] && settings[fn.Origin()] == "" {
					return true
				}
				if c, ok := calls[n]; ok {
					refs[fn.Origin()] = append(refs[fn.Origin()], c)
				} else {
					value[fn.Origin()] = true
				}
			}
			return true
		})
	}

	// A method of a settings type runs when the settings are set up or
	// printed, how often not known (setupNamed), unless the package calls
	// it in a loop of code not known to run once or on an error path
	// (VictoriaMetrics' parsedRelabelConfig.apply, called for each of a
	// list of compiled rules on every sample): a type's name is no
	// evidence against a loop, a loop of another settings method
	// included. Decided before the propagation below, which leaves these
	// classes as they are.
	for fn, name := range settings {
		repeated := false
		for _, rf := range refs[fn] {
			if k, _ := r.context(rf.pos); k == normal && r.inLoop(rf.pos) && !r.inTestCode(rf.pos) {
				repeated = true
			}
		}
		if !repeated {
			r.class[fn] = class{setupNamed, "a method of the options type " + name + ": set-up, how often it runs is not known"}
		}
	}

	// Functions that only tests call: no reference outside tests, and
	// named in a test file of the package. (Without a mention, the
	// function is unused here, or used in ways not seen: it keeps its
	// estimate.)
	var unref []string
	for fn := range cands {
		if len(refs[fn]) == 0 && !value[fn] {
			unref = append(unref, fn.Name())
		}
	}
	tested := testMentions(pass, unref)

	// Optimistically every candidate runs once; lower the classes until
	// they agree with the contexts of the references.
	for fn := range cands {
		switch {
		case value[fn]:
		case len(refs[fn]) > 0:
			r.class[fn] = class{kind: startup}
		case tested[fn.Name()]:
			r.class[fn] = class{startup, "runs once: called only from tests"}
		}
	}
	for changed := true; changed; {
		changed = false
		for fn, rs := range refs {
			c, ok := r.class[fn]
			if !ok || c.reason == "runs once: called only from tests" || settings[fn] != "" {
				continue // decided above, by its type and its loops
			}
			k, who, onErr, onDebug, onReport, tests := startup, "", false, false, false, true
			for _, rf := range rs {
				tests = tests && r.inTestCode(rf.pos)
				rk, rwho := rf.kind, "a sync.Once"
				if rk == normal {
					rk, rwho = r.context(rf.pos)
					if rf.goStmt && rk >= errPath {
						rk = mainOnce
					}
				}
				if rk < k {
					k = rk
				}
				if rk == errPath {
					switch rwho {
					case debugWho:
						onDebug = true
					case reportWho:
						onReport = true
					default:
						onErr = true
					}
					continue
				}
				if who == "" {
					who = rwho
				} else if who != rwho {
					who = "code that runs once"
				}
			}
			if k == normal {
				delete(r.class, fn)
				changed = true
				continue
			}
			if k > mainOnce && takesListener(fn) {
				// It serves the connections its listener accepts: it
				// runs once, but its loops do not.
				k = mainOnce
			}
			var cold []string // the cold paths it is also called from
			if onErr {
				cold = append(cold, "on error paths")
			}
			if onDebug {
				cold = append(cold, "when tracing or debugging is on")
			}
			if onReport {
				cold = append(cold, "when reporting a diagnostic")
			}
			reason := "runs once: called only from " + who
			switch {
			case tests && who != "":
				reason = testsOnly + ": called only from " + who
			case len(cold) > 0 && who == "":
				reason = "called only " + strings.Join(cold, " or ")
			case len(cold) > 0:
				reason = "called only from " + who + " or " + strings.Join(cold, " or ")
			}
			if nc := (class{k, reason}); nc != c {
				r.class[fn] = nc
				changed = true
			}
		}
	}
	// A function named for set-up work (initEventTracking, diffOptions,
	// validateJetStreamOptions) that its callers do not already class is
	// of unknown frequency (setupNamed), not cold, unless the package
	// calls it in a loop outside code that runs once. Each is decided on
	// the classes above alone, not on those of the others named so (a
	// map's order would then decide).
	var setup []*types.Func
	for fn := range named {
		if _, ok := r.class[fn]; ok {
			continue
		}
		inLoop := false
		for _, rf := range refs[fn] {
			if k, _ := r.context(rf.pos); k != startup && k != errPath && r.inLoop(rf.pos) {
				inLoop = true
			}
		}
		if !inLoop {
			setup = append(setup, fn)
		}
	}
	for _, fn := range setup {
		r.class[fn] = class{setupNamed, "set-up by its name, how often it runs is not known"}
	}
}

// setupNameWords are the words of a function's name that say it does
// set-up work: configuring, initialising, reloading, validating options.
var setupNameWords = map[string]bool{
	"init": true, "initialize": true, "setup": true, "reload": true, "configure": true,
	"config": true, "configs": true, "conf": true, "options": true, "opts": true, "settings": true, "flags": true, "defaults": true,
}

// setupName reports whether the mixedCaps name has a word of
// setupNameWords: its first word in any case (initEventTracking,
// setupRoutes), a later one capitalised (diffOptions, loadConfig), or the
// whole name (init is package-level initialisation, already cold).
func setupName(name string) bool {
	start := 0
	for i := 1; i <= len(name); i++ {
		if i < len(name) && !('A' <= name[i] && name[i] <= 'Z') {
			continue
		}
		w := name[start:i]
		if setupNameWords[strings.ToLower(w)] && (start == 0 || 'A' <= w[0] && w[0] <= 'Z') {
			return name != "init"
		}
		start = i
	}
	return false
}

// generator returns the reason all the code of the package is cold when
// it is a program that generates files, as its package comment says
// ("readme generates Zap's README from a template", "Command stringer
// generates ..."): it runs when a developer regenerates them, not in
// the programs that use the module. It returns "" otherwise.
func generator(pass *analysis.Pass) string {
	if pass.Pkg.Name() != "main" {
		return ""
	}
	for _, f := range pass.Files {
		if f.Doc == nil {
			continue
		}
		first, _, _ := strings.Cut(f.Doc.Text(), ". ")
		words := strings.Fields(first)
		if len(words) > 1 && slices.Contains(words[:min(len(words), 4)], "generates") {
			return "runs rarely: a program that generates files, as its package comment says"
		}
	}
	return ""
}

// settingsWords are the last words of the names of types that hold a
// program's or a component's settings.
var settingsWords = []string{"Options", "Opts", "Config", "Configs", "Conf", "Settings"}

// errorMethod reports whether fn is the Error method of a type that
// implements error: Error() string, on a value or pointer receiver.
func errorMethod(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if fn.Name() != "Error" || sig.Recv() == nil || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	if b, ok := sig.Results().At(0).Type().(*types.Basic); !ok || b.Kind() != types.String {
		return false
	}
	return true
}

// settingsType returns the name of fn's receiver type when it is a type of
// settings (Options, ServerConfig, dialOpts), or "".
func settingsType(fn *types.Func) string {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return ""
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok {
		return ""
	}
	name := n.Obj().Name()
	for _, w := range settingsWords {
		if name == w || name == strings.ToLower(w) || strings.HasSuffix(name, w) {
			return name
		}
	}
	return ""
}

// receivesSignal reports whether the select case's statement comm
// receives from a channel of os.Signal.
func receivesSignal(info *types.Info, comm ast.Stmt) bool {
	var x ast.Expr
	switch c := comm.(type) {
	case *ast.ExprStmt:
		x = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			x = c.Rhs[0]
		}
	}
	u, ok := ast.Unparen(x).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW && isSignalChan(info.TypeOf(u.X))
}

// isSignalChan reports whether t is a channel of os.Signal.
func isSignalChan(t types.Type) bool {
	ch, ok := types.Unalias(t).(*types.Chan)
	if !ok {
		return false
	}
	n, ok := types.Unalias(ch.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "os" && n.Obj().Name() == "Signal"
}

// testsOnly begins the reason of code that only tests run.
const testsOnly = "runs only in tests"

// testSupportElems are the import path elements that name packages of
// test support: end-to-end and integration test servers (go-redis's
// maintnotifications/e2e runs a fault injector for its tests,
// nats-server's test package the servers of its integration tests),
// helpers, and mocks and fakes (sarama's mocks). "testing" counts only
// outside std: std's testing packages are there for benchmarks and
// fuzzing, whose speed is what they are for.
var testSupportElems = []string{"e2e", "test", "tests", "testing", "testutil", "testutils", "testhelper", "testhelpers", "testenv", "mock", "mocks", "fake", "fakes"}

// testSupport returns the element of the import path that makes the
// package test support, or "": one of testSupportElems, or a compound of
// "test" or "tests" joined by a hyphen or an underscore (brotli's
// corpus-test command, an integration_tests package).
func testSupport(path string) string {
	first, _, _ := strings.Cut(path, "/")
	std := !strings.Contains(first, ".")
	for elem := range strings.SplitSeq(path, "/") {
		if slices.Contains(testSupportElems, elem) && !(std && elem == "testing") {
			return elem
		}
		for part := range strings.FieldsFuncSeq(elem, func(r rune) bool { return r == '-' || r == '_' }) {
			if part != elem && (part == "test" || part == "tests") {
				return elem
			}
		}
	}
	return ""
}

// demoElems name the import path elements, below the module's path, of
// example programs and benchmark harnesses: code that shows or measures
// the module, whose own speed is not what the module is for (nats.go's
// examples, grpc's benchmark clients and servers, std's
// log/slog/internal/benchmarks).
var demoElems = map[string]string{
	"example":    "example code",
	"examples":   "example code",
	"_example":   "example code",
	"_examples":  "example code",
	"bench":      "a benchmark harness",
	"benchmark":  "a benchmark harness",
	"benchmarks": "a benchmark harness",
}

// demoPackage returns why the package at path, of the module at modPath
// ("" if unknown), is example or benchmark code, or "". Only the elements
// below the module's path count: a module named example.com/bench is a
// library.
func demoPackage(path, modPath string) string {
	if modPath != "" {
		if path == modPath || !strings.HasPrefix(path, modPath+"/") {
			return ""
		}
		path = path[len(modPath)+1:]
	}
	for elem := range strings.SplitSeq(path, "/") {
		if what, ok := demoElems[elem]; ok {
			return what + " (package " + elem + ")"
		}
	}
	return ""
}

// testNamed reports whether the package is named as test support in the
// way of std's httptest and iotest, and Prometheus' promqltest: its name
// ends in "test", and it imports package testing or, as zap's
// internal/ztest, is an internal package (which only its module imports)
// whose name is not an English word ending in "test" (latest, fastest).
func testNamed(pass *analysis.Pass) bool {
	name := pass.Pkg.Name()
	if len(name) <= len("test") || !strings.HasSuffix(name, "test") {
		return false
	}
	if slices.ContainsFunc(pass.Files, importsTesting) {
		return true
	}
	internal := strings.Contains("/"+pass.Pkg.Path()+"/", "/internal/")
	return internal && !englishTest(name)
}

// englishTest reports whether name, which ends in "test", is a common
// English word: contest, protest, latest, fastest and the other
// superlatives of adjectives ending in t.
func englishTest(name string) bool {
	switch name {
	case "contest", "protest", "attest", "detest", "pretest", "retest",
		"latest", "fastest", "shortest", "greatest", "hottest", "fattest",
		"smartest", "slightest", "tightest", "brightest", "lightest",
		"quietest", "politest", "wettest", "flattest", "neatest", "sweetest",
		"softest", "strictest":
		return true
	}
	return false
}

// importsTesting reports whether f imports package testing.
func importsTesting(f *ast.File) bool {
	return slices.ContainsFunc(f.Imports, func(imp *ast.ImportSpec) bool { return imp.Path.Value == `"testing"` })
}

// inTestCode reports whether pos is in code that only tests run: a
// function or function literal that takes a test (see testingParam), or a
// literal such a function makes.
func (r *Result) inTestCode(pos token.Pos) bool {
	if reg := r.region(pos); reg != nil && reg.kind != hole {
		return strings.HasPrefix(reg.reason, testsOnly)
	}
	return r.testHelper(r.enclosing(pos))
}

// testHelper reports whether fn is classed as running only in tests (see
// testingParam and classify).
func (r *Result) testHelper(fn *funcSpan) bool {
	return fn != nil && fn.obj != nil && strings.HasPrefix(r.class[fn.obj].reason, testsOnly)
}

// testingFiles returns the files of the package, other than _test.go
// files, whose code only tests run, with why: those that use package
// testing for more than testing.Testing (which production code may call
// to learn whether it runs under go test), such as a fake server or a
// helper that takes a *testing.T, and those named as test support (see
// supportFile).
func testingFiles(pass *analysis.Pass) map[*token.File]string {
	out := make(map[*token.File]string)
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if strings.HasSuffix(tf.Name(), "_test.go") {
			continue
		}
		if importsTesting(f) {
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok || out[tf] != "" {
					return out[tf] == ""
				}
				if id, ok := sel.X.(*ast.Ident); ok {
					if pn, ok := pass.TypesInfo.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == "testing" && sel.Sel.Name != "Testing" {
						out[tf] = "in a file that uses package testing"
					}
				}
				return true
			})
		}
		if out[tf] == "" && supportFile(tf.Name()) {
			out[tf] = "in a test-support file (" + filepath.Base(tf.Name()) + ")"
		}
	}
	return out
}

// supportFile reports whether the file name marks test support: a mock or a
// fake, or helpers for tests. That is, its first word (split at _ and -)
// begins with mock (sarama's mockbroker.go and mockresponses.go, gomock's
// mock_store.go); or a word is mock, mocks, fake or fakes (store_mock.go,
// fake_clock.go; not fakeip.go, which may be what a proxy's fake-IP DNS
// mode runs on); or the name is testutil.go, testhelpers.go and the like,
// or test followed by other words (Prometheus' test_utils.go).
func supportFile(name string) bool {
	words := strings.FieldsFunc(strings.TrimSuffix(strings.ToLower(filepath.Base(name)), ".go"), func(r rune) bool { return r == '_' || r == '-' })
	if len(words) == 1 {
		switch words[0] {
		case "testutil", "testutils", "testhelper", "testhelpers":
			return true
		}
	}
	if len(words) > 1 && (words[0] == "test" || words[0] == "testutil" || words[0] == "testutils") {
		return true
	}
	for i, w := range words {
		if i == 0 && strings.HasPrefix(w, "mock") {
			return true
		}
		switch w {
		case "mock", "mocks", "fake", "fakes":
			return true
		}
	}
	return false
}

// testingParam returns the type of sig's first parameter that is
// *testing.T, *testing.B, *testing.F or testing.TB, as written in Go, or a
// test reporter (see reporter), or "".
func testingParam(sig *types.Signature) string {
	for v := range sig.Params().Variables() {
		if reporter(v.Type()) {
			return types.TypeString(v.Type(), (*types.Package).Name) + ", an interface of testing.TB's methods with Helper"
		}
		t := v.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "testing" {
			continue
		}
		switch name := n.Obj().Name(); name {
		case "T", "B", "F":
			if _, ptr := v.Type().(*types.Pointer); ptr {
				return "*testing." + name
			}
		case "TB":
			return "testing.TB"
		}
	}
	return ""
}

// tbMethods are the methods of testing.TB, by name.
var tbMethods = map[string]bool{
	"ArtifactDir": true, "Attr": true, "Chdir": true, "Cleanup": true,
	"Context": true, "Error": true, "Errorf": true, "Fail": true,
	"FailNow": true, "Failed": true, "Fatal": true, "Fatalf": true,
	"Helper": true, "Log": true, "Logf": true, "Name": true,
	"Output": true, "Setenv": true, "Skip": true, "SkipNow": true,
	"Skipf": true, "Skipped": true, "TempDir": true,
}

// reporter reports whether t is an interface, other than package
// testing's, that asks for a test's reporter: all its methods are
// testing.TB's, one of them Helper() and one more. Helper marks the
// caller as a test helper and means nothing outside a test, so the
// idiom (testify's and gomock's reporters, a package's own TestingT)
// takes a *testing.T or *testing.B in practice.
func reporter(t types.Type) bool {
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" {
		return false
	}
	it, ok := t.Underlying().(*types.Interface)
	if !ok || it.NumMethods() < 2 {
		return false
	}
	helper := false
	for m := range it.Methods() {
		if !tbMethods[m.Name()] {
			return false
		}
		if m.Name() == "Helper" {
			sig := m.Type().(*types.Signature)
			helper = sig.Params().Len() == 0 && sig.Results().Len() == 0
		}
	}
	return helper
}

// funIdent returns the identifier a call calls, if it is one: f(x) or
// f[T](x).
func funIdent(fun ast.Expr) *ast.Ident {
	fun = ast.Unparen(fun)
	switch ix := fun.(type) {
	case *ast.IndexExpr:
		fun = ix.X
	case *ast.IndexListExpr:
		fun = ix.X
	}
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel // a method, or a function of another package
	}
	return nil
}

// InterfaceMethods returns the names of the methods of the interface types
// written in the package's files, their embedded interfaces' included.
func InterfaceMethods(pass *analysis.Pass) map[string]bool {
	names := make(map[string]bool)
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			it, ok := n.(*ast.InterfaceType)
			if !ok {
				return true
			}
			for _, m := range it.Methods.List {
				for _, id := range m.Names {
					names[id.Name] = true
				}
				if len(m.Names) == 0 {
					if t := pass.TypesInfo.TypeOf(m.Type); t != nil {
						if emb, ok := t.Underlying().(*types.Interface); ok {
							for i := 0; i < emb.NumMethods(); i++ {
								names[emb.Method(i).Name()] = true
							}
						}
					}
				}
			}
			return true
		})
	}
	return names
}

// testMentions reports which of names appear as identifiers in the
// _test.go files of the package itself (not its external test package)
// in the directories of its files.
func testMentions(pass *analysis.Pass, names []string) map[string]bool {
	found := make(map[string]bool)
	if len(names) == 0 {
		return found
	}
	want := make(map[string]bool)
	for _, n := range names {
		want[n] = true
	}
	dirs := make(map[string]bool)
	for _, f := range pass.Files {
		dirs[filepath.Dir(pass.Fset.Position(f.Package).Filename)] = true
	}
	for dir := range dirs {
		tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, name := range tests {
			scanIdents(name, pass.Pkg.Name(), func(id string) {
				if want[id] {
					found[id] = true
				}
			})
		}
	}
	return found
}

// scanIdents calls f with each identifier of the Go file name if its
// package clause names pkg (an external test package cannot name the
// package's unexported functions).
func scanIdents(name, pkg string, f func(string)) {
	src, err := os.ReadFile(name)
	if err != nil {
		return
	}
	var s scanner.Scanner
	s.Init(token.NewFileSet().AddFile(name, -1, len(src)), src, nil, 0)
	for {
		_, tok, _ := s.Scan()
		if tok == token.PACKAGE || tok == token.EOF {
			break
		}
	}
	if _, tok, lit := s.Scan(); tok != token.IDENT || lit != pkg {
		return
	}
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return
		}
		if tok == token.IDENT {
			f(lit)
		}
	}
}

// poolNewReason is the cold reason of a sync.Pool's New function.
const poolNewReason = "runs rarely: a sync.Pool's New, called only when the pool is empty, and the package puts values back"

// poolNews returns the function literals that are the New function of a
// sync.Pool the package puts values back into: given as New in the
// pool's composite literal, or assigned to its New field, where the pool
// is a variable or a field that a call of Put in the package names too.
// Such a pool gives back what was put in it, and calls New only when it
// is empty: after a garbage collection has cleared it, or when more
// values are out at once than ever before.
func poolNews(info *types.Info, files []*ast.File) map[*ast.FuncLit]bool {
	objOf := func(e ast.Expr) types.Object {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.ObjectOf(e)
		case *ast.SelectorExpr:
			return info.ObjectOf(e.Sel)
		case *ast.UnaryExpr:
			if e.Op == token.AND {
				if sel, ok := ast.Unparen(e.X).(*ast.SelectorExpr); ok {
					return info.ObjectOf(sel.Sel)
				}
				if id, ok := ast.Unparen(e.X).(*ast.Ident); ok {
					return info.ObjectOf(id)
				}
			}
		}
		return nil
	}
	put := make(map[types.Object]bool)
	news := make(map[*ast.FuncLit]types.Object)
	for _, f := range files {
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			parent := func(i int) ast.Node {
				if i > len(stack) {
					return nil
				}
				return stack[len(stack)-i]
			}
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
				if ok && sel.Sel.Name == "Put" && syntax.IsSyncPool(info.TypeOf(sel.X)) {
					if obj := objOf(sel.X); obj != nil {
						put[obj] = true
					}
				}
			case *ast.FuncLit:
				switch p := parent(1).(type) {
				case *ast.KeyValueExpr:
					key, ok := p.Key.(*ast.Ident)
					lit, isLit := parent(2).(*ast.CompositeLit)
					if !ok || key.Name != "New" || !isLit || !syntax.IsSyncPool(info.TypeOf(lit)) {
						break
					}
					// What the literal initialises: a variable, a field.
					i := 3
					if u, ok := parent(i).(*ast.UnaryExpr); ok && u.Op == token.AND {
						i++
					}
					switch g := parent(i).(type) {
					case *ast.ValueSpec:
						for j, v := range g.Values {
							if j < len(g.Names) && (v == lit || ast.Unparen(v) == parent(i-1)) {
								news[n] = info.ObjectOf(g.Names[j])
							}
						}
					case *ast.AssignStmt:
						for j, r := range g.Rhs {
							if j < len(g.Lhs) && (r == lit || ast.Unparen(r) == parent(i-1)) {
								news[n] = objOf(g.Lhs[j])
							}
						}
					case *ast.KeyValueExpr:
						if id, ok := g.Key.(*ast.Ident); ok {
							news[n] = info.ObjectOf(id)
						}
					}
				case *ast.AssignStmt:
					for j, r := range p.Rhs {
						if r != n || j >= len(p.Lhs) {
							continue
						}
						if sel, ok := ast.Unparen(p.Lhs[j]).(*ast.SelectorExpr); ok && sel.Sel.Name == "New" && syntax.IsSyncPool(info.TypeOf(sel.X)) {
							news[n] = objOf(sel.X)
						}
					}
				}
			}
			return true
		})
	}
	out := make(map[*ast.FuncLit]bool)
	for lit, obj := range news {
		if obj != nil && put[obj] {
			out[lit] = true
		}
	}
	return out
}

// localHelpers returns the function literals of file bound to a local
// variable (v := func(...) {...}, var v = func...) that the code only
// calls, directly and not in a go statement: helpers of the function
// that makes them, which run when it calls them. Such a literal runs once
// when the code around it does whatever its loops (set-up, an error
// path); elsewhere it is a hole like any literal that runs elsewhere.
func localHelpers(info *types.Info, file *ast.File) map[*ast.FuncLit]bool {
	bound := make(map[types.Object]*ast.FuncLit)
	other := make(map[types.Object]bool) // used other than by a call, or started by go
	called := make(map[*ast.Ident]bool)  // a helper's name as a called function
	// One walk, in source order: a local variable is bound before it is
	// used, and a call is met before its function's name.
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if lit, ok := ast.Unparen(n.Rhs[0]).(*ast.FuncLit); ok {
					if id, ok := n.Lhs[0].(*ast.Ident); ok && info.Defs[id] != nil {
						bound[info.Defs[id]] = lit
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == 1 && len(n.Values) == 1 {
				if lit, ok := ast.Unparen(n.Values[0]).(*ast.FuncLit); ok && info.Defs[n.Names[0]] != nil {
					bound[info.Defs[n.Names[0]]] = lit
				}
			}
		case *ast.GoStmt:
			if id, ok := ast.Unparen(n.Call.Fun).(*ast.Ident); ok {
				other[info.Uses[id]] = true
			}
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				called[id] = true
			}
		case *ast.Ident:
			if obj := info.Uses[n]; obj != nil && bound[obj] != nil && !called[n] {
				other[obj] = true
			}
		}
		return true
	})
	var helpers map[*ast.FuncLit]bool
	for obj, lit := range bound {
		if _, isVar := obj.(*types.Var); isVar && !other[obj] && obj.Parent() != obj.Pkg().Scope() {
			if helpers == nil {
				helpers = make(map[*ast.FuncLit]bool)
			}
			helpers[lit] = true
		}
	}
	return helpers
}
