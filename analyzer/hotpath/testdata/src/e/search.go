package e

import (
	"errors"
	"fmt"
	"log"
)

// A varintDecoder records the first error it meets.
type varintDecoder struct {
	buf []byte
	err error
}

func (d *varintDecoder) setError(err error) { d.err = err }

// varint returns from its loop when it finds the last byte; what follows
// the loop runs only when the input ends first: an error path.
func (d *varintDecoder) varint() int64 {
	x, s := uint64(0), uint(0)
	for _, b := range d.buf {
		if b&0x80 == 0 {
			return int64(x | uint64(b)<<s)
		}
		x |= uint64(b&0x7f) << s
		s += 7
	}
	mark() // want `cold: on an error path`
	d.setError(fmt.Errorf("cannot decode varint from %d bytes", len(d.buf)))
	return 0
}

// index searches with a counter and gives up with a panic.
func index(names []string, name string) int {
	for i := 0; i < len(names); i++ {
		if names[i] == name {
			return i
		}
	}
	mark() // want `cold: on an error path`
	panic("no " + name)
}

// findInt is a function literal that searches, then logs a problem.
var findInt = func(xs []int, x int) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	logWarnf("%d not found %v", x, mark()) // want `cold: on an error path`
	return -1
}

// a link closes once: its early return is not a search.
type link struct {
	closed bool
	err    error
}

// close's work follows a guard, not a loop: it is not an error path.
func (c *link) close() {
	if c.closed {
		return
	}
	mark() // want `unknown: .*`
	c.closed, c.err = true, errors.New("closed")
}

// sum's loop may leave, but what follows handles no error.
func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		if x < 0 {
			return -1
		}
		t += x
	}
	mark() // want `unknown: .*`
	return t
}

// extLen dispatches on a length; what follows the switch runs only when
// no case matched: an error path.
func extLen(d *varintDecoder, n int) (int, error) {
	switch n {
	case 1:
		return int(d.buf[0]), nil
	case 2, 4:
		if len(d.buf) < n {
			return 0, errors.New("short")
		}
		return int(d.buf[1]), nil
	}
	err := fmt.Errorf("unsupported length %d %v", n, mark()) // want `cold: on an error path`
	return 0, err
}

// kindName's type switch returns from each case; the rest panics.
func kindName(v any) string {
	switch v.(type) {
	case int:
		return "int"
	case string:
		return "string"
	}
	mark() // want `cold: on an error path`
	panic(fmt.Sprintf("unexpected %T", v))
}

// code's cases return or end the program; the rest records an error.
func (d *varintDecoder) code(c byte) byte {
	switch {
	case c < 0x80:
		return c
	case c == 0xff:
		log.Fatalf("reserved %d", c)
	}
	mark() // want `cold: on an error path`
	d.setError(fmt.Errorf("unknown code %d", c))
	return 0
}

// width's first case falls out of the switch: what follows also runs
// for it, not only when nothing matched.
func width(d *varintDecoder, n int) (int, error) {
	switch n {
	case 1:
		return 1, nil
	case 2:
		n *= 2
	}
	mark() // want `unknown: .*`
	return n, fmt.Errorf("width %d", n)
}

// short's case breaks out of its switch.
func short(d *varintDecoder, n int) (int, error) {
	switch n {
	case 1:
		if len(d.buf) == 0 {
			break
		}
		return 1, nil
	}
	mark() // want `unknown: .*`
	return 0, fmt.Errorf("short %d", n)
}

var _, _, _, _ = (*varintDecoder).varint, index, (*link).close, sum
var _, _, _, _, _ = extLen, kindName, (*varintDecoder).code, width, short
