package charge

import "testing"

func BenchmarkDrain(b *testing.B) {
	src := make([]byte, 64)
	for b.Loop() {
		Drain(src)
	}
}
