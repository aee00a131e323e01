package decoder_test

import (
	"encoding/binary"
	"testing"

	"example.com/decoder/batch"
)

func BenchmarkLengths(b *testing.B) {
	var s []byte
	for range 8 {
		s = binary.LittleEndian.AppendUint64(s, 4)
		s = append(s, "abcd"...)
	}
	streams := [][]byte{s, s, s, s}
	for b.Loop() {
		batch.Lengths(streams)
	}
}
