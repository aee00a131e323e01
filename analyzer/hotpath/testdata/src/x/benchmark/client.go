// Package benchmark is a benchmark harness (as grpc's benchmark): it
// measures the module, and its own speed is not what the module is for.
package benchmark

func mark(...any) int { return 0 }

// Handle is named like per-item work.
func Handle(reqs []string) {
	for range reqs {
		mark() // want `cold: a benchmark harness \(package benchmark\)`
	}
}
