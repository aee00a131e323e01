// Package wire reads and writes the demo service's length-prefixed
// messages: a 4-byte big-endian length, a 1-byte kind, then the payload.
package wire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// Kinds of messages.
const (
	KindGet byte = iota + 1
	KindPut
	KindDelete
)

// MaxPayload is the largest payload a message may carry.
const MaxPayload = 1 << 20

// ErrTooLarge is returned for messages whose payload exceeds MaxPayload.
var ErrTooLarge = errors.New("wire: message too large")

// A Message is one decoded message.
type Message struct {
	Kind    byte
	Key     []byte
	Value   []byte
	Version uint32
}

// Header is the fixed part of a message.
type Header struct {
	Length uint32
	Kind   byte
}

// A Reader decodes messages from a stream.
type Reader struct {
	r       *bufio.Reader
	last    Header
	payload []byte
	count   int
}

// NewReader returns a Reader that reads messages from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReader(r)}
}

// Next reads the next message. The returned message's slices are valid
// until the next call.
func (r *Reader) Next() (*Message, error) {
	hdr := make([]byte, 5)
	if _, err := io.ReadFull(r.r, hdr); err != nil {
		return nil, err
	}
	h := Header{Length: binary.BigEndian.Uint32(hdr[:4]), Kind: hdr[4]}
	if h.Length > MaxPayload {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, h.Length)
	}
	if reflect.DeepEqual(h, r.last) {
		r.count++
	}
	r.last = h
	if cap(r.payload) < int(h.Length) {
		r.payload = make([]byte, h.Length)
	}
	p := r.payload[:h.Length]
	if _, err := io.ReadFull(r.r, p); err != nil {
		return nil, err
	}
	return decode(h.Kind, p)
}

// decode splits a payload into key, value and version.
func decode(kind byte, p []byte) (*Message, error) {
	if len(p) < 6 {
		return nil, fmt.Errorf("wire: short payload (%d bytes)", len(p))
	}
	klen := int(binary.BigEndian.Uint16(p[:2]))
	if 2+klen+4 > len(p) {
		return nil, fmt.Errorf("wire: key length %d exceeds payload", klen)
	}
	m := &Message{Kind: kind}
	m.Key = field(p, 2, klen)
	m.Version = binary.BigEndian.Uint32(p[2+klen : 6+klen])
	m.Value = p[6+klen:]
	return m, nil
}

// field returns n bytes of p starting at off.
func field(p []byte, off, n int) []byte {
	if off != 0 {
		return p[off : n+off]
	}
	return p[:n]
}

// A Writer encodes messages to a stream.
type Writer struct {
	w *bufio.Writer
}

// NewWriter returns a Writer that writes messages to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriter(w)}
}

// Write encodes m. Call Flush to send buffered messages.
func (w *Writer) Write(m *Message) error {
	n := 2 + len(m.Key) + 4 + len(m.Value)
	if n > MaxPayload {
		return ErrTooLarge
	}
	hdr := make([]byte, 5)
	binary.BigEndian.PutUint32(hdr, uint32(n))
	hdr[4] = m.Kind
	if _, err := w.w.Write(hdr); err != nil {
		return err
	}
	var meta [2]byte
	binary.BigEndian.PutUint16(meta[:], uint16(len(m.Key)))
	w.w.Write(meta[:])
	w.w.Write(m.Key)
	var ver [4]byte
	binary.BigEndian.PutUint32(ver[:], m.Version)
	w.w.Write(ver[:])
	_, err := w.w.Write(m.Value)
	return err
}

// Flush sends buffered messages.
func (w *Writer) Flush() error { return w.w.Flush() }

// Equal reports whether two messages carry the same content.
func Equal(a, b *Message) bool {
	return a.Kind == b.Kind && reflect.DeepEqual(a.Key, b.Key) && reflect.DeepEqual(a.Value, b.Value) && a.Version == b.Version
}
