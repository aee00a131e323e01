package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/pgo"
)

// Hot is the measured weight of a finding's place, as shares (0 to 1) of
// the profile's CPU samples.
type Hot struct {
	Flat  float64 `json:"flat"`  // samples at the finding's line(s)
	Cum   float64 `json:"cum"`   // samples with the line on the stack
	Alloc float64 `json:"alloc"` // samples allocating directly from the line
}

// How findings of each analyzer are scored with a profile. The score is
// an estimate of the share of CPU time that fixing the finding can save,
// in percent.
const (
	scoreAlloc = "alloc" // allocation work at the line, plus its share of GC
	scoreUnder = "under" // CPU under a named callee called from the line
	scoreCum   = "cum"   // everything the line's calls cost
	scoreFlat  = "flat"  // the CPU spent on the line(s) themselves
	scoreFunc  = "func"  // the enclosing function's own CPU
)

// scoring maps analyzers to their scoring kind; analyzers not listed are
// scored by scoreFlat.
var scoring = map[string]string{
	"heapescape":   scoreAlloc,
	"smallalloc":   scoreAlloc,
	"loopalloc":    scoreAlloc,
	"deepequal":    scoreUnder,
	"percall":      scoreCum,
	"devirt":       scoreCum,
	"inlinebudget": scoreFunc,
}

// underCallee names the callee whose cost a scoreUnder analyzer removes.
var underCallee = map[string]string{
	"deepequal": "reflect.DeepEqual",
}

// ScoreOptions control Score.
type ScoreOptions struct {
	// GCFactor multiplies allocation CPU to account for the collector's
	// work that allocations cause; negative means "measure it from the
	// profile" (see GCFactor).
	GCFactor float64
}

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

// Score weighs each finding with the profile: it sets Score, Hot, Cost and
// Sampled (whether the profile saw the finding's function or line run).
func Score(fs []Finding, h *pgo.Hotness, opts ScoreOptions) {
	gc := opts.GCFactor
	if gc < 0 {
		gc = GCFactor(h)
	}
	// Several findings of one kind on one line share that line's weight:
	// the profile cannot tell them apart, so each gets an equal part.
	type lineKind struct {
		file string
		line int
		kind string
	}
	shared := make(map[lineKind]int)
	kindOf := func(f *Finding) lineKind {
		return lineKind{f.File, f.Line, scoring[f.Analyzer] + underCallee[f.Analyzer]}
	}
	for i := range fs {
		shared[kindOf(&fs[i])]++
	}
	for i := range fs {
		f := &fs[i]
		w := h.Line(f.File, f.Line)
		f.Hot = &Hot{Flat: w.Flat, Cum: w.Cum, Alloc: w.Alloc}
		for l := f.Line + 1; l <= f.EndLine; l++ {
			f.Hot.Flat += h.Line(f.File, l).Flat
		}
		fn := h.Func(f.Function)
		f.Sampled = fn.Cum > 0 || w.Cum > 0
		var share float64
		switch kind := scoring[f.Analyzer]; kind {
		case scoreAlloc:
			share = w.Alloc * (1 + gc)
			f.Cost = fmt.Sprintf("~%s of CPU allocating (incl. GC at %.1fx)", pct(share), gc)
			if bytes, objects := h.HeapLine(f.File, f.Line); bytes > 0 {
				f.Cost += fmt.Sprintf("; %s in %s objects allocated at this line", humanBytes(bytes), humanCount(objects))
			}
		case scoreUnder:
			callee := underCallee[f.Analyzer]
			share = h.Under(f.File, f.Line, callee)
			f.Cost = fmt.Sprintf("~%s of CPU in %s", pct(share), callee)
		case scoreCum:
			share = w.Cum
			f.Cost = fmt.Sprintf("~%s of CPU under this line", pct(share))
		case scoreFunc:
			share = fn.Flat
			f.Cost = fmt.Sprintf("~%s of CPU in %s", pct(share), shortFunc(f.Function))
		default:
			share = f.Hot.Flat
			f.Cost = fmt.Sprintf("~%s of CPU on this line", pct(share))
		}
		if n := shared[kindOf(f)]; n > 1 {
			share /= float64(n)
			f.Cost = strings.Replace(f.Cost, pct(share*float64(n)), pct(share), 1) + fmt.Sprintf(" (the line's share split among %d findings)", n)
		}
		if !f.Sampled {
			f.Cost = "never sampled in the profile"
		}
		f.Score = round(share*100, 4)
	}
}

// RankByScore sorts findings by score, highest first; ties are broken as
// in Rank (tier, file, position, analyzer) so the order is deterministic.
func RankByScore(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(b.Score, a.Score),
			cmp.Compare(tierRank(a.Tier), tierRank(b.Tier)),
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Offset, b.Offset),
			cmp.Compare(a.Analyzer, b.Analyzer),
			cmp.Compare(a.Message, b.Message),
		)
	})
	for i := range fs {
		fs[i].Rank = i + 1
	}
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

// shortFunc drops the package path from a function name:
// "example.com/kv.(*Store).Put" -> "(*Store).Put".
func shortFunc(name string) string {
	pkg := pgo.PackageOf(name)
	if pkg == "" {
		return name
	}
	return strings.TrimPrefix(strings.TrimPrefix(name, pkg), ".")
}
