package a

import (
	"fmt"
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
	buf := make([]byte, n) // its size is known only at run time: inherent
	m, _ := r.Read(buf)
	return m
}

// Box converts an int to an interface in a loop.
func Box(xs []int) {
	for _, x := range xs {
		sink = x // the interface value is what the code keeps: inherent
	}
}

// Counter captures a variable in a returned closure.
func Counter() func() int {
	n := 0              // the closure's state: inherent
	return func() int { // the function's product: inherent
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
	b := make([]byte, 1<<20) // want `make\(\[\]byte, 1048576\) escapes to heap because it is too large for the stack; it does not outlive the call: reuse one buffer across calls \(a field of the receiver or a sync\.Pool\), which saves allocating and zeroing it per call; no automatic fix: where to keep the buffer, and how concurrent calls share it, is a design choice \[unknown: exported: how often its callers run it is not known\]`
	return len(b)
}

// Grow appends in a loop and returns the result.
func Grow(n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, i) // idiom/presize's
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

// Format labels each number per item. A format that only concatenates is
// not what fmt is for; one with widths is, and so is writing the string
// out at once.
func Format(w io.Writer, xs []int) (labels []string) {
	for i, x := range xs {
		labels = append(labels, fmt.Sprintf("%d: %d", i+1, x)) // idiom/sprintf-strconv's
		io.WriteString(w, fmt.Sprintf("%d\n", x))              // inherent: written out at once
		fmt.Fprintf(w, "%5d\n", x)                             // inherent: not reported by default
	}
	return labels
}

// A Conn reads frames.
type Conn struct {
	r io.Reader
	n int
}

// Next reads a frame's header into a fresh buffer per call: an array
// field of Conn would do.
func (c *Conn) Next() int {
	hdr := make([]byte, 5) // want `make\(\[\]byte, 5\) escapes to heap because io.ReadFull passes it to an interface method \(io.Reader.Read\) the compiler cannot see through; keep a \[5\]byte array field in Conn and pass c.buf\[:\] \(a name of your choice\), which saves one allocation per call; no automatic fix: a field shared by calls would make the method unsafe for concurrent calls on one receiver \[per-item: method Next runs per item\]`
	if _, err := io.ReadFull(c.r, hdr); err != nil {
		return 0
	}
	c.n += int(hdr[0])
	return int(hdr[4])
}

// Squares appends one value per element: the final size is len(xs).
func Squares(xs []int) []int {
	var out []int
	for _, x := range xs {
		out = append(out, x*x) // idiom/presize's
	}
	return out
}

// Evens appends conditionally: the final size is not known.
func Evens(xs []int) []int {
	var out []int
	for _, x := range xs {
		if x%2 == 0 {
			out = append(out, x)
		}
	}
	return out
}

//go:noinline
func conv[T any](x T) T { return x }

// Convs appends a generic call's result per element: the message shows the
// call as written, not as the compiler calls it through its dictionary.
func Convs[T any](xs []T) []T {
	var out []T
	for _, x := range xs {
		out = append(out, conv(x)) // idiom/presize's
	}
	return out
}

var _ = Convs[*int]

// Key builds a key with fmt outside a loop: the rewrite is idiom's, so
// heapescape does not report the boxing.
func Key(ns string, id int) string {
	return fmt.Sprintf("%s/%d", ns, id) // idiom/sprintf-strconv's
}

// Keys calls Key's twin in a loop: the rewrite is worth making there.
func Keys(ns string, ids []int) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, key(ns, id))
	}
	return out
}

func key(ns string, id int) string {
	return fmt.Sprintf("%s/%d", ns, id) // idiom/sprintf-strconv's
}
