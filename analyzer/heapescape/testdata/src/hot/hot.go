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
		b := &[4]byte{byte(i)} // want `&\[4\]byte{...} escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]`
		w.Write(b[:])
	}
}

// A Src reads records.
type Src struct{ r io.Reader }

// Next runs per item, but its error path is cold: with -cold=false the
// error's allocations are not reported.
func (s *Src) Next(n int) error {
	buf := make([]byte, 8) // want `make\(\[\]byte, 8\) escapes to heap because .*; keep a \[8\]byte array field in Src and pass s.buf\[:\] .* \[per-item: method Next runs per item\]`
	s.r.Read(buf)
	if n < 0 {
		return fmt.Errorf("bad %d", n)
	}
	return nil
}
