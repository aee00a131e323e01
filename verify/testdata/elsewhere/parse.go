// Package fx is a fixture of check -verify: smallalloc's fix of Parse
// (a field for its buffer) saves BenchmarkAll's allocations, but makes
// Parse leak its receiver, so that Header, in package use, allocates its
// Parser on the heap.
package fx

import "io"

// Parser reads headers from Src.
type Parser struct {
	Src io.Reader
}

// Parse reads a header.
func (p *Parser) Parse() (byte, error) {
	buf := make([]byte, 4)
	_, err := p.Src.Read(buf)
	return buf[0], err
}

// All parses n headers.
func All(p *Parser, n int) int {
	total := 0
	for range n {
		b, _ := p.Parse()
		total += int(b)
	}
	return total
}
