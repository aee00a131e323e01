package decisions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goadvise/goadvise/load"
	"github.com/goadvise/goadvise/optlog"
	"github.com/goadvise/goadvise/pgo"
	"github.com/goadvise/goadvise/worktree"
)

// DiffOptions configures [Diff].
type DiffOptions struct {
	// Dir is the directory the packages are resolved in, inside a git
	// repository; "" means ".".
	Dir string

	// Packages are package patterns, as for go build; nil means ".".
	Packages []string

	// Base is the base revision; it is required.
	Base string

	// Head is the head revision; "" means the working tree as it is,
	// uncommitted and untracked files included.
	Head string

	// Profile, if set, is a CPU profile: functions on its hot call edges
	// (as the compiler computes them, at HotCDF percent) are marked hot,
	// and the gate of [DiffReport.Failures] considers only them.
	Profile string
	HotCDF  float64

	// PGO is the -pgo setting of both builds: "" or "off" builds both
	// without a profile (a default.pgo in a main package is ignored, so
	// that only the code differs), a file builds both with it.
	PGO string

	// Env is the environment of the go commands; nil means os.Environ().
	Env []string

	// Progress, if not nil, is told what Diff is doing, in a few words,
	// whenever that changes.
	Progress func(msg string)
}

// DiffReport is the change of the compiler's decisions from one version
// of the code to another.
type DiffReport struct {
	Base     string     `json:"base"`
	Head     string     `json:"head"`
	Packages []string   `json:"packages"`
	Profile  string     `json:"profile,omitempty"`
	PGO      string     `json:"pgo"`              // the -pgo setting of both builds: "off" or the profile
	Funcs    []FuncDiff `json:"funcs"`            // changed functions, by package and name
	Errors   []string   `json:"errors,omitempty"` // packages that could not be compared

	// Gate and Failures are the checks of a CI gate and the changes
	// that fail it (see GateFailures); set by the caller.
	Gate     []string `json:"gate,omitempty"`
	Failures []string `json:"failures,omitempty"`

	dirs [2]string // the base and head directories, for relative positions
}

// FuncDiff is the change of the compiler's decisions in one function.
type FuncDiff struct {
	Package string `json:"package"`
	Func    string `json:"func"` // as the compiler names it: "F", "(*T).M", "F.func1"

	// Touched reports whether the diff changed the function's source
	// (or added or removed it). Changes in untouched functions come from
	// elsewhere, through inlining: they are the surprising ones.
	Touched bool `json:"touched"`

	// Hot reports whether the function is on a hot call edge of the
	// profile (only with a profile).
	Hot bool `json:"hot,omitempty"`

	// Inlinable is set when the function became or stopped being
	// inlinable.
	Inlinable *InlinableChange `json:"inlinable,omitempty"`

	// LostCallSites are, for a function no longer inlinable, the call
	// sites in base that inlined it.
	LostCallSites []CallSite `json:"lost_call_sites,omitempty"`

	InlinedAdded   []Count `json:"inlined_added,omitempty"`   // calls in this function newly inlined, by callee
	InlinedRemoved []Count `json:"inlined_removed,omitempty"` // calls in this function no longer inlined, by callee

	EscapesAdded   []Escape `json:"escapes_added,omitempty"`
	EscapesRemoved []Escape `json:"escapes_removed,omitempty"`

	BoundsAdded   []Bounds `json:"bounds_added,omitempty"`
	BoundsRemoved []Bounds `json:"bounds_removed,omitempty"`
}

// InlinableChange is a function that became or stopped being inlinable.
type InlinableChange struct {
	Before     bool   `json:"before"`
	After      bool   `json:"after"`
	CostBefore int    `json:"cost_before"` // 0 if unknown
	CostAfter  int    `json:"cost_after"`
	Reason     string `json:"reason,omitempty"` // the compiler's reason it cannot be inlined, in the version where it cannot
}

// CallSite is a call site of a function.
type CallSite struct {
	Func string `json:"func"` // the calling function, with its package
	Pos  Pos    `json:"pos"`  // relative to the module directory of its version
}

// Count is a callee and the number of call sites.
type Count struct {
	Callee string `json:"callee"`
	N      int    `json:"n"`
}

// Escape is a heap allocation.
type Escape struct {
	Name        string `json:"name"`
	Cause       string `json:"cause"`
	Explanation string `json:"explanation,omitempty"`
	Via         string `json:"via,omitempty"` // the inlined function the value comes from
	Pos         Pos    `json:"pos"`           // relative to the module directory of its version
}

// Bounds is a bounds check.
type Bounds struct {
	Kind string `json:"kind"` // "index" or "slice"
	Line string `json:"line"` // the source line
	Pos  Pos    `json:"pos"`
}

// Diff compiles the base and head versions of the packages and reports
// how the compiler's decisions changed in each function: inlinability,
// inlined call sites, heap escapes and bounds checks. The base is checked
// out in a temporary git worktree, removed before Diff returns; the
// user's working tree, index and stash are not touched.
func Diff(ctx context.Context, opts DiffOptions) (rep *DiffReport, err error) {
	if opts.Base == "" {
		return nil, errors.New("no base revision given")
	}
	dir, err := filepath.Abs(orDot(opts.Dir))
	if err != nil {
		return nil, err
	}
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return nil, err
	}
	if len(opts.Packages) == 0 {
		opts.Packages = []string{"."}
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	pgoFlag, cleanup, err := pgoSetting(ctx, opts.PGO)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	env = withGOFLAG(env, "-pgo="+pgoFlag)
	if opts.Progress != nil {
		opts.Progress("checking out " + opts.Base)
	}
	repo, err := worktree.Open(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("%w (needed to check out %s)", err, opts.Base)
	}
	baseSHA, err := repo.Resolve(ctx, opts.Base)
	if err != nil {
		return nil, err
	}
	headSHA := ""
	if opts.Head != "" {
		if headSHA, err = repo.Resolve(ctx, opts.Head); err != nil {
			return nil, err
		}
	}
	rep = &DiffReport{Base: worktree.Label(opts.Base, baseSHA), Head: "working tree", PGO: "off"}
	if pgoFlag != "off" {
		rep.PGO = opts.PGO
	}
	if opts.Head != "" {
		rep.Head = worktree.Label(opts.Head, headSHA)
	}
	var tops [2]string
	for i, sha := range []string{baseSHA, headSHA} {
		if sha == "" {
			tops[i] = repo.Top()
			rep.dirs[i] = dir
			continue
		}
		tree, err := repo.Add(ctx, sha)
		if err != nil {
			return nil, err
		}
		defer tree.Remove()
		tops[i] = tree.Top()
		rep.dirs[i] = tree.Dir()
	}
	ch, err := repo.Changes(ctx, baseSHA, headSHA)
	if err != nil {
		return nil, err
	}

	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	idx := newFuncIndex()
	var vs [2]*version
	for i := range vs {
		progress("compiling " + []string{rep.Base, rep.Head}[i])
		v, err := collectVersion(ctx, rep.dirs[i], tops[i], env, opts.Packages, idx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", []string{rep.Base, rep.Head}[i], err)
		}
		vs[i] = v
		rep.Errors = append(rep.Errors, v.errors...)
	}
	rep.Packages = vs[1].pkgs

	var hot map[string]bool
	if opts.Profile != "" {
		progress("reading the profile")
		rep.Profile = opts.Profile
		if hot, err = hotFuncs(ctx, opts.Profile, opts.HotCDF); err != nil {
			return nil, err
		}
	}
	rep.compare(vs[0], vs[1], ch, hot)
	return rep, nil
}

// pgoSetting returns the -pgo flag value for both builds of Diff given
// the setting asked for: "off", or a copy of the profile, checked, in a
// new temporary directory, which cleanup removes. The copy has a new path
// on each run, so that results cached under the flag's value are never
// those of another profile once stored at the same path.
func pgoSetting(ctx context.Context, setting string) (flag string, cleanup func(), err error) {
	if setting == "" || setting == "off" {
		return "off", func() {}, nil
	}
	p, err := pgo.Read(ctx, setting, pgo.OpenOptions{})
	if err != nil {
		return "", nil, err
	}
	if _, err := pgo.CheckPGO(p.Profile); err != nil {
		return "", nil, fmt.Errorf("%s: %v", setting, err)
	}
	tmp, err := os.MkdirTemp("", "goadvise-pgo-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	flag = filepath.Join(tmp, "default.pgo")
	if strings.ContainsAny(flag, " \t\n'\"") {
		cleanup()
		return "", nil, fmt.Errorf("temporary directory %s: the go command's GOFLAGS cannot hold its name", tmp)
	}
	f, err := os.Create(flag)
	if err == nil {
		err = p.Write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("copying %s: %v", setting, err)
	}
	return flag, cleanup, nil
}

// withGOFLAG returns env with flag added to the end of GOFLAGS, where it
// overrides the same flag given earlier.
func withGOFLAG(env []string, flag string) []string {
	goflags := ""
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			goflags = v
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GOFLAGS="+strings.TrimSpace(goflags+" "+flag))
}

// hotFuncs returns the callers and callees of the profile's hot call
// edges.
func hotFuncs(ctx context.Context, profile string, cdf float64) (map[string]bool, error) {
	if cdf == 0 {
		cdf = pgo.DefaultHotCDF
	}
	p, err := pgo.Read(ctx, profile, pgo.OpenOptions{})
	if err != nil {
		return nil, err
	}
	edges, _ := pgo.CallEdges(p.Profile).Hot(cdf)
	hot := make(map[string]bool)
	for _, e := range edges {
		hot[e.Caller] = true
		hot[e.Callee] = true
	}
	return hot, nil
}

// A version holds the decisions of one version of the code, per function.
type version struct {
	dir, top string
	pkgs     []string
	funcs    map[funcKey]*funcDecisions
	touched  map[funcKey]bool // filled by compare
	errors   []string
}

type funcKey struct{ pkg, fn string }

type funcDecisions struct {
	file, rel string // the file declaring the function; rel is slash-separated, relative to the repository top
	lo, hi    int    // its lines
	canInline *bool
	cost      int
	reason    string
	inlined   map[string][]Pos // callee -> call sites
	heap      map[string][]Escape
	bounds    map[string][]Bounds
}

func (v *version) fn(k funcKey) *funcDecisions {
	f := v.funcs[k]
	if f == nil {
		f = &funcDecisions{inlined: map[string][]Pos{}, heap: map[string][]Escape{}, bounds: map[string][]Bounds{}}
		v.funcs[k] = f
	}
	return f
}

// collectVersion compiles the packages in dir and sorts the compiler's
// decisions by function.
func collectVersion(ctx context.Context, dir, top string, env []string, patterns []string, idx *funcIndex) (*version, error) {
	v := &version{dir: dir, top: top, funcs: make(map[funcKey]*funcDecisions)}
	// One listing serves the log's build and the -m build below.
	listing, err := load.Packages(ctx, load.ListOptions{Dir: dir, Env: env, Deps: true}, patterns...)
	if err != nil {
		return nil, err
	}
	results, err := optlog.Collect(ctx, optlog.LoadOptions{Dir: dir, Patterns: patterns, Env: env, Listing: listing})
	if err != nil {
		return nil, err
	}
	keep := make(map[string]bool)
	var pkgs []string
	for _, r := range results {
		if r.Test {
			continue
		}
		if r.Err != "" {
			v.errors = append(v.errors, fmt.Sprintf("%s: %s", r.ImportPath, firstLine(r.Err)))
			continue
		}
		keep[r.ImportPath] = true
		pkgs = append(pkgs, r.ImportPath)
		// Every function gets an entry, so that its lines are known
		// for the touched check even if it has no decisions.
		for _, f := range r.Files {
			ff := idx.file(f)
			if ff == nil {
				continue
			}
			rel, _ := filepath.Rel(top, f)
			for _, sp := range ff.funcs {
				d := v.fn(funcKey{r.ImportPath, sp.name})
				d.file, d.rel, d.lo, d.hi = f, filepath.ToSlash(rel), sp.start.Line, sp.end.Line
			}
		}
		for _, rec := range r.Records {
			v.addRecord(r.ImportPath, rec, idx)
		}
	}
	sort.Strings(pkgs)
	v.pkgs = pkgs
	if len(pkgs) == 0 {
		if len(v.errors) > 0 {
			return nil, errors.New(v.errors[0])
		}
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	// The optimization log has no "inlining call" records: the -m
	// output has them.
	tmp, err := os.MkdirTemp("", "goadvise-diff-bin-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	b := &buildSpec{dir: dir, env: env, out: tmp, gcflags: decisionFlags(pkgs, false)}
	t := &targets{}
	for _, p := range listing.Packages {
		if !keep[p.ImportPath] || p.ForTest != "" {
			continue
		}
		if p.Name == "main" {
			t.mains = append(t.mains, p.ImportPath)
		} else {
			t.libs = append(t.libs, p.ImportPath)
		}
	}
	out, err := b.run(ctx, t)
	if err != nil {
		return nil, err
	}
	co, err := parseCompilerOutput(strings.NewReader(string(out)), dir, keep)
	if err != nil {
		return nil, err
	}
	for _, r := range co.remarks {
		if r.Kind != rkInlineCall {
			continue
		}
		fn := idx.enclosing(r.Pos.File, r.Pos.Line, r.Pos.Col)
		if fn == "" {
			continue
		}
		d := v.fn(funcKey{r.Pkg, fn})
		d.inlined[r.Callee] = append(d.inlined[r.Callee], r.Pos)
	}
	return v, nil
}

func (v *version) addRecord(pkg string, rec optlog.Record, idx *funcIndex) {
	p := rec.Pos
	fn := idx.enclosing(p.File, p.Line, p.Col)
	if fn == "" {
		return
	}
	d := v.fn(funcKey{pkg, fn})
	pos := Pos{p.File, p.Line, p.Col}
	switch {
	case rec.Kind == optlog.CanInline:
		t := true
		d.canInline, d.cost = &t, rec.Cost
	case rec.Kind == optlog.CannotInline:
		f := false
		d.canInline, d.cost, d.reason = &f, rec.Cost, rec.Reason
	case rec.Kind.IsHeap():
		e := Escape{Name: rec.Name, Cause: rec.Cause.String(), Explanation: rec.Explanation, Pos: pos}
		if len(rec.InlinedFrom) > 0 {
			in := rec.InlinedFrom[0]
			e.Via = idx.enclosing(in.File, in.Line, in.Col)
		}
		key := e.Name + "\x00" + e.Cause + "\x00" + e.Via
		d.heap[key] = append(d.heap[key], e)
	case rec.Kind == optlog.BoundsCheck || rec.Kind == optlog.SliceBoundsCheck:
		src := p
		if len(rec.InlinedFrom) > 0 {
			src = rec.InlinedFrom[0]
		}
		b := Bounds{Kind: "index", Line: idx.lineText(src.File, src.Line), Pos: pos}
		if rec.Kind == optlog.SliceBoundsCheck {
			b.Kind = "slice"
		}
		key := b.Kind + "\x00" + b.Line
		d.bounds[key] = append(d.bounds[key], b)
	}
}

// markTouched records which functions of v the diff changed: side 0 uses
// the old line ranges, 1 the new ones.
func (v *version) markTouched(ch *worktree.Changes, side int) {
	v.touched = make(map[funcKey]bool)
	ranges, whole := ch.New, ch.Added
	if side == 0 {
		ranges, whole = ch.Old, ch.Removed
	}
	for k, d := range v.funcs {
		if d.rel == "" {
			continue
		}
		if whole[d.rel] || worktree.Touches(ranges[d.rel], d.lo, d.hi) {
			v.touched[k] = true
		}
	}
}

func (rep *DiffReport) compare(base, head *version, ch *worktree.Changes, hot map[string]bool) {
	base.markTouched(ch, 0)
	head.markTouched(ch, 1)
	keys := make(map[funcKey]bool)
	for k := range base.funcs {
		keys[k] = true
	}
	for k := range head.funcs {
		keys[k] = true
	}
	// Call sites that inlined each function in base, for the functions
	// that are no longer inlinable.
	callSites := func(v *version, callee funcKey) []CallSite {
		var out []CallSite
		for k, d := range v.funcs {
			for c, ps := range d.inlined {
				if calleeMatches(c, callee) {
					for _, p := range ps {
						out = append(out, CallSite{Func: k.pkg + "." + k.fn, Pos: p.rel(v.dir)})
					}
				}
			}
		}
		sort.Slice(out, func(i, j int) bool {
			if out[i].Pos.File != out[j].Pos.File {
				return out[i].Pos.File < out[j].Pos.File
			}
			return out[i].Pos.Line < out[j].Pos.Line
		})
		return out
	}
	for k := range keys {
		b, h := base.funcs[k], head.funcs[k]
		if b == nil || h == nil {
			// An added or removed function: its decisions are new, not
			// changed.
			continue
		}
		fd := FuncDiff{Package: k.pkg, Func: k.fn, Touched: base.touched[k] || head.touched[k], Hot: hot[k.pkg+"."+k.fn]}
		if b.canInline != nil && h.canInline != nil && *b.canInline != *h.canInline {
			fd.Inlinable = &InlinableChange{Before: *b.canInline, After: *h.canInline, CostBefore: b.cost, CostAfter: h.cost}
			if !*h.canInline {
				fd.Inlinable.Reason = h.reason
				fd.LostCallSites = callSites(base, k)
			} else {
				fd.Inlinable.Reason = b.reason
			}
		}
		fd.InlinedAdded, fd.InlinedRemoved = diffCounts(b.inlined, h.inlined)
		fd.EscapesAdded, fd.EscapesRemoved = diffMultiset(b.heap, h.heap, base.dir, head.dir)
		fd.BoundsAdded, fd.BoundsRemoved = diffMultiset(b.bounds, h.bounds, base.dir, head.dir)
		if fd.Inlinable != nil || len(fd.InlinedAdded)+len(fd.InlinedRemoved)+len(fd.EscapesAdded)+len(fd.EscapesRemoved)+len(fd.BoundsAdded)+len(fd.BoundsRemoved) > 0 {
			rep.Funcs = append(rep.Funcs, fd)
		}
	}
	sort.Slice(rep.Funcs, func(i, j int) bool {
		a, b := rep.Funcs[i], rep.Funcs[j]
		if a.Package != b.Package {
			return a.Package < b.Package
		}
		return a.Func < b.Func
	})
}

// calleeMatches reports whether a callee as -m prints it ("F", "(*T).M"
// in the same package, "pkg.F" in another) names the function k.
func calleeMatches(callee string, k funcKey) bool {
	if callee == k.fn || callee == k.pkg+"."+k.fn {
		return true
	}
	// Another package: -m qualifies by the package name, the last
	// element of the path in the common case.
	name := k.pkg[strings.LastIndex(k.pkg, "/")+1:]
	return callee == name+"."+k.fn
}

func diffCounts(base, head map[string][]Pos) (added, removed []Count) {
	for c, ps := range head {
		if n := len(ps) - len(base[c]); n > 0 {
			added = append(added, Count{c, n})
		}
	}
	for c, ps := range base {
		if n := len(ps) - len(head[c]); n > 0 {
			removed = append(removed, Count{c, n})
		}
	}
	byCallee := func(s []Count) {
		sort.Slice(s, func(i, j int) bool { return s[i].Callee < s[j].Callee })
	}
	byCallee(added)
	byCallee(removed)
	return added, removed
}

type positioned interface{ Escape | Bounds }

func posOf[T positioned](x T) *Pos {
	switch x := any(&x).(type) {
	case *Escape:
		return &x.Pos
	case *Bounds:
		return &x.Pos
	}
	return nil
}

// diffMultiset returns the items of head beyond those of base with the
// same key (added) and the reverse (removed), with positions relative to
// their version's directory.
func diffMultiset[T positioned](base, head map[string][]T, baseDir, headDir string) (added, removed []T) {
	take := func(a, b map[string][]T, dir string) []T {
		var out []T
		for k, xs := range a {
			if n := len(xs) - len(b[k]); n > 0 {
				for _, x := range xs[len(xs)-n:] {
					p := posOf(x)
					rel := p.rel(dir)
					switch y := any(&x).(type) {
					case *Escape:
						y.Pos = rel
					case *Bounds:
						y.Pos = rel
					}
					out = append(out, x)
				}
			}
		}
		sort.Slice(out, func(i, j int) bool {
			pi, pj := posOf(out[i]), posOf(out[j])
			if pi.File != pj.File {
				return pi.File < pj.File
			}
			if pi.Line != pj.Line {
				return pi.Line < pj.Line
			}
			return pi.Col < pj.Col
		})
		return out
	}
	return take(head, base, headDir), take(base, head, baseDir)
}
