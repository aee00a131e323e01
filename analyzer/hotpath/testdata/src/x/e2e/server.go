// Package e2e is the server of a module's end-to-end tests (as go-redis's
// maintnotifications/e2e): its loops run for tests only.
package e2e

func mark(...any) int { return 0 }

// Serve handles requests, named like per-item work.
func Serve(reqs []string) {
	for range reqs {
		mark() // want `cold: runs only in tests: in a test-support package \(e2e\)`
	}
	mark() // want `cold: runs only in tests: in a test-support package \(e2e\)`
}
