// Package resetkept has values made anew, on every call, where the last
// one was kept, of types whose Reset method takes what their constructor
// takes.
package resetkept

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"strings"
)

// Decoder reads through an interface field (msgpack's shape): the buffered
// reader is made in a local variable and stored in the field.
type Decoder struct {
	r io.Reader
	s io.ByteScanner
}

// ResetReader is called each time a pooled decoder is reused.
func (d *Decoder) ResetReader(r io.Reader) {
	if br, ok := r.(*bufio.Reader); ok {
		d.r, d.s = br, br
		return
	}
	br := bufio.NewReader(r) // want `new\(bufio.Reader\) .*keep the \*bufio.Reader in d and call its Reset\(r\)` `make\(\[\]byte.*keep the \*bufio.Reader in d`
	d.r = br
	d.s = br
}

// source holds its reader in a field of the reader's own type, and a
// parameter (not the receiver) owns it.
type source struct{ src *bytes.Reader }

func load(s *source, b []byte) int {
	s.src = bytes.NewReader(b) // want `keep the \*bytes.Reader in s and call its Reset\(b\)`
	return s.src.Len()
}

// conn is one of many connections a loop re-arms: the constructor takes a
// size that Reset does not, fixed when the writer was made.
type conn struct {
	c net.Conn
	w *bufio.Writer
}

func rearm(conns []*conn) {
	for _, c := range conns {
		c.w = bufio.NewWriterSize(c.c, 4096) // want `&bufio.Writer.*keep the \*bufio.Writer in c and call its Reset\(c.c\)` `make\(\[\]byte.*keep the \*bufio.Writer in c`
	}
}

// query is a package-level value reused per request.
var query struct{ in *strings.Reader }

func parse(s string) {
	query.in = strings.NewReader(s) // want `keep the \*strings.Reader in query and call its Reset\(s\)`
	_, _ = query.in.ReadByte()
}

// NewDecoder makes the first reader of a decoder it allocates itself:
// there is no earlier one to reset.
func NewDecoder(r io.Reader) *Decoder {
	d := &Decoder{}
	br := bufio.NewReader(r)
	d.r, d.s = br, br
	return d
}

// fresh returns the reader: each caller gets its own.
func fresh(b []byte) *bytes.Reader {
	return bytes.NewReader(b)
}

// parser already keeps its reader and resets it (prometheus' TextParser):
// the branch that makes one runs when there is none.
type parser struct{ buf *bufio.Reader }

func (p *parser) reset(in io.Reader) {
	if p.buf == nil {
		p.buf = bufio.NewReader(in)
	} else {
		p.buf.Reset(in)
	}
}

func (p *parser) resetElse(in io.Reader) {
	if p.buf != nil {
		p.buf.Reset(in)
	} else {
		p.buf = bufio.NewReader(in)
	}
}

// Cmd stands for a value another package's function makes.
type Cmd struct{ Stdin io.Reader }

func command() *Cmd { return new(Cmd) }

// run stores the reader in a value it got from a call, fresh each time.
func run(src string) *Cmd {
	cmd := command()
	cmd.Stdin = strings.NewReader(src)
	return cmd
}

// File reads its footer once, from its constructor: the method runs once
// per value, and finds no earlier reader to reset.
type File struct{ footer *bytes.Reader }

func Open(b []byte) *File {
	f := &File{}
	f.readFooter(b)
	return f
}

func (f *File) readFooter(b []byte) {
	f.footer = bytes.NewReader(b)
}
