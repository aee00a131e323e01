package hot

import (
	"fmt"
	"io"
)

var sink any

// Setup runs once: with -cold=false its allocation is not reported.
func Setup() *[4]int {
	return &[4]int{}
}

// Fill allocates a buffer per iteration that does not outlive it.
func Fill(w io.Writer, n int) {
	for i := 0; i < n; i++ {
		b := &[4]byte{byte(i)} // want `&\[4\]byte{...} escapes to heap because .*, or hoist the allocation out of the loop and reuse it \[hot-loop: inside a loop\]`
		w.Write(b[:])
	}
}

// Next runs per item, but its error path is cold: with -cold=false the
// error's allocations are not reported.
func Next(r io.Reader, n int) error {
	buf := make([]byte, 8) // want `make\(\[\]byte, 8\) escapes to heap because .* \[per-item: function Next runs per item\]`
	r.Read(buf)
	if n < 0 {
		return fmt.Errorf("bad %d", n)
	}
	return nil
}
