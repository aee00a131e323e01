// Package latest ends in "test" but imports no testing: not test support.
package latest

func mark(...any) int { return 0 }

// Versions runs per item.
func Versions(xs []string) {
	for range xs {
		mark() // want `hot-loop: inside a loop`
	}
}
