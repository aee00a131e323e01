package hot

var sink any

// Setup runs once: with -cold=false its allocation is not reported.
func Setup() *[4]int {
	return &[4]int{}
}

// Fill allocates in a loop.
func Fill(n int) {
	for i := 0; i < n; i++ {
		sink = &[4]int{i} // want `&\[4\]int{...} escapes to heap: returned or stored outside the function \(stored in sink\); .*or hoist the allocation out of the loop and reuse it \[hot-loop: inside a loop\]`
	}
}
