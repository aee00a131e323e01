// Package inlinedcall makes values in the bodies of functions that the
// compiler inlines at their calls: it reports each allocation at the
// call, with every step of its flow there, and the call that lets the
// value escape is the one in the inlined body, not the inlined function.
package inlinedcall

import "io"

// G holds what keep is given.
var G []byte

//go:noinline
func keep(b []byte) { G = b }

// W writes through an embedded io.Writer.
type W struct{ io.Writer }

func (w W) byte1(c byte)        { w.Write([]byte{c}) }
func fn(f func([]byte), c byte) { f([]byte{c}) }
func stored(c byte)             { keep([]byte{c}) }

// Run calls each once.
func Run(w W, f func([]byte), c byte) {
	w.byte1(c) // want `calling W.byte1 allocates \(inlined\): \[\]byte{...} escapes to heap because it is passed to io.Writer.Write \(an interface method call\), which the compiler cannot see through; no known rewrite: the dynamic call may keep it .*`
	fn(f, c)   // want `calling fn allocates \(inlined\): \[\]byte{...} escapes to heap because it is passed to f \(call of a function value\), which the compiler cannot see through; no known rewrite: the dynamic call may keep it .*`
	stored(c)  // want `calling stored allocates \(inlined\): \[\]byte{...} escapes to heap because it is passed to inlinedcall.keep, which lets it escape; no known rewrite: the code keeps it.*`
}
