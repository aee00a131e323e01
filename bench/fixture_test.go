package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// fixtureMod is the go.mod of the fixture modules.
const fixtureMod = "module example.com/fx\n\ngo 1.26\n"

// workSource returns the source of package fx whose Work function makes
// allocs heap allocations of 64 bytes.
func workSource(allocs int) string {
	var b strings.Builder
	b.WriteString("package fx\n\nvar sink [4]*[64]byte\n\n// Work allocates.\nfunc Work() {\n")
	for i := 0; i < allocs; i++ {
		b.WriteString("\tsink[" + string(rune('0'+i)) + "] = new([64]byte)\n")
	}
	b.WriteString("}\n\n// Value is checked by the test.\nfunc Value() int {\n\treturn 42\n}\n")
	return b.String()
}

// fixtureTest is the test file of package fx.
const fixtureTest = `package fx

import "testing"

func TestValue(t *testing.T) {
	if Value() != 42 {
		t.Fatalf("Value() = %d, want 42", Value())
	}
}

func BenchmarkWork(b *testing.B) {
	for b.Loop() {
		Work()
	}
}
`

// checkNoWorktrees checks that dir's repository has no worktree but the
// main one and no administrative leftovers.
func checkNoWorktrees(t *testing.T, dir string) {
	t.Helper()
	list := gittest.Git(t, dir, "worktree", "list", "--porcelain")
	if n := strings.Count(list, "worktree "); n != 1 {
		t.Errorf("git worktree list shows %d worktrees, want 1:\n%s", n, list)
	}
	if ents, err := os.ReadDir(filepath.Join(dir, ".git", "worktrees")); err == nil && len(ents) > 0 {
		t.Errorf(".git/worktrees still has %d entries", len(ents))
	}
}

// isolateTemp points TMPDIR at a fresh directory and returns it, so that
// tests can check that Run and Verify leave no temporary files behind.
func isolateTemp(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	return tmp
}

func checkTempClean(t *testing.T, tmp string) {
	t.Helper()
	ents, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "goadvise-") {
			t.Errorf("temporary directory %s left behind", e.Name())
		}
	}
}
