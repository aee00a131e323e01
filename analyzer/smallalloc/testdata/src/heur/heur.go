// Package heur is checked with escape data switched off.
package heur

import (
	"encoding/binary"
	"io"
)

// Reader reads messages.
type Reader struct {
	r io.Reader
}

// Message passes its buffer to an interface method: assumed to escape.
func (r *Reader) Message() (uint32, error) {
	buf := make([]byte, 4) // want `make\(\[\]byte, 4\) escapes to the heap \(heuristic: compiler escape data unavailable\) when passed to io.ReadFull, which calls io.Reader.Read on every call; add a field messageBuf \[4\]byte to Reader and use r.messageBuf\[:\] \(io.ReadFull fills it completely\), which saves 1 allocation per call but makes \(\*Reader\).Message unsafe for concurrent calls on the same receiver \[per-item: method Message runs per item\]`
	if _, err := io.ReadFull(r.r, buf); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint32(buf), nil
}

// Next uses its buffer locally: assumed to stay on the stack.
func (r *Reader) Next(v uint32) uint32 {
	buf := make([]byte, 4)
	binary.BigEndian.PutUint32(buf, v)
	return binary.BigEndian.Uint32(buf)
}
