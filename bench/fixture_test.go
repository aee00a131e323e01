package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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

// gitCmd runs git in dir with a fixed identity and no user configuration.
func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// newRepo creates a git repository with one commit per element of commits,
// each writing the given files, and returns its directory.
func newRepo(t *testing.T, commits ...map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	gitCmd(t, dir, "init", "-q", "-b", "main")
	for i, files := range commits {
		writeFiles(t, dir, files)
		gitCmd(t, dir, "add", "-A")
		gitCmd(t, dir, "commit", "-q", "-m", "commit "+string(rune('1'+i)))
	}
	return dir
}

// snapshot returns a digest of every file under dir (including the .git
// directory's index, HEAD, refs and stash, but not its object store, logs
// or worktree administrative files, which git may legitimately touch) and
// of git status, keyed by relative path.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := make(map[string]string)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch rel {
			case ".git/objects", ".git/logs", ".git/worktrees":
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		m[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m["git status"] = gitCmd(t, dir, "status", "--porcelain=v1", "--untracked-files=all")
	m["git stash"] = gitCmd(t, dir, "stash", "list")
	return m
}

func checkSnapshot(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := snapshot(t, dir)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("user tree changed: %s differs", k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("user tree changed: %s appeared", k)
		}
	}
}

// checkNoWorktrees checks that dir's repository has no worktree but the
// main one and no administrative leftovers.
func checkNoWorktrees(t *testing.T, dir string) {
	t.Helper()
	list := gitCmd(t, dir, "worktree", "list", "--porcelain")
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
