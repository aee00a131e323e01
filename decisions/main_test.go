package decisions

import (
	"os"
	"testing"

	"github.com/goadvise/goadvise/internal/toolexec"
)

// TestMain lets the test binary act as the -toolexec wrapper of the cost
// measurement, as command goadvise does.
func TestMain(m *testing.M) {
	toolexec.Serve()
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
