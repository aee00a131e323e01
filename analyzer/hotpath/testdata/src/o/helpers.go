package o

import "testing"

// Cluster is a fixture that tests of other packages use (as raft's
// testing.go has): its helpers take the test.
type Cluster struct{ nodes []int }

// EnsureSame runs only in tests: only a test has a *testing.T to pass.
func (c *Cluster) EnsureSame(t *testing.T) {
	for range c.nodes {
		mark() // want `cold: runs only in tests: takes a \*testing.T`
		compareNodes()
	}
}

// CheckAll takes a testing.TB.
func CheckAll(tb testing.TB, xs []int) {
	for range xs {
		mark() // want `cold: runs only in tests: takes a testing.TB`
	}
}

// BenchNodes takes a *testing.B.
func BenchNodes(b *testing.B) {
	for b.Loop() {
		mark() // want `cold: runs only in tests: takes a \*testing.B`
	}
}

// notATest takes a testing value that is not a test; it is in a file
// that uses package testing, which only tests' code does.
func notATest(m testing.InternalTest, xs []int) {
	for range xs {
		mark() // want `cold: runs only in tests: in a file that uses package testing`
	}
}

var _ = notATest

// RunAll is a helper of tests such as crypto/internal/cryptotest's: the
// literals it passes to t.Run run in tests only, as do those of a
// literal that takes a *testing.T itself.
func RunAll(t *testing.T, lengths []int) {
	for range lengths {
		t.Run("", func(t *testing.T) {
			for range lengths {
				mark() // want `cold: runs only in tests: takes a \*testing.T`
			}
		})
	}
	go func() {
		for range lengths {
			mark() // want `cold: runs only in tests: takes a \*testing.T`
			helped()
		}
	}()
}

// subtests returns a literal that takes a test, in code that tests do not
// otherwise reach.
func subtests(xs []int) func(*testing.T) {
	return func(t *testing.T) {
		for range xs {
			mark() // want `cold: runs only in tests: takes a \*testing.T`
		}
	}
}

var _ = subtests
