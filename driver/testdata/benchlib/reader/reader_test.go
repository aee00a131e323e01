package reader

import (
	"io"
	"os"
	"testing"
)

func TestCopy(t *testing.T) {
	c := NewCopier(io.Discard)
	c.Copy([]uint64{1, 2})
	if c.e.N != 32 {
		t.Errorf("wrote %d bytes, want 32", c.e.N)
	}
}

// BenchmarkReader/plain writes two values per operation: enc.Put's
// buffer is allocated twice. BenchmarkReader/none writes none.
func BenchmarkReader(b *testing.B) {
	vs := make([]uint64, 2) // set-up: allocated once per run of the benchmark
	b.Run("plain", func(b *testing.B) {
		c := NewCopier(io.Discard)
		for b.Loop() {
			c.Copy(vs)
		}
	})
	b.Run("none", func(b *testing.B) {
		c := NewCopier(io.Discard)
		for i := 0; i < b.N; i++ {
			c.Copy(nil)
		}
	})
}

// BenchmarkExit calls os.Exit: it is reported and skipped, and the
// others count.
func BenchmarkExit(b *testing.B) {
	os.Exit(0)
}
