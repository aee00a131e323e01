package hot

import "fmt"

var sink any

// Setup runs once: with -cold=false its allocation is not reported.
func Setup() *[4]int {
	return &[4]int{}
}

// Fill allocates in a loop.
func Fill(n int) {
	for i := 0; i < n; i++ {
		sink = &[4]int{i} // want `&\[4\]int{...} escapes to heap because it is stored in sink; .*, or hoist the allocation out of the loop and reuse it \[hot-loop: inside a loop\]`
	}
}

// Next runs per item, but its error path is cold: with -cold=false the
// error's allocations are not reported.
func Next(n int) error {
	sink = &[4]int{n} // want `&\[4\]int{...} escapes to heap because it is stored in sink; .* \[per-item: function Next runs per item\]`
	if n < 0 {
		return fmt.Errorf("bad %d", n)
	}
	return nil
}
