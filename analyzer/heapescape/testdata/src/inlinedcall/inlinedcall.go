// Package inlinedcall makes values in the bodies of functions that the
// compiler inlines at their calls: it reports each allocation at the
// call, with every step of its flow there, and the call that lets the
// value escape is the one in the inlined body, not the inlined function.
// When the body has a change to make (byte1, tag, sortIDs), the finding is
// in the body, once, and not at the calls.
package inlinedcall

import (
	"io"
	"sort"
)

// G holds what keep is given.
var G []byte

//go:noinline
func keep(b []byte) { G = b }

// A putter may keep what it is given.
type putter interface{ Put([]byte) }

// W writes through an embedded io.Writer.
type W struct{ io.Writer }

func (w W) byte1(c byte)        { w.Write([]byte{c}) } // want `\[\]byte{...} escapes to heap because it is passed to io.Writer.Write \(an interface method call\), which the compiler cannot see through; give the method a pointer receiver \(\*W\), .*\(API change: a method on \*W is not in W's method set, so its users take a pointer\).*`
func put(p putter, c byte)      { p.Put([]byte{c}) }
func fn(f func([]byte), c byte) { f([]byte{c}) }
func stored(c byte)             { keep([]byte{c}) }

// E writes tags.
type E struct{ w io.Writer }

// tag and sortIDs are inlined at their one call, and each has a change
// to make in its body: reported there, once, not at the call.
func (e *E) tag(t byte) { e.w.Write([]byte{t, 0}) } // want `\[\]byte{...} escapes to heap because it is passed to io.Writer.Write \(an interface method call\), which the compiler cannot see through; keep a \[2\]byte array field in E, store the literal's elements in it and pass e.buf\[:\] .*`
func sortIDs(ids []int) {
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] }) // want `ids escapes to heap because it is converted to an interface and passed to sort.Slice; call slices.SortFunc .*`
}

// Run calls each once.
func Run(w W, f func([]byte), c byte, e *E, ids []int, p putter) {
	e.tag(c)
	sortIDs(ids)
	w.byte1(c)
	put(p, c) // want `calling put allocates \(inlined\): \[\]byte{...} escapes to heap because it is passed to inlinedcall.putter.Put \(an interface method call\), which the compiler cannot see through; no known rewrite: the dynamic call may keep it .*`
	fn(f, c)  // want `calling fn allocates \(inlined\): \[\]byte{...} escapes to heap because it is passed to f \(call of a function value\), which the compiler cannot see through; no known rewrite: the dynamic call may keep it .*`
	stored(c) // want `calling stored allocates \(inlined\): \[\]byte{...} escapes to heap because it is passed to inlinedcall.keep, which lets it escape; no known rewrite: the code keeps it.*`
}
