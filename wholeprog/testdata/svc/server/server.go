// Package server is the hot loop of the service.
package server

import (
	"errors"
	"io"

	"example.com/svc/bin"
	"example.com/svc/codec"
	"example.com/svc/memsink"
	_ "example.com/svc/plugin"
	"example.com/svc/sink"
	"example.com/svc/text"
)

type Server struct {
	dec  codec.Decoder
	hash codec.Hasher
	out  codec.Sink
	r    io.Reader
}

func New(fast bool) *Server {
	s := &Server{dec: bin.New(), hash: bin.FNV{}, out: &sink.File{}}
	if fast {
		s.hash = text.Sum{}
	}
	if !fast {
		s.out = memsink.Make()
	}
	return s
}

// Serve decodes messages in a loop.
func (s *Server) Serve(msgs [][]byte) (int, error) {
	total := 0
	for _, m := range msgs {
		buf := make([]byte, 16)
		copy(buf, m)
		n, err := s.dec.Decode(buf)
		if err != nil {
			return total, err
		}
		total += n
		total += int(s.hash.Hash(m))
		s.out.Put(m)
		total += codec.Lookup("upper").Encode(m)
		h, err := s.decode()
		if err != nil {
			return total, err
		}
		total += len(h)
	}
	return total, nil
}

// decode reads a header; it is called from the loop in Serve.
func (s *Server) decode() ([]byte, error) {
	h, err := readHeader(s.r)
	if err != nil {
		return nil, err
	}
	if len(h) > 4 {
		s.note()
	}
	return h, nil
}

var errShort = errors.New("short header")

// readHeader allocates its header on every call, and returns it: each
// call needs a new one, so it is not reported.
//
//go:noinline
func readHeader(r io.Reader) ([]byte, error) {
	h := make([]byte, 8)
	if _, err := io.ReadFull(r, h); err != nil {
		return nil, err
	}
	if h[0] == 0 {
		return nil, errShort
	}
	return h, nil
}

var notes []*int

// note allocates only on a branch, not on every call.
//
//go:noinline
func (s *Server) note() {
	if len(notes) < 10 {
		x := new(int)
		notes = append(notes, x)
	}
}

// small is inlinable: its allocation is judged at the call site.
func small() *int { return new(int) }

var sinkPtr *int

// Fill calls an inlinable allocator in a loop.
func Fill(n int) {
	for range n {
		sinkPtr = small()
	}
}

// Once calls Decode outside any loop and outside per-item code.
func (s *Server) once() {
	s.dec.Decode(nil)
}

// grow allocates a large scratch array on every call.
//
//go:noinline
func grow(i int) byte { return new([1 << 17]byte)[i&7] }

// Drain calls grow only on some iterations: not reported.
func (s *Server) Drain(msgs [][]byte) int {
	n := 0
	for _, m := range msgs {
		if len(m) > 3 {
			n += int(grow(len(m)))
		}
	}
	return n
}

// Pump calls grow on every iteration.
func Pump(k int) int {
	n := 0
	for i := 0; i < k; i++ {
		n += int(grow(i))
	}
	return n
}
