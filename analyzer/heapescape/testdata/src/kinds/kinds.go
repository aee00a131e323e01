// Package kinds holds, for each kind of change that removes an
// allocation, a function whose allocation needs it.
package kinds

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"strings"
)

type Reader struct {
	r    io.Reader
	last []byte
}

// Header reads a fixed header into a buffer that a second, kept
// allocation later reuses as a name: per SSA value, the first make is
// not kept.
func (r *Reader) Header(big bool) (byte, error) {
	buf := make([]byte, 4)
	if _, err := io.ReadFull(r.r, buf); err != nil {
		return 0, err
	}
	b := buf[0]
	if big {
		buf = make([]byte, 64)
		r.last = buf
	}
	return b, nil
}

// Each reads headers in a function literal.
func (r *Reader) Each(n int, f func(byte)) {
	read := func() {
		hdr := make([]byte, 2)
		io.ReadFull(r.r, hdr)
		f(hdr[0])
	}
	for range n {
		read()
	}
}

type byName []string

func (s byName) Len() int           { return len(s) }
func (s byName) Less(i, j int) bool { return s[i] < s[j] }
func (s byName) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

// Sorted sorts with sort.Sort, which boxes the slice in an interface.
func Sorted(names []string) []string {
	sort.Sort(byName(names)) // want `byName\(names\) escapes to heap because it is converted to an interface and passed to sort\.Sort; call slices\.SortFunc with a comparison of two elements .* instead of sort\.Sort: sort takes the slice as an interface, which allocates on every call`
	return names
}

type node struct {
	kids []*node
	n    int
}

// Walk keeps a stack made with capacity 0: it grows on every call.
func Walk(root *node) int {
	stack := make([]*node, 0)
	stack = append(stack, root)
	total := 0
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		total += n.n
		stack = append(stack, n.kids...)
	}
	return total
}

type Index struct {
	seen map[string]bool
}

// Add re-makes a map it keeps, once per item: clear and reuse it.
func (x *Index) Add(words []string) int {
	x.seen = make(map[string]bool) // want `clear x\.seen and reuse it instead of making a new map each time .*: the package never lets the map out of x\.seen, so nothing else holds the old one \[unknown`
	for _, w := range words {
		x.seen[w] = true
	}
	return len(x.seen)
}

type shard struct{ seen map[string]bool }

// Shards is the Index's sharded form.
type Shards struct{ shards []shard }

// NewShards fills in the maps of the shards it allocated: there is no
// earlier map to reuse, so the maps are not re-made.
func NewShards(n int) *Shards {
	c := &Shards{shards: make([]shard, n)}
	for i := range c.shards {
		s := &c.shards[i]
		s.seen = make(map[string]bool) // inherent: not reported by default
	}
	var x Index
	x.seen = make(map[string]bool) // inherent: not reported by default
	kept = &x
	return c
}

var kept *Index

// Dead makes a slice that the next statement replaces.
func Dead(s string) []string {
	parts := make([]string, 0, 8) // want `make\(\[\]string, 0, 8\) escapes to heap because the variable it initialises escapes \(returned\); delete the allocation: parts is assigned again before anything uses this value`
	parts = strings.Split(s, ",")
	return parts
}

type conn struct {
	onClose func()
	n       int
}

// Reset builds a closure per call and keeps it in a field.
func (c *conn) Reset() {
	c.onClose = func() { c.n = 0 } // want `the closure captures only c, which outlives the call: build it once .*; no automatic fix: where the receiver is made is for its author to choose`
}

// Shadowed looks lazy, but the nil check tests a variable that is always
// nil: the map is made on every call, and returned (inherent, not lazy).
func Shadowed(keys []string) map[string]int {
	var m map[string]int
	if m == nil {
		m = make(map[string]int, len(keys))
	}
	for i, k := range keys {
		m[k] = i
	}
	return m
}

type span struct{ start, end int }

type token struct {
	pos *span
	lit string
}

// NewToken allocates the span with its container: hold it by value.
func NewToken(lit string, start int) *token {
	return &token{pos: &span{start, start + len(lit)}, lit: lit} // want `&span\{\.\.\.\} escapes to heap because it is part of &token\{\.\.\.\}, which NewToken returns; hold span by value in field pos \(type span instead of \*span\), .* the change touches the field.s declaration, 1 composite literal and 0 uses; no automatic fix`
}

type iter struct {
	stack []*node
}

// Seek restarts the iterator: its stack, made with capacity 0, grows on
// every call.
func (it *iter) Seek(root *node) int {
	it.stack = make([]*node, 0)
	it.stack = append(it.stack, root) // want `it\.stack is reset to an empty slice without capacity at line \d+, so it grows from nothing on every call: reset it with it\.stack = it\.stack\[:0\] instead`
	total := 0
	for len(it.stack) > 0 {
		n := it.stack[len(it.stack)-1]
		it.stack = it.stack[:len(it.stack)-1]
		total += n.n
		it.stack = append(it.stack, n.kids...) // want `it\.stack is reset to an empty slice without capacity`
	}
	return total
}

// SeekAll seeks one iterator to each root in turn: Seek runs many times on
// one iterator.
func SeekAll(roots []*node) int {
	it := &iter{}
	total := 0
	for _, r := range roots {
		total += it.Seek(r)
	}
	return total
}

// client is one connection's state.
type client struct{ deny []string }

// setDeny fills a new client's deny list: nothing runs it twice on one
// client, so a reset that kept the capacity would keep nothing.
func (c *client) setDeny(perms []string) {
	c.deny = nil
	for _, p := range perms {
		if p != "" {
			c.deny = append(c.deny, p) // inherent: not reported by default
		}
	}
}

// Connect sets up a new client.
func Connect(perms []string) *client {
	c := &client{}
	c.setDeny(perms)
	return c
}

// Find searches with a local stack that a helper keeps.
func Find(root *node, keep func([]*node)) int {
	var stack []*node
	stack = append(stack, root)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack = append(stack, n.kids...) // want `stack is a stack \(or work list\) that starts empty on every call: start it with a capacity for its usual depth \(make\(\[\]\*node, 0, 8\), say\).*; no automatic fix: the capacity is the author.s choice`
		keep(stack)
	}
	return 0
}

type pair struct{ k, v string }
type pairs []pair

func (p pairs) Len() int           { return len(p) }
func (p pairs) Less(i, j int) bool { return p[i].k < p[j].k }
func (p pairs) Swap(i, j int)      { p[i], p[j] = p[j], p[i] }

func SortPairs(ps []pair) {
	sort.Stable(pairs(ps))                                           // want `call slices\.SortStableFunc with a comparison of two elements .*instead of sort\.Stable`
	sort.Slice(ps, func(i, j int) bool { return ps[i].v > ps[j].v }) // want `call slices\.SortFunc with a comparison of two elements .*instead of sort\.Slice: .* calls its less function dynamically`
}

type feed struct {
	r   io.Reader
	out chan byte
}

// Start reads headers in a goroutine's loop: each header's buffer does
// not outlive its iteration, though io.ReadFull lets the compiler think
// it is kept.
func (f *feed) Start() {
	go func() {
		for {
			hdr := make([]byte, 4) // want `make\(\[\]byte, 4\) escapes to heap because io\.ReadFull passes it to an interface method \(io\.Reader\.Read\) the compiler cannot see through; hoist the allocation out of the loop and reuse it, since it does not outlive an iteration`
			if _, err := io.ReadFull(f.r, hdr); err != nil {
				return
			}
			f.out <- hdr[0]
		}
	}()
}

// ns namespaces a key.
func ns(prefix, key string) string { return prefix + key }

// Cache serves hits before it needs the namespaced keys.
type Cache interface {
	Get(key string) ([]byte, bool)
	Reserve(key string, keys []string) bool
}

// Cached makes the namespaced keys before the cache-hit return that does
// not need them (go-redis's processCached, before cscMissKeys).
func Cached(c Cache, prefix, key string, keys []string) []byte {
	nsKeys := make([]string, len(keys)) // want `make\(\[\]string, len\(keys\)\) escapes to heap because .*; nsKeys is not used until after the statement at line \d+, which may return: make nsKeys and fill it after it, which saves the allocation whenever the code returns there; no automatic fix: moving statements is left to the author`
	for i, k := range keys {
		nsKeys[i] = ns(prefix, k)
	}
	if data, ok := c.Get(ns(prefix, key)); ok {
		return data
	}
	c.Reserve(key, nsKeys)
	return nil
}

// Logged's fill calls a function with effects: it cannot move.
func Logged(c Cache, keys []string) []byte {
	nsKeys := make([]string, len(keys)) // inherent: not reported by default
	for i, k := range keys {
		nsKeys[i] = strings.ToUpper(k)
	}
	if data, ok := c.Get("k"); ok {
		return data
	}
	c.Reserve("k", nsKeys)
	return nil
}

// Opts is what ParseOpts fills in.
type Opts struct{ addr string }

// ParseOpts returns early only on an error: moving the allocation would
// save it only there.
func ParseOpts(path string) (*Opts, error) {
	o := &Opts{} // inherent: not reported by default
	if path == "" {
		return nil, errors.New("empty path")
	}
	o.addr = path
	return o, nil
}

// Batches hands on each batch and starts the next one empty: a batch, not
// a stack, so no depth to start it with.
func Batches(n int, propose func([]int)) {
	var batch []int
	for i := range n {
		batch = append(batch, i) // inherent: not reported by default
		if len(batch) > 100 {
			propose(batch)
			batch = batch[:0]
		}
	}
	propose(batch)
}

// NewIndex makes the map of the Index it has just made: there is no old
// map to reuse.
func NewIndex(words []string) *Index {
	x := &Index{}
	x.seen = make(map[string]bool)
	for _, w := range words {
		x.seen[w] = true
	}
	return x
}

// NewZipf refuses bad arguments with a nil: a failure path, no reason to
// move the allocation (math/rand's NewZipf).
func NewZipf(s float64) *Opts {
	z := new(Opts) // inherent: not reported by default
	if s <= 1 {
		return nil
	}
	z.addr = "zipf"
	return z
}

// copyBytes returns a copy of src (nats-server's copyBytes).
func copyBytes(src []byte) []byte {
	if len(src) == 0 {
		return nil
	}
	dst := make([]byte, len(src))
	copy(dst, src)
	return dst
}

// stored is a message as a store keeps it: one buffer, and the header
// and body as slices of it.
type stored struct{ buf, hdr, msg []byte }

// Store keeps messages by sequence.
type Store struct {
	msgs map[uint64]*stored
	last []byte
}

// headerLen measures a header, reading it only.
func headerLen(hdr []byte) int {
	n := 0
	for _, c := range hdr {
		if c != '\r' {
			n++
		}
	}
	return n
}

// note keeps the start of a header.
func (s *Store) note(hdr []byte) { s.last = hdr[:1] }

// noteHeader keeps the header it is given.
var noteHeader []byte

// remember keeps hdr: the compiler says so.
//
//go:noinline
func remember(hdr []byte) {
	if len(hdr) > 2 {
		noteHeader = hdr
	}
}

// Raw copies the header, then copies it again into the message's own
// buffer (nats-server's storeRawMsg): the first copy is not needed.
func (s *Store) Raw(seq uint64, hdr, msg []byte) {
	if len(hdr) > 0 {
		hdr = copyBytes(hdr) // want `calling copyBytes allocates \(inlined\): make\(\[\]byte, len\(src\)\) escapes to heap because it is passed to remember, which lets it escape; hdr is copied again into sm\.buf at line \d+ and the function only reads it: drop this copy and give remember, which the compiler says may keep or return it, the bytes of the second copy, which saves an allocation and a copy per call; no automatic fix: dropping a copy is left to the author`
	}
	sm := &stored{buf: make([]byte, 0, len(hdr)+len(msg))}
	sm.buf = append(sm.buf, hdr...)
	sm.buf = append(sm.buf, msg...)
	sm.hdr = sm.buf[:len(hdr)]
	sm.msg = sm.buf[len(hdr):]
	s.msgs[seq] = sm
	if headerLen(hdr) > 2 {
		remember(hdr)
	}
}

// RawMarked writes into its copy before the second one: that needs the
// first copy, or it would write into the caller's bytes.
func (s *Store) RawMarked(seq uint64, hdr []byte) {
	hdr = copyBytes(hdr) // inherent: not reported by default
	hdr[0] = '!'
	sm := &stored{buf: append([]byte(nil), hdr...)}
	s.msgs[seq] = sm
	remember(hdr)
}

// RawKept gives its copy to a function that keeps it before the second
// copy is made: there is no second copy to give it instead.
func (s *Store) RawKept(seq uint64, hdr []byte) {
	hdr = copyBytes(hdr) // inherent: not reported by default
	remember(hdr)
	sm := &stored{buf: append([]byte(nil), hdr...)}
	s.msgs[seq] = sm
}

// RawCloned copies the header with bytes.Clone, then again into the
// message's buffer.
func (s *Store) RawCloned(seq uint64, hdr []byte) {
	hdr = bytes.Clone(hdr) // want `calling bytes.Clone allocates \(inlined\): .*; hdr is copied again into sm\.buf at line \d+ and the function only reads it: drop this copy and give remember, which the compiler says may keep or return it, the bytes of the second copy`
	sm := &stored{buf: make([]byte, 0, len(hdr))}
	sm.buf = append(sm.buf, hdr...)
	sm.hdr = sm.buf
	s.msgs[seq] = sm
	remember(hdr)
}
