// Package inlined has allocations in the bodies of functions the compiler
// inlines at their calls, where the values stay on the stack.
package inlined

import "iter"

type Header struct{ kv [][2]string }

// All is an iterator: its closure escapes from All's own compiled body,
// but Len's and Count's calls inline All, where it does not.
func (h *Header) All() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) { // want `^func literal escapes to heap because it is returned.*\[unknown: inlined at each of its calls in the package, where a copy that escapes is reported at the call: this body allocates only when called out of line`
		for _, p := range h.kv {
			if !yield(p[0], p[1]) {
				return
			}
		}
	}
}

func (h *Header) Len() int {
	n := 0
	for i := 0; i < 10; i++ {
		for range h.All() {
			n++
		}
	}
	return n
}

type point struct{ x, y int }

// newPoint is unexported and every call inlines it, where the point stays
// on the stack: its own body's allocation never runs.
func newPoint(x, y int) *point { return &point{x, y} }

func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		p := newPoint(x, x)
		s += p.x + p.y
	}
	return s
}

var keep func(int, int) *point

// newPair is inlined where it is called, and also used as a function
// value, which runs its body.
func newPair(x, y int) *point { return &point{x, y} } // want `^&point\{\.\.\.\} escapes to heap because new[A-Za-z]* returns it`

func Pairs(xs []int) int {
	keep = newPair
	s := 0
	for _, x := range xs {
		s += newPair(x, 1).x
	}
	return s
}

var sink *point

// newKept is inlined at its call, where the point escapes: that copy is
// reported at the call, once; the body's own allocation never runs.
func newKept(x int) *point { return &point{x, x} }

func Keep(xs []int) {
	for _, x := range xs {
		sink = newKept(x) // want `calling newKept allocates \(inlined\)`
	}
}

// newStarted is called by a go statement, which runs it out of line.
func newStarted(x int) *point { return &point{x, x} } // want `^&point\{\.\.\.\} escapes to heap because new[A-Za-z]* returns it`

func Start(x int) {
	go newStarted(x)
}

type box[T any] struct{ v T }

// ptr is a method of a generic type, inlined at each call of an instance:
// its own body never runs.
func (b *box[T]) ptr() *T {
	p := new(T)
	*p = b.v
	return p
}

func Unbox(b *box[int], c *box[string]) (int, string) {
	return *b.ptr(), *c.ptr()
}

var sinkPts []*point

// fillPoints allocates a point per iteration of its loop; inlined in Fill,
// which has no loop of its own, the copy runs once per element still.
func fillPoints(n int) {
	for i := 0; i < n; i++ {
		sinkPts = append(sinkPts, &point{i, i}) // want `^append\(sinkPts, &point\{\.\.\.\}\) escapes to heap .*\[hot-loop: inside a loop\]`
	}
}

func Fill(n int) {
	fillPoints(n) // want `^calling fillPoints allocates \(inlined\): &point\{\.\.\.\} .*\[hot-loop: inside a loop of the inlined fillPoints\]` `^calling fillPoints allocates \(inlined\): append.*\[hot-loop: inside a loop of the inlined fillPoints\]`
}
