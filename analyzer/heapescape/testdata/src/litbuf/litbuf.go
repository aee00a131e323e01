// Package litbuf passes slice literals of constant length to methods
// whose contract forbids keeping them (io.Writer.Write, and hash.Hash's
// Write, which is io.Writer's): such a literal is a buffer like
// make([]byte, n), and an array can take its place.
package litbuf

import (
	"hash"
	"io"
)

// Enc writes tags.
type Enc struct{ w io.Writer }

// tag writes a two-byte tag through a pointer receiver: the array can be
// a field of the receiver. It is inlined at its call: the change is made
// here, where the finding is.
func (e *Enc) tag(t, n byte) error {
	_, err := e.w.Write([]byte{t, n}) // want `\[\]byte{...} escapes to heap because it is passed to io.Writer.Write \(an interface method call\), which the compiler cannot see through; keep a \[2\]byte array field in Enc, store the literal's elements in it and pass e.buf\[:\] \(a name of your choice\), which saves one allocation per call; no automatic fix: a field shared by calls would make the method unsafe for concurrent calls on one receiver .*`
	return err
}

// lineWriter adds single bytes to a writer that lacks WriteByte.
type lineWriter struct{ io.Writer }

// WriteByte has a value receiver: a field of a copy would not help, the
// method must take a pointer.
func (l lineWriter) WriteByte(c byte) error {
	_, err := l.Write([]byte{c}) // want `\[\]byte{...} escapes to heap because .*; give the method a pointer receiver \(\*lineWriter\), keep a \[1\]byte array field in lineWriter, store the literal's elements in it and pass l.buf\[:\] \(a name of your choice\), which saves one allocation per call \(a method on \*lineWriter is not in lineWriter's method set, so its users take a pointer\); no automatic fix: .*`
	return err
}

// mix is a function: only its callers can lend the buffer.
func mix(h hash.Hash, a, b, c byte) {
	h.Write([]byte{a, b, c}) // want `\[\]byte{...} escapes to heap because .*; the method's contract says it must not keep the buffer, but the compiler cannot see that: take the \[3\]byte buffer from a caller that reuses it, which saves one allocation per call; no automatic fix: where the buffer lives is a choice of the callers .*`
}

// A putter may keep what it is given: no advice.
type putter interface{ Put([]byte) }

func put(p putter, c byte) {
	p.Put([]byte{c})
}

// keep returns the literal after writing it: it outlives the call.
func keep(w io.Writer, c byte) []byte {
	b := []byte{c}
	w.Write(b)
	return b
}

// keyed has a keyed literal: not taken for a buffer of its elements.
func keyed(w io.Writer, c byte) {
	w.Write([]byte{3: c})
}

// Run calls them per item.
func Run(e *Enc, l lineWriter, h hash.Hash, p putter, w io.Writer, xs []byte) {
	for _, x := range xs {
		e.tag(x, x)
		l.WriteByte(x)
		mix(h, x, x, x)
		put(p, x)
		keep(w, x)
		keyed(w, x)
	}
}
