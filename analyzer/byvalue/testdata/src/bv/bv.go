package bv

import (
	"sync"

	"example.com/ext"
)

var sink any

type point struct{ x, y int }

func (p point) sum() int { return p.x + p.y }

func (p *point) scale(k int) { p.x *= k; p.y *= k }

// newPoint's callers only read the point: the fix returns it by value.
//
//go:noinline
func newPoint(x, y int) *point {
	return &point{x, y} // want `newPoint returns a 16-byte point by pointer, so it is allocated on the heap on every call \(the compiler: &point{...} escapes to heap\); its callers only read it: return point by value, which removes 1 allocation per call \[per-item: called in a loop in Sum\]`
}

type span struct{ lo, hi int }

// mid builds its result in a variable.
//
//go:noinline
func mid(lo, hi int) *span {
	s := span{lo, hi} // want `mid returns a 16-byte span by pointer, so it is allocated on the heap on every call \(the compiler: moved to heap: s\); its callers only read it: return span by value, which removes 1 allocation per call \[per-item: called in a loop in Sum\]`
	if hi < lo {
		s.lo, s.hi = hi, lo
	}
	return &s
}

// Sum reads the results in a loop, through a variable, a field and a
// dereference.
func Sum(xs []int) int {
	t := 0
	for i := range xs {
		p := newPoint(xs[i], i)
		t += p.x + p.sum()
		q := *newPoint(i, i)
		t += q.y + newPoint(1, 2).y
		s := mid(i, xs[i])
		t += s.hi - (*s).lo
		c := *s
		t += c.lo
	}
	return t
}

type pair struct{ a, b int }

//go:noinline
func newPair(a, b int) *pair {
	return &pair{a, b} // want `newPair returns a 16-byte pair by pointer, so it is allocated on the heap on every call \(the compiler: &pair{...} escapes to heap\); returning pair by value would avoid it, but a caller compares it with nil at bv.go:\d+`
}

type box struct{ v int }

//go:noinline
func newBox(v int) *box {
	return &box{v} // want `newBox returns .* but a caller mutates through it at bv.go:\d+`
}

type cell struct{ v int }

//go:noinline
func newCell(v int) *cell {
	return &cell{v} // want `newCell returns .* but a caller keeps the pointer at bv.go:\d+`
}

type vec struct{ x, y int }

//go:noinline
func newVec(x, y int) *vec {
	return &vec{x, y} // want `newVec returns .* but a caller calls pointer method scale on it at bv.go:\d+`
}

func (v *vec) scale(k int) { v.x *= k }

// Exported is part of the API: no fix.
//
//go:noinline
func Exported(x int) *point {
	return &point{x, x} // want `Exported returns a 16-byte point by pointer, .* but that needs an API change: exported result type \[per-item: .*\]`
}

type locked struct {
	mu sync.Mutex
	n  int
}

//go:noinline
func newLocked() *locked {
	return &locked{} // holds a lock: not a candidate
}

type big struct{ a [16]int }

//go:noinline
func newBig() *big {
	return &big{} // larger than 64 bytes: not a candidate
}

// stack is inlined and its result does not escape: nothing to report.
func stack(x int) *point {
	return &point{x, 1}
}

func Misuse(xs []int) int {
	t := 0
	for i := range xs {
		if p := newPair(i, i); p != nil {
			t += p.a
		}
		b := newBox(i)
		b.v++
		t += b.v
		sink = newCell(i)
		v := newVec(i, i)
		v.scale(2)
		t += Exported(i).x
		l := newLocked()
		l.mu.Lock()
		t += l.n
		l.mu.Unlock()
		t += newBig().a[i%16]
		t += stack(i).x
	}
	return t
}

// extSpan returns a type of another package, named by its package name.
//
//go:noinline
func extSpan(lo int) *ext.Span {
	return &ext.Span{Lo: lo, Hi: lo} // want `extSpan returns a 16-byte ext.Span by pointer, .* but a caller compares it with nil at bv.go:\d+`
}

// Ext uses extSpan.
func Ext(xs []int) int {
	t := 0
	for i := range xs {
		if s := extSpan(i); s != nil {
			t += s.Hi
		}
	}
	return t
}

type tally struct{ n int }

// newTally's callers rule the change out twice; the message names the
// first in the source, on every run.
//
//go:noinline
func newTally(n int) *tally {
	return &tally{n} // want `newTally returns an 8-byte tally by pointer, .* but a caller mutates through it at bv.go:170`
}

var tallies []*tally

func Count(xs []int) int {
	t := 0
	for i := range xs {
		c := newTally(i)
		c.n++
		t += c.n
		tallies = append(tallies, newTally(i))
		d, e, f, g := newTally(i), newTally(i), newTally(i), newTally(i)
		d.n++
		e.n++
		f.n++
		g.n++
		t += d.n + e.n + f.n + g.n
	}
	return t
}
