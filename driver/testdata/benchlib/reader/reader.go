// Package reader uses package enc; its benchmark measures enc's code.
package reader

import (
	"io"

	"example.com/benchlib/enc"
)

// A Copier writes values.
type Copier struct {
	e enc.Encoder
}

// NewCopier returns a Copier writing to w.
func NewCopier(w io.Writer) *Copier {
	return &Copier{e: enc.Encoder{W: w}}
}

// Copy writes the values.
func (c *Copier) Copy(vs []uint64) {
	for _, v := range vs {
		c.e.Put(v)
	}
}
