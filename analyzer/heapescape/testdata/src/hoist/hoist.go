// Package hoist checks the fix that moves an allocation that does not
// outlive a loop iteration out of the loop, and the findings that get no
// fix, with the reason.
package hoist

import (
	"io"
	"sync"
)

// Const reads into a buffer of constant size: made once before the loop
// and cleared where it was made.
func Const(r io.Reader, n int) int {
	t := 0
	for i := 0; i < n; i++ {
		buf := make([]byte, 128) // want `^make\(\[\]byte, 128\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		m, _ := r.Read(buf)
		t += m + int(buf[127])
	}
	return t
}

// Sized's size is a parameter: the buffer is made in the first iteration
// (a negative size panics where it did), then cleared.
func Sized(r io.Reader, n, size int) int {
	t := 0
	for i := 0; i < n; i++ {
		buf := make([]byte, size+1) // want `^make\(\[\]byte, size \+ 1\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		m, _ := r.Read(buf)
		t += m + int(buf[size])
	}
	return t
}

// Capacity writes up to the capacity: all of it is cleared.
func Capacity(w io.Writer, n int) {
	for i := 0; i < n; i++ {
		var buf = make([]byte, 8, 64) // want `^make\(\[\]byte, 8, 64\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		buf[0] = byte(i)
		w.Write(buf[:cap(buf)])
	}
}

// Array writes an array literal through its pointer: new before the
// loop, the literal assigned in the loop.
func Array(w io.Writer, n int) {
	for i := 0; i < n; i++ {
		b := &[4]byte{byte(i), 1, 2, 3} // want `^&\[4\]byte\{\.\.\.\} escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		w.Write(b[:])
	}
}

// A frame is written from its body.
type frame struct {
	kind byte
	body [15]byte
}

// Frames writes a frame's body per iteration.
func Frames(w io.Writer, kinds []byte) {
	for _, k := range kinds {
		f := &frame{kind: k} // want `^&frame\{\.\.\.\} escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		f.body[0] = f.kind
		w.Write(f.body[:])
	}
}

// New reads into new arrays.
func New(r io.Reader, n int) int {
	t := 0
	for i := 0; i < n; i++ {
		h := new([8]byte) // want `^new\(\[8\]byte\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		r.Read(h[:])
		t += int(h[0])
	}
	return t
}

// Moved reads into an array variable, moved to heap by the slice passed
// to Read.
func Moved(r io.Reader, n int) int {
	t := 0
	for i := 0; i < n; i++ {
		var hdr [16]byte // want `^variable hdr is moved to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		r.Read(hdr[:])
		t += int(hdr[0])
	}
	return t
}

// Shadow declares buf before the loop and uses it after: the hoisted
// buffer gets another name.
func Shadow(r io.Reader, n int) (string, int) {
	buf := "label"
	t := 0
	for i := 0; i < n; i++ {
		buf := make([]byte, 32) // want `^make\(\[\]byte, 32\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		m, _ := r.Read(buf)
		t += m + int(buf[0])
	}
	return buf, t
}

// Twice has two loops with a buffer each in one block: the second is
// renamed, so that the two declarations do not collide.
func Twice(r io.Reader, w io.Writer, n int) {
	for i := 0; i < n; i++ {
		buf := make([]byte, 96) // want `^make\(\[\]byte, 96\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		r.Read(buf)
	}
	for i := 0; i < n; i++ {
		buf := make([]byte, 96) // want `^make\(\[\]byte, 96\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		w.Write(buf)
	}
}

// Switch allocates in one case of a switch: the buffer is made before
// the loop whichever case runs, and cleared in its case.
func Switch(r io.Reader, kinds []int) int {
	t := 0
	for _, k := range kinds {
		switch k {
		case 0:
			buf := make([]byte, 80) // want `^make\(\[\]byte, 80\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
			m, _ := r.Read(buf)
			t += m
		default:
			t--
		}
	}
	return t
}

// Workers runs a loop in each goroutine: the buffer is declared in the
// function literal, one per goroutine.
func Workers(rs []io.Reader, wg *sync.WaitGroup, out []int) {
	for j, r := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				buf := make([]byte, 72) // want `^make\(\[\]byte, 72\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
				m, _ := r.Read(buf)
				out[j] += m
			}
		}()
	}
}

// Resliced assigns the buffer in the loop: the next iteration would start
// from the shorter slice.
func Resliced(r io.Reader, w io.Writer, n int) {
	for i := 0; i < n; i++ {
		buf := make([]byte, 100) // want `^make\(\[\]byte, 100\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration; no automatic fix: it is assigned again in the loop \[hot-loop: inside a loop\]$`
		m, _ := r.Read(buf)
		buf = buf[:m]
		w.Write(buf)
	}
}

// Appended appends to its buffer, which append may move.
func Appended(w io.Writer, n int) {
	for i := 0; i < n; i++ {
		buf := make([]byte, 0, 100) // want `^make\(\[\]byte, 0, 100\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration; no automatic fix: it is appended to, and append may move it \[hot-loop: inside a loop\]$`
		buf = append(buf, byte(i), 'x')
		w.Write(buf)
	}
}

// PerItem sizes each buffer by its item.
func PerItem(r io.Reader, sizes []int) int {
	t := 0
	for _, n := range sizes {
		buf := make([]byte, n) // want `^make\(\[\]byte, n\) escapes to heap because .*; declare one buffer before the loop and reuse it, growing it when an iteration needs more \(buf = slices\.Grow\(buf\[:0\], n\)\[:n\]\), since it does not outlive an iteration, which saves the allocation of most iterations; no automatic fix: the size changes per iteration \[hot-loop: inside a loop\]$`
		m, _ := r.Read(buf)
		t += m
	}
	return t
}

// A conf holds a size that a call in the loop may change.
type conf struct{ size int }

// FieldSize sizes the buffer by a field.
func FieldSize(r io.Reader, c *conf, n int) int {
	t := 0
	for i := 0; i < n; i++ {
		buf := make([]byte, c.size) // want `^make\(\[\]byte, c\.size\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration; no automatic fix: its size may change from one iteration to the next \[hot-loop: inside a loop\]$`
		m, _ := r.Read(buf)
		t += m
	}
	return t
}

// Direct passes the allocation to Write without a variable.
func Direct(w io.Writer, n int) {
	for i := 0; i < n; i++ {
		w.Write(make([]byte, 64)) // want `^make\(\[\]byte, 64\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration; no automatic fix: it is not declared alone in a statement of its own \[hot-loop: inside a loop\]$`
	}
}

var kept [][]byte

// Kept stores each buffer: hoisting would make every entry share one.
func Kept(r io.Reader, n int) {
	for i := 0; i < n; i++ {
		buf := make([]byte, 64)
		r.Read(buf)
		kept = append(kept, buf)
	}
}

// Sent sends each buffer on a channel.
func Sent(r io.Reader, n int, ch chan<- []byte) {
	for i := 0; i < n; i++ {
		buf := make([]byte, 64)
		r.Read(buf)
		ch <- buf
	}
}

// Captured passes each buffer to a goroutine.
func Captured(w io.Writer, n int, wg *sync.WaitGroup) {
	for i := 0; i < n; i++ {
		buf := make([]byte, 64)
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Write(buf)
		}()
	}
}

// A node registers itself.
type node struct{ id int }

var registry []*node

//go:noinline
func (n *node) register() { registry = append(registry, n) }

// Register calls a method that keeps its receiver.
func Register(n int) {
	for i := 0; i < n; i++ {
		p := &node{id: i}
		p.register()
	}
}

// Goto uses goto, which a declaration before the loop could jump over.
func Goto(r io.Reader, n int) int {
	t := 0
	if n < 0 {
		goto end
	}
	for i := 0; i < n; i++ {
		buf := make([]byte, 48) // want `^make\(\[\]byte, 48\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration; no automatic fix: the function uses goto, which a declaration before the loop could break \[hot-loop: inside a loop\]$`
		m, _ := r.Read(buf)
		t += m
	}
end:
	return t
}

// Each passes its receiver to a function value, which may keep it.
//
//go:noinline
func (n *node) each(f func(*node)) { f(n) }

// Visit calls a method that passes the receiver on.
func Visit(n int, f func(*node)) {
	for i := 0; i < n; i++ {
		p := &node{id: i}
		p.each(f)
	}
}

var first *byte

// ElemAddr keeps the address of an element of each buffer.
func ElemAddr(r io.Reader, n int) {
	for i := 0; i < n; i++ {
		buf := make([]byte, 16)
		r.Read(buf)
		first = &buf[0]
	}
}

var body []byte

// FieldSlice keeps a slice of an array field of each frame.
func FieldSlice(w io.Writer, n int) {
	for i := 0; i < n; i++ {
		f := &frame{kind: byte(i)}
		w.Write(f.body[:])
		body = f.body[:]
	}
}

// A bytes type passes itself to a function value.
type bytes []byte

var handle func([]byte)

//go:noinline
func (b bytes) give() { handle(b) }

// Give calls a value method of a slice type that keeps the slice.
func Give(r io.Reader, n int) {
	for i := 0; i < n; i++ {
		buf := make(bytes, 16)
		r.Read(buf)
		buf.give()
	}
}

// Result has a result named buf, which a bare return in the block gives:
// the hoisted buffer gets another name.
func Result(r io.Reader, n int) (buf []byte, t int) {
	if n > 0 {
		for i := 0; i < n; i++ {
			buf := make([]byte, 24) // want `^make\(\[\]byte, 24\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
			m, _ := r.Read(buf)
			t += m + int(buf[23])
		}
		return
	}
	return
}

// Seq ranges over a function: its body is a function the iterator calls.
func Seq(r io.Reader, seq func(func(int) bool)) int {
	t := 0
	for range seq {
		buf := make([]byte, 56) // want `^make\(\[\]byte, 56\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration; no automatic fix: the loop ranges over a function, whose iterator may call the body from other goroutines \[hot-loop: inside a loop\]$`
		m, _ := r.Read(buf)
		t += m
	}
	return t
}

// Copy has two buffers in one loop: both are hoisted.
func Copy(r io.Reader, w io.Writer, n int) int {
	t := 0
	for i := 0; i < n; i++ {
		in := make([]byte, 100) // want `^make\(\[\]byte, 100\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		m, _ := r.Read(in)
		out := make([]byte, 200) // want `^make\(\[\]byte, 200\) escapes to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		copy(out, in[:m])
		w.Write(out)
		t += m
	}
	return t
}

// MovedShadow's array has the name of a parameter used after the loop:
// the hoisted variable gets another name.
func MovedShadow(r io.Reader, hdr string, n int) (string, int) {
	t := 0
	for i := 0; i < n; i++ {
		var hdr [16]byte // want `^variable hdr is moved to heap because .*; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration, which saves one allocation per iteration \[hot-loop: inside a loop\]$`
		r.Read(hdr[:])
		t += int(hdr[0])
	}
	return hdr, t
}
