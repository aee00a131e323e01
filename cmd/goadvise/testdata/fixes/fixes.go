// Package fixes is a fixture with allocations of the kinds that
// goadvise fixes, all on the hot path of BenchmarkRun: check -verify keeps
// every fix, and their allocs/op savings add up.
package fixes

import (
	"encoding/binary"
	"io"
	"reflect"
)

type point struct{ x, y int }

// newPoint returns a point that its callers only read (byvalue).
//
//go:noinline
func newPoint(x, y int) *point {
	return &point{x, y}
}

// An Encoder writes integers.
type Encoder struct {
	w    io.Writer
	n    int
	last []byte
}

// Put writes v in 8 bytes through a fresh buffer (smallalloc).
func (e *Encoder) Put(v uint64) {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, v)
	n, _ := e.w.Write(b)
	e.n += n
}

// PutHeader writes v in 4 bytes, and keeps a copy of a long body. The
// variable b holds both allocations; only the second is kept (smallalloc,
// judged by value).
func (e *Encoder) PutHeader(v uint32, body []byte) {
	b := make([]byte, 4)
	binary.BigEndian.PutUint32(b, v)
	e.w.Write(b)
	if len(body) > 32 {
		b = make([]byte, len(body))
		copy(b, body)
		e.last = b
	}
}

// Run is the hot path.
func Run(e *Encoder, keys [][]byte, k []byte) int {
	t := 0
	e.Frames(keys)
	for i, key := range keys {
		p := newPoint(i, len(key))
		t += p.x + p.y
		e.Put(uint64(t))
		e.PutHeader(uint32(i), key)
		if reflect.DeepEqual(key, k) { // deepequal
			t++
		}
		t += clamped(len(key)+i, 3)
	}
	return t
}
