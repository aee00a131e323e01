package a

import (
	"errors"
	"fmt"
	"io"
	"log"
)

type Buf struct {
	b []byte
	i int
	w io.Writer
}

// Next is per item (by name) and just over the budget because of the
// formatted panic message.
func (b *Buf) Next() byte { // want `^\(\*Buf\)\.Next costs 93 to inline, 13 over the budget of 80: the panic at line 20 builds its value with fmt\.Sprintf \(not inlinable\); panic at line 20 with a pointer to a struct literal holding b\.i, len\(b\.b\), whose Error method formats the values as the call did: cost 93 -> 33, measured by compiling the change, so that Next can be inlined where it is called, saving a call each time and letting its arguments stay on the caller's stack; no automatic fix: the code moved out needs a name and a comment its maintainer should write \[per-item: method Next runs per item\]$`
	if b.i >= len(b.b) {
		panic(fmt.Sprintf("read past end: %d >= %d", b.i, len(b.b)))
	}
	c := b.b[b.i]
	b.i++
	return c
}

// next is the same function, but cold: nothing calls it in a loop.
func (b *Buf) next() byte {
	if b.i >= len(b.b) {
		panic(fmt.Sprintf("read past end: %d >= %d", b.i, len(b.b)))
	}
	c := b.b[b.i]
	b.i++
	return c
}

// Peek wraps an error with %w: no constant can replace it, and one call
// moved into a helper costs the same.
func (b *Buf) Peek(n int) ([]byte, error) {
	if n > len(b.b)-b.i {
		return nil, fmt.Errorf("peek %d: %w", n, io.ErrUnexpectedEOF)
	}
	return b.b[b.i : b.i+n], nil
}

// Skip logs and builds an error on its error path: two costly calls.
func (b *Buf) Skip(n int) error {
	if n > len(b.b)-b.i {
		log.Printf("skip %d past end", n)
		return fmt.Errorf("skip %d: short buffer", n)
	}
	b.i += n
	return nil
}

// Sum is called in a loop; it is over the budget only by its closure.
func Sum(xs []int, k int) int { // want `^Sum costs 82 to inline, 2 over the budget of 80: it has a function literal at line 58; make the function literal at line 58, which uses no local variables, a named function: cost 82 -> 67, measured by compiling the change, .* \[per-item: called in a loop in Loop\]$`
	f := func(x, k int) int { return x*k + 1 }
	s := 0
	for _, x := range xs {
		s += f(x, k) + x*k
	}
	if s > 1000 {
		s = s/2 + k
	}
	if s < -1000 {
		s = s/3 - k
	}
	if s == 7 {
		s = k*k - s
	}
	return s
}

// Close cannot be inlined because of the defer, whatever its cost.
func (b *Buf) Close() error {
	defer b.reset()
	return nil
}

func (b *Buf) reset() { b.i = 0 }

var errShort = errors.New("short")

// Write is far over the budget: not "a little over".
func (b *Buf) Write(p []byte) (int, error) {
	for i := range p {
		if p[i] == 0 {
			return i, fmt.Errorf("zero byte at %d", i)
		}
		if p[i] == 1 {
			panic(fmt.Sprint("one at ", i))
		}
		if p[i] == 2 {
			log.Println("two at", i)
		}
	}
	n, err := b.w.Write(p)
	if err != nil {
		return n, fmt.Errorf("write: %w", err)
	}
	if n < len(p) {
		return n, errShort
	}
	return n, nil
}

// Flush makes two interface calls on its error path.
func (b *Buf) Flush() error {
	if b.i > len(b.b) {
		b.w.Write(b.b)
		b.w.Write(b.b[:1])
		return errShort
	}
	b.i = 0
	return nil
}

// Rewind makes two interface calls before it panics; its fast path is tiny.
func (b *Buf) Rewind() { // want `^\(\*Buf\)\.Rewind costs 136 to inline, 56 over the budget of 80: the panic path at line 121 makes 2 costly calls \(b\.w\.Write \(an interface method call\) at line 122, b\.w\.Write \(an interface method call\) at line 123\); move the panic path at line 121 into one //go:noinline function that returns the panic value: cost 136 -> 71, measured by compiling the change, .*\[per-item: called in a loop in Loop\]$`
	if b.i < 0 {
		b.w.Write(nil)
		b.w.Write(nil)
		panic("negative offset")
	}
	b.i = 0
}

func Loop(b *Buf, xs []int) int {
	s := 0
	for range xs {
		s += Sum(xs, 2)
		b.Flush()
		b.Rewind()
	}
	return s
}

// Describe is not inlinable: two formatting calls.
func Describe(p []byte) string {
	return fmt.Sprintf("%d bytes", len(p)) + fmt.Sprint(p)
}

// SumK is over the budget by its closure too, but the closure captures k:
// it cannot simply become a named function.
func SumK(xs []int, k int) int {
	f := func(x int) int { return x*k + 1 }
	s := 0
	for _, x := range xs {
		s += f(x) + x*k
	}
	if s > 1000 {
		s = s/2 + k
	}
	if s < -1000 {
		s = s/3 - k
	}
	if s == 7 {
		s = k*k - s
	}
	return s
}

func LoopK(xs []int) (s int) {
	for range xs {
		s += SumK(xs, 3)
	}
	return s
}

// debugChecks is off: the compiler drops the blocks it guards before it
// costs a function.
const debugChecks = false

// Index is over the budget by its live code alone: its dead debug block
// costs nothing, so removing the calls in it would change nothing.
func (b *Buf) Index(c byte) int {
	if debugChecks {
		log.Printf("index %d", c)
		log.Printf("from %d", b.i)
		log.Printf("of %d", len(b.b))
		panic(fmt.Sprintf("index %d in %d bytes", c, len(b.b)))
	}
	for i := b.i; i < len(b.b); i++ {
		if b.b[i] == c || b.b[i] == c+1 || b.b[i] == c+2 || b.b[i] == c+3 {
			return i - b.i
		}
		if b.b[i] == c+4 || b.b[i] == c+5 || b.b[i] == c+6 || b.b[i] == c+7 {
			return i + b.i
		}
	}
	return -1
}

// Last is the same, with the debug check in the else branch of a condition
// that is always true.
func (b *Buf) Last(c byte) int {
	for i := len(b.b) - 1; i >= b.i; i-- {
		if b.b[i] == c || b.b[i] == c+1 || b.b[i] == c+2 || b.b[i] == c+3 {
			return i - b.i
		}
		if b.b[i] == c+4 || b.b[i] == c+5 || b.b[i] == c+6 || b.b[i] == c+7 {
			return i + b.i
		}
	}
	if !debugChecks {
		return -1
	} else {
		panic(fmt.Sprintf("last %d", c))
	}
}

// Take returns an error built by fmt.Errorf from an int.
func (b *Buf) Take(n int) ([]byte, error) { // want `^\(\*Buf\)\.Take costs 121 to inline, 41 over the budget of 80: the error returned at line 216 is built by fmt\.Errorf \(inlined, cost 79\); return at line 216 a pointer to a struct literal holding n, len\(b\.b\), whose Error method formats the values as the call did: cost 121 -> 40, measured by compiling the change, .*\[per-item: called in a loop in Loop2\]$`
	if n > len(b.b)-b.i {
		return nil, fmt.Errorf("take %d of %d bytes", n, len(b.b))
	}
	p := b.b[b.i : b.i+n]
	b.i += n
	return p, nil
}

func Loop2(b *Buf, xs []int) (s int) {
	for _, x := range xs {
		s += b.Index(byte(x)) + b.Last(byte(x))
		p, _ := b.Take(x)
		s += len(p)
	}
	return s
}

// Need returns an error whose message is constant: it can be built once.
func (b *Buf) Need(n int) ([]byte, error) { // want `^\(\*Buf\)\.Need costs 114 to inline, 34 over the budget of 80: the error returned at line 235 is built by fmt\.Errorf \(inlined, cost 79\); return at line 235 a package-level variable set once by the same call, since its arguments are constants: cost 114 -> 32, measured by compiling the change, .*\[per-item: called in a loop in Loop3\]$`
	if n > len(b.b)-b.i {
		return nil, fmt.Errorf("need: short buffer")
	}
	p := b.b[b.i : b.i+n]
	b.i += n
	return p, nil
}

func Loop3(b *Buf, xs []int) (s int) {
	for _, x := range xs {
		p, _ := b.Need(x)
		s += len(p)
	}
	return s
}

type Mode int

// UnmarshalJSON is called by encoding/json through an interface, where it
// is never inlined: not reported, though the same change would make it
// inlinable.
func (m *Mode) UnmarshalJSON(data []byte) error {
	switch string(data) {
	case `"fast"`:
		*m = 1
	case `"slow"`:
		*m = 2
	default:
		return fmt.Errorf("unknown mode %d", len(data))
	}
	return nil
}

// A Nexter is read through an interface.
type Nexter interface{ Next() byte }

// cursor has Buf's Next, on an unexported type that nothing embeds: its
// method is called only through Nexter, a call the compiler does not
// inline, so fitting the budget would gain nothing: not reported.
type cursor struct {
	b []byte
	i int
}

func (c *cursor) Next() byte {
	if c.i >= len(c.b) {
		panic(fmt.Sprintf("read past end: %d >= %d", c.i, len(c.b)))
	}
	v := c.b[c.i]
	c.i++
	return v
}

// keep is a hook whose parameter, of type *cursor, has no name: a field
// of a parameter list, not an embedded one.
var keep = func(*cursor) {}

// NewCursor returns a cursor over b.
func NewCursor(b []byte) Nexter { return &cursor{b: b} }

// Drain reads n bytes through the interface.
func Drain(r Nexter, n int) (sum int) {
	for range n {
		sum += int(r.Next())
	}
	return sum
}

// ring has Buf's Next on an unexported type that an exported function
// returns: other packages hold a *ring and call Next directly, so it is
// reported.
type ring struct {
	b []byte
	i int
}

// NewRing returns a ring over b.
func NewRing(b []byte) *ring { return &ring{b: b} }

func (r *ring) Next() byte { // want `^\(\*ring\)\.Next costs 93 to inline, 13 over the budget of 80: the panic at line \d+ builds its value with fmt\.Sprintf \(not inlinable\)`
	if r.i >= len(r.b) {
		panic(fmt.Sprintf("read past end: %d >= %d", r.i, len(r.b)))
	}
	v := r.b[r.i]
	r.i++
	return v
}
