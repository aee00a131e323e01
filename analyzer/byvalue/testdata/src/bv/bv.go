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

// Every caller of newCell stores the pointer (in a package-level
// variable, a field, a map, a slice by append, a composite literal, on a
// channel, or in a local that it then stores): each needs the cell on the
// heap whatever newCell returns, so a value result would only move the
// allocation into the caller. No finding.
//
//go:noinline
func newCell(v int) *cell {
	return &cell{v}
}

type holder struct {
	c    *cell
	byID map[int]*cell
	all  []*cell
	out  chan *cell
}

func (h *holder) keep(i int) {
	h.c = newCell(i)
	h.byID[i] = newCell(i)
	h.all = append(h.all, newCell(i))
	h.out <- newCell(i)
	sink = &holder{c: newCell(i)}
	c := newCell(i)
	h.byID[-i] = c
}

type gauge struct{ v int }

// One caller of newGauge stores the pointer and the other only reads:
// the reader would gain from a value, so the finding stands, naming what
// stands in the way.
//
//go:noinline
func newGauge(v int) *gauge {
	return &gauge{v} // want `newGauge returns an 8-byte gauge by pointer, .* but a caller stores the pointer at bv.go:\d+`
}

func (h *holder) gauges(i int) int {
	sink = newGauge(i)
	return newGauge(i).v
}

type timer struct{ n int }

func (t *timer) run() { t.n++ }

// startTimer's local is captured by the closure of a go statement: the
// compiler's flow ends there, not at the return, so a value result would
// leave it on the heap. No finding.
//
//go:noinline
func startTimer(n int) *timer {
	t := timer{n: n}
	go t.run()
	return &t
}

func Timers(n int) int { return startTimer(n).n }

type spec struct{ a, b int }

// newSpec's result is passed up through specOf, whose callers all store
// it, one through a local: no finding.
//
//go:noinline
func newSpec(a int) *spec {
	return &spec{a, a}
}

func specOf(a int) *spec { return newSpec(a) }

var specs = map[int]*spec{}

func Specs(a int) {
	specs[a] = specOf(a)
	s := specOf(-a)
	specs[-a] = s
}

type sizer interface{ size() int }

type extent struct{ lo, hi int }

func (s *extent) size() int { return s.hi - s.lo }

// Every caller of newExtent converts the pointer to an interface: returned
// as one by an unexported wrapper, passed as an argument of interface
// type, assigned to a variable of one. A value would be boxed, and
// allocated, there instead: no finding.
//
//go:noinline
func newExtent(lo, hi int) *extent {
	return &extent{lo, hi}
}

func extentOf(lo, hi int) sizer { return newExtent(lo, hi) }

//go:noinline
func measure(s sizer) int { return s.size() }

func Extents(n int) int {
	var s sizer
	s = newExtent(0, n)
	var t sizer = newExtent(1, n)
	return extentOf(2, n).size() + measure(newExtent(3, n)) + s.size() + t.size()
}

type rule struct{ a, b int }

// newRule's result is passed up through ruleOf, one of whose callers
// stores it and another reads it in a closure: that one would gain from a
// value, so the finding stands.
//
//go:noinline
func newRule(a int) *rule {
	return &rule{a, a} // want `newRule returns a 16-byte rule by pointer, .* but a caller stores the pointer at bv.go:\d+`
}

func ruleOf(a int) *rule { return newRule(a) }

var rules []*rule

func Rules(a int) func() int {
	rules = append(rules, ruleOf(a))
	r := ruleOf(-a)
	return func() int { return r.b }
}

type vec struct{ x, y int }

//go:noinline
func newVec(x, y int) *vec {
	return &vec{x, y} // want `newVec returns a 16-byte vec by pointer, .*; its callers only read it or call methods on a variable of their own holding it, which the compiler keeps on the stack: return vec by value`
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
	return &tally{n} // want `newTally returns an 8-byte tally by pointer, .* but a caller mutates through it at bv.go:295`
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

// The compiler decides: a local whose address is also taken.

type node struct{ length, nulls int64 }

// fillNode writes through n and keeps nothing.
//
//go:noinline
func fillNode(n *node, i int) bool {
	n.length, n.nulls = int64(i), 0
	return i >= 0
}

// loadNode passes its local's address to a function that keeps nothing:
// returned by value, the local stays on the stack.
//
//go:noinline
func loadNode(i int) *node {
	var n node // want `loadNode returns a 16-byte node by pointer, so it is allocated on the heap on every call \(the compiler: moved to heap: n\); its callers only read it: return node by value, which removes 1 allocation per call`
	if !fillNode(&n, i) {
		panic("out of range")
	}
	return &n
}

var kept *node

// keepNode stores what it is given.
//
//go:noinline
func keepNode(n *node) { kept = n }

// loadKept passes its local's address to a function that keeps it: the
// local is on the heap with or without the change, as the compiler's
// flow says.
//
//go:noinline
func loadKept(i int) *node {
	var n node // the compiler's flow ends in keepNode, not the return: no finding
	n.length = int64(i)
	keepNode(&n)
	return &n
}

// reset is a pointer method that keeps nothing.
func (n *node) reset(l int64) { n.length, n.nulls = l, 0 }

// fresh calls a pointer method on its local.
//
//go:noinline
func fresh(l int64) *node {
	var n node // want `fresh returns a 16-byte node by pointer, so it is allocated on the heap on every call \(the compiler: moved to heap: n\); its callers only read it: return node by value, which removes 1 allocation per call`
	n.reset(l)
	return &n
}

// Nodes reads the results.
func Nodes(k int) int64 {
	var t int64
	for i := 0; i < k; i++ {
		t += loadNode(i).length + loadKept(i).nulls
		f := fresh(int64(i))
		t += f.length
	}
	return t
}

// The value passed up through functions that return it.

type entry struct{ key, val int64 }

type table struct {
	rows []entry
	pos  int
}

// at fills a local through a method that keeps nothing.
//
//go:noinline
func (t *table) at(i int) *entry {
	var e entry // want `\(\*table\).at returns a 16-byte entry by pointer, .*: return entry by value, which removes 1 allocation per call`
	t.copyTo(&e, i)
	return &e
}

func (t *table) copyTo(e *entry, i int) { *e = t.rows[i] }

// next passes at's pointer up through a local.
func (t *table) next() *entry {
	e := t.at(t.pos)
	t.pos++
	return e
}

// nextMore returns next's pointer directly, beside another result.
func (t *table) nextMore() (*entry, bool) {
	return t.next(), t.pos < len(t.rows)
}

// Walk reads what nextMore returns.
func Walk(t *table) int64 {
	var s int64
	for {
		e, more := t.nextMore()
		s += e.key + e.val
		if !more {
			return s
		}
	}
}

type cursor struct {
	rows []entry
	pos  int
}

// at is passed up through an exported method: its result type is API.
//
//go:noinline
func (c *cursor) at(i int) *entry {
	e := c.rows[i] // want `\(\*cursor\).at returns a 16-byte entry by pointer, .* but exported \(\*cursor\).Current returns the pointer at bv.go:\d+: an API change`
	return &e
}

// Current is API.
func (c *cursor) Current() *entry { return c.at(c.pos) }
