// Package old is a module whose go.mod says go 1.12: the clear builtin
// (go1.21) does not exist for it, so a fix that would need it is not
// offered, and the message says why; a fix without it still is.
package old

import "io"

// Xor reads with Read, which may fill the buffer partly: reuse needs clear.
func Xor(r io.Reader, n int) byte {
	var x byte
	for i := 0; i < n; i++ {
		b := make([]byte, 4) // want `declare b once before the loop and call clear\(b\) in each iteration .*; no automatic fix: clear needs go1.21 and this file is go1.12 \[`
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
