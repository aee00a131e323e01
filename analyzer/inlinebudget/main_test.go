package inlinebudget_test

import (
	"os"
	"testing"

	"github.com/goadvise/goadvise/internal/toolexec"
)

// TestMain lets the test binary serve as goadvise's -toolexec wrapper, as
// command goadvise does: verify's compiles then stop after inlining.
func TestMain(m *testing.M) {
	toolexec.Serve()
	os.Exit(m.Run())
}
