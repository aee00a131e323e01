package o

// Test reporters in a file that does not import package testing: an
// interface of testing.TB's methods with Helper is satisfied in practice
// only by a *testing.T or *testing.B.

// TestingT is a package's own reporter (as arrow's memory.TestingT).
type TestingT interface {
	Errorf(format string, args ...any)
	Helper()
}

// Leaks asserts that the pool holds nothing, for tests.
func (c *Cluster) Leaks(t TestingT) {
	for range c.nodes {
		mark() // want `cold: runs only in tests: takes a o.TestingT, an interface of testing.TB's methods with Helper`
	}
}

// checker is the same idiom unnamed, on a function literal.
var checker = func(t interface {
	Helper()
	Fatalf(string, ...any)
	Cleanup(func())
}, xs []int) {
	for range xs {
		mark() // want `cold: runs only in tests: takes a interface\{Cleanup\(func\(\)\); Fatalf\(string, ...any\); Helper\(\)\}`
	}
}

// Reporter embeds a reporter in a wider one that is still testing.TB's.
type Reporter interface {
	TestingT
	Logf(format string, args ...any)
}

func logAll(r Reporter, xs []int) {
	for range xs {
		mark() // want `cold: runs only in tests: takes a o.Reporter`
	}
}

// Sink has a Helper method but also one that testing.TB lacks: it is not
// a test's reporter, and a loop that calls it stays hot.
type Sink interface {
	Helper()
	Write(p []byte) (int, error)
}

func drain(s Sink, xs []int) {
	for range xs {
		mark() // want `hot-loop: inside a loop`
	}
}

// Single has only Helper: too little to tell.
type Single interface{ Helper() }

func helpOnly(s Single, xs []int) {
	for range xs {
		mark() // want `hot-loop: inside a loop`
	}
}

var _, _, _, _ = checker, logAll, drain, helpOnly
