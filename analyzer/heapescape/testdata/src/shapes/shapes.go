// Package shapes checks that heapescape's advice follows from what the
// code around each allocation does.
package shapes

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"time"
)

var sink any

// Sum reads each record into a fresh buffer that does not outlive the
// iteration: hoisting it out of the loop is right.
func Sum(r io.Reader, n, size int) int {
	total := 0
	for i := 0; i < n; i++ {
		buf := make([]byte, size) // want `make\(\[\]byte, size\) escapes to heap .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]`
		m, _ := r.Read(buf)
		total += m + int(buf[0])
	}
	return total
}

// Collect keeps each buffer: hoisting would make every entry share one.
func Collect(r io.Reader, keys []string, size int) map[string][]byte {
	out := make(map[string][]byte) // inherent: not reported by default
	for _, k := range keys {
		buf := make([]byte, size) // inherent: not reported by default
		r.Read(buf)
		out[k] = buf
	}
	return out
}

// Frames keeps each buffer by appending it.
func Frames(r io.Reader, n int) [][]byte {
	var frames [][]byte
	for i := 0; i < n; i++ {
		f := make([]byte, 64) // inherent: not reported by default
		r.Read(f)
		frames = append(frames, f) // idiom/presize's
	}
	return frames
}

// Table fills a map lazily: the allocation happens once, when needed.
type Table struct {
	m   map[string]int
	buf []byte
}

// Add allocates its map on first use.
func (t *Table) Add(k string, v int) {
	if t.m == nil {
		t.m = make(map[string]int)
	}
	t.m[k] = v
}

// Scratch grows its buffer on demand.
func (t *Table) Scratch(n int) []byte {
	if cap(t.buf) < n {
		t.buf = make([]byte, n)
	}
	return t.buf[:n]
}

// Metric is parsed per item.
type Metric struct{ Name string }

// Parser keeps the metric it parses.
type Parser struct {
	current *Metric
	all     []*Metric
}

// Next parses one metric: the Metric is the parser's product.
func (p *Parser) Next(name string) {
	p.current = &Metric{Name: name}
	p.all = append(p.all, p.current) // the parser's own list grows: not reported
}

// Writer is built in a local and returned by address.
type Writer struct {
	w   io.Writer
	buf [256]byte
	n   int
}

// NewWriter is a constructor whose result is built in a local variable.
func NewWriter(w io.Writer) *Writer {
	var wr Writer
	wr.w = w
	return &wr
}

// Tag adds a header per request: the call must run per item.
func Tag(reqs []*http.Request, v string) {
	for _, req := range reqs {
		req.Header.Add("X-Tag", v)
	}
}

// Readers reads each payload through a fresh bytes.Reader: one Reader
// reset per iteration would do. Given to a function value, which may keep
// it, the reader must stay fresh.
func Readers(payloads [][]byte, w io.Writer, f func(io.Reader)) {
	for _, data := range payloads {
		io.Copy(w, bytes.NewReader(data)) // want `calling bytes.NewReader allocates \(inlined\): .*Reset.*; no automatic fix: what Reset takes need not be what the constructor takes \[hot-loop: inside a loop\]`
		f(bytes.NewReader(data))
	}
}

// Log boxes constants, zero-size values and single-byte values: none of
// them allocates. The non-constant string does.
func Log(name string, ok bool, b byte, i8 int8) {
	sink = "constant"
	sink = 1000
	sink = time.Second
	sink = struct{}{}
	sink = ok
	sink = b
	sink = i8
	sink = point{1, 2}
	sink = name // inherent: not reported by default
}

type point struct{ x, y int }

// Positive keeps the positive values in a slice whose size is known only
// at run time: the stack is not an option for it.
func Positive(xs []int) []int {
	kept := make([]int, 0, len(xs)) // inherent: not reported by default
	for _, x := range xs {
		if x > 0 {
			kept = append(kept, x)
		}
	}
	return kept
}

// errList is an error made of a list.
type errList []error

func (e errList) Error() string { return "errors" }

func check(x int) error {
	if x < 0 {
		return errNegative
	}
	return nil
}

var errNegative error = errList{}

// Check collects the errors of each item in a slice returned as an error.
func Check(xs []int) error {
	errs := make(errList, 0)
	for _, x := range xs {
		if err := check(x); err != nil {
			errs = append(errs, err) // inherent: not reported by default
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs // inherent: not reported by default
}

// decodeOne needs a decoder per reader: json.Decoder has no Reset, so
// "create it once" cannot be followed; nothing is reported for it.
//
//go:noinline
func decodeOne(r io.Reader, v any) error {
	return json.NewDecoder(r).Decode(v)
}

// DecodeAll makes decodeOne per-item.
func DecodeAll(rs []io.Reader, vs []any) {
	for i, r := range rs {
		decodeOne(r, vs[i])
	}
}

// Buf grows its own storage: that is what it is for, also where the
// growth is inlined.
type Buf struct{ bs []byte }

// AppendByte grows the buffer.
func (b *Buf) AppendByte(v byte) { b.bs = append(b.bs, v) }

// WriteByte inlines AppendByte.
func (b *Buf) WriteByte(v byte) error {
	b.AppendByte(v)
	return nil
}

// Records reads records whose size each header gives into a fresh buffer
// per iteration: one buffer grown when needed would do.
func Records(r io.Reader, sizes []int) int {
	total := 0
	for _, n := range sizes {
		buf := make([]byte, n) // want `make\(\[\]byte, n\) escapes to heap .*; declare one buffer before the loop and reuse it, growing it when an iteration needs more \(buf = slices.Grow\(buf\[:0\], n\)\[:n\]\), since it does not outlive an iteration, which saves the allocation of most iterations; no automatic fix: the size changes per iteration \[hot-loop: inside a loop\]`
		m, _ := r.Read(buf)
		total += m
	}
	return total
}
