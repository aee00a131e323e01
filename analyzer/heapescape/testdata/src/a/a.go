package a

import (
	"io"
	"strings"
)

var sink any

type point struct{ x, y int }

// newPoint returns a small struct by pointer.
func newPoint(x, y int) *point {
	return &point{x, y} // want `&point{...} escapes to heap: returned or stored outside the function \(returned\); point is small: return or store it by value instead of by pointer \[cold\]`
}

// Read reads into a fresh buffer per call through an interface.
func Read(r io.Reader, n int) int {
	buf := make([]byte, n) // want `make\(\[\]byte, n\) escapes to heap: passed to io.Reader.Read \(interface method call\); the compiler cannot see .* \[per-item: function Read runs per item\]`
	m, _ := r.Read(buf)
	return m
}

// Box converts an int to an interface in a loop.
func Box(xs []int) {
	for _, x := range xs {
		sink = x // want `x escapes to heap: interface conversion \(converted to an interface, then stored in sink\); avoid the interface conversion .* \[hot-loop: inside a loop\]`
	}
}

// Counter captures a variable in a returned closure.
func Counter() func() int {
	n := 0              // want `variable n is moved to heap: captured by an escaping closure`
	return func() int { // want `func literal escapes to heap: returned or stored outside the function \(returned\)`
		n++
		return n
	}
}

// Addr returns the address of a local.
func Addr() *int {
	v := 1 // want `variable v is moved to heap: address taken and stored \(its address is taken, then returned\); do not let the address outlive the function`
	return &v
}

// Big allocates more than the stack allows.
func Big() int {
	b := make([]byte, 1<<20) // want `make\(\[\]byte, 1048576\) escapes to heap: too large for the stack`
	return len(b)
}

// Grow appends in a loop and returns the result.
func Grow(n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, i) // want `append\(out, i\) escapes to heap: append growth \(returned\); preallocate the slice`
	}
	return out
}

// Inlined gets its allocation from strings.NewReader, inlined here.
func Inlined(s string) {
	sink = strings.NewReader(s) // want `&strings.Reader{...} escapes to heap: returned or stored outside the function \(stored in sink\)`
}

// Local does not allocate: nothing is reported.
func Local() int {
	var p point
	q := &p
	b := make([]byte, 16)
	return q.x + len(b)
}
