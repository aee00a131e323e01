package a

import (
	"io"
	"strings"
)

var sink any

type point struct{ x, y int }

// newPoint returns a small struct by pointer.
func newPoint(x, y int) *point {
	return &point{x, y} // a cold constructor: the allocation is its purpose, not reported
}

// Read reads into a fresh buffer per call through an interface.
func Read(r io.Reader, n int) int {
	buf := make([]byte, n) // want `make\(\[\]byte, n\) escapes to heap because it is passed to io.Reader.Read \(an interface method call\), which the compiler cannot see through; keep a fixed-size array in the receiver .* \[per-item: function Read runs per item\]`
	m, _ := r.Read(buf)
	return m
}

// Box converts an int to an interface in a loop.
func Box(xs []int) {
	for _, x := range xs {
		sink = x // want `x escapes to heap because it is converted to an interface, then stored in sink; avoid the interface conversion .* \[hot-loop: inside a loop\]`
	}
}

// Counter captures a variable in a returned closure.
func Counter() func() int {
	n := 0              // want `variable n is moved to heap because it is captured by a closure that outlives the call; pass the value to the closure as an argument`
	return func() int { // want `func literal escapes to heap because it is returned and outlives the call; its captured variables move to the heap with it`
		n++
		return n
	}
}

// Addr returns the address of a local: a constructor whose result is
// built in a variable, in cold code, is not reported.
func Addr() *int {
	v := 1
	return &v
}

// Big allocates more than the stack allows.
func Big() int {
	b := make([]byte, 1<<20) // want `make\(\[\]byte, 1048576\) escapes to heap because it is too large for the stack; allocate it once and reuse it`
	return len(b)
}

// Grow appends in a loop and returns the result.
func Grow(n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, i) // want `append\(out, i\) escapes to heap because append grows it and it is returned; preallocate the slice`
	}
	return out
}

// Inlined gets its allocation from strings.NewReader, inlined here: a
// constructor of another package in cold code is not reported.
func Inlined(s string) {
	sink = strings.NewReader(s)
}

// Local does not allocate: nothing is reported.
func Local() int {
	var p point
	q := &p
	b := make([]byte, 16)
	return q.x + len(b)
}
