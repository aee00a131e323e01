package conv

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"sync"
)

var bufs sync.Pool

type frame struct{ a, b int64 }

func Pool(b []byte, f frame, p *frame, s string) {
	bufs.Put(b[:0]) // want `^sync\.Pool\.Put boxes the \[\]byte into an interface, allocating a copy of it on every Put; put a pointer \(\*\[\]byte\) in the pool instead.*no automatic fix: every Get and Put`
	bufs.Put(f)     // want `boxes the frame`
	bufs.Put(s)     // want `boxes the string`
	bufs.Put(p)     // a pointer: nothing boxed
}

func Lookups(b []byte, m map[string]int, n map[string]bool) (int, bool) {
	k := string(b) // want `^k := string\(b\) copies the bytes, which k's uses only look up or compare; use string\(b\) in place of k at each use`
	v := m[k]
	return v, n[k] || k == "x"
}

func Single(b []byte, m map[string]int) int {
	k := string(b) // the compiler substitutes it
	return m[k]
}

func Kept(b []byte, m map[string]int) string {
	k := string(b) // stored: the copy is needed
	m[k]++
	return k
}

func Search(b []byte, sep string) (int, bool) {
	i := strings.Index(string(b), sep)             // want `^string\(b\) copies the bytes only for strings\.Index to read them; write bytes\.Index\(b, \[\]byte\(sep\)\)`
	return i, strings.HasPrefix(string(b), "GET ") // want `write bytes\.HasPrefix\(b, \[\]byte\("GET "\)\)`
}

func Runes(s string) (n int) {
	for _, r := range []rune(s) { // want `^\[\]rune\(s\) decodes the whole string into a new slice only to walk it; range over s itself`
		n += int(r)
	}
	for i, r := range []rune(s) { // want `behaviour change: the index becomes the rune's byte offset.*no automatic fix: the loop uses the index`
		n += i * int(r)
	}
	for range s {
		n++
	}
	return n + int([]rune(s)[0]) // want `takes its first rune|only to take its first rune; take the first rune with utf8\.DecodeRuneInString\(s\)`
}

func Fold(a, b string) bool {
	if strings.ToLower(a) == strings.ToLower(b) { // want `^strings\.ToLower builds a new string to compare case-insensitively; write strings\.EqualFold\(a, b\), which compares without allocating \(behaviour change: `
		return true
	}
	if strings.ToUpper(a) != "ABC" { // want `write !strings\.EqualFold\(a, "ABC"\)`
		return false
	}
	return strings.ToLower(a) == b // want `it holds only if b is always in the case ToLower gives; no automatic fix: b is not a constant`
}

func Writes(w io.Writer, bw *bufio.Writer, sb *strings.Builder, b []byte, s string) {
	io.WriteString(w, string(b)) // want `^string\(b\) copies the bytes only to write them; write w\.Write\(b\)`
	bw.Write([]byte(s))          // want `^\[\]byte\(s\) copies the string into a new byte slice only to write it; call bw\.WriteString\(s\)`
	w.Write([]byte(s))           // an io.Writer has no WriteString
	sb.WriteRune('\n')           // want `^WriteRune encodes a rune that is one byte; call sb\.WriteByte\('\\n'\)`
	sb.WriteRune('é')            // two bytes
	var bb bytes.Buffer
	bb.WriteRune(' ') // want `call bb\.WriteByte`
}

func Combine(xs []int, a, b int) []int {
	xs = append(xs, a) // want `^two consecutive appends to xs; append both in one call`
	xs = append(xs, b)
	xs = append(xs, len(xs)) // reads xs
	return xs
}

type stringWriter interface {
	io.Writer
	io.StringWriter
}

// Encode writes through an interface that has WriteString, and through
// a buffer, which copies too.
func Encode(sw stringWriter, buf *bytes.Buffer, name string) error {
	if _, err := sw.Write([]byte(name + "\n")); err != nil { // want `call sw\.WriteString\(name \+ "\\n"\)`
		return err
	}
	_, err := buf.Write([]byte(name)) // want `call buf\.WriteString\(name\)`
	return err
}

// Escape appends in the cases of a switch, which are blocks without
// braces.
func Escape(dst []byte, b byte) []byte {
	switch b {
	case '\n':
		dst = append(dst, '\\') // want `^two consecutive appends to dst; append both in one call`
		dst = append(dst, 'n')
	default:
		dst = append(dst, '\\', 'x') // want `^two consecutive appends to dst; append both in one call`
		dst = append(dst, "0123456789abcdef"[b>>4])
	}
	return dst
}

// Drain appends in the cases of a select.
func Drain(ch <-chan int, xs []int) []int {
	select {
	case v := <-ch:
		xs = append(xs, v) // want `^two consecutive appends to xs; append both in one call`
		xs = append(xs, -v)
	default:
	}
	return xs
}

// pages writes strings through Write: its WriteString copies as much as a
// caller's conversion would, so neither it nor its callers are told to
// call it (kafka-go's pageBuffer).
type pages struct{ data []byte }

func (p *pages) Write(b []byte) (int, error) {
	p.data = append(p.data, b...)
	return len(b), nil
}

func (p *pages) WriteString(s string) (int, error) {
	return p.Write([]byte(s))
}

func writeName(p *pages, name string) {
	p.Write([]byte(name))
}

// text's WriteString appends the string itself: calling it saves the copy.
type text struct{ data []byte }

func (t *text) Write(b []byte) (int, error) {
	t.data = append(t.data, b...)
	return len(b), nil
}

func (t *text) WriteString(s string) (int, error) {
	t.data = append(t.data, s...)
	return len(s), nil
}

func writeText(t *text, name string) {
	t.Write([]byte(name)) // want `call t\.WriteString\(name\)`
}
