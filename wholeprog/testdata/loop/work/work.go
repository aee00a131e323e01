// Package work calls allocating functions in loops.
package work

import (
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// label formats the iteration's number: what it allocates depends on i,
// so there is nothing to hoist.
//
//go:noinline
func label(i int) string { return fmt.Sprintf("item-%d", i) }

// key joins the iteration's values: nothing to hoist either.
//
//go:noinline
func key(fields []string, i int) string {
	parts := make([]string, 0, 8)
	parts = append(parts, fields...)
	parts = append(parts, strconv.Itoa(i))
	return strings.Join(parts, ",")
}

var kept [][]byte

// keep stores its buffer: each call needs a fresh one.
//
//go:noinline
func keep(m []byte) {
	b := make([]byte, 8)
	copy(b, m)
	kept = append(kept, b)
}

// Labels calls label, key and keep on every iteration: not reported.
func Labels(n int, fields []string) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, label(i), key(fields, i))
		keep([]byte(out[i]))
	}
	return out
}

// scratch zeroes a large buffer of constant size on every call, and the
// buffer does not outlive the call: one buffer could serve every call.
//
//go:noinline
func scratch(m []byte) int {
	buf := make([]byte, 1<<17)
	n := copy(buf, m)
	return n + int(buf[n/2])
}

// Scan calls scratch on every iteration: reported.
func Scan(msgs [][]byte) int {
	t := 0
	for _, m := range msgs {
		t += scratch(m)
	}
	return t
}

// frame reads a header of constant size into a buffer that io.Reader
// implementations must not retain, and decodes it with a function that
// does not keep it either: one buffer could serve every call.
//
//go:noinline
func frame(r io.Reader) int {
	hdr := make([]byte, 5)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return 0
	}
	return int(binary.BigEndian.Uint32(hdr[:4])) + int(hdr[4])
}

// Frames calls frame on every iteration: reported.
func Frames(r io.Reader, n int) int {
	t := 0
	for range n {
		t += frame(r)
	}
	return t
}
