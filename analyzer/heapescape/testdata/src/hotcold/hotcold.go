package hotcold

import "io"

var out io.Writer = io.Discard

// init runs once: its allocation is reported only when cold code is.
func init() {
	for i := 0; i < 4; i++ {
		b := &[4]byte{byte(i)} // want `&\[4\]byte{...} escapes to heap because it is passed to io.Writer.Write .* \[cold: runs once: in init\]`
		out.Write(b[:])
	}
}
