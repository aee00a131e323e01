package pgo

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/internal/funcname"
)

// Weight is the hotness of a function or line, as shares of the total CPU
// sample weight, from 0 to 1.
type Weight struct {
	Flat  float64 // samples with the place at the top of the stack
	Cum   float64 // samples with the place anywhere on the stack
	Alloc float64 // samples in which the place calls a runtime allocation function directly
}

// A Hot is a function and its weight.
type Hot struct {
	Name    string // in source form (funcname.FromProfile): "example.com/pkg.(*T).M"
	Package string // "example.com/pkg"
	Weight
}

// LoadOptions control [LoadHotness].
type LoadOptions struct {
	Open OpenOptions
}

// Hotness answers how much of the CPU time and of the allocations of the
// profiled program each function and each source line accounts for. It is
// built from CPU profiles (for Weight) and heap profiles (for HeapLine).
// Its methods are safe for concurrent use, and lookups are map lookups.
type Hotness struct {
	total    float64 // CPU weight (cpu/nanoseconds, or samples/count)
	samples  int64
	duration time.Duration

	files  map[string]int32 // profile file name -> ID
	names  []string         // ID -> profile file name
	byBase map[string][]string
	lines  map[lineKey]*Weight
	funcs  map[string]*Weight
	fnFile map[string]int32  // function -> ID of its file, for the functions with flat weight
	alias  map[string]string // source form of a function's name -> the profile's, where they differ (funcname.FromProfile)
	under  map[underKey]float64
	heap   map[lineKey][2]int64
	allocs map[string]*allocStack // by stack, see Allocations

	heapPeriod int64 // bytes between heap samples (runtime.MemProfileRate)

	// partial says that the profiles measure only part of the program's
	// work (the module's own benchmarks): see SetPartial.
	partial bool

	// stacks holds, for each CPU profile, its weight by the set of
	// packages on a sample's stack, for Coverage.
	stacks []stackPackages

	// byPkgBase holds the profile's files by the package of their
	// functions and their base name ("example.com/kv\x00store.go"),
	// which name a file of a build whatever its directory; pkgDirs the
	// import path of the source's directories (SetPackageDirs).
	byPkgBase map[string][]int32
	pkgDirs   map[string]string

	mu      sync.Mutex
	resolve map[string]int32 // query file -> profile file ID, -1 if none
	roots   [][2]string      // learned (query prefix, profile prefix) pairs
}

type lineKey struct {
	file int32
	line int32
}

type underKey struct {
	lineKey
	callee string
}

func newHotness() *Hotness {
	return &Hotness{
		files:   map[string]int32{},
		byBase:  map[string][]string{},
		lines:   map[lineKey]*Weight{},
		funcs:   map[string]*Weight{},
		fnFile:  map[string]int32{},
		alias:   map[string]string{},
		under:   map[underKey]float64{},
		heap:    map[lineKey][2]int64{},
		allocs:  map[string]*allocStack{},
		resolve: map[string]int32{},

		byPkgBase: map[string][]int32{},
	}
}

// LoadHotness reads CPU and heap profiles from sources (files, directories,
// URLs) and builds their Hotness. CPU profiles are added up; heap profiles
// (with alloc_space and alloc_objects) feed HeapLine. Any other profile is
// an error.
func LoadHotness(ctx context.Context, sources []string, opts LoadOptions) (*Hotness, error) {
	h := newHotness()
	for _, src := range sources {
		for p, err := range Open(ctx, src, opts.Open) {
			if err != nil {
				return nil, err
			}
			if err := h.add(p.Name, p.Profile); err != nil {
				return nil, fmt.Errorf("%s: %v", p.Name, err)
			}
		}
	}
	h.finish()
	return h, nil
}

// Load is LoadHotness for inputs of known kinds: every profile of cpu must
// be a CPU profile and every profile of heap a heap profile, each with
// samples (see [CheckWeights]); the error names the file otherwise.
func Load(ctx context.Context, cpu, heap []string, opts LoadOptions) (*Hotness, error) {
	h := newHotness()
	for _, in := range []struct {
		sources []string
		kind    Kind
	}{{cpu, CPU}, {heap, Heap}} {
		for _, src := range in.sources {
			for p, err := range Open(ctx, src, opts.Open) {
				if err != nil {
					return nil, err
				}
				err := CheckWeights(p.Profile, in.kind)
				var ke *KindError
				if errors.As(err, &ke) && ke.Got != Other && p.Name != src {
					// A profile found in a directory is taken for
					// what it is: a directory may hold both kinds.
					err = CheckWeights(p.Profile, ke.Got)
				}
				if err != nil {
					return nil, fmt.Errorf("%s: %w", p.Name, err)
				}
				h.add(p.Name, p.Profile)
			}
		}
	}
	h.finish()
	return h, nil
}

// NewHotness builds a Hotness from parsed profiles.
func NewHotness(profiles ...*profile.Profile) (*Hotness, error) {
	h := newHotness()
	for _, p := range profiles {
		if err := h.Add(p); err != nil {
			return nil, err
		}
	}
	h.finish()
	return h, nil
}

// Add adds a CPU or heap profile. It must not be called once the Hotness
// is in use.
func (h *Hotness) Add(p *profile.Profile) error {
	return h.add("", p)
}

// add adds the CPU or heap profile p read from name.
func (h *Hotness) add(name string, p *profile.Profile) error {
	info := Inspect(p)
	if info.Kind == CPU || info.Kind == Heap {
		for _, f := range p.Function {
			if f.Filename != "" {
				h.noteFunc(h.fileID(f.Filename), f.Name)
			}
		}
	}
	switch info.Kind {
	case CPU:
		h.addCPU(name, p)
	case Heap:
		h.addHeap(p)
	default:
		return fmt.Errorf("neither a CPU nor a heap profile (sample types %s)", info.SampleTypes)
	}
	return nil
}

func (h *Hotness) fileID(name string) int32 {
	id, ok := h.files[name]
	if !ok {
		id = int32(len(h.files))
		h.files[name] = id
		h.names = append(h.names, name)
		base := filepath.Base(filepath.ToSlash(name))
		h.byBase[base] = append(h.byBase[base], name)
	}
	return id
}

// noteFunc records that the profile's file id holds a function of the
// package of fn (a profile's function name), for matching by package.
func (h *Hotness) noteFunc(id int32, fn string) {
	pkg := funcname.Package(funcname.FromProfile(fn))
	if pkg == "" {
		return
	}
	k := pkg + "\x00" + filepath.Base(filepath.ToSlash(h.names[id]))
	if !slices.Contains(h.byPkgBase[k], id) {
		h.byPkgBase[k] = append(h.byPkgBase[k], id)
	}
}

// SetPackageDirs gives the import path of each directory of the source
// (dirs maps a directory to an import path), so that a file the profile
// names under another root that shares only its base name with the
// source's (a package at a module's root, built in a directory named
// otherwise) is matched by its package and base name. Call it before
// the Hotness is shared.
func (h *Hotness) SetPackageDirs(dirs map[string]string) {
	h.pkgDirs = dirs
}

// A hframe is a frame of a sample, for hotness.
type hframe struct {
	fn      string
	key     lineKey
	inlined bool // inlined into the frame above it (not the location's outermost line)
}

func (h *Hotness) frames(s *profile.Sample, buf []hframe) []hframe {
	buf = buf[:0]
	for _, l := range s.Location {
		for i, ln := range l.Line {
			if ln.Function == nil {
				continue
			}
			id := h.fileID(ln.Function.Filename)
			buf = append(buf, hframe{
				fn:      ln.Function.Name,
				key:     lineKey{id, int32(ln.Line)},
				inlined: i < len(l.Line)-1,
			})
		}
	}
	return buf
}

func (h *Hotness) addCPU(name string, p *profile.Profile) {
	vi := sampleIndex(p, "cpu", "nanoseconds")
	ci := sampleIndex(p, "samples", "count")
	h.duration += time.Duration(p.DurationNanos)
	sp := stackPackages{name: name, weight: map[string]float64{}}
	var pkgs []string
	var buf []hframe
	seenLine := map[lineKey]bool{}
	seenFn := map[string]bool{}
	seenUnder := map[underKey]bool{}
	for _, s := range p.Sample {
		w := float64(s.Value[vi])
		if w == 0 || isResidual(s) {
			continue
		}
		h.samples += s.Value[ci]
		h.total += w
		fr := h.frames(s, buf)
		buf = fr
		sp.total += w
		pkgs = pkgs[:0]
		for _, f := range fr {
			pkgs = append(pkgs, funcname.Package(f.fn))
		}
		slices.Sort(pkgs)
		sp.weight[strings.Join(slices.Compact(pkgs), "\n")] += w
		if len(fr) == 0 {
			continue
		}
		h.line(fr[0].key).Flat += w
		h.fn(fr[0].fn).Flat += w
		h.fnFile[fr[0].fn] = fr[0].key.file
		clear(seenLine)
		clear(seenFn)
		clear(seenUnder)
		for i, f := range fr {
			if !seenLine[f.key] {
				seenLine[f.key] = true
				h.line(f.key).Cum += w
			}
			if !seenFn[f.fn] {
				seenFn[f.fn] = true
				h.fn(f.fn).Cum += w
			}
			// Callees reached from f directly or through inlined frames.
			for k := i - 1; k >= 0; k-- {
				u := underKey{f.key, fr[k].fn}
				if !seenUnder[u] {
					seenUnder[u] = true
					h.under[u] += w
				}
				if !fr[k].inlined {
					break
				}
			}
		}
		// Allocation: the first non-runtime frame above an allocation
		// function.
		// The stack from there up is kept to charge the allocation to
		// the frame that can avoid it (see Allocations).
		for i := 0; i+1 < len(fr); i++ {
			if isAllocFunc(fr[i].fn) && !isRuntime(fr[i+1].fn) {
				f := fr[i+1]
				h.line(f.key).Alloc += w
				h.fn(f.fn).Alloc += w
				h.addAllocStack(fr[i+1:], w, 0, 0)
				break
			}
		}
	}
	h.stacks = append(h.stacks, sp)
}

// stackPackages is the CPU weight of one profile by the set of packages
// on a sample's stack (sorted, joined by newlines).
type stackPackages struct {
	name   string
	total  float64
	weight map[string]float64
}

// A Coverage is the share of one CPU profile's weight that falls in a set
// of packages.
type Coverage struct {
	Source  string  // the profile's file or URL
	Percent float64 // of its CPU weight, in samples with a function of the packages on the stack
}

// MinCoverage is the share of a CPU profile's weight, in percent, that
// should fall in the analysed packages; below it goadvise warns that the
// profile says little about them.
const MinCoverage = 1.0

// Coverage returns, for each CPU profile given to LoadHotness or Load, the
// share of its weight in samples whose stack holds a function of a package
// for which in returns true. See [Packages] for in.
func (h *Hotness) Coverage(in func(pkg string) bool) []Coverage {
	var out []Coverage
	for _, sp := range h.stacks {
		var w float64
		for key, v := range sp.weight {
			for pkg := range strings.SplitSeq(key, "\n") {
				if in(pkg) {
					w += v
					break
				}
			}
		}
		c := Coverage{Source: sp.name}
		if sp.total > 0 {
			c.Percent = 100 * w / sp.total
		}
		out = append(out, c)
	}
	return out
}

// isResidual reports whether s is one of the samples that carry the weight
// removed by trimming (see MergeOptions.Trim).
func isResidual(s *profile.Sample) bool {
	if len(s.Location) == 0 {
		return false
	}
	l := s.Location[0].Line
	return len(l) > 0 && l[0].Function != nil && l[0].Function.Name == residualCallee
}

func (h *Hotness) addHeap(p *profile.Profile) {
	bi := sampleIndex(p, "alloc_space", "bytes")
	oi := sampleIndex(p, "alloc_objects", "count")
	if h.heapPeriod == 0 && p.Period > 0 {
		h.heapPeriod = p.Period
	}
	var buf []hframe
	for _, s := range p.Sample {
		fr := h.frames(s, buf)
		buf = fr
		for i, f := range fr {
			if isRuntime(f.fn) {
				continue
			}
			v := h.heap[f.key]
			v[0] += s.Value[bi]
			v[1] += s.Value[oi]
			h.heap[f.key] = v
			h.addAllocStack(fr[i:], 0, s.Value[bi], s.Value[oi])
			break
		}
	}
}

func (h *Hotness) line(k lineKey) *Weight {
	w := h.lines[k]
	if w == nil {
		w = new(Weight)
		h.lines[k] = w
	}
	return w
}

func (h *Hotness) fn(name string) *Weight {
	w := h.funcs[name]
	if w == nil {
		w = new(Weight)
		h.funcs[name] = w
		if src := funcname.FromProfile(name); src != name {
			h.alias[src] = name
		}
	}
	return w
}

// finish turns weights into shares.
func (h *Hotness) finish() {
	if h.total == 0 {
		return
	}
	for _, w := range h.lines {
		w.Flat, w.Cum, w.Alloc = w.Flat/h.total, w.Cum/h.total, w.Alloc/h.total
	}
	for _, w := range h.funcs {
		w.Flat, w.Cum, w.Alloc = w.Flat/h.total, w.Cum/h.total, w.Alloc/h.total
	}
	for k, v := range h.under {
		h.under[k] = v / h.total
	}
}

// allocFuncs are the runtime's allocation entry points that compiled code
// calls. Map assignment and goroutine creation allocate too, but most of
// their time is not allocation, so they are left out.
var allocFuncs = map[string]bool{
	"runtime.mallocgc": true, "runtime.newobject": true, "runtime.newarray": true,
	"runtime.makeslice": true, "runtime.makeslicecopy": true, "runtime.growslice": true,
	"runtime.makemap": true, "runtime.makemap_small": true, "runtime.makechan": true,
	"runtime.slicebytetostring": true, "runtime.stringtoslicebyte": true, "runtime.stringtoslicerune": true,
	"runtime.slicerunetostring": true, "runtime.intstring": true, "runtime.rawstring": true,
	"runtime.rawbyteslice": true, "runtime.rawruneslice": true,
}

func isAllocFunc(name string) bool {
	return allocFuncs[name] ||
		strings.HasPrefix(name, "runtime.convT") ||
		strings.HasPrefix(name, "runtime.concatstring") ||
		strings.HasPrefix(name, "runtime.mallocgc")
}

func isRuntime(name string) bool {
	return strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "internal/runtime/")
}

// Func returns the weight of the function with the given name, in pprof
// form ("example.com/pkg.(*T).Method") or in source form where the two
// differ (see funcname.FromProfile).
func (h *Hotness) Func(name string) Weight {
	if w := h.funcs[name]; w != nil {
		return *w
	}
	if w := h.funcs[h.alias[name]]; w != nil {
		return *w
	}
	return Weight{}
}

// Line returns the weight of a source line. File is a path as the profile
// has it, usually absolute; a path with a different root (a checkout in
// another directory, a -trimpath build) is matched by its longest common
// suffix of at least two path elements, later by the root learned from
// such matches, and otherwise by its package and base name (see
// SetPackageDirs).
func (h *Hotness) Line(file string, line int) Weight {
	id := h.fileFor(file)
	if id < 0 {
		return Weight{}
	}
	if w := h.lines[lineKey{id, int32(line)}]; w != nil {
		return *w
	}
	return Weight{}
}

// HeapLine returns the bytes and objects allocated at a source line
// according to the heap profiles: allocations whose first frame outside
// the runtime is that line. It returns zeros if no heap profile was loaded.
func (h *Hotness) HeapLine(file string, line int) (bytes, objects int64) {
	id := h.fileFor(file)
	if id < 0 {
		return 0, 0
	}
	v := h.heap[lineKey{id, int32(line)}]
	return v[0], v[1]
}

// Under returns the share of CPU samples in which the given line calls
// calleeFunc (a pprof name such as "reflect.DeepEqual"), directly or
// through functions inlined into it.
func (h *Hotness) Under(callerFile string, callerLine int, calleeFunc string) float64 {
	id := h.fileFor(callerFile)
	if id < 0 {
		return 0
	}
	return h.under[underKey{lineKey{id, int32(callerLine)}, calleeFunc}]
}

// SetPartial records that the profiles measure only part of the program's
// work, as the module's own benchmarks do: a function they never saw run
// is not thereby rare, and keeps the hotness the source gives it. Call it
// before the Hotness is shared.
func (h *Hotness) SetPartial() { h.partial = true }

// Partial reports whether SetPartial was called.
func (h *Hotness) Partial() bool { return h.partial }

// HeapPeriod returns the average number of bytes allocated between two
// samples of the heap profiles (512 KiB by default), or 0 without them.
func (h *Hotness) HeapPeriod() int64 { return h.heapPeriod }

// Total returns the number of CPU samples and the total duration of the
// CPU profiles.
func (h *Hotness) Total() (samples int64, duration time.Duration) {
	return h.samples, h.duration
}

// Outside returns the n hottest functions by flat weight whose package is
// not module or below it.
func (h *Hotness) Outside(module string, n int) []Hot {
	return h.hottest(n, func(_, pkg string) bool { return pkg != module && !strings.HasPrefix(pkg, module+"/") })
}

// Inside returns the n hottest functions by flat weight of module's
// packages: where the module's own time goes, findings or not. Functions
// of _test.go files are left out: a benchmark's own loop and set-up are
// not code its module ships.
func (h *Hotness) Inside(module string, n int) []Hot {
	return h.hottest(n, func(name, pkg string) bool {
		if pkg != module && !strings.HasPrefix(pkg, module+"/") {
			return false
		}
		id, ok := h.fnFile[name]
		return !ok || !strings.HasSuffix(h.names[id], "_test.go")
	})
}

// hottest returns the n hottest functions by flat weight that keep
// accepts, given their name and package.
func (h *Hotness) hottest(n int, keep func(name, pkg string) bool) []Hot {
	var out []Hot
	for name, w := range h.funcs {
		if w.Flat == 0 {
			continue
		}
		pkg := funcname.Package(name)
		if !keep(name, pkg) {
			continue
		}
		out = append(out, Hot{Name: funcname.FromProfile(name), Package: pkg, Weight: *w})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Flat != out[j].Flat {
			return out[i].Flat > out[j].Flat
		}
		return out[i].Name < out[j].Name
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// fileFor returns the ID of the profile's file that file names, or -1.
func (h *Hotness) fileFor(file string) int32 {
	if id, ok := h.files[file]; ok {
		return id
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if id, ok := h.resolve[file]; ok {
		return id
	}
	id := h.match(file)
	h.resolve[file] = id
	return id
}

// match finds the profile file with the longest common path suffix with
// file (at least two elements, and only one such file), or one that a
// learned root substitution turns file into.
func (h *Hotness) match(file string) int32 {
	q := strings.Split(filepath.ToSlash(file), "/")
	best, bestN, tie := "", 0, false
	for _, cand := range h.byBase[q[len(q)-1]] {
		c := strings.Split(filepath.ToSlash(cand), "/")
		n := 0
		for n < len(q) && n < len(c) && q[len(q)-1-n] == c[len(c)-1-n] {
			n++
		}
		switch {
		case n > bestN:
			best, bestN, tie = cand, n, false
		case n == bestN:
			tie = true
		}
	}
	if bestN >= 2 && !tie {
		qp := strings.Join(q[:len(q)-bestN], "/")
		c := strings.Split(filepath.ToSlash(best), "/")
		cp := strings.Join(c[:len(c)-bestN], "/")
		h.learn(qp, cp)
		return h.files[best]
	}
	for _, r := range h.roots {
		if rest, ok := strings.CutPrefix(filepath.ToSlash(file), r[0]+"/"); ok {
			if id, ok := h.files[r[1]+"/"+rest]; ok {
				return id
			}
		}
	}
	// The one file of the profile that holds functions of the package
	// of file's directory and has its base name.
	if pkg, ok := h.pkgDirs[filepath.Dir(file)]; ok {
		if ids := h.byPkgBase[pkg+"\x00"+q[len(q)-1]]; len(ids) == 1 {
			return ids[0]
		}
	}
	return -1
}

func (h *Hotness) learn(queryPrefix, profilePrefix string) {
	for _, r := range h.roots {
		if r[0] == queryPrefix {
			return
		}
	}
	h.roots = append(h.roots, [2]string{queryPrefix, profilePrefix})
}
