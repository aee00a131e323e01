// Package test runs the servers of a module's integration tests (as
// nats-server's test package does).
package test

func mark(...any) int { return 0 }

// RunServers starts servers for the tests.
func RunServers(n []int) {
	for range n {
		mark() // want `cold: runs only in tests: in a test-support package \(test\)`
	}
}
