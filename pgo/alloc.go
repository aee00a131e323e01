package pgo

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/internal/funcname"
)

// maxChain bounds the frames of an allocation's stack that are kept, from
// the allocating line up: the walk to the frame that can avoid an
// allocation rarely needs more.
const maxChain = 24

// allocStack is one distinct stack of allocation samples, from the
// allocating line (the first frame outside the runtime) up, and its weight
// in the CPU profiles (allocation time) and in the heap profiles.
type allocStack struct {
	frames  []hframe
	cpu     float64 // CPU weight (not yet a share)
	bytes   int64   // alloc_space
	objects int64   // alloc_objects
}

// addAllocStack records that the frames fr (the allocating line first)
// allocated with the given weights.
func (h *Hotness) addAllocStack(fr []hframe, cpu float64, bytes, objects int64) {
	fr = fr[:min(len(fr), maxChain)]
	var key strings.Builder
	for _, f := range fr {
		fmt.Fprintf(&key, "%s\x00%d:%d\x00", f.fn, f.key.file, f.key.line)
	}
	s := h.allocs[key.String()]
	if s == nil {
		s = &allocStack{frames: slices.Clone(fr)}
		h.allocs[key.String()] = s
	}
	s.cpu += cpu
	s.bytes += bytes
	s.objects += objects
}

// AllocWeight is an amount of allocation: the share (0 to 1) of CPU samples
// spent allocating, and the bytes and objects the heap profiles recorded.
type AllocWeight struct {
	CPU     float64
	Bytes   int64
	Objects int64
}

func (w *AllocWeight) add(cpu float64, bytes, objects int64) {
	w.CPU += cpu
	w.Bytes += bytes
	w.Objects += objects
}

// An AllocCaller is a frame that allocations of a line are charged to: the
// call site that can avoid them, and the callee it calls them through.
type AllocCaller struct {
	Func string // the caller, in source form (funcname.FromProfile)
	Via  string // the function the caller calls to allocate, in source form; empty if the caller allocates itself
	File string // the caller's call site, as the profile names the file
	Line int
	AllocWeight
}

// Allocs charges each allocation of the profiles to the frame that can
// avoid it (see [Hotness.Allocations]).
type Allocs struct {
	h       *Hotness
	charged map[lineKey]map[string]*AllocWeight // by the callee allocated through ("" for the line itself)
	byLine  map[lineKey]map[callerKey]*AllocWeight
	total   AllocWeight
}

type callerKey struct {
	fn, via string
	key     lineKey
}

// Allocations charges every allocation sample to the frame that can avoid
// it: walking up the stack from the allocating line, it passes frames of
// functions that own reports false for (the standard library, other
// modules) and constructor frames (see [IsConstructor]), and stops at the
// first frame of an owned function that is not a constructor: the call
// site there can be changed to allocate less. A stack with no such frame
// is charged to its first owned frame, or, failing that, to the
// allocating line.
func (h *Hotness) Allocations(own func(fn string) bool) *Allocs {
	a := &Allocs{h: h, charged: map[lineKey]map[string]*AllocWeight{}, byLine: map[lineKey]map[callerKey]*AllocWeight{}}
	for _, s := range h.allocs {
		cpu := 0.0
		if h.total > 0 {
			cpu = s.cpu / h.total
		}
		i := chargedFrame(s.frames, own)
		c := s.frames[i]
		ck := callerKey{fn: c.fn, key: c.key}
		if i > 0 {
			ck.via = s.frames[i-1].fn
		}
		if a.charged[c.key] == nil {
			a.charged[c.key] = map[string]*AllocWeight{}
		}
		cw := a.charged[c.key][ck.via]
		if cw == nil {
			cw = new(AllocWeight)
			a.charged[c.key][ck.via] = cw
		}
		cw.add(cpu, s.bytes, s.objects)
		a.total.add(cpu, s.bytes, s.objects)
		leaf := s.frames[0].key
		if a.byLine[leaf] == nil {
			a.byLine[leaf] = map[callerKey]*AllocWeight{}
		}
		w := a.byLine[leaf][ck]
		if w == nil {
			w = new(AllocWeight)
			a.byLine[leaf][ck] = w
		}
		w.add(cpu, s.bytes, s.objects)
	}
	return a
}

// chargedFrame returns the index of the frame of fr (allocating line
// first) that an allocation is charged to.
func chargedFrame(fr []hframe, own func(string) bool) int {
	firstOwn := -1
	for i, f := range fr {
		if !own(f.fn) {
			continue
		}
		if firstOwn < 0 {
			firstOwn = i
		}
		if !IsConstructor(f.fn) {
			return i
		}
	}
	return max(firstOwn, 0)
}

// IsConstructor reports whether the function named fn (pprof form) is, by
// its name, one whose job is to return new memory: New*, new*, Make*,
// make*, Alloc*, alloc*, Allocate* and allocate* functions and methods,
// the prefix followed by an upper-case letter or nothing (Allocate, NewReader,
// newBuffer, makeSlice). Allocations inside them are charged to their
// callers, which decide whether the memory is needed.
func IsConstructor(fn string) bool {
	name := fn
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	name = name[strings.LastIndexByte(name, '.')+1:]
	for _, p := range []string{"New", "new", "Make", "make", "Allocate", "allocate", "Alloc", "alloc"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == "" || !isLower(rest[0])) {
			return true
		}
	}
	return false
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// Charged returns the allocations charged to a source line for which
// match reports true of the function the line calls to allocate them (in
// pprof form; "" for allocations the line makes itself). A nil match
// takes them all.
func (a *Allocs) Charged(file string, line int, match func(via string) bool) AllocWeight {
	var sum AllocWeight
	id := a.h.fileFor(file)
	if id < 0 {
		return sum
	}
	for via, w := range a.charged[lineKey{id, int32(line)}] {
		if match == nil || match(via) {
			sum.add(w.CPU, w.Bytes, w.Objects)
		}
	}
	return sum
}

// Allocated returns the allocations made at a source line, wherever they
// are charged.
func (a *Allocs) Allocated(file string, line int) AllocWeight {
	var w AllocWeight
	for _, c := range a.Callers(file, line) {
		w.add(c.CPU, c.Bytes, c.Objects)
	}
	return w
}

// Callers returns the frames the allocations made at a source line are
// charged to, the heaviest first (by bytes when heap profiles were loaded,
// else by CPU), like pprof -peek.
func (a *Allocs) Callers(file string, line int) []AllocCaller {
	id := a.h.fileFor(file)
	if id < 0 {
		return nil
	}
	var out []AllocCaller
	for k, w := range a.byLine[lineKey{id, int32(line)}] {
		out = append(out, AllocCaller{Func: funcname.FromProfile(k.fn), Via: funcname.FromProfile(k.via), File: a.h.fileName(k.key.file), Line: int(k.key.line), AllocWeight: *w})
	}
	slices.SortFunc(out, func(x, y AllocCaller) int {
		return cmp.Or(
			cmp.Compare(y.Bytes, x.Bytes),
			cmp.Compare(y.CPU, x.CPU),
			cmp.Compare(x.Func, y.Func),
			cmp.Compare(x.Via, y.Via),
			cmp.Compare(x.Line, y.Line),
		)
	})
	return out
}

// Total returns all the allocations of the profiles.
func (a *Allocs) Total() AllocWeight { return a.total }

// fileName returns the profile's name of a file ID.
func (h *Hotness) fileName(id int32) string { return h.names[id] }
