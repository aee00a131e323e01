package b

import (
	"io"

	"b/wire"
)

// Local sizes its buffer with a constant declared in the loop: declaring
// the buffer before the loop would leave the constant behind.
func Local(r io.Reader, n int) int {
	total := 0
	for range n {
		const size = 2
		buf := make([]byte, size) // want `declare buf once before the loop.*; no automatic fix: its size or element type is declared inside the loop \[hot-loop: inside a loop\]`
		r.Read(buf)
		total += int(buf[0])
	}
	return total
}

// Frames reads frames of wire bytes.
type Frames struct {
	r io.Reader
}

// Next spells its buffer's element type with another package's name,
// which the file declaring Frames need not import.
func (f *Frames) Next() wire.Byte {
	b := make([]wire.Byte, 1) // want `add a field nextB \[1\]wire.Byte to Frames.*; no automatic fix: its element type names another package, which the file of Frames may not import \[per-item`
	f.r.Read(b)
	return b[0]
}

// Tiny is declared on one line: a field added to it would not be on a
// line of its own.
type Tiny struct{ r io.Reader }

// Next reads one byte.
func (t *Tiny) Next() byte {
	b := make([]byte, 1) // want `add a field nextB \[1\]byte to Tiny.*; no automatic fix: the fields of Tiny are declared on one line \[per-item`
	t.r.Read(b)
	return b[0]
}
