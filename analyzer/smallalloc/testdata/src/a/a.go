// Package a is the analysistest fixture of smallalloc.
package a

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"
	"sync/atomic"
)

// Positive cases.

// Reader decodes length-prefixed messages.
type Reader struct {
	r io.Reader
}

// Message reads a 4-byte header: the classic per-message allocation.
func (r *Reader) Message() (uint32, error) {
	buf := make([]byte, 4) // want `make\(\[\]byte, 4\) escapes to the heap \(.*\) on every call; add a field messageBuf \[4\]byte to Reader and use r.messageBuf\[:\] \(io.ReadFull fills it completely\), which saves 1 allocation per call but makes \(\*Reader\).Message unsafe for concurrent calls on the same receiver \[per-item: method Message runs per item\]`
	if _, err := io.ReadFull(r.r, buf); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint32(buf), nil
}

// Conn reads frames from a connection.
type Conn struct {
	rd   io.Reader
	seen int
}

// Next reads with Read, which may fill the buffer partly: the fix clears it.
func (c *Conn) Next() (byte, error) {
	hdr := make([]byte, 8, 16) // want `make\(\[\]byte, 8, 16\) escapes to the heap \(.*\) on every call; add a field nextHdr \[16\]byte to Conn and use c.nextHdr\[:8\], then clear\(hdr\) to keep make's zeroing, which saves 1 allocation per call.*\[per-item: method Next runs per item\]`
	n, err := c.rd.Read(hdr)
	if err != nil {
		return 0, err
	}
	c.seen += n
	return hdr[0] ^ hdr[7], nil
}

// Decoder decodes records; its helper runs per item because Decode does.
type Decoder struct {
	src io.Reader
}

// Decode runs per item.
func (d *Decoder) Decode() (uint16, error) {
	return d.readTag()
}

func (d *Decoder) readTag() (uint16, error) {
	tag := make([]byte, 2) // want `make\(\[\]byte, 2\) escapes to the heap \(.*\) on every call; add a field readTagTag \[2\]byte to Decoder and use d.readTagTag\[:\], then clear\(tag\) to keep make's zeroing, which saves 1 allocation per call but makes \(\*Decoder\).readTag unsafe for concurrent calls on the same receiver \[per-item: called from \(\*Decoder\).Decode, which runs per item\]`
	fill(d.src, tag)
	return binary.LittleEndian.Uint16(tag), nil
}

// fill passes p on to an interface method, which does not retain it.
func fill(r io.Reader, p []byte) {
	r.Read(p)
}

// Locked holds a mutex that Get locks: a scratch field is safe.
type Locked struct {
	mu sync.Mutex
	r  io.Reader
}

// Get locks the receiver.
func (l *Locked) Get() byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := make([]byte, 1) // want `make\(\[\]byte, 1\) escapes to the heap .* add a field getB \[1\]byte to Locked and use l.getB\[:\], then clear\(b\)`
	l.r.Read(b)
	return b[0]
}

// Sum reads n 8-byte values: the buffer can be made once.
func Sum(r io.Reader, n int) (uint64, error) {
	var total uint64
	for i := 0; i < n; i++ {
		buf := make([]byte, 8) // want `make\(\[\]byte, 8\) escapes to the heap \(.*\) in every iteration; declare buf once before the loop and reuse its contents as is \(io.ReadFull fills it completely\), which saves 1 allocation per iteration \(all but the first\) \[hot-loop: inside a loop\]`
		_, err := io.ReadFull(r, buf)
		if err != nil {
			return 0, err
		}
		total += binary.BigEndian.Uint64(buf)
	}
	return total, nil
}

// Xor reads with Read: the hoisted buffer is cleared in each iteration.
func Xor(r io.Reader, n int) byte {
	var x byte
	for range n {
		b := make([]byte, 4) // want `make\(\[\]byte, 4\) escapes to the heap .* in every iteration; declare b once before the loop and call clear\(b\) in each iteration to keep make's zeroing, which saves 1 allocation per iteration`
		r.Read(b)
		x ^= b[0] ^ b[3]
	}
	return x
}

// Lines writes each line with a CRLF: the appended buffer is resliced.
func Lines(w io.Writer, lines []string) {
	for _, l := range lines {
		line := make([]byte, 0, 32) // want `make\(\[\]byte, 0, 32\) escapes to the heap .* declare line once before the loop and reset it with line = line\[:0\] in each iteration, which saves 1 allocation per iteration`
		line = append(line, l...)
		line = append(line, '\r', '\n')
		w.Write(line)
	}
}

type header struct {
	b [6]byte
}

func readHeader(r io.Reader, h *header) {
	io.ReadFull(r, h.b[:])
}

// Frame decodes a header through a pointer: message only.
type Frame struct {
	r io.Reader
}

// Parse runs per item.
func (f *Frame) Parse() byte {
	h := new(header) // want `new\(header\) escapes to the heap .* on every call; keep a reusable header in a field parseH of Frame and reset it at the start of each call, which saves 1 allocation per call but makes \(\*Frame\).Parse unsafe for concurrent calls on the same receiver; no automatic fix: fixes are offered for make\(\[\]T, n\) buffers only \[per-item: method Parse runs per item\]`
	readHeader(f.r, h)
	return h.b[0]
}

// Headers decodes headers in a loop: message only.
func Headers(r io.Reader, n int) int {
	sum := 0
	for range n {
		h := &header{} // want `&header\{...\} escapes to the heap .* in every iteration; allocate h once before the loop and reset it in each iteration, which saves 1 allocation per iteration \(all but the first\); no automatic fix: fixes are offered for make\(\[\]T, n\) buffers only \[hot-loop: inside a loop\]`
		readHeader(r, h)
		sum += int(h.b[5])
	}
	return sum
}

// Terminate writes a CRLF after each record.
func Terminate(w io.Writer, n int) {
	for range n {
		crlf := []byte{'\r', '\n'} // want `\[\]byte\{...\} escapes to the heap .* in every iteration; allocate crlf once before the loop.*; no automatic fix: fixes are offered for make\(\[\]T, n\) buffers only \[`
		w.Write(crlf)
	}
}

// Negative cases.

// Stack keeps its buffer on the stack: the compiler sees every use.
func (r *Reader) Stack(v uint32) uint32 {
	buf := make([]byte, 4)
	binary.BigEndian.PutUint32(buf, v)
	return binary.BigEndian.Uint32(buf) + 1
}

// ReadMsg returns its buffer to the caller: the allocation is needed.
func (r *Reader) ReadMsg() ([]byte, error) {
	buf := make([]byte, 8)
	_, err := io.ReadFull(r.r, buf)
	return buf, err
}

// Keeper stores its buffer.
type Keeper struct {
	r    io.Reader
	last []byte
	all  [][]byte
}

// Read stores the buffer in a field.
func (k *Keeper) Read() {
	buf := make([]byte, 8)
	k.r.Read(buf)
	k.last = buf
}

// ReadString appends the buffer itself to a field.
func (k *Keeper) ReadString() {
	buf := make([]byte, 8)
	k.r.Read(buf)
	k.all = append(k.all, buf)
}

// Next makes a buffer whose size is not constant.
func (k *Keeper) Next(n int) {
	buf := make([]byte, n)
	k.r.Read(buf)
}

// Large makes a buffer above the threshold.
func (k *Keeper) Message() {
	buf := make([]byte, 128)
	k.r.Read(buf)
}

// Value has value receivers: a field would be a copy.
type Value struct {
	r io.Reader
}

// Message has a value receiver.
func (v Value) Message() byte {
	buf := make([]byte, 4)
	v.r.Read(buf)
	return buf[0]
}

// Shared is used from several goroutines: it holds a mutex.
type Shared struct {
	mu sync.Mutex
	r  io.Reader
}

// Message does not lock: it looks safe for concurrent use.
func (s *Shared) Message() byte {
	buf := make([]byte, 4)
	s.r.Read(buf)
	return buf[0]
}

// Worker's Process method is started in goroutines.
type Worker struct {
	r io.Reader
}

// Process runs in several goroutines.
func (w *Worker) Process() byte {
	buf := make([]byte, 4)
	w.r.Read(buf)
	return buf[0]
}

// Start runs Process concurrently.
func Start(w *Worker) {
	for range 4 {
		go w.Process()
	}
}

// setup is cold: it runs once, from init.
func init() { new(Keeper).setup() }

func (k *Keeper) setup() {
	buf := make([]byte, 4)
	k.r.Read(buf)
}

// Retained passes the buffer to a function that keeps it.
func (k *Keeper) Handle() *bytes.Reader {
	buf := make([]byte, 4)
	return bytes.NewReader(buf)
}

// Captured uses the buffer in a closure.
func (k *Keeper) Lookup() func() byte {
	buf := make([]byte, 4)
	k.r.Read(buf)
	return func() byte { return buf[0] }
}

// Send sends the buffer on a channel.
func (k *Keeper) Put(ch chan []byte) {
	buf := make([]byte, 4)
	k.r.Read(buf)
	ch <- buf
}

// Collect keeps each iteration's buffer.
func Collect(r io.Reader, n int) [][]byte {
	var out [][]byte
	for range n {
		buf := make([]byte, 4)
		r.Read(buf)
		out = append(out, buf)
	}
	return out
}

// ReadByte is a function, not a method: no safe reuse for a small buffer.
func ReadByte(r io.Reader) byte {
	buf := make([]byte, 1)
	r.Read(buf)
	return buf[0]
}

// Dir keeps a pointer into a buffer it makes, as the runtime's maps keep
// their first directory.
type Dir struct {
	first **int
	count *int
}

// Put keeps the address of the buffer's element: the buffer outlives the
// call, so it cannot be a field reused by every call.
func (d *Dir) Put(x *int) {
	dir := make([]*int, 1)
	dir[0] = x
	d.first = &dir[0]
}

type counter struct{ n *int }

// Get keeps the address of a field of the value.
func (d *Dir) Get(x *int) {
	c := new(counter)
	c.n = x
	d.count = (*int)(nil)
	keep(&c.n)
}

var kept **int

func keep(p **int) { kept = p }

// Counted holds an atomic reference count, as readers shared by
// reference do; Next already keeps its position in the receiver without
// a lock, so it is not safe for concurrent calls today: a scratch field
// changes nothing.
type Counted struct {
	refs atomic.Int64
	r    io.Reader
	pos  int
}

// Next reads a 4-byte length.
func (c *Counted) Next() (uint32, error) {
	buf := make([]byte, 4) // want `make\(\[\]byte, 4\) escapes to the heap .* add a field nextBuf \[4\]byte to Counted and use c.nextBuf\[:\]`
	if _, err := io.ReadFull(c.r, buf); err != nil {
		return 0, err
	}
	c.pos += 4
	return binary.LittleEndian.Uint32(buf), nil
}

// Guarded holds a mutex, and its method writes a counter of the
// receiver, through a nested field, without locking it.
type Guarded struct {
	mu    sync.Mutex
	r     io.Reader
	stats struct{ reads int }
}

// Peek writes the receiver's stats.
func (g *Guarded) Peek() byte {
	b := make([]byte, 2) // want `make\(\[\]byte, 2\) escapes to the heap .* add a field peekB \[2\]byte to Guarded and use g.peekB\[:\]`
	g.r.Read(b)
	g.stats.reads = g.stats.reads + 1
	return b[0]
}

// Async holds an atomic count, which its method updates with the atomic
// operation alone: it writes nothing else, so it may run concurrently.
type Async struct {
	n atomic.Int32
	r io.Reader
}

// Read counts its calls atomically.
func (a *Async) Read() byte {
	buf := make([]byte, 3)
	a.r.Read(buf)
	a.n.Add(1)
	return buf[0]
}

// Spawn writes the receiver only in a goroutine it starts, which may run
// while the next call does.
type Spawn struct {
	n    atomic.Int32
	r    io.Reader
	last int
}

// Read starts a goroutine that writes the receiver.
func (s *Spawn) Read() byte {
	buf := make([]byte, 3)
	s.r.Read(buf)
	go func() { s.last++ }()
	return buf[0]
}
