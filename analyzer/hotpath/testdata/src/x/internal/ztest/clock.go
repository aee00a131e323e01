// Package ztest is test support named as zap's internal/ztest is: its name
// ends in test and, internal, only its module imports it; its non-test
// files do not import testing.
package ztest

func mark(...any) int { return 0 }

// Add advances a mock clock.
func Add(waiters []int) {
	for range waiters {
		mark() // want `cold: runs only in tests: in a test-support package \(ztest\)`
	}
}
