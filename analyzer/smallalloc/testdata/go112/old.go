// Package old is a module whose go.mod says go 1.12: the clear builtin
// (go1.21) does not exist for it, so the fixes zero a buffer with the loop
// the compiler turns into the same call (for elements without a zero
// constant there is no fix, and the message says why).
package old

import "io"

// Xor reads with Read, which may fill the buffer partly: reuse zeroes it.
func Xor(r io.Reader, n int) byte {
	var x byte
	for i := 0; i < n; i++ {
		b := make([]byte, 4) // want `declare b once before the loop and call for i := range b \{ b\[i\] = 0 \} in each iteration to keep make's zeroing`
		r.Read(b)
		x ^= b[0] ^ b[3]
	}
	return x
}

// Lines writes each line with a CRLF: the appended buffer is resliced.
func Lines(w io.Writer, lines []string) {
	for _, l := range lines {
		line := make([]byte, 0, 32) // want `declare line once before the loop and reset it with line = line\[:0\] in each iteration, which saves 1 allocation per iteration`
		line = append(line, l...)
		line = append(line, '\r', '\n')
		w.Write(line)
	}
}

// Parser reads headers.
type Parser struct {
	src io.Reader
}

// Parse reads a header into a buffer that becomes a field, zeroed by the loop.
func (p *Parser) Parse() (byte, error) {
	buf := make([]byte, 4) // want `add a field parseBuf \[4\]byte to Parser and use p\.parseBuf\[:\], then for i := range buf \{ buf\[i\] = 0 \} to keep make's zeroing`
	_, err := p.src.Read(buf)
	return buf[0], err
}

// All parses n headers.
func All(p *Parser, n int) int {
	total := 0
	for i := 0; i < n; i++ {
		b, _ := p.Parse()
		total += int(b)
	}
	return total
}
