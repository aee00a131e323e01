package e

// mockBroker answers requests in tests, as sarama's mockbroker.go does
// in its main package.
type mockBroker struct{}

// ServeRequests is named like per-item work.
func (b *mockBroker) ServeRequests(reqs []string) {
	for range reqs {
		mark() // want `cold: runs only in tests: in a test-support file \(mockbroker.go\)`
	}
}
