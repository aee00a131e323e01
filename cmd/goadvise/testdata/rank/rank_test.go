package rank

import (
	"fmt"
	"testing"
)

func BenchmarkWork(b *testing.B) {
	Rare(nil, nil)
	keys := make([][]byte, 100)
	for i := range keys {
		keys[i] = []byte(fmt.Sprintf("key-%03d", i))
	}
	miss := []byte("key-999")
	for b.Loop() {
		Hot(2000)
		Lookup(keys, miss)
	}
}
