package o

import "testing"

// Encode is production code that asks whether it runs under go test:
// testing.Testing alone does not make a file test support.
func Encode(xs []int) {
	if testing.Testing() {
		return
	}
	for range xs {
		mark() // want `hot-loop: inside a loop`
	}
}
