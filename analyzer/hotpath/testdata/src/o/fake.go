package o

import "testing"

// Fake is a fake server for tests, as lib/pq's internal/pqtest has: its
// file uses package testing, so its code runs only in tests, loops
// included.
type Fake struct {
	t    testing.TB
	msgs [][]byte
}

// Serve answers every message.
func (f *Fake) Serve() {
	for range f.msgs {
		mark() // want `cold: runs only in tests: in a file that uses package testing`
	}
}
