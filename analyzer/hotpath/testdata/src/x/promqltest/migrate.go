// Package promqltest is test support named as std's httptest is (as
// Prometheus' promqltest): its name ends in test and it imports testing.
package promqltest

import "testing"

func mark(...any) int { return 0 }

// Migrate rewrites test scripts.
func Migrate(lines []string) {
	for range lines {
		mark() // want `cold: runs only in tests: in a test-support package \(promqltest\)`
	}
}

// Run runs a script.
func Run(t testing.TB, script string) {}
