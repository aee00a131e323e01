package inherent

import "io"

// byteWriter embeds an io.Writer: bw.Write is that interface's method,
// called dynamically, which the explanation says.
type byteWriter struct{ io.Writer }

func (bw byteWriter) WriteByte(c byte) error {
	_, err := bw.Write([]byte{c}) // want `^\[\]byte\{\.\.\.\} escapes to heap because it is passed to io\.Writer\.Write \(an interface method call\), which the compiler cannot see through`
	return err
}
