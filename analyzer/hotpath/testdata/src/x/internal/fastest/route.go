// Package fastest is an internal package whose name is an English word
// ending in test: not test support.
package fastest

func mark(...any) int { return 0 }

// Pick picks the fastest route.
func Pick(routes []int) {
	for range routes {
		mark() // want `hot-loop: inside a loop`
	}
}
