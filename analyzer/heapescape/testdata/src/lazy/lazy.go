// Package lazy holds allocations that fill a location only when the
// condition around them finds it missing or too small, and the growth of
// slices their owners keep, which append makes only when they outgrow
// their capacity: they run when the location's owner is new or needs
// more, not each time the code runs, so their tier is at most unknown
// (amortized) whatever the function's, and they add nothing to their
// function's spend. The lines after an
// "amortized" comment are those; the others are made on every run.
package lazy

import (
	"io"
	"strings"
)

// A Decoder grows its buffer on demand.
type Decoder struct {
	r   io.Reader
	buf []byte
}

// Next reads n bytes into the decoder's buffer, grown when too small.
func (d *Decoder) Next(n int) ([]byte, error) {
	if cap(d.buf) < n {
		// amortized
		d.buf = make([]byte, n, 2*n) // want `make\(\[\]byte, n, 2 \* n\) escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed \[unknown: allocated only when the condition on d\.buf holds, not each time the code runs\]`
	}
	b := d.buf[:n]
	_, err := io.ReadFull(d.r, b)
	return b, err
}

// DecodeAll decodes every item, which makes Next per item.
func DecodeAll(d *Decoder, items int) error {
	for range items {
		if _, err := d.Next(8); err != nil {
			return err
		}
	}
	return nil
}

// names is filled on first use.
var names map[int]string

// Name looks up a name, filling the table on first use, in a loop.
func Name(ids []int) []string {
	out := make([]string, 0, len(ids)) // want `make\(\[\]string, 0, len\(ids\)\) escapes to heap because it is returned; no known rewrite: the function returns it`
	for _, id := range ids {
		if names == nil {
			// amortized
			names = make(map[int]string) // want `make\(map\[int\]string\) escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed \[unknown: allocated only when the condition on names holds, not each time the code runs\]`
		}
		out = append(out, names[id])
	}
	return out
}

// AppendIP4 writes a 4-byte address into dst, made when the caller's is
// too short.
func AppendIP4(dst []byte, a, b, c, d byte) []byte {
	if len(dst) < 4 {
		// amortized
		dst = make([]byte, 4) // want `make\(\[\]byte, 4\) escapes to heap because it is returned; no known rewrite: it is allocated lazily, only when needed \[unknown: inlined at each of its calls .*\]`
	}
	dst[0], dst[1], dst[2], dst[3] = a, b, c, d
	return dst[:4]
}

// Addrs calls AppendIP4 per item, reusing one buffer: the copy of its
// body inlined here is amortized too.
func Addrs(ips [][4]byte, use func([]byte)) {
	var buf []byte
	for _, ip := range ips {
		// amortized
		buf = AppendIP4(buf, ip[0], ip[1], ip[2], ip[3]) // want `calling AppendIP4 allocates \(inlined\): make\(\[\]byte, 4\) escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed \[unknown: allocated only when the condition on dst holds, not each time the code runs\]`
		use(buf)
	}
}

// Fresh tests a variable that is nil on every call: the "lazy" map is
// made on every run, per item.
//
//go:noinline
func Fresh(keys []string) map[string]bool {
	var seen map[string]bool
	if seen == nil {
		seen = make(map[string]bool) // want `make\(map\[string\]bool\) escapes to heap because it is returned; no known rewrite: the function returns it \[per-item: called in a loop in Sets\]`
	}
	for _, k := range keys {
		seen[k] = true
	}
	return seen
}

// Sets calls Fresh per item.
func Sets(groups [][]string) []map[string]bool {
	out := make([]map[string]bool, 0, len(groups)) // want `make\(\[\]map\[string\]bool, 0, len\(groups\)\) escapes to heap because it is returned; no known rewrite: the function returns it`
	for _, g := range groups {
		out = append(out, Fresh(g))
	}
	return out
}

// Reset makes a map under a condition that does not test it: made on
// every run where the condition holds, here and in the copy inlined in
// ResetAll.
func (c *Counter) Reset(full bool) {
	if full {
		c.m = make(map[string]int) // want `make\(map\[string\]int\) escapes to heap because it is stored in c\.m; .*\[unknown: inlined at each of its calls .*\]`
	}
}

// A Counter counts by key.
type Counter struct{ m map[string]int }

// ResetAll resets every counter.
func ResetAll(cs []*Counter) {
	for _, c := range cs {
		c.Reset(true) // want `calling \(\*Counter\)\.Reset allocates \(inlined\): make\(map\[string\]int\) escapes to heap because it is stored in c\.m; .*\[hot-loop: inside a loop\]`
	}
}

// A Log keeps its output and grows it as lines come: append allocates
// only when the kept slice outgrows its capacity.
type Log struct {
	out   []byte
	last  []byte
	names strings.Builder
}

// Line appends a line to the log's own storage, per item.
func (l *Log) Line(s string) {
	// amortized
	l.out = append(l.out, s...) // want `append\(l\.out, s\.\.\.\) escapes to heap because append grows it; inherent: the slice is the data structure's own storage, kept and grown in place: append allocates only when it outgrows its capacity \[unknown: append allocates only when the kept slice outgrows its capacity, not each time the code runs\]`
}

// Keep copies the latest line into the capacity of the last one.
func (l *Log) Keep(s []byte) {
	// amortized
	l.last = append(l.last[:0], s...) // want `append\(l\.last\[:0\], s\.\.\.\) escapes to heap because append grows it; inherent: .* \[unknown: append allocates only when the kept slice outgrows its capacity, not each time the code runs\]`
}

// Name writes a name into the log's strings.Builder, whose inlined
// WriteString grows the slice it keeps.
func (l *Log) Name(s string) {
	// amortized
	l.names.WriteString(s) // want `calling \(\*strings\.Builder\)\.WriteString allocates \(inlined\): .*; inherent: the called function grows the slice it keeps, its own storage \[unknown: append allocates only when the kept slice outgrows its capacity, not each time the code runs\]`
}

// Lines writes every line, which makes Line, Keep and Name per item; the
// copies of their bodies inlined here are amortized too.
func Lines(l *Log, lines []string) {
	for _, s := range lines {
		// amortized
		l.Line(s) // want `calling \(\*Log\)\.Line allocates \(inlined\): .*\[unknown: append allocates only when the kept slice outgrows its capacity, not each time the code runs\]`
		// amortized
		l.Keep([]byte(s)) // want `calling \(\*Log\)\.Keep allocates \(inlined\): .*\[unknown: append allocates only .*\]`
		// amortized
		l.Name(s) // want `calling \(\*Log\)\.Name allocates \(inlined\): .*\[unknown: append allocates only .*\]`
	}
}
