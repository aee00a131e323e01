// Package rank is a fixture whose CPU profile orders its findings by
// construction: Hot allocates in a loop and takes most of the CPU, Lookup
// compares with reflect.DeepEqual in a loop and takes less, and Rare runs
// once.
package rank

import (
	"io"
	"reflect"
)

// sink takes the buffers, and keeps none, as an io.Writer must not.
var sink io.Writer = io.Discard

// Hot allocates a buffer per iteration.
func Hot(n int) int {
	s := 0
	for i := range n {
		b := make([]byte, 256)
		b[i%256] = byte(i)
		sink.Write(b)
		s += int(b[0])
	}
	return s
}

// Lookup returns the index of k in keys, comparing with reflect.DeepEqual.
func Lookup(keys [][]byte, k []byte) int {
	for i, x := range keys {
		if reflect.DeepEqual(x, k) {
			return i
		}
	}
	return -1
}

// Rare compares once at start-up.
func Rare(a, b []byte) bool {
	return reflect.DeepEqual(a, b)
}
