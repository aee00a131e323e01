package hotcold

import "io"

// Setup runs once, by its name: its allocation is reported only when cold
// code is.
func Setup(w io.Writer, n int) {
	for i := 0; i < n; i++ {
		b := &[4]byte{byte(i)} // want `&\[4\]byte{...} escapes to heap because it is passed to io.Writer.Write .* \[cold: runs once: set-up, by its name\]`
		w.Write(b[:])
	}
}
