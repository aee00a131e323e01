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

// BenchmarkFail fails unless GOADVISE_BENCHLIB_PASS is set: it is
// reported and skipped, and the others count.
func BenchmarkFail(b *testing.B) {
	if os.Getenv("GOADVISE_BENCHLIB_PASS") == "" {
		b.Fatal("GOADVISE_BENCHLIB_PASS is not set")
	}
}

// BenchmarkServer writes one value per operation in a goroutine that its
// set-up starts, as a server in the same process would: enc.Put's buffer
// is allocated once per operation, on a stack without the testing
// package.
func BenchmarkServer(b *testing.B) {
	reqs, done := make(chan []uint64), make(chan struct{})
	go func() {
		c := NewCopier(io.Discard)
		for vs := range reqs {
			c.Copy(vs)
			done <- struct{}{}
		}
	}()
	vs := []uint64{7}
	for b.Loop() {
		reqs <- vs
		<-done
	}
	close(reqs)
}
