// Package appendapi returns fresh strings and byte slices that callers
// only append to something longer.
package appendapi

import (
	"bytes"
	"io"
	"strconv"
)

// encodeVarint builds the bytes of v; every caller appends them.
func encodeVarint(v uint64) []byte {
	var out []byte
	for v >= 0x80 {
		out = append(out, byte(v)|0x80) // want `append\(out, byte\(v\) \| byte\(128\)\) escapes to heap because .*; every call of encodeVarint appends the byte slice it returns to something longer \(appendapi.go:\d+:\d+\): have it append to the caller's buffer instead`
		v >>= 7
	}
	return append(out, byte(v)) // want `append\(out, byte\(v\)\) escapes to heap because .*; every call of encodeVarint appends the byte slice`
}

// Frame appends length-prefixed values.
func Frame(dst []byte, vals []uint64) []byte {
	for _, v := range vals {
		dst = append(dst, encodeVarint(v)...)
	}
	return dst
}

// Copy copies one value into a fixed buffer.
func Copy(dst []byte, v uint64) int {
	return copy(dst, encodeVarint(v))
}

type record struct {
	key string
	n   int
}

// line formats a record as a line; callers write it out.
func (r record) line() []byte {
	return []byte(r.key + "=" + strconv.Itoa(r.n) + "\n") // want `r.key \+ "=" \+ strconv.Itoa\(r.n\) \+ "\\n" escapes to heap because it is returned; every call of line appends the byte slice it returns to something longer`
}

// Dump writes each record.
func Dump(w io.Writer, rs []record) {
	for _, r := range rs {
		w.Write(r.line())
	}
}

// label names a record; callers write it to a buffer.
func (r record) label() string {
	return r.key + "#" + strconv.Itoa(r.n) // want `r.key \+ "#" \+ strconv.Itoa\(r.n\) escapes to heap because .*; every call of label appends the string it returns to something longer`
}

// Labels writes the labels of records.
func Labels(b *bytes.Buffer, rs []record) {
	for _, r := range rs {
		b.WriteString(r.label())
		b.WriteByte(' ')
	}
}

var names []string

// name builds a name that one caller keeps: no append API would do.
func name(i int) string {
	return "n" + strconv.Itoa(i)
}

// Names keeps one name and writes the others.
func Names(b *bytes.Buffer, n int) {
	names = append(names, name(0))
	for i := 1; i < n; i++ {
		b.WriteString(name(i))
	}
}
