// Package c holds the []byte(s) conversion cases of smallalloc.
package c

import (
	"bufio"
	"bytes"
	"io"
)

// Encoder writes records.
type Encoder struct {
	w   *bufio.Writer
	sw  stringWriter
	buf bytes.Buffer
	iw  io.Writer
}

type stringWriter interface {
	io.Writer
	io.StringWriter
}

// Encode writes its fields per record.
func (e *Encoder) Encode(name string) error {
	if _, err := e.w.Write([]byte(name)); err != nil { // want `\[\]byte\(name\) escapes to the heap \(passed to Write, which the compiler cannot see into\); call e.w.WriteString\(name\) instead, which writes the string without copying it and saves 1 allocation per call \[per-item: method Encode runs per item\]`
		return err
	}
	e.sw.Write([]byte(name + "\n")) // want `call e.sw.WriteString\(name \+ "\\n"\) instead`
	// bytes.Buffer.Write does not keep p: no escape.
	e.buf.Write([]byte(name))
	// io.Writer has no WriteString.
	e.iw.Write([]byte(name))
	// A fix here would leave gofmt comments to realign: message only.
	e.w.Write([]byte(name)) // want `call e.w.WriteString\(name\) instead.*; no automatic fix: gofmt would have to realign the trailing comments of the lines around it \[`
	e.w.WriteByte('\n')     // end of record
	return nil
}

// Flush is exported: nothing says how often it runs, and the change is
// worth making wherever it runs.
func (e *Encoder) Flush(s string) {
	e.w.Write([]byte(s)) // want `call e.w.WriteString\(s\) instead.*\[unknown: exported: how often its callers run it is not known\]`
}
