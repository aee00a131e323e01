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
	"sync/atomic"
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

// A Pool hands out a scratch buffer made on first use.
type Pool struct {
	scratch []byte
	index   map[string]int
	items   []string
}

// Scratch returns the buffer at once when it is there.
func (p *Pool) Scratch() []byte {
	if p.scratch != nil {
		return p.scratch
	}
	// amortized
	p.scratch = make([]byte, 64, 4096) // want `make\(\[\]byte, 64, 4096\) escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed \[unknown: .*\]`
	return p.scratch
}

// Reserve returns dst extended by n when its capacity allows, and grows
// it byte by byte, in a loop, only when it does not.
func Reserve(dst []byte, n int) []byte {
	if len(dst)+n <= cap(dst) {
		return dst[:len(dst)+n]
	}
	for range n {
		// amortized
		dst = append(dst, 0) // want `append\(dst, byte\(0\)\) escapes to heap because append grows it; no known rewrite: it grows only when its capacity is short \[unknown: allocated only when the condition on dst holds, not each time the code runs\]`
	}
	return dst
}

// Index builds its map when the items are many and it has none, in a
// case of a switch.
func (p *Pool) Index(mode int) int {
	switch mode {
	case 1:
		if p.index != nil || len(p.items) < 8 {
			return len(p.index)
		}
		// amortized
		p.index = make(map[string]int, len(p.items)) // want `make\(map\[string\]int, len\(p\.items\)\) escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed \[unknown: .*\]`
		for i, s := range p.items {
			p.index[s] = i
		}
	}
	return len(p.index)
}

// Append returns nothing for an empty input and otherwise appends to what
// it was given: the early return tests that dst is empty, not that it is
// big enough, so the append grows it on every run that needs more.
func Append(dst []string, text string) []string {
	if len(dst) == 0 && text == "" {
		return nil
	}
	if len(dst) == 0 {
		return dst
	}
	return append(dst, text) // want `append\(dst, text\) escapes to heap because append grows it`
}

// Both returns early only when the buffer is there and the flag is set:
// without the flag, the buffer is made on every call.
func (p *Pool) Both(reuse bool) []byte {
	if p.scratch != nil && reuse {
		return p.scratch
	}
	p.scratch = make([]byte, 64) // want `make\(\[\]byte, 64\) escapes to heap because it is stored in p\.scratch`
	return p.scratch
}

// Temp's early return is in the function literal's caller, not its own
// body: the literal makes its buffer every time it runs.
func (p *Pool) Temp() func() []byte {
	if p.scratch != nil {
		return nil
	}
	return func() []byte { // want `func literal escapes to heap`
		buf := make([]byte, 0, 32)       // want `make\(\[\]byte, 0, 32\) escapes to heap because it is returned`
		buf = append(buf, p.items[0]...) // want `append\(buf, p\.items\[0\]\.\.\.\) escapes to heap because append grows it`
		return buf
	}
}

// Join separates items with commas: the append under a test of dst's
// length runs for every item after the first, not only when dst is full.
func Join(dst []byte, items []string) []byte {
	for _, it := range items {
		if len(dst) > 0 {
			dst = append(dst, ',') // want `append\(dst, byte\(44\)\) escapes to heap because append grows it`
		}
		dst = append(dst, it...) // want `append\(dst, it\.\.\.\) escapes to heap because append grows it`
	}
	return dst
}

// Options are a caller's settings.
type Options struct{ Size int }

// Fill makes the default settings whenever the caller passes none:
// the early return tests a parameter that is not a buffer.
func Fill(o *Options) *Options {
	if o != nil {
		return o
	}
	o = &Options{Size: 8} // want `&Options\{...\} escapes to heap because Fill returns it`
	return o
}

// A SizeError says an input is too long.
type SizeError struct{ N int }

func (e *SizeError) Error() string { return "too long" }

// Check's early return tests its error, not a location it fills.
func Check(b []byte, limit int) (err error) {
	if err != nil {
		return err
	}
	err = &SizeError{N: len(b) - limit} // want `&SizeError\{...\} escapes to heap because`
	return err
}

// A Source names a stream here or elsewhere, not both.
type Source struct {
	Domain   string
	External *Options
}

// Convert rejects a source that has both: its early return is an error,
// and the value after it is made on every run that gets there.
func (s *Source) Convert() error {
	if s.External != nil {
		return &SizeError{}
	}
	s.External = &Options{Size: len(s.Domain)} // want `&Options\{...\} escapes to heap because it is stored in s\.External`
	return nil
}

// DecodeInto fills the caller's map, made only when the caller's is nil,
// which the condition tests through a copy.
func DecodeInto(ptr *map[string]int, keys []string) {
	m := *ptr
	if m == nil {
		// amortized
		*ptr = make(map[string]int, len(keys)) // want `make\(map\[string\]int, len\(keys\)\) escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed`
		m = *ptr
	}
	for i, k := range keys {
		m[k] = i
	}
}

// A Cache holds its table behind a field.
type Cache struct{ table map[string]int }

// Table reads the field into a local and tests that: made only when the
// field is nil.
func (c *Cache) Table() map[string]int {
	t := c.table
	if t != nil {
		return t
	}
	// amortized
	c.table = make(map[string]int) // want `make\(map\[string\]int\) escapes to heap because it is stored in c\.table; no known rewrite: it is allocated lazily, only when needed`
	return c.table
}

// Swap's local is set to the field, then to something else: it no longer
// stands for the field, and the map is made whenever the other is nil.
func (c *Cache) Swap(other map[string]int) {
	t := c.table
	t = other
	if t == nil {
		c.table = make(map[string]int) // want `make\(map\[string\]int\) escapes to heap because it is stored in c\.table`
	}
}

// A Buffer is a named slice that grows itself through its receiver.
type Buffer []byte

// Write appends to the slice the receiver points to.
func (b *Buffer) Write(p []byte) (int, error) {
	// amortized
	*b = append(*b, p...) // want `append\(\*b, p\.\.\.\) escapes to heap because append grows it; inherent: the slice is the data structure's own storage`
	return len(p), nil
}

// SetName copies s into the caller's slice, reusing its capacity.
func SetName(dst *[]byte, s string) {
	// amortized
	*dst = append((*dst)[:0], s...) // want `append\(\(\*dst\)\[:0\], s\.\.\.\) escapes to heap because append grows it; inherent: the slice is the data structure's own storage`
}

// trimmed is append-style: it appends src without its spaces to dst.
func trimmed(dst, src []byte) []byte {
	for len(src) > 0 && src[0] == ' ' {
		src = src[1:]
	}
	return append(dst[:0], src...) // want `append\(dst\[:0\], src\.\.\.\) escapes to heap because append grows it and it is returned; inherent: an append-style function`
}

// ParseKey keeps the trimmed key in the caller's slice, through the
// append-style trimmed inlined here.
func ParseKey(b []byte, key *[]byte) {
	// amortized
	*key = trimmed(*key, b) // want `calling trimmed allocates \(inlined\): append\(dst\[:0\], src\.\.\.\) escapes to heap because append grows it; inherent: the slice is the data structure.s own storage`
}

// Local grows a slice through a pointer to a local: it is made anew per
// call, and so is its growth.
func Local(items []byte) int {
	var s []byte
	p := &s
	for _, it := range items {
		*p = append(*p, it) // want `append\(\*p, it\) escapes to heap because append grows it`
	}
	return len(s)
}

// Pairs keeps the fields of args: the slice is made with room for the
// worst case, which the loop, consuming one or two args per iteration,
// does not outgrow.
func Pairs(args []any) []string {
	fields := make([]string, 0, len(args)) // want `make\(\[\]string, 0, len\(args\)\) escapes to heap because it is returned`
	for i := 0; i < len(args); {
		if s, ok := args[i].(string); ok {
			// amortized
			fields = append(fields, s) // want `append\(fields, s\) escapes to heap because append grows it; no known rewrite: the slice is presized \[unknown: append allocates only when the slice outgrows the capacity the code computed for it, not each time the code runs\]`
			i++
			continue
		}
		i += 2
	}
	return fields
}

// Open opens every path, closing what it opened when one fails: a
// closure reads the slice, which is made with a capacity of one per path.
func Open(paths []string, open func(string) (io.Closer, error)) ([]io.Closer, error) {
	closers := make([]io.Closer, 0, len(paths)) // want `make\(\[\]io\.Closer, 0, len\(paths\)\) escapes to heap because it is returned`
	closeAll := func() {
		for _, c := range closers {
			c.Close()
		}
	}
	for _, p := range paths {
		c, err := open(p)
		if err != nil {
			closeAll()
			return nil, err
		}
		// amortized
		closers = append(closers, c) // want `append\(closers, c\) escapes to heap because append grows it; no known rewrite: the slice is presized \[unknown: append allocates .*\]`
	}
	return closers, nil
}

// makeRoom returns s emptied when it has room for n, or a new slice with
// a capacity of n.
func makeRoom(s []string, n int) []string {
	if cap(s) >= n {
		return s[:0]
	}
	return make([]string, 0, n)
}

// Decode reads n strings into a slice made by makeRoom.
func Decode(dst []string, n int, next func() string) []string {
	ss := makeRoom(dst, n) // want `calling makeRoom allocates \(inlined\): make\(\[\]string, 0, n\) escapes to heap because it is returned`
	for range n {
		// amortized
		ss = append(ss, next()) // want `append\(ss, next\(\)\) escapes to heap because append grows it.*\[unknown: append allocates only when the slice outgrows .*\]`
	}
	return ss
}

// Words guesses a capacity of 8, a constant: the appends of a longer
// input grow it on every call.
func Words(text string, sep byte) []string {
	words := make([]string, 0, 8) // want `make\(\[\]string, 0, 8\) escapes to heap because it is returned`
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == sep {
			words = append(words, text[start:i]) // want `append\(words, text\[start:i\]\) escapes to heap because append grows it; no known rewrite: the slice is presized \[hot-loop: inside a loop\]`
			start = i + 1
		}
	}
	return words
}

// A Conn remembers what it learned once.
type Conn struct {
	versions atomic.Value
	peers    atomic.Pointer[peerSet]
	names    map[int]string
	fallback map[int]string
}

// Versions loads the versions into a local, returns them when they are
// there, and otherwise makes and stores them.
func (c *Conn) Versions(n int) map[int]int {
	v, _ := c.versions.Load().(map[int]int)
	if v != nil {
		return v
	}
	// amortized
	v = make(map[int]int, n) // want `make\(map\[int\]int, n\) escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed`
	for i := range n {
		v[i] = i
	}
	c.versions.Store(v)
	return v
}

// Peers does the same through an atomic pointer.
func (c *Conn) Peers(n int) *peerSet {
	p := c.peers.Load()
	if p != nil {
		return p
	}
	// amortized
	p = &peerSet{n: n} // want `&peerSet{...} escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed`
	c.peers.Store(p)
	return p
}

// A peerSet counts peers.
type peerSet struct{ n int }

// Names reads a plain field into a local and writes the local back.
func (c *Conn) Names() map[int]string {
	m := c.names
	if m != nil {
		return m
	}
	// amortized
	m = make(map[int]string) // want `make\(map\[int\]string\) escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed`
	c.names = m
	return m
}

// Default reads the field but never stores what it makes: the default is
// made on every call that finds none.
func (c *Conn) Default() map[int]string {
	m := c.fallback
	if m != nil {
		return m
	}
	m = make(map[int]string) // want `make\(map\[int\]string\) escapes to heap because it is returned`
	return m
}
