// Package gittest builds git repositories for tests, and checks that the
// code under test leaves a user's repository exactly as it was.
package gittest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Git runs git in dir with a fixed identity and no user or system
// configuration, and returns its trimmed output. It fails the test if git
// fails.
func Git(t testing.TB, dir string, args ...string) string {
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

// WriteFiles writes files (slash-separated names relative to dir, and
// their content), creating directories as needed.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
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

// NewTree writes files (slash-separated names relative to the tree, and
// their contents) in a new temporary directory and returns it.
func NewTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	WriteFiles(t, dir, files)
	return dir
}

// NewRepo creates a repository in a new temporary directory with one
// commit per element of commits, each writing the given files, and returns
// its directory with symbolic links resolved.
func NewRepo(t testing.TB, commits ...map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "init", "-q", "-b", "main")
	for i, files := range commits {
		WriteFiles(t, dir, files)
		Git(t, dir, "add", "-A")
		Git(t, dir, "commit", "-q", "-m", fmt.Sprintf("commit %d", i+1))
	}
	return dir
}

// Snapshot returns a digest of every file under dir, the .git directory
// included but for the object store, reflogs and worktree administrative
// files (which adding a worktree legitimately writes), and of git status
// (with untracked and ignored files) and the stash list.
func Snapshot(t testing.TB, dir string) map[string]string {
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
	m["git status"] = Git(t, dir, "status", "--porcelain=v1", "--untracked-files=all", "--ignored")
	m["git stash"] = Git(t, dir, "stash", "list")
	return m
}

// CheckSnapshot reports every difference between dir now and the
// Snapshot taken before.
func CheckSnapshot(t testing.TB, dir string, before map[string]string) {
	t.Helper()
	after := Snapshot(t, dir)
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
