package fixes

import (
	"fmt"
	"io"
	"testing"
)

func keys() [][]byte {
	ks := make([][]byte, 4)
	for i := range ks {
		ks[i] = []byte(fmt.Sprintf("k%d", i))
	}
	return ks
}

func TestRun(t *testing.T) {
	e := &Encoder{w: io.Discard}
	if got := Run(e, keys(), []byte("k2")); got != 26 {
		t.Errorf("Run = %d, want 26", got)
	}
	if e.n != 32 {
		t.Errorf("wrote %d bytes, want 32", e.n)
	}
}

func BenchmarkRun(b *testing.B) {
	e := &Encoder{w: io.Discard}
	ks, k := keys(), []byte("k2")
	b.ReportAllocs()
	for b.Loop() {
		Run(e, ks, k)
	}
}
