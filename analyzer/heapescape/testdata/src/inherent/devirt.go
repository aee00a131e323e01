package inherent

import "fmt"

type nexter interface {
	hasNext() bool
	next() uint16
}

type iter struct {
	xs []uint16
	i  int
}

func (it *iter) hasNext() bool { return it.i < len(it.xs) }

// next is not inlined, so the call stays a call, made direct.
//
//go:noinline
func (it *iter) next() uint16 { it.i++; return it.xs[it.i-1] }

// newIter is inlined in Join, where the iterator does not escape: its own
// body's allocation never runs.
func newIter(xs []uint16) nexter { return &iter{xs: xs} }

// Join prints through an interface whose calls the compiler makes direct
// (newIter is inlined): the message gives the source, it.next(), not the
// compiler's (*iter).next(it.(*iter)).
func Join(xs []uint16) string {
	var s string
	for it := newIter(xs); it.hasNext(); {
		s += fmt.Sprintf("%5v, ", it.next()) // want `^it\.next\(\) escapes to heap because it is converted to an interface and passed to fmt\.Sprintf; no known rewrite`
	}
	return s
}
