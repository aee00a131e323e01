// Package cover is a fixture for check -verify's choice of benchmarks:
// BenchmarkPut runs Put's fix, BenchmarkSum runs neither fix, and no
// benchmark runs Index's.
package cover

import (
	"encoding/binary"
	"io"
	"reflect"
)

// An Encoder writes integers.
type Encoder struct {
	w io.Writer
	n int
}

// Put writes v in 8 bytes through a fresh buffer (smallalloc).
func (e *Encoder) Put(v uint64) {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, v)
	n, _ := e.w.Write(b)
	e.n += n
}

// Index returns the index of k in keys, or -1 (deepequal); only a test
// calls it.
func Index(keys [][]byte, k []byte) int {
	for i, key := range keys {
		if reflect.DeepEqual(key, k) {
			return i
		}
	}
	return -1
}

// Sum adds xs.
func Sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
