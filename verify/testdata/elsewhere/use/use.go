// Package use parses one header with a Parser of its own.
package use

import (
	"io"

	"example.com/fx"
)

// Header parses the header of r.
func Header(r io.Reader) byte {
	p := &fx.Parser{Src: r}
	b, _ := p.Parse()
	return b
}
