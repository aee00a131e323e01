package wire

import (
	"bytes"
	"io"
	"testing"
)

func sample(n int) []*Message {
	msgs := make([]*Message, n)
	for i := range msgs {
		msgs[i] = &Message{Kind: KindPut, Key: []byte("user:" + string(rune('a'+i%26))), Value: bytes.Repeat([]byte{byte(i)}, 64), Version: uint32(i)}
	}
	return msgs
}

func encode(t testing.TB, msgs []*Message) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, m := range msgs {
		if err := w.Write(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	msgs := sample(50)
	r := NewReader(bytes.NewReader(encode(t, msgs)))
	for i, want := range msgs {
		got, err := r.Next()
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if !Equal(got, want) {
			t.Fatalf("message %d: got %+v, want %+v", i, got, want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after last message: err = %v, want io.EOF", err)
	}
}

func TestTooLarge(t *testing.T) {
	data := []byte{0xff, 0xff, 0xff, 0xff, KindPut}
	if _, err := NewReader(bytes.NewReader(data)).Next(); err == nil {
		t.Fatal("oversized message accepted")
	}
}

func BenchmarkReaderNext(b *testing.B) {
	data := encode(b, sample(1000))
	b.ReportAllocs()
	b.SetBytes(int64(len(data)) / 1000)
	var r *Reader
	for i := 0; b.Loop(); i++ {
		if i%1000 == 0 {
			r = NewReader(bytes.NewReader(data))
		}
		if _, err := r.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEqual(b *testing.B) {
	msgs := sample(2)
	b.ReportAllocs()
	for b.Loop() {
		Equal(msgs[0], msgs[1])
	}
}
