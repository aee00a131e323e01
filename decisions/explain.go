package decisions

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/pgo"
)

// ExplainOptions configures [Explain].
type ExplainOptions struct {
	// Dir is the directory the packages are resolved in; "" means ".".
	Dir string

	// Packages are package patterns; nil means ".". Main packages are
	// built with go build, other packages with tests into test binaries.
	Packages []string

	// Profile is the CPU profile given to -pgo; by default the
	// default.pgo of the first main package of Packages.
	Profile string

	// Bench, if not empty, also compares the benchmarks matching it with
	// and without the profile, as goadvise bench -pgo does; Count and
	// Benchtime are passed on.
	Bench     string
	Count     int
	Benchtime string

	// Cost configures the build cost measurement; Cost.Skip leaves it
	// out.
	Cost CostOptions

	// BigCaller is the summed cost of the calls hot-inlined into one
	// function above which a stack-growth hazard is reported; 0 means
	// DefaultBigCaller.
	BigCaller int

	// Env is the environment of the go commands; nil means os.Environ().
	Env []string

	// Progress, if not nil, receives one line per step.
	Progress io.Writer
}

// DefaultBigCaller is the default threshold of [ExplainOptions.BigCaller]:
// five times the compiler's default inlining budget of 80.
const DefaultBigCaller = 400

// Explanation is what PGO changes in a build: the compiler's decisions,
// the escapes that follow from them, the build cost and the runtime gain.
type Explanation struct {
	Profile  string   `json:"profile"`
	Packages []string `json:"packages"` // the packages whose decisions were collected

	// HotInlines are the call sites inlined only because PGO raised
	// the budget for hot calls (the compiler's "hot-budget" decisions).
	HotInlines []HotInline `json:"hot_inlines"`

	// Devirtualized are the indirect calls PGO turned into a guarded
	// direct call.
	Devirtualized []Devirtualized `json:"devirtualized"`

	// InlineChanges are the other call sites inlined with PGO but not
	// without (typically a devirtualized call, then inlined), or the
	// reverse.
	InlineChanges []InlineChange `json:"inline_changes"`

	// Escapes are the values whose allocation PGO changes.
	Escapes []EscapeChange `json:"escapes"`

	// Cost compares the builds; nil if not measured.
	Cost *CostTable `json:"cost,omitempty"`

	// Runtime compares the benchmarks; nil without -bench.
	Runtime *bench.Comparison `json:"-"`

	// Verdict is one line: the runtime gain against the build cost.
	Verdict string `json:"verdict"`

	// Outcome is the verdict's conclusion, for programs.
	Outcome Outcome `json:"outcome"`

	// Hazards are known PGO risks found in the build or the profile.
	Hazards []string `json:"hazards"`

	dir      string
	pkgOfDir map[string]string // the import path of each package directory the build depends on
}

// HotInline is a call site that PGO inlined beyond the default budget.
type HotInline struct {
	Package string `json:"package"`
	Caller  string `json:"caller"` // the caller, as the compiler names it without the package
	Callee  string `json:"callee"` // the callee's full name
	Cost    int    `json:"cost"`   // the callee's inlining cost (the default budget is 80)
	Pos     Pos    `json:"pos"`
	Weight  int64  `json:"weight"` // the call site's edge weight in the profile; -1 if unknown
}

// Devirtualized is an interface or function-value call that PGO
// devirtualized.
type Devirtualized struct {
	Package string `json:"package"`
	Caller  string `json:"caller"`
	Pos     Pos    `json:"pos"`
	Kind    string `json:"kind"` // "interface" or "function"
	Call    string `json:"call"` // the call expression as the compiler prints it
	Callee  string `json:"callee"`
	Weight  int64  `json:"weight"` // the profile weight of the callee at this site; -1 if unknown
	Total   int64  `json:"total"`  // the weight of all callees at this site; -1 if unknown
	Inlined bool   `json:"inlined"`
}

// InlineChange is a call site inlined in only one of the builds, other
// than a hot-budget decision.
type InlineChange struct {
	Package string `json:"package"`
	Caller  string `json:"caller"`
	Pos     Pos    `json:"pos"`
	Callee  string `json:"callee"`
	WithPGO bool   `json:"with_pgo"` // inlined only with PGO (else only without)
}

// EscapeChange is a value allocated differently with PGO.
type EscapeChange struct {
	Package string `json:"package"`
	Func    string `json:"func"`
	Pos     Pos    `json:"pos"`
	Name    string `json:"name"`
	Off     string `json:"off"` // "heap", "stack" or "" (not reported at this position)
	On      string `json:"on"`
	Via     string `json:"via,omitempty"` // the callee inlined at Pos that holds the value
}

// Explain builds the packages with -pgo=off and with the profile and
// reports what the compiler decided differently, what it costs to build
// and, with opts.Bench, what it gains at run time.
func Explain(ctx context.Context, opts ExplainOptions) (*Explanation, error) {
	if len(opts.Packages) == 0 {
		opts.Packages = []string{"."}
	}
	if opts.Profile == "" {
		p, err := pgo.DefaultProfile(ctx, opts.Dir, opts.Packages)
		if err != nil {
			return nil, err
		}
		opts.Profile = p
	}
	prof, err := filepath.Abs(opts.Profile)
	if err != nil {
		return nil, err
	}
	p, err := pgo.Read(ctx, prof, pgo.OpenOptions{})
	if err != nil {
		return nil, err
	}
	if _, err := pgo.CheckPGO(p.Profile); err != nil {
		return nil, fmt.Errorf("%s: %v", prof, err)
	}
	dir, err := filepath.Abs(orDot(opts.Dir))
	if err != nil {
		return nil, err
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	step := func(format string, args ...any) {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, format+"\n", args...)
		}
	}
	t, err := resolveTargets(ctx, dir, env, opts.Packages, true)
	if err != nil {
		return nil, err
	}
	ex := &Explanation{Profile: prof, Packages: t.modulePkgs, dir: dir, pkgOfDir: t.pkgOfDir}

	step("compiling with -pgo=off")
	off, err := collectRemarks(ctx, dir, env, t, "off")
	if err != nil {
		return nil, fmt.Errorf("-pgo=off: %w", err)
	}
	step("compiling with -pgo=%s", filepath.Base(prof))
	on, err := collectRemarks(ctx, dir, env, t, prof)
	if err != nil {
		return nil, fmt.Errorf("-pgo=%s: %w", filepath.Base(prof), err)
	}
	idx := newFuncIndex()
	ex.compare(off, on, idx)
	ex.codeHazards(on, idx, t, opts.BigCaller)
	ex.profileHazards(ctx, opts.Packages)

	if !opts.Cost.Skip {
		step("measuring build cost")
		ct, err := measureCost(ctx, dir, env, t, prof, opts.Cost, opts.Progress)
		if err != nil {
			return nil, fmt.Errorf("measuring build cost: %w", err)
		}
		ex.Cost = ct
	}
	if opts.Bench != "" {
		step("running benchmarks")
		cmp, err := bench.Run(ctx, bench.Options{
			Dir: dir, Packages: opts.Packages, PGO: prof,
			Bench: opts.Bench, Count: opts.Count, Benchtime: opts.Benchtime,
		})
		if err != nil {
			return nil, fmt.Errorf("benchmarks: %w", err)
		}
		ex.Runtime = cmp
	}
	ex.Verdict, ex.Outcome = verdict(ex.Runtime, ex.Cost)
	return ex, nil
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

type escKey struct {
	pos  Pos
	name string
}

func escapeVerdicts(out *compilerOutput) map[escKey]string {
	m := make(map[escKey]string)
	for _, r := range out.remarks {
		k := escKey{r.Pos, r.Name}
		switch r.Kind {
		case rkEscapes, rkMoved:
			m[k] = "heap"
		case rkNoEscape:
			if m[k] == "" {
				m[k] = "stack"
			}
		}
	}
	return m
}

type siteKey struct {
	pos    Pos
	callee string
}

func inlineSites(out *compilerOutput) map[Pos][]string {
	m := make(map[Pos][]string)
	for _, r := range out.remarks {
		if r.Kind == rkInlineCall {
			m[r.Pos] = append(m[r.Pos], r.Callee)
		}
	}
	return m
}

// compare fills the decisions from the remarks of the two builds.
func (ex *Explanation) compare(off, on *compilerOutput, idx *funcIndex) {
	offSites, onSites := inlineSites(off), inlineSites(on)
	inlinedAt := func(sites map[Pos][]string, p Pos, callee string) bool {
		for _, c := range sites[p] {
			if c == callee || c == funcname.InPackageOf(callee) || funcname.InPackageOf(c) == funcname.InPackageOf(callee) {
				return true
			}
		}
		return false
	}
	hotSite := make(map[siteKey]bool)
	for _, r := range on.remarks {
		if r.Kind != rkHotInline {
			continue
		}
		// The compiler prints the hot-budget decision when it considers
		// the call; it is a decision only if the call was inlined.
		if !inlinedAt(onSites, r.Pos, r.Callee) || inlinedAt(offSites, r.Pos, r.Callee) {
			continue
		}
		hotSite[siteKey{r.Pos, funcname.InPackageOf(r.Callee)}] = true
		w := int64(-1)
		if st := on.stats[r.Pos]; st != nil {
			w = st.Weight
		}
		ex.HotInlines = append(ex.HotInlines, HotInline{
			Package: ex.packageAt(r.Pos, r.Pkg), Caller: funcname.InPackageOf(r.Caller), Callee: r.Callee, Cost: r.Cost, Pos: r.Pos, Weight: w,
		})
	}
	for _, r := range on.remarks {
		if r.Kind != rkDevirt {
			continue
		}
		d := Devirtualized{Package: ex.packageAt(r.Pos, r.Pkg), Pos: r.Pos, Call: r.Expr, Callee: r.Callee, Kind: "function", Weight: -1, Total: -1}
		if r.Iface {
			d.Kind = "interface"
		}
		d.Caller = idx.enclosing(r.Pos.File, r.Pos.Line, r.Pos.Col)
		if st := on.stats[r.Pos]; st != nil {
			d.Weight, d.Total = st.DevirtualizedWeight, st.Weight
			if st.Devirtualized != "" {
				d.Callee = st.Devirtualized
			}
			d.Caller = funcname.InPackageOf(st.Caller)
		}
		d.Inlined = inlinedAt(onSites, r.Pos, d.Callee)
		ex.Devirtualized = append(ex.Devirtualized, d)
	}
	// Other call sites inlined in one build only.
	pkgOfPos := make(map[Pos]string)
	for _, r := range append(append([]remark(nil), off.remarks...), on.remarks...) {
		pkgOfPos[r.Pos] = ex.packageAt(r.Pos, r.Pkg)
	}
	diffSites := func(a, b map[Pos][]string, withPGO bool) {
		for p, callees := range a {
			for _, c := range callees {
				if inlinedAt(b, p, c) || (withPGO && hotSite[siteKey{p, funcname.InPackageOf(c)}]) {
					continue
				}
				ex.InlineChanges = append(ex.InlineChanges, InlineChange{
					Package: pkgOfPos[p], Caller: idx.enclosing(p.File, p.Line, p.Col), Pos: p, Callee: c, WithPGO: withPGO,
				})
			}
		}
	}
	diffSites(onSites, offSites, true)
	diffSites(offSites, onSites, false)

	// Escapes. At a call site inlined in one build only, the compiler
	// reports the inlined values at the call's position; in the other
	// build they exist only in the callee's own body.
	offEsc, onEsc := escapeVerdicts(off), escapeVerdicts(on)
	calleeHeap := func(out *compilerOutput, callee, name string) bool {
		// -m names a callee "F" or "(*T).M" in its own package and
		// "pkg.F" in another; hot-budget remarks give the full name.
		cands := map[string]bool{callee: true, funcname.InPackageOf(callee): true}
		for _, r := range out.remarks {
			if (r.Kind == rkEscapes || r.Kind == rkMoved) && r.Name == name && cands[idx.enclosing(r.Pos.File, r.Pos.Line, r.Pos.Col)] {
				return true
			}
		}
		return false
	}
	addEsc := func(k escKey, offV, onV, via string) {
		ex.Escapes = append(ex.Escapes, EscapeChange{
			Package: pkgOfPos[k.pos], Func: idx.enclosing(k.pos.File, k.pos.Line, k.pos.Col),
			Pos: k.pos, Name: k.name, Off: offV, On: onV, Via: via,
		})
	}
	for k, onV := range onEsc {
		offV, ok := offEsc[k]
		switch {
		case ok && offV != onV:
			addEsc(k, offV, onV, "")
		case !ok:
			// Only reported with PGO: a value of a callee inlined here
			// with PGO only.
			for _, c := range onSites[k.pos] {
				if inlinedAt(offSites, k.pos, c) {
					continue
				}
				if onV == "stack" && calleeHeap(off, c, k.name) {
					addEsc(k, "heap", "stack", c)
				}
				break
			}
		}
	}
	for k, offV := range offEsc {
		if _, ok := onEsc[k]; ok {
			continue
		}
		for _, c := range offSites[k.pos] {
			if inlinedAt(onSites, k.pos, c) {
				continue
			}
			if offV == "stack" && calleeHeap(on, c, k.name) {
				addEsc(k, "stack", "heap", c)
			}
			break
		}
	}
	ex.sort()
}

// packageAt returns the package whose source is at p in a remark of the
// compilation of package pkg: pkg for its own files, and for the code of
// another package compiled into it (an instantiation of a generic function
// of the standard library, say) the package of that code's directory.
func (ex *Explanation) packageAt(p Pos, pkg string) string {
	q, ok := ex.pkgOfDir[filepath.Dir(p.File)]
	if !ok || q == pkg || q == strings.TrimSuffix(pkg, "_test") {
		return pkg
	}
	return q
}

func (ex *Explanation) sort() {
	less := func(p1, p2 string, a, b Pos) bool {
		if p1 != p2 {
			return p1 < p2
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	}
	sort.Slice(ex.HotInlines, func(i, j int) bool {
		a, b := ex.HotInlines[i], ex.HotInlines[j]
		if a.Package != b.Package {
			return a.Package < b.Package
		}
		if a.Weight != b.Weight {
			return a.Weight > b.Weight
		}
		return less(a.Package, b.Package, a.Pos, b.Pos)
	})
	sort.Slice(ex.Devirtualized, func(i, j int) bool {
		a, b := ex.Devirtualized[i], ex.Devirtualized[j]
		return less(a.Package, b.Package, a.Pos, b.Pos)
	})
	sort.Slice(ex.InlineChanges, func(i, j int) bool {
		a, b := ex.InlineChanges[i], ex.InlineChanges[j]
		return less(a.Package, b.Package, a.Pos, b.Pos)
	})
	sort.Slice(ex.Escapes, func(i, j int) bool {
		a, b := ex.Escapes[i], ex.Escapes[j]
		if a.Pos == b.Pos {
			return a.Name < b.Name
		}
		return less(a.Package, b.Package, a.Pos, b.Pos)
	})
}

// codeHazards reports the known PGO risks of the build: hot-budget
// inlining into goroutine entry functions or into callers that grow
// large, and hot calls in callers too big to inline into.
func (ex *Explanation) codeHazards(on *compilerOutput, idx *funcIndex, t *targets, big int) {
	if big <= 0 {
		big = DefaultBigCaller
	}
	type callerKey struct{ pkg, caller string }
	sum := make(map[callerKey]int)
	count := make(map[callerKey]int)
	var order []callerKey
	goNames := make(map[string]map[string]bool) // package -> names started by go statements
	for _, h := range ex.HotInlines {
		k := callerKey{h.Package, h.Caller}
		if count[k] == 0 {
			order = append(order, k)
		}
		sum[k] += h.Cost
		count[k]++
		if goNames[h.Package] == nil {
			goNames[h.Package] = t.goNames(idx, h.Package)
		}
		sp := idx.span(h.Pos.File, h.Pos.Line, h.Pos.Col)
		entry := sp != nil && sp.goroutine
		if !entry {
			name := h.Caller
			if i := strings.LastIndex(name, "."); i >= 0 {
				name = name[i+1:]
			}
			entry = !strings.Contains(h.Caller, ".func") && goNames[h.Package][name]
		}
		if entry {
			ex.Hazards = append(ex.Hazards, fmt.Sprintf(
				"%s: %s.%s is a goroutine entry function and PGO inlines %s (cost %d) into it: every goroutine starts with the larger frame and may grow its stack at once; exclude the edge from the profile (goadvise pgo merge -exclude) if goroutines are many and short",
				h.Pos.rel(ex.dir), h.Package, funcname.Brief(h.Caller), funcname.From(h.Package, h.Callee), h.Cost))
		}
	}
	for _, k := range order {
		if sum[k] > big {
			ex.Hazards = append(ex.Hazards, fmt.Sprintf(
				"%s.%s receives %d hot-budget inlines of total cost %d (over %d): its stack frame and code grow, which costs stack growth and instruction cache if it is called deep in a stack; check it with a benchmark",
				k.pkg, funcname.Brief(k.caller), count[k], sum[k], big))
		}
	}
	// The profile's hot edges are keyed by the original caller: when PGO
	// inlines C into X, the hot calls inside C are not hot in X's copy and
	// are not inlined there, so the copy loses what PGO gained in C.
	inlinedAt := make(map[Pos][]string)
	for _, r := range on.remarks {
		if r.Kind == rkInlineCall {
			inlinedAt[r.Pos] = append(inlinedAt[r.Pos], r.Callee)
		}
	}
	for _, outer := range ex.HotInlines {
		for _, inner := range ex.HotInlines {
			if inner.Package != funcname.Package(outer.Callee) || inner.Caller != funcname.InPackageOf(outer.Callee) {
				continue
			}
			lost := true
			for _, c := range inlinedAt[outer.Pos] {
				if c == funcname.InPackageOf(inner.Callee) || c == inner.Callee || funcname.InPackageOf(c) == funcname.InPackageOf(inner.Callee) {
					lost = false
				}
			}
			if lost {
				ex.Hazards = append(ex.Hazards, fmt.Sprintf(
					"%s: PGO inlines %s into %s.%s, but not the hot call to %s inside it (the profile's edge belongs to %s): this copy keeps the call%s; if %s is the hot path, profile it as it runs or exclude the outer edge",
					outer.Pos.rel(ex.dir), funcname.Brief(inner.Caller), outer.Package, funcname.Brief(outer.Caller), funcname.From(inner.Package, inner.Callee), funcname.Brief(inner.Caller),
					ex.escapeNote(inner), funcname.Brief(outer.Caller)))
			}
		}
	}
	for _, r := range on.remarks {
		if r.Kind == rkHotBig {
			ex.Hazards = append(ex.Hazards, fmt.Sprintf(
				"%s: the call to %s is hot but %s is too big for PGO to inline into (the compiler's hot-big check); splitting the caller would let PGO inline it",
				r.Pos.rel(ex.dir), funcname.From(ex.packageAt(r.Pos, r.Pkg), r.Callee), funcname.Brief(funcname.InPackageOf(r.Caller))))
		}
	}
}

// profileHazards reports a profile that no longer matches the source
// (see goadvise pgo check).
func (ex *Explanation) profileHazards(ctx context.Context, patterns []string) {
	rep, err := pgo.Check(ctx, ex.Profile, patterns, pgo.CheckOptions{Dir: ex.dir, Top: 3})
	switch {
	case err != nil:
		ex.Hazards = append(ex.Hazards, fmt.Sprintf("the profile could not be checked against the source: %v", err))
	case rep.Checked > 0 && rep.Share() < 0.9:
		var names []string
		for _, s := range rep.Stale {
			names = append(names, s.Name)
		}
		ex.Hazards = append(ex.Hazards, fmt.Sprintf(
			"only %.0f%% of the profile's call-edge weight in these packages matches the current source (stale: %s): PGO decisions for the changed functions are lost; collect a fresh profile",
			100*rep.Share(), strings.Join(names, ", ")))
	}
}

// goNames returns the names of the functions and methods that package
// pkg starts with go statements.
func (t *targets) goNames(idx *funcIndex, pkg string) map[string]bool {
	names := make(map[string]bool)
	for _, f := range t.files[pkg] {
		if ff := idx.file(f); ff != nil {
			for _, n := range ff.goNames {
				names[n] = true
			}
		}
	}
	return names
}

// escapeNote describes the allocations that hot-inlining h keeps on the
// stack, for a hazard message: " and its allocation of &T{}".
func (ex *Explanation) escapeNote(h HotInline) string {
	var names []string
	for _, e := range ex.Escapes {
		if e.Pos == h.Pos && e.Off == "heap" && e.On == "stack" {
			names = append(names, e.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " and its heap allocation of " + strings.Join(names, ", ")
}
