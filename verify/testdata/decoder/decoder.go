// Package decoder reads records, each an 8-byte little-endian length
// followed by that many bytes. It is a fixture of -verify: smallalloc's
// fix of Next (an array field of the Decoder for its header buffer)
// saves one allocation per record, and makes the Decoder that main makes
// once escape to the heap.
package decoder

import (
	"encoding/binary"
	"errors"
	"io"
)

// A Decoder reads records from r.
type Decoder struct {
	r io.Reader
	n int // records read
}

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: r}
}

// Next reads the next record into dst and returns it; io.EOF at the end.
func (d *Decoder) Next(dst []byte) ([]byte, error) {
	hdr := make([]byte, 8)
	if _, err := io.ReadFull(d.r, hdr); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(hdr)
	if n > 1<<20 {
		return nil, errors.New("decoder: record too long")
	}
	dst = append(dst[:0], make([]byte, n)...)
	if _, err := io.ReadFull(d.r, dst); err != nil {
		return nil, err
	}
	d.n++
	return dst, nil
}

// Records returns how many records d has read.
func (d *Decoder) Records() int { return d.n }
