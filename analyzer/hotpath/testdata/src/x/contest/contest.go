// Package contest only ends in "test": it is not test support.
package contest

func mark(...any) int { return 0 }

// Score runs per item.
func Score(xs []int) {
	for range xs {
		mark() // want `hot-loop: inside a loop`
	}
}
