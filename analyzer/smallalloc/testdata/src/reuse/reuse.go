// Package reuse holds variables that hold a small make and are later
// reassigned to an allocation that escapes: each allocation is judged on
// its own.
package reuse

import "io"

// A Decoder reads frames.
type Decoder struct {
	r    io.Reader
	last []byte
}

// ReadMsg reads a 4-byte header, then a body of the size it gives, which
// it keeps in d.last. The variable buf holds both: the compiler moves
// both to the heap, but only the body needs to be there.
func (d *Decoder) ReadMsg() (int, error) {
	buf := make([]byte, 4) // want `make\(\[\]byte, 4\) escapes to the heap \(passed to io.Reader.Read, a call the compiler cannot see into\) on every call; add a field readMsgBuf \[4\]byte to Decoder and use d.readMsgBuf\[:\], then clear\(buf\) to keep make's zeroing, which saves 1 allocation per call but makes \(\*Decoder\).ReadMsg unsafe for concurrent calls on the same receiver \[per-item: method ReadMsg runs per item\]`
	if _, err := d.r.Read(buf); err != nil {
		return 0, err
	}
	n := int(buf[0])<<8 | int(buf[1])
	buf = make([]byte, n)
	if _, err := d.r.Read(buf); err != nil {
		return 0, err
	}
	d.last = buf
	return n, nil
}

// Next keeps its first buffer when the condition holds: the first
// allocation reaches d.last, so it is needed.
func (d *Decoder) Next(big bool) {
	buf := make([]byte, 4)
	if big {
		buf = make([]byte, 64)
	}
	d.r.Read(buf)
	d.last = buf
}
