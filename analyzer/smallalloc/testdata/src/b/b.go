// Package b holds more smallalloc cases: fixes across files, name
// clashes and aliases.
package b

import (
	"io"
)

// Parse declares its buffer with var and uses an alias of a part of it.
func (p *Parser) Parse() (byte, error) {
	var buf = make([]byte, 4) // want `add a field parseBuf2 \[4\]byte to Parser and use p.parseBuf2\[:\], then clear\(buf\)`
	n, err := p.src.Read(buf)
	head := buf[:n]
	buf = buf[:n]
	if len(head) == 0 {
		return 0, err
	}
	return head[0] + buf[0], err
}

// Clash has a variable named like the buffer after the loop: the
// hoisting fix would change what it refers to, so only the message is
// given.
func Clash(r io.Reader, n int) int {
	total := 0
	for range n {
		buf := make([]byte, 2) // want `declare buf once before the loop and call clear\(buf\) in each iteration.*; no automatic fix: declaring buf before the loop would clash with another declaration of buf \[hot-loop: inside a loop\]`
		r.Read(buf)
		total += int(buf[0])
	}
	buf := total * 2
	return buf
}

// Shadow uses an outer variable of the same name inside the loop before
// the buffer is declared: no fix either.
func Shadow(r io.Reader, buf []byte) int {
	total := 0
	for i := range 3 {
		total += int(buf[i])
		buf := make([]byte, 2) // want `declare buf once before the loop.*; no automatic fix: declaring buf before the loop would clash with another declaration of buf \[`
		r.Read(buf)
		total += int(buf[1])
	}
	return total
}

// Nested makes its buffer in a branch of a loop of a function: no fix
// applies (the loop body does not hold it directly and there is no
// receiver).
func Nested(r io.Reader, n int) int {
	total := 0
	for i := range n {
		if i%2 == 0 {
			buf := make([]byte, 2)
			r.Read(buf)
			total += int(buf[0])
		}
	}
	return total
}

// Decoder has a method with a switch in a loop.
type Decoder struct {
	r io.Reader
}

// Next makes its buffer inside a switch in a loop: the receiver field
// saves one allocation per iteration.
func (d *Decoder) Next(kinds []int) int {
	total := 0
	for _, k := range kinds {
		switch k {
		case 1:
			b := make([]byte, 1) // want `add a field nextB \[1\]byte to Decoder and use d.nextB\[:\], then clear\(b\) to keep make's zeroing, which saves 1 allocation per iteration .*\[hot-loop: inside a loop\]`
			d.r.Read(b)
			total += int(b[0])
		}
	}
	return total
}

// Message passes a buffer directly, without a variable: not reported.
func (d *Decoder) Message() error {
	_, err := io.ReadFull(d.r, make([]byte, 4))
	return err
}

// Read hands the buffer to an interface method that may keep it.
func (d *Decoder) Read(s Sink) {
	buf := make([]byte, 4)
	d.r.Read(buf)
	s.Keep(buf)
}

// Write keeps the buffer in a deferred call.
func (d *Decoder) Write(w io.Writer) {
	buf := make([]byte, 4)
	defer w.Write(buf)
	d.r.Read(buf)
}

// Get makes its buffer in a function literal: not reported.
func (d *Decoder) Get() func() byte {
	return func() byte {
		buf := make([]byte, 1)
		d.r.Read(buf)
		return buf[0]
	}
}

// Put stores an alias of the buffer.
func (d *Decoder) Put(dst *[]byte) {
	buf := make([]byte, 4)
	d.r.Read(buf)
	alias := buf[1:]
	*dst = alias
}

// Generic makes a buffer of a type parameter, whose size is unknown. It is
// never instantiated, so the compiler reports nothing about it either.
func Generic[T any](r io.Reader, n int) int {
	total := 0
	for range n {
		vals := make([]T, 4)
		total += len(vals)
		p := make([]byte, 2)
		r.Read(p)
	}
	return total
}

// Tree reads a node and its children recursively: a scratch field would be
// overwritten by the nested call while still in use.
type Tree struct {
	r io.Reader
}

// Next recurses.
func (t *Tree) Next(depth int) byte {
	b := make([]byte, 1)
	t.r.Read(b)
	if depth > 0 {
		t.child(depth - 1)
	}
	return b[0]
}

func (t *Tree) child(depth int) { t.Next(depth) }

// Grid reads rows in nested loops: the buffer moves out of the inner loop.
func Grid(r io.Reader, rows, cols int) int {
	sum := 0
	for range rows {
		for range cols {
			cell := make([]byte, 2) // want `declare cell once before the loop and call clear\(cell\) in each iteration`
			r.Read(cell)
			sum += int(cell[1])
		}
	}
	return sum
}

// Pair is built with an unkeyed literal, which a new field would break:
// the message stays, without a fix.
type Pair struct {
	r io.Reader
	n int
}

// NewPair builds a Pair positionally.
func NewPair(r io.Reader) *Pair { return &Pair{r, 0} }

// Next reads one byte.
func (p *Pair) Next() byte {
	b := make([]byte, 1) // want `add a field nextB \[1\]byte to Pair.* receiver; no automatic fix: the package builds Pair with an unkeyed literal, which a new field would break \[per-item`
	p.r.Read(b)
	return b[0]
}

// Decode is hand-written for a generated struct, which cannot get a
// field: not reported.
func (m *Message) Decode() byte {
	b := make([]byte, 1)
	m.r.Read(b)
	return b[0]
}
