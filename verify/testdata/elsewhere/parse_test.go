package fx

import (
	"strings"
	"testing"
)

func TestAll(t *testing.T) {
	if got := All(&Parser{Src: strings.NewReader("abcdabcd")}, 2); got != 2*'a' {
		t.Errorf("All = %d", got)
	}
}

func BenchmarkAll(b *testing.B) {
	r := strings.NewReader("")
	p := &Parser{Src: r}
	for b.Loop() {
		r.Reset("abcdabcdabcdabcd")
		All(p, 4)
	}
}
