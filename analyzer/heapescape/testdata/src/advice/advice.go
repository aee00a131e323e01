// Package advice checks that heapescape's advice fits the type, the
// callee and the path of each allocation.
package advice

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net/textproto"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
)

var sink any

// Store holds a lock: it must not be copied.
type Store struct {
	mu sync.RWMutex
	m  map[string]int
}

// NewStore is a constructor: the allocation is its purpose, and it runs
// rarely, so neither the Store nor its map is reported.
func NewStore() *Store {
	return &Store{m: make(map[string]int)}
}

// counter is small but holds an atomic value.
type counter struct{ n atomic.Int64 }

// big is larger than 64 bytes.
type big struct{ a [9]int64 }

// pair is small and may be copied.
type pair struct{ a, b int }

// noCopy is go vet's marker for values that must not be copied.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// guarded is small but holds a noCopy marker.
type guarded struct {
	_ noCopy
	n int
}

var (
	oneCounter *counter
	oneBig     *big
	onePair    *pair
	oneStore   *Store
	oneGuarded *guarded
)

// Keep stores pointers. The stored value is what the code keeps, and
// storing even the small pair by value would change the variable's type
// and every use of it: nothing to report.
func Keep() {
	oneStore = &Store{}
	oneGuarded = &guarded{}
	oneCounter = &counter{}
	oneBig = &big{}
	onePair = &pair{1, 2} // inherent: not reported by default
}

// A Message is decoded per item.
type Message struct{ Kind byte }

// Decoder decodes messages.
type Decoder struct {
	r io.Reader
}

// NewDecoder is a cold constructor: not reported.
func NewDecoder(r io.Reader) *Decoder {
	d := &Decoder{r: r}
	return d
}

// Next reads one message: its buffer escapes through io.ReadFull, which
// passes it to the io.Reader's Read method.
func (d *Decoder) Next() (*Message, error) {
	hdr := make([]byte, 4) // want `make\(\[\]byte, 4\) escapes to heap because io.ReadFull passes it to an interface method \(io.Reader.Read\) the compiler cannot see through; keep a \[4\]byte array field in Decoder and pass d.buf\[:\] \(a name of your choice\), which saves one allocation per call; no automatic fix: a field shared by calls would make the method unsafe for concurrent calls on one receiver \[per-item: method Next runs per item\]`
	if _, err := io.ReadFull(d.r, hdr); err != nil {
		return nil, err
	}
	if hdr[0] == 0 {
		return nil, fmt.Errorf("bad header %d", hdr[1]) // inherent: not reported by default
	}
	if hdr[1] == 0 {
		return nil, &FormatError{Offset: int(hdr[2])} // inherent: not reported by default
	}
	if hdr[2] == 0 {
		return nil, errors.New("zero") // inherent: not reported by default
	}
	if hdr[3] == 0 {
		panic(fmt.Sprint("bad ", hdr[3])) // inherent: not reported by default
	}
	return decode(hdr) // inherent: not reported by default
}

// FormatError is a concrete error type.
type FormatError struct{ Offset int }

func (e *FormatError) Error() string { return "bad format" }

// decode is a constructor called per item: reported, without by-value
// advice (its result type is *Message).
func decode(p []byte) (*Message, error) {
	m := &Message{Kind: p[0]} // inherent: not reported by default
	return m, nil
}

// Writers creates buffered writers, the function's product.
func Writers(ws []io.Writer) []*bufio.Writer {
	out := make([]*bufio.Writer, 0, len(ws)) // inherent: not reported by default
	for _, w := range ws {
		// out is presized and keeps each writer: neither the append
		// nor the writer can be avoided, nothing is reported.
		out = append(out, bufio.NewWriter(w))
	}
	return out
}

// Once creates one buffered writer: a cold constructor of another package,
// not reported.
func Once(w io.Writer) *bufio.Writer {
	return bufio.NewWriter(w)
}

// Same compares with reflect.DeepEqual: the deepequal analyzer reports the
// call and its fix, and the boxing of its arguments with it, so heapescape
// does not.
func Same(a, b []byte) bool {
	return reflect.DeepEqual(a, b)
}

// A node holds a pointer: no direct comparison means what DeepEqual means.
type node struct {
	next *node
	n    int
}

// SameNode compares nodes deeply: deepequal has no replacement, and the
// boxing is heapescape's to report.
func SameNode(a, b node) bool {
	return reflect.DeepEqual(a, b) // want `a escapes to heap because it is converted to an interface to be passed to reflect\.DeepEqual; compare with a function written for the type instead, which boxes nothing \(no direct comparison means the same as DeepEqual here, so the deepequal analyzer proposes none\); no automatic fix: what equality means for the type is for its author to decide \[unknown: exported: how often its callers run it is not known\]` `b escapes to heap because .*compare with a function written for the type`
}

// Checked returns a non-nil error only in the if block; the allocation
// before it is not on an error path.
func Checked(n int) error {
	sink = &pair{n, n} // kept in an interface: by value it would be boxed all the same; not reported
	if n < 0 {
		return &FormatError{Offset: n} // inherent: not reported by default
	}
	return nil
}

// Local returns an error built into a local variable first: still an
// error path.
func Local(n int) (int, error) {
	if n < 0 {
		err := &FormatError{Offset: n} // inherent: not reported by default
		return 0, err
	}
	return n, nil
}

// Result returns a possibly nil error at the end: not an error path, so
// the allocation keeps its tier.
func Result(r io.Reader) ([]byte, error) {
	buf := make([]byte, 8) // inherent: not reported by default
	_, err := r.Read(buf)
	return buf, err
}

// Branch returns from an if block without an error: not an error path.
func Branch(n int) (*pair, error) {
	if n > 0 {
		p := &pair{n, n} // inherent: not reported by default
		return p, nil
	}
	return nil, nil
}

// Loop makes Branch per-item.
func Loop() {
	for i := 0; i < 3; i++ {
		Branch(i)
	}
}

// Wrapped returns an error from a call that may return nil: not known to
// be an error path.
func Wrapped(w *bufio.Writer) (*pair, error) {
	return &pair{}, w.Flush() // inherent: not reported by default
}

// Loop2 makes Wrapped per-item.
func Loop2(w *bufio.Writer) {
	for i := 0; i < 3; i++ {
		Wrapped(w)
	}
}

// apply passes p to a function value.
//
//go:noinline
func apply(p []byte, f func([]byte)) { f(p) }

// UseApply's buffer escapes because apply passes it to a function value.
func UseApply(f func([]byte)) {
	buf := make([]byte, 16) // inherent: not reported by default
	apply(buf, f)
}

// Header is written through a bufio.Writer, whose Write passes the slice
// on to its io.Writer.
func Header(w *bufio.Writer, n byte) {
	var hdr [2]byte // want `variable hdr is moved to heap because \(\*bufio.Writer\).Write passes its address to an interface method \(io.Writer.Write\) the compiler cannot see through; the method's contract says it must not keep the buffer, but the compiler cannot see that: take the \[2\]byte buffer from a caller that reuses it, which saves one allocation per call; no automatic fix: where the buffer lives is a choice of the callers \[unknown: exported: how often its callers run it is not known\]`
	hdr[0] = n
	w.Write(hdr[:])
}

// limited is read through io.ReadAll, which calls its Read method through
// the io.Reader interface.
type limited struct{ n int }

func (l *limited) Read(p []byte) (int, error) { return 0, io.EOF }

// ReadLimited passes a pointer as an io.Reader.
func ReadLimited() []byte {
	b, _ := io.ReadAll(&limited{}) // inherent: not reported by default
	return b
}

// HandleHeader sets a header per item: the []string allocated inside
// textproto.MIMEHeader.Set, inlined here, is what Set stores: nothing to
// report.
func HandleHeader(h textproto.MIMEHeader, v string) {
	h.Set("X-Key", v)
}

// MustPositive exits on a bad value: the block ending in log.Fatalf is an
// error path.
func MustPositive(n int) {
	if n < 0 {
		msg := fmt.Sprintf("negative: %d", n) // idiom/sprintf-strconv's
		log.Fatalf("%s", msg)                 // inherent: not reported by default
	}
}

type empty struct{}

func (empty) Read(p []byte) (int, error) { return 0, io.EOF }

// Empty boxes and allocates zero-size values: the runtime does not
// allocate them, so nothing is reported.
func Empty() {
	sink = empty{}
	sink = &empty{}
	sink = new(struct{})
}

// maskRand is an io.Reader the compiler cannot see through.
var maskRand io.Reader

// newMaskKey has no receiver to hold the buffer: the caller can lend it,
// or a concrete reader can replace the interface (gorilla/websocket did
// the latter).
func newMaskKey() [4]byte {
	var k [4]byte // want `variable k is moved to heap because io.ReadFull passes its address to an interface method \(io.Reader.Read\) the compiler cannot see through; the method's contract says it must not keep the buffer, but the compiler cannot see that: take the \[4\]byte buffer from a caller that reuses it, which saves one allocation per call; no automatic fix: where the buffer lives is a choice of the callers \[unknown: .*\]`
	_, _ = io.ReadFull(maskRand, k[:])
	return k
}

// MaskKey is the package's API that makes mask keys.
func MaskKey() [4]byte { return newMaskKey() }

// decodeHeaders reads lines of data it has in memory through bufio and
// textproto, which copy them into buffers of their own (nats.go's
// DecodeHeadersMsg, before it sliced the data itself).
func decodeHeaders(data []byte) (string, error) {
	br := bufio.NewReaderSize(bytes.NewReader(data), 128) // want `calling bufio.NewReaderSize allocates \(inlined\): .*; the data is already in memory: bufio copies data into a buffer of its own only to hand it back; split data itself \(bytes.IndexByte, bytes.Cut, strings.Cut\), which saves the reader and its buffer per call; no automatic fix: the rewrite replaces the code that reads through the reader \[per-item: called in a loop in DecodeAll\]` `calling bytes.NewReader allocates \(inlined\): .*; the data is already in memory: bufio copies data`
	tp := textproto.NewReader(br)
	if _, err := tp.ReadLine(); err != nil {
		return "", err
	}
	return readHeader(tp)
}

// readHeader reads the header lines through the reader decodeHeaders
// builds over data in memory (nats.go's readMIMEHeader).
func readHeader(tp *textproto.Reader) (string, error) {
	var all string
	for {
		l, err := tp.ReadLine() // want `calling \(\*textproto.Reader\).ReadLine allocates \(inlined\): .*; every call of this function passes tp over bytes.NewReader\(data\), data already in memory, which the readers copy into buffers of their own only to hand it back: pass the data and split it itself \(bytes.IndexByte, bytes.Cut, strings.Cut\), which saves the copies per line; no automatic fix: the rewrite replaces the code that reads through the reader`
		if l == "" || err != nil {
			return all, err
		}
		all = l
	}
}

// DecodeAll decodes each message's headers.
func DecodeAll(msgs [][]byte) int {
	n := 0
	for _, m := range msgs {
		if l, err := decodeHeaders(m); err == nil {
			n += len(l)
		}
	}
	return n
}

type publisher struct {
	errs    int
	onError func(error)
}

// handleReply's doErr is captured by the retry closure, which outlives the
// call: doErr is allocated per reply (nats.go's handleAsyncReply, before
// it became a method).
func (p *publisher) handleReply(retry bool, id int) {
	doErr := func(err error) { // want `func literal escapes to heap because it is captured by a closure that outlives the call; doErr is allocated on every call only because a closure that outlives the call captures it, and what it captures \(p, id\) is never reassigned: declare it as a function or method taking p, id as parameters, which is not allocated; no automatic fix: the rewrite changes every call of doErr \[per-item: called in a loop in Replies\]`
		p.errs += id
		if p.onError != nil {
			p.onError(err)
		}
	}
	if retry {
		time.AfterFunc(time.Second, func() { doErr(nil) })
		return
	}
	doErr(errors.New("no responders"))
}

// serve makes its closure once, then runs its event loop until the
// session ends (badger's doWrites): one allocation per session.
func (p *publisher) serve(reqs chan int, done chan struct{}) {
	record := func(id int) { // inherent: not reported by default
		p.errs += id
	}
	for {
		select {
		case id := <-reqs:
			go record(id)
		case <-done:
			return
		}
	}
}

// Serve serves sessions, one after another.
func Serve(p *publisher, sessions []chan int, done chan struct{}) {
	for _, s := range sessions {
		p.serve(s, done)
	}
}

// Replies handles each reply.
func Replies(p *publisher, ids []int) {
	for _, id := range ids {
		p.handleReply(id > 0, id)
	}
}

// quote builds a string that its only caller adds to a longer one: it can
// write into the caller's buffer (lib/pq's hQuote, before it took a
// *bytes.Buffer).
func quote(s string) string {
	return `"` + s + `"` // want `.* \+ s \+ .* escapes to heap because it is returned; every call of quote appends the string it returns to something longer \(advice.go:\d+:\d+\): have it append to the caller's buffer instead \(a \[\]byte it appends to and returns, as strconv.AppendInt does, or a \*bytes.Buffer or \*strings.Builder parameter\), which saves building this string per call; no automatic fix: the change touches the function's signature and its callers \[per-item: called in a loop in Pairs\]`
}

// Pairs joins quoted keys and values.
func Pairs(kv map[string]string) []string {
	out := make([]string, 0, len(kv))
	for k, v := range kv {
		out = append(out, quote(k)+"=>"+quote(v))
	}
	return out
}

// bare's result is also returned as it is: its callers need the string.
func bare(s string) string {
	return "<" + s + ">" // inherent: not reported by default
}

// Bares uses bare's string by itself.
func Bares(ss []string) (out []string) {
	for _, s := range ss {
		out = append(out, bare(s)+"!")
		out[0] = bare(s)
	}
	return out
}

// StoreMsg is what a store fills in.
type StoreMsg struct {
	subj string
	seq  uint64
	hdr  []byte
}

// MsgStore is an interface of the package: a method can be added to it.
type MsgStore interface {
	LoadLast(subj string, sm *StoreMsg) (*StoreMsg, error)
}

// lastSeq reads only the sequence of what LoadLast fills in: the scratch
// StoreMsg moves to the heap through the interface call (nats-server's
// LoadLastMsg, before it had LoadLastSeq).
func lastSeq(st MsgStore, subj string) uint64 {
	var smv StoreMsg // want `variable smv is moved to heap because .*; only seq of the StoreMsg that MsgStore.LoadLast fills in is read: a method that returns it alone would take no pointer, and through an interface every pointer argument escapes, which saves moving smv to the heap per call \(API change: MsgStore is exported, and its implementations in other modules lack the method\); no automatic fix: the change adds a method to the interface and to its implementations \[per-item: called in a loop in LastSeqs\]`
	sm, err := st.LoadLast(subj, &smv)
	if err != nil || sm == nil {
		return 0
	}
	return sm.seq
}

// lastHdr reads a slice of it: a narrower method would return as much.
func lastHdr(st MsgStore, subj string) []byte {
	var smv StoreMsg // inherent: not reported by default
	sm, _ := st.LoadLast(subj, &smv)
	return sm.hdr
}

// LastSeqs reads the last sequence of each subject.
func LastSeqs(st MsgStore, subjs []string) (n uint64) {
	for _, s := range subjs {
		n += lastSeq(st, s) + uint64(len(lastHdr(st, s)))
	}
	return n
}

// msgLoader is an interface of the package that other modules cannot
// name: a method added to it changes no API.
type msgLoader interface {
	LoadLast(subj string, sm *StoreMsg) (*StoreMsg, error)
}

// lastLoadedSeq reads only the sequence through the unexported interface.
func lastLoadedSeq(st msgLoader, subj string) uint64 {
	var smv StoreMsg // want `variable smv is moved to heap because .*; only seq of the StoreMsg that msgLoader.LoadLast fills in is read: a method that returns it alone would take no pointer, and through an interface every pointer argument escapes, which saves moving smv to the heap per call; no automatic fix: the change adds a method to the interface and to its implementations \[per-item: called in a loop in LoadedSeqs\]`
	sm, err := st.LoadLast(subj, &smv)
	if err != nil || sm == nil {
		return 0
	}
	return sm.seq
}

// LoadedSeqs reads the last sequence of each subject through a msgLoader.
func LoadedSeqs(st MsgStore, subjs []string) (n uint64) {
	for _, s := range subjs {
		n += lastLoadedSeq(st, s)
	}
	return n
}

// lastVia passes the scratch value to a function value: no method to add.
func lastVia(load func(*StoreMsg) *StoreMsg) uint64 {
	var smv StoreMsg // inherent: not reported by default
	return load(&smv).seq
}

// LastVias calls lastVia in a loop.
func LastVias(load func(*StoreMsg) *StoreMsg, n int) (t uint64) {
	for range n {
		t += lastVia(load)
	}
	return t
}

// session's fail captures a sync.Once whose Do takes its address: passed
// by value, the copy would be what Do changes (go-redis's miss session).
func (p *publisher) session(retry bool) {
	var once sync.Once
	fail := func(err error) { // inherent: not reported by default
		once.Do(func() { p.errs++ })
		_ = err
	}
	if retry {
		time.AfterFunc(time.Second, func() { fail(nil) })
	}
	fail(nil)
}

// Sessions opens sessions in a loop.
func Sessions(p *publisher, n int) {
	for i := range n {
		p.session(i > 0)
	}
}
