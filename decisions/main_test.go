package decisions

import (
	"os"
	"testing"
)

// TestMain lets the test binary act as the -toolexec wrapper of the cost
// measurement, as command goadvise does.
func TestMain(m *testing.M) {
	if IsToolexec() {
		os.Exit(Toolexec(os.Args[1:]))
	}
	dir, err := os.MkdirTemp("", "goadvise-decisions-test-")
	if err != nil {
		panic(err)
	}
	sharedDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sharedDir holds fixtures shared by several tests.
var sharedDir string
