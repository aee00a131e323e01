// Package batch decodes many streams, a Decoder each: added to the
// decoder fixture, it makes the fix of Next cost an allocation per stream
// in Count, in a loop that no benchmark runs, and in Lengths, which a
// benchmark of package decoder runs.
package batch

import (
	"bytes"

	"example.com/decoder"
)

// Count returns the number of records in all of streams.
func Count(streams [][]byte) int {
	n := 0
	for _, s := range streams {
		d := decoder.NewDecoder(bytes.NewReader(s))
		for {
			if _, err := d.Next(nil); err != nil {
				break
			}
		}
		n += d.Records()
	}
	return n
}

// Lengths returns the number of records in each of streams.
func Lengths(streams [][]byte) []int {
	var ns []int
	for _, s := range streams {
		d := decoder.NewDecoder(bytes.NewReader(s))
		var rec []byte
		var err error
		for err == nil {
			rec, err = d.Next(rec)
		}
		ns = append(ns, d.Records())
	}
	return ns
}
