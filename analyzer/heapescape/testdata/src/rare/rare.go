// Package rare holds variables whose address escapes only on a rare path.
package rare

import (
	"errors"
	"fmt"
	"log"
)

// Header is a record's fixed part.
type Header struct {
	Name  string
	Type  uint16
	Class uint16
	TTL   uint32
}

// ErrShort is returned for a truncated record.
var ErrShort = errors.New("short record")

// unpack fills h and keeps nothing.
//
//go:noinline
func unpack(msg []byte, h *Header) (int, error) {
	if len(msg) < 10 {
		return 0, ErrShort
	}
	h.Type, h.Class = uint16(msg[0]), uint16(msg[1])
	h.TTL = uint32(msg[2])
	return 10, nil
}

// Records unpacks one header per message; a failed one is returned, by
// address, with the error: only then does the header escape.
func Records(msgs [][]byte) ([]Header, *Header, error) {
	var out []Header
	for _, m := range msgs {
		var h Header // want `variable h is moved to heap because .*; its address escapes only on a rare path \(line \d+, on an error path\): take a copy there and let that escape \(hCopy := h; ...&hCopy...\), which keeps h on the stack on every other path; checked by compiling the change`
		if _, err := unpack(m, &h); err != nil {
			return nil, &h, err
		}
		out = append(out, h)
	}
	return out, nil, nil
}

// ParseError carries the header that failed.
type ParseError struct{ H *Header }

func (e *ParseError) Error() string { return "bad header " + e.H.Name }

// Check panics with the header's address when it is invalid.
func Check(msgs [][]byte) int {
	n := 0
	for _, m := range msgs {
		var h Header // want `variable h is moved to heap because .*; its address escapes only on a rare path \(line \d+, .*\): take a copy there`
		if _, err := unpack(m, &h); err != nil {
			panic(&ParseError{H: &h})
		}
		n += int(h.TTL)
	}
	return n
}

var trace bool

// Sum logs each header by address under a trace flag.
func Sum(msgs [][]byte) uint32 {
	var t uint32
	for _, m := range msgs {
		var h Header // want `variable h is moved to heap because .*; its address escapes only on a rare path \(line \d+, .*\): take a copy there`
		unpack(m, &h)
		if trace {
			log.Printf("header %p: %+v", &h, &h)
		}
		t += h.TTL
	}
	return t
}

var last *Header

// Keep keeps every header: its address escapes on the common path, and a
// copy on the rare one would not save the allocation.
func Keep(msgs [][]byte) error {
	for _, m := range msgs {
		var h Header
		if _, err := unpack(m, &h); err != nil {
			return fmt.Errorf("%v: %w", &h, err)
		}
		last = &h
	}
	return nil
}
