package cover

import (
	"io"
	"testing"
)

func TestPut(t *testing.T) {
	e := &Encoder{w: io.Discard}
	e.Put(1)
	if e.n != 8 {
		t.Errorf("wrote %d bytes, want 8", e.n)
	}
}

func TestIndex(t *testing.T) {
	keys := [][]byte{[]byte("a"), []byte("k")}
	if Index(keys, []byte("k")) != 1 || Index(keys, []byte("j")) != -1 {
		t.Error("Index is wrong")
	}
}

func BenchmarkPut(b *testing.B) {
	e := &Encoder{w: io.Discard}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.Put(uint64(i))
	}
}

func BenchmarkSum(b *testing.B) {
	xs := []int{1, 2, 3, 4}
	for b.Loop() {
		Sum(xs)
	}
}
