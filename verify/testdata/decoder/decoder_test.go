package decoder

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
)

// stream returns n records of size bytes each.
func stream(n, size int) []byte {
	var b []byte
	for i := range n {
		b = binary.LittleEndian.AppendUint64(b, uint64(size))
		b = append(b, bytes.Repeat([]byte{byte(i)}, size)...)
	}
	return b
}

func TestNext(t *testing.T) {
	d := NewDecoder(bytes.NewReader(stream(3, 5)))
	var rec []byte
	for i := 0; ; i++ {
		var err error
		rec, err = d.Next(rec)
		if err == io.EOF {
			break
		}
		if err != nil || len(rec) != 5 || rec[0] != byte(i) {
			t.Fatalf("record %d: %v, %v", i, rec, err)
		}
	}
	if d.Records() != 3 {
		t.Errorf("read %d records, want 3", d.Records())
	}
}

func BenchmarkNext(b *testing.B) {
	data := stream(1024, 16)
	r := bytes.NewReader(data)
	d := NewDecoder(r)
	var rec []byte
	for b.Loop() {
		r.Reset(data)
		for {
			var err error
			if rec, err = d.Next(rec); err != nil {
				break
			}
		}
	}
}

// BenchmarkStream does not run Next.
func BenchmarkStream(b *testing.B) {
	for b.Loop() {
		stream(64, 16)
	}
}
