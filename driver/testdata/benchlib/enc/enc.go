// Package enc is a fixture for check -bench: its allocation is measured
// by another package's benchmark.
package enc

import (
	"encoding/binary"
	"io"
)

// An Encoder writes integers.
type Encoder struct {
	W io.Writer
	N int
}

// Put writes v and its complement in 16 bytes through a fresh buffer
// (smallalloc), 16 bytes so that the runtime's tiny allocator, whose
// allocations the heap profile counts by 16-byte block, is not used.
func (e *Encoder) Put(v uint64) {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint64(b, v)
	binary.LittleEndian.PutUint64(b[8:], ^v)
	n, _ := e.W.Write(b)
	e.N += n
}

// Mark writes a one-byte mark through a fresh buffer (smallalloc) as
// Put does. No benchmark runs it: check -bench shows its finding after
// the measured one, with the tier the source gives it.
func (e *Encoder) Mark(m byte) {
	b := make([]byte, 16)
	b[0] = m
	n, _ := e.W.Write(b)
	e.N += n
}
