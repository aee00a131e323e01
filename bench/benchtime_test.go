package bench

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestCheckBenchtime checks that CheckBenchtime accepts exactly the
// -benchtime values a real test binary accepts.
func TestCheckBenchtime(t *testing.T) {
	t.Parallel()
	dir := gittest.NewTree(t, map[string]string{
		"go.mod":     "module example.com/bt\n\ngo 1.21\n",
		"bt_test.go": "package bt\n\nimport \"testing\"\n\nfunc BenchmarkNothing(b *testing.B) {}\n",
	})
	testBin := filepath.Join(t.TempDir(), "bt.test")
	cmd := exec.Command("go", "test", "-c", "-o", testBin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	for _, s := range []string{
		"100ms", "2s", "1h", "1.5s", "100x", "1x", "+3x", "007x", "1m30s",
		"banana", "", "x", "0x", "-1x", "1.5x", "0", "0s", "-1s", "100", "1e3x", "ms", "10 x", " 1s", "0x10x",
	} {
		cmd := exec.Command(testBin, "-test.run=^$", "-test.bench=^$", "-test.benchtime="+s)
		out, err := cmd.CombinedOutput()
		accepted := err == nil
		if !accepted && !strings.Contains(string(out), "-test.benchtime") {
			t.Fatalf("test binary with -test.benchtime=%q: %v\n%s", s, err, out)
		}
		if got := CheckBenchtime(s); (got == nil) != accepted {
			t.Errorf("CheckBenchtime(%q) = %v; the test binary accepts it: %v", s, got, accepted)
		}
	}
}
