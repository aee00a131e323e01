// Package quick2 has a path like std's testing packages (no dot in its
// first element): "testing" does not make it test support there.
package quick2

func mark(...any) int { return 0 }

// Check runs per item.
func Check(xs []int) {
	for range xs {
		mark() // want `hot-loop: inside a loop`
	}
}
