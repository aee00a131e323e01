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
		var h Header // want `variable h is moved to heap because .*; its address is taken only on a rare path \(line \d+, on an error path\): take a copy there and let that escape \(hCopy := h; ...&hCopy...\), which keeps h on the stack on every other path; checked by compiling the change`
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
		var h Header // want `variable h is moved to heap because .*; its address is taken only on a rare path \(line \d+, .*\): take a copy there`
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
		var h Header // want `variable h is moved to heap because .*; its address is taken only on a rare path \(line \d+, .*\): take a copy there`
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

// Record is what Wrap returns.
type Record interface{ Hdr() *Header }

// Hdr makes a header a record of its own.
func (h *Header) Hdr() *Header { return h }

type raw struct{ h Header }

func (r *raw) Hdr() *Header { return &r.h }

// Wrap returns the header itself, by address, when the length is bad: the
// named result then holds &h, and the interface call of the common path
// makes h escape (the compiler's flow ends there), although its address
// is taken only on the error path.
func Wrap(h Header, n int) (rec Record, err error) { // want `variable h is moved to heap because passed to rare.Record.Hdr \(an interface method call\); its address is taken only on a rare path \(line \d+, on an error path\): take a copy there`
	rec = &raw{h: h}
	if n < 0 {
		return &h, ErrShort
	}
	rec.Hdr().TTL = uint32(n)
	return rec, nil
}

// Read returns the header by address from two error paths, each in its
// own block: each gets its copy.
func Read(msgs [][]byte, h Header) (*Header, error) { // want `variable h is moved to heap because .*; its address is taken only on a rare path \(line \d+, on an error path\): take a copy there`
	for _, m := range msgs {
		if len(m) == 0 {
			return &h, ErrShort
		}
		if _, err := unpack(m, &h); err != nil {
			return &h, err
		}
	}
	return nil, nil
}

// errNotImplemented is what the stubs return.
var errNotImplemented = errors.New("not implemented")

// dims is a stub that always fails (go-ole's safeArrayGetDim on other
// systems): its error path is its only path, so a copy there saves
// nothing, and no rare-path advice is given.
func dims() (*uint32, error) {
	u := uint32(0)
	return &u, errNotImplemented
}

// Dims calls the stub per message.
func Dims(msgs [][]byte) int {
	n := 0
	for range msgs {
		if _, err := dims(); err != nil {
			n++
		}
	}
	return n
}
