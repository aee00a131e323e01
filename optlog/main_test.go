package optlog

import (
	"os"
	"testing"

	"github.com/goadvise/goadvise/internal/toolexec"
)

// TestMain lets the test binary serve as goadvise's -toolexec wrapper, as
// command goadvise does (InliningEdited watches compiles through it).
func TestMain(m *testing.M) {
	toolexec.Serve()
	os.Exit(m.Run())
}
