package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/internal/plural"
	"github.com/goadvise/goadvise/pgo"
)

// Hot is the measured weight of a finding's place, as shares (0 to 1) of
// the profile's CPU samples.
type Hot struct {
	Flat  float64 `json:"flat"`  // samples at the finding's line(s)
	Cum   float64 `json:"cum"`   // samples with the line on the stack
	Alloc float64 `json:"alloc"` // samples allocating directly from the line

	// FuncCum is the share of samples with the finding's function on
	// the stack: the figure of the hot-path reason ("profile: 16.9% of
	// CPU in F") and of the HTML chart.
	FuncCum float64 `json:"func_cum"`
}

// How a finding is scored with a profile is its kind's (Fields.Scoring):
// the score is an estimate of the share of CPU time that fixing the
// finding can save, in percent. Findings without a scoring are scored by
// the CPU on their line.
const (
	scoreAlloc = kind.ScoreAlloc // allocation work at the line, plus its share of GC
	scoreUnder = kind.ScoreUnder // CPU under a named callee (Fields.Callee) called from the line
	scoreCum   = kind.ScoreCum   // everything the line's calls cost
	scoreFlat  = kind.ScoreFlat  // the CPU spent on the line(s) themselves
	scoreFunc  = kind.ScoreFunc  // the enclosing function's own CPU
)

// underCallee returns the callee whose cost a finding scored by scoreUnder
// removes: the one its fields name.
func underCallee(f *Finding) string {
	if f.Scoring != scoreUnder {
		return ""
	}
	return f.Callee
}

// ScoreOptions control Score.
type ScoreOptions struct {
	// GCFactor multiplies allocation CPU to account for the collector's
	// work that allocations cause; negative means "measure it from the
	// profile" (see GCFactor).
	GCFactor float64

	// Module is the path of the analysed module: allocations are charged
	// to the first frame of its functions that can avoid them (see
	// pgo.Hotness.Allocations). If empty, the packages of the findings
	// stand for it.
	Module string

	// HeapIndex chooses what heap profiles rank allocation findings by:
	// "alloc_space" (the default) or "alloc_objects".
	HeapIndex string
}

// MinSamples is the number of samples below which a score is not a
// measurement: with n samples, the relative error of a share is about
// 1/sqrt(n), over 30% below 10. Such findings are ranked after the others
// and shown as "<0.1% (3 samples)".
const MinSamples = 10

// MinProfileSamples is the number of CPU samples below which the summary
// says the profile is too short: with fewer, a finding that costs 0.33% of
// CPU rests on fewer than MinSamples samples, and the ranking of the
// findings below a few percent changes from one profile to the next. At
// the default 100 Hz, it is 30 s of CPU time.
const MinProfileSamples = 3000

// GCFactor estimates how much garbage-collection CPU each unit of
// allocation CPU causes in the profiled program: the collector's mark and
// sweep work over the allocator's work, clamped to [0, 3]. The collector's
// cost is proportional to the allocation rate (for a steady live heap), so
// removing an allocation saves its own cost times (1 + GCFactor).
func GCFactor(h *pgo.Hotness) float64 {
	malloc := h.Func("runtime.mallocgc").Cum
	if malloc == 0 {
		return 0
	}
	gc := h.Func("runtime.gcBgMarkWorker").Cum + h.Func("runtime.bgsweep").Cum + h.Func("runtime.gcAssistAlloc").Cum
	return min(max(gc/malloc, 0), 3)
}

// A Caller is a frame that allocations at a finding's line are charged
// to: the call site that can avoid them (see Score).
type Caller struct {
	Function string  `json:"function"`      // pprof form
	Via      string  `json:"via,omitempty"` // the callee it allocates through
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Share    float64 `json:"share"` // % of the line's allocations
	Text     string  `json:"text"`  // "62% of this line's allocations come from (*reader).next via newBuffer"
}

// maxCallers bounds the callers listed for a finding.
const maxCallers = 3

// Score weighs each finding with the profile: it sets Score, Samples,
// Floor, Hot, Cost, Callers and Sampled (whether the profile saw the
// finding's function or line run).
//
// Allocation findings are scored by the allocations charged to their
// line: each allocation is charged to the first frame of the module, up
// from the allocating line, that is not a constructor (pgo.IsConstructor),
// since that call site decides whether the memory is needed. With heap
// profiles, the charge is the line's share of the bytes (or objects)
// allocated times the CPU share of allocating and collecting; without,
// the CPU samples allocating times (1 + GC factor).
func Score(fs []Finding, h *pgo.Hotness, opts ScoreOptions) {
	gc := opts.GCFactor
	if gc < 0 {
		gc = GCFactor(h)
	}
	totalSamples, _ := h.Total()
	charger := NewAllocCharger(fs, opts.Module)
	own := charger.Own()
	allocs := h.Allocations(own)
	allocTotal := allocs.Total()
	byObjects := opts.HeapIndex == "alloc_objects"
	heapTotal := allocTotal.Bytes
	if byObjects {
		heapTotal = allocTotal.Objects
	}
	useHeap := heapTotal > 0
	// Several findings of one kind on one line share that line's weight:
	// the profile cannot tell them apart, so each gets an equal part.
	type lineKind struct {
		file string
		line int
		kind kind.Scoring
		x    string
	}
	shared := make(map[lineKind]int)
	// An allocation finding about a call ("calling X allocates")
	// weighs what the line allocates through X; one about the line's own
	// allocation, the rest.
	kindOf := func(f *Finding) lineKind {
		return lineKind{f.File, f.Line, f.Scoring, underCallee(f) + allocCallee(f)}
	}
	for i := range fs {
		shared[kindOf(&fs[i])]++
	}
	cpuSamples := func(share float64) int64 { return int64(share*float64(totalSamples) + 0.5) }
	for i := range fs {
		f := &fs[i]
		w := h.Line(f.File, f.Line)
		fn := h.Func(f.Function)
		f.Hot = &Hot{Flat: w.Flat, Cum: w.Cum, Alloc: w.Alloc, FuncCum: fn.Cum}
		for l := f.Line + 1; l <= f.EndLine; l++ {
			f.Hot.Flat += h.Line(f.File, l).Flat
		}
		f.Sampled = f.Sampled || fn.Cum > 0 || w.Cum > 0 // or measured by -bench (set before)
		f.Callers = nil
		var share float64
		switch f.Scoring {
		case scoreAlloc:
			c := charger.Charged(allocs, f)
			if useHeap {
				amount, what := c.Bytes, "bytes"
				if byObjects {
					amount, what = c.Objects, "objects"
				}
				frac := float64(amount) / float64(heapTotal)
				share = frac * allocTotal.CPU * (1 + gc)
				if p := h.HeapPeriod(); p > 0 {
					f.Samples = c.Bytes / p
				}
				f.Cost = fmt.Sprintf("~%s of CPU: %s of the %s allocated (%s in %s objects charged to this line) x %s of CPU allocating (incl. GC at %.1fx)",
					pct(share), pct(frac), what, humanBytes(c.Bytes), humanCount(c.Objects), pct(allocTotal.CPU*(1+gc)), gc)
			} else {
				share = c.CPU * (1 + gc)
				f.Samples = cpuSamples(c.CPU)
				f.Cost = fmt.Sprintf("~%s of CPU allocating (incl. GC at %.1fx)", pct(share), gc)
				if bytes, objects := h.HeapLine(f.File, f.Line); bytes > 0 {
					f.Cost += fmt.Sprintf("; %s in %s objects allocated at this line", humanBytes(bytes), humanCount(objects))
				}
			}
			f.Callers = callers(allocs, f, own, useHeap)
		case scoreUnder:
			callee := underCallee(f)
			share = h.Under(f.File, f.Line, callee)
			f.Samples = cpuSamples(share)
			f.Cost = fmt.Sprintf("~%s of CPU in %s", pct(share), callee)
		case scoreCum:
			share = w.Cum
			f.Samples = cpuSamples(share)
			f.Cost = fmt.Sprintf("~%s of CPU under this line", pct(share))
		case scoreFunc:
			share = fn.Flat
			f.Samples = cpuSamples(share)
			f.Cost = fmt.Sprintf("~%s of CPU in %s", pct(share), funcname.Short(f.Function))
		default:
			share = f.Hot.Flat
			f.Samples = cpuSamples(share)
			f.Cost = fmt.Sprintf("~%s of CPU on this line", pct(share))
		}
		// The score MinSamples samples would give: below it, the score
		// is shown as a bound.
		if f.Samples > 0 {
			f.Floor = round(share*100*MinSamples/float64(f.Samples), 4)
		} else if totalSamples > 0 {
			f.Floor = round(100*MinSamples/float64(totalSamples), 4)
		}
		if n := shared[kindOf(f)]; n > 1 {
			share /= float64(n)
			f.Floor /= float64(n)
			f.Cost = strings.Replace(f.Cost, pct(share*float64(n)), pct(share), 1) + fmt.Sprintf(" (the line's share split among %d findings)", n)
		}
		if f.Samples < MinSamples && f.Sampled {
			f.Cost += fmt.Sprintf(" (%d %s: too few to measure)", f.Samples, plural.Noun(int(f.Samples), "sample", "samples"))
		}
		if !f.Sampled {
			f.Cost = "never sampled in the profile"
		}
		f.Score = round(share*100, 4)
	}
}

// An AllocCharger says which of the allocations charged to a line (see
// pgo.Hotness.Allocations) a finding there is about: an allocation
// finding about a call ("calling X allocates") weighs what the line
// allocates through X; one about the line's own allocation, the rest; any
// other finding, all of them. Score weighs findings so, and check -bench
// counts their allocations per operation so.
type AllocCharger struct {
	own     func(string) bool
	callees map[fileLine][]string
}

type fileLine struct {
	file string
	line int
}

// NewAllocCharger returns the AllocCharger of the findings fs of the module
// (if empty, the packages of the findings stand for it).
func NewAllocCharger(fs []Finding, module string) *AllocCharger {
	c := &AllocCharger{own: ownFunc(fs, module), callees: make(map[fileLine][]string)}
	for i := range fs {
		f := &fs[i]
		if x := allocCallee(f); x != "" {
			c.callees[fileLine{f.File, f.Line}] = append(c.callees[fileLine{f.File, f.Line}], x)
		}
	}
	return c
}

// Own reports whether a function (pprof form) belongs to the analysed
// code: the function to give pgo.Hotness.Allocations.
func (c *AllocCharger) Own() func(string) bool { return c.own }

// Charged returns the allocations of allocs (made with Own) that the
// allocation finding f weighs.
func (c *AllocCharger) Charged(allocs *pgo.Allocs, f *Finding) pgo.AllocWeight {
	var match func(string) bool
	if x := allocCallee(f); x != "" {
		match = func(via string) bool { return calleeIs(via, x) }
	} else if xs := c.callees[fileLine{f.File, f.Line}]; len(xs) > 0 {
		match = func(via string) bool {
			return !slices.ContainsFunc(xs, func(x string) bool { return calleeIs(via, x) })
		}
	}
	return allocs.Charged(f.File, f.Line, match)
}

// Made returns the allocations of allocs (made with Own) that finding f is
// about, wherever the profile charges them, for a count per operation: for
// a finding about a call ("calling X allocates", X inlined or not), what
// the line allocates through X; for one about the line's own allocation,
// what the line itself allocates, even when a constructor's caller is
// charged; for another kind, what is charged to the line.
func (c *AllocCharger) Made(allocs *pgo.Allocs, f *Finding) pgo.AllocWeight {
	switch {
	case f.Scoring != scoreAlloc:
		return allocs.Charged(f.File, f.Line, nil)
	case allocCallee(f) != "":
		return c.Charged(allocs, f)
	}
	return allocs.Allocated(f.File, f.Line)
}

// allocCallee returns X for an allocation finding about a call of X whose
// code allocates at the line (X inlined there), and "" for any other
// finding.
func allocCallee(f *Finding) string {
	if f.Scoring != scoreAlloc || !f.Inlined {
		return ""
	}
	return f.Callee
}

// calleeIs reports whether the profile's function name fn (pprof form:
// "net/http.Header.Set", "bytes.(*Buffer).String") is the function a
// message names as x ("http.Header.Set", "(*bytes.Buffer).String", or
// without the package, "(*Reader).Next", for one of the same package).
func calleeIs(fn, x string) bool {
	if fn == "" {
		return false
	}
	norm := func(s string) string {
		if i := strings.IndexByte(s, '['); i >= 0 {
			s = s[:i]
		}
		s = s[strings.LastIndexByte(s, '/')+1:]
		return strings.NewReplacer("(", "", ")", "", "*", "").Replace(s)
	}
	n, nx := norm(fn), norm(x)
	return n == nx || strings.HasSuffix(n, "."+nx)
}

// ownFunc returns whether a function (pprof form) belongs to the analysed
// code: to module, or without one to a package of the findings.
func ownFunc(fs []Finding, module string) func(string) bool {
	if module != "" {
		return func(fn string) bool {
			pkg := funcname.Package(fn)
			return pkg == module || strings.HasPrefix(pkg, module+"/")
		}
	}
	pkgs := make(map[string]bool)
	for _, f := range fs {
		pkgs[f.Package] = true
	}
	return func(fn string) bool { return pkgs[funcname.Package(fn)] }
}

// callers describes where the allocations at f's line are charged, when
// some are charged to other frames: "62% of this line's allocations come
// from (*reader).next via newBuffer".
func callers(allocs *pgo.Allocs, f *Finding, own func(string) bool, byBytes bool) []Caller {
	cs := allocs.Callers(f.File, f.Line)
	var total float64
	elsewhere := false
	weight := func(c pgo.AllocCaller) float64 {
		if byBytes {
			return float64(c.Bytes)
		}
		return c.CPU
	}
	for _, c := range cs {
		total += weight(c)
		if c.Via != "" {
			elsewhere = true
		}
	}
	if !elsewhere || total == 0 {
		return nil
	}
	var out []Caller
	for _, c := range cs {
		if len(out) == maxCallers || weight(c) == 0 {
			break
		}
		share := weight(c) / total * 100
		text := fmt.Sprintf("%.0f%% of this line's allocations come from %s", share, funcname.Short(c.Func))
		if c.Via != "" {
			text += " via " + funcname.Short(c.Via)
		}
		text += fmt.Sprintf(" (%s:%d)", filepathBase(c.File), c.Line)
		out = append(out, Caller{Function: c.Func, Via: c.Via, File: c.File, Line: c.Line, Share: round(share, 1), Text: text})
	}
	return out
}

// filepathBase returns the last element of a slash- or
// backslash-separated path.
func filepathBase(p string) string {
	return p[strings.LastIndexAny(p, `/\`)+1:]
}

// Measurable reports whether f's score rests on at least MinSamples
// samples.
func Measurable(f Finding) bool { return f.Samples >= MinSamples }

// MeasuredFree reports whether what was measured shows f's allocation
// costing nothing: f is about an allocation (kind.ScoreAlloc) and the
// benchmarks' heap profiles, which record every allocation, charge none
// to its line although they ran its function (Free, set by check -bench):
// an append into a buffer kept across calls once it has grown, a branch
// they never take. Such a finding ranks after every other and the
// default shows it only when the budget has room.
func MeasuredFree(f Finding) bool {
	return f.Scoring == kind.ScoreAlloc && f.Free
}

// ScoreText returns f's score as a figure: "2.1%", or for a score that
// rests on fewer than MinSamples samples, the bound that many samples
// would give and the samples there are: "<0.1% (3 samples)".
func ScoreText(f Finding) string {
	switch {
	case f.Samples == 0 && f.Score == 0:
		return "0%"
	case !Measurable(f):
		b := pct(min(f.Floor, 100) / 100) // a profile of fewer than MinSamples samples bounds nothing below all of it
		if !strings.HasPrefix(b, "<") {
			b = "<" + b
		}
		return fmt.Sprintf("%s (%d %s)", b, f.Samples, plural.Noun(int(f.Samples), "sample", "samples"))
	}
	return pct(f.Score / 100)
}

// RankByScore orders findings ranked by a profile, taking turns between
// two questions as the static ranking does (kind.Interleave). What to
// change: the next finding by what fixing it is expected to save, the
// share of CPU the profile charges it times the odds that its advice
// removes it (kind.Odds), so that a measured cost with a rewrite comes
// before a larger one nothing is known to remove. Where the cost is: the
// functions by the share the profile charges their findings, highest
// first, each giving its best finding before any gives a second, whether
// or not a known change removes it. A score that rests on fewer than
// MinSamples samples counts for no more than the share MinSamples samples
// would be (Floor): it is not a measurement. Allocations the benchmarks
// ran without making (MeasuredFree) come last; ties are broken by static
// weight, tier and position so the order is deterministic.
func RankByScore(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmpBool(MeasuredFree(a), MeasuredFree(b)),
			cmp.Compare(estimate(b)*kind.Odds(&b.Fields), estimate(a)*kind.Odds(&a.Fields)),
			cmp.Compare(estimate(b), estimate(a)),
			cmp.Compare(Weight(&b), Weight(&a)),
			cmp.Compare(tierRank(a.Tier), tierRank(b.Tier)),
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Offset, b.Offset),
			cmp.Compare(a.Kind, b.Kind),
		)
	})
	// The turns, over what the benchmarks did not find free.
	free := slices.IndexFunc(fs, MeasuredFree)
	if free < 0 {
		free = len(fs)
	}
	head := fs[:free]
	type place struct{ file, function string }
	order := kind.Interleave(len(head), func(i int) place {
		if head[i].Function == "" {
			return place{file: head[i].File} // package level: one group per file
		}
		return place{function: head[i].Function}
	}, func(i int) float64 { return estimate(head[i]) })
	turned := make([]Finding, len(head))
	for t, i := range order {
		turned[t] = head[i]
	}
	copy(head, turned)
	Number(fs)
}

// estimate returns the share of CPU that f's score stands for: Score, or
// for a score on too few samples to be a measurement, at most the share
// that MinSamples samples would be.
func estimate(f Finding) float64 {
	if Measurable(f) || f.Floor <= 0 {
		return f.Score
	}
	return min(f.Score, f.Floor)
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func pct(share float64) string {
	p := share * 100
	switch {
	case p == 0:
		return "0%"
	case p < 0.01:
		return "<0.01%"
	case p < 1:
		return fmt.Sprintf("%.2f%%", p)
	}
	return fmt.Sprintf("%.1f%%", p)
}

func round(x float64, digits int) float64 {
	f := 1.0
	for range digits {
		f *= 10
	}
	return float64(int64(x*f+0.5)) / f
}

func humanBytes(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	v, exp := float64(b), 0
	for v >= unit && exp < 5 {
		v /= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", v, "KMGTP"[exp-1])
}

func humanCount(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1fG", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
