package o

// The functions of this file, which does not use package testing, are
// cold only through their callers.

// compareNodes is called only from a test helper.
func compareNodes() {
	for range 3 {
		mark() // want `cold: runs only in tests: called only from \(\*Cluster\).EnsureSame`
	}
}

// helped is called only from a literal made by a test helper.
func helped() {
	for range 3 {
		mark() // want `cold: runs only in tests: called only from RunAll`
	}
}
