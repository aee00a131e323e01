// Package mocks holds mocks for tests (as sarama's mocks).
package mocks

func mark(...any) int { return 0 }

// Topics is called per item by the code under test.
func Topics(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
		mark() // want `cold: runs only in tests: in a test-support package \(mocks\)`
	}
	return out
}
