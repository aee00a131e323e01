package worktree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goadvise/goadvise/internal/gittest"
)

// isolate makes git ignore the user's and the system's configuration and
// gives commits a fixed identity, for the test's commands and for the
// package's, and points TMPDIR at a fresh directory, which it returns.
func isolate(t *testing.T) string {
	t.Helper()
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL":   os.DevNull,
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "test", "GIT_COMMITTER_EMAIL": "test@example.com",
	} {
		t.Setenv(k, v)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	return tmp
}

// worktrees returns the paths of the worktrees of the repository in dir.
func worktrees(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	for line := range strings.Lines(gittest.Git(t, dir, "worktree", "list", "--porcelain")) {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "worktree "); ok {
			paths = append(paths, p)
		}
	}
	return paths
}

// checkClean checks that the repository in dir has no worktree but the
// main one, and that tmp holds no temporary directory of the package.
func checkClean(t *testing.T, dir, tmp string) {
	t.Helper()
	if wts := worktrees(t, dir); len(wts) != 1 {
		t.Errorf("git worktree list shows %d worktrees, want 1: %q", len(wts), wts)
	}
	if ents, err := os.ReadDir(filepath.Join(dir, ".git", "worktrees")); err == nil && len(ents) > 0 {
		t.Errorf(".git/worktrees still has %d entries", len(ents))
	}
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

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestAddRemove(t *testing.T) {
	tmp := isolate(t)
	dir := gittest.NewRepo(t,
		map[string]string{"go.mod": "module m\n", "pkg/a.go": "package pkg // v1\n"},
		map[string]string{"pkg/a.go": "package pkg // v2\n"})
	repo, err := Open(context.Background(), filepath.Join(dir, "pkg"))
	if err != nil {
		t.Fatal(err)
	}
	if repo.Top() != dir || repo.Prefix() != "pkg" || repo.Dir() != filepath.Join(dir, "pkg") {
		t.Errorf("Open: Top, Prefix, Dir = %q, %q, %q; want %q, %q, %q", repo.Top(), repo.Prefix(), repo.Dir(), dir, "pkg", filepath.Join(dir, "pkg"))
	}
	ctx := context.Background()
	first, err := repo.Resolve(ctx, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	if want := gittest.Git(t, dir, "rev-parse", "HEAD~1"); first != want {
		t.Errorf("Resolve(HEAD~1) = %s, want %s", first, want)
	}
	if got, want := Label("HEAD~1", first), "HEAD~1 ("+first[:12]+")"; got != want {
		t.Errorf("Label = %q, want %q", got, want)
	}
	if got := Label(first[:8], first); got != first[:8] {
		t.Errorf("Label of an abbreviated hash = %q, want it unchanged", got)
	}

	tree, err := repo.Add(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Dir() != filepath.Join(tree.Top(), "pkg") {
		t.Errorf("Dir = %s, want %s/pkg", tree.Dir(), tree.Top())
	}
	if got := readFile(t, filepath.Join(tree.Dir(), "a.go")); got != "package pkg // v1\n" {
		t.Errorf("checked-out a.go = %q, want v1", got)
	}
	if got := readFile(t, filepath.Join(dir, "pkg", "a.go")); got != "package pkg // v2\n" {
		t.Errorf("user's a.go = %q, want v2", got)
	}
	if got := gittest.Git(t, tree.Top(), "rev-parse", "HEAD"); got != first {
		t.Errorf("checkout HEAD = %s, want %s", got, first)
	}
	if wts := worktrees(t, dir); len(wts) != 2 || wts[1] != tree.Top() {
		t.Errorf("worktrees while checked out = %q, want the main one and %s", wts, tree.Top())
	}
	if err := tree.Remove(); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	if _, err := os.Stat(tree.Top()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("checkout still exists after Remove: %v", err)
	}
	checkClean(t, dir, tmp)
	if err := tree.Remove(); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

func TestErrors(t *testing.T) {
	tmp := isolate(t)
	dir := gittest.NewRepo(t, map[string]string{"a.txt": "a\n"})
	ctx := context.Background()
	notRepo := t.TempDir()
	if _, err := Open(ctx, notRepo); err == nil || !strings.Contains(err.Error(), "is not in a git repository") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Open(non-repository) error = %v, want one line saying it is not in a git repository", err)
	}
	repo, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []string{"no-such-rev", "HEAD~5", "--all", ""} {
		if _, err := repo.Resolve(ctx, rev); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", rev)) {
			t.Errorf("Resolve(%q) error = %v, want one naming the revision", rev, err)
		}
	}
	// A commit missing from the object store.
	missing := strings.Repeat("1", 40)
	if tree, err := repo.Add(ctx, missing); err == nil {
		tree.Remove()
		t.Errorf("Add(%s) succeeded", missing)
	} else if !strings.Contains(err.Error(), "checking out "+missing) || strings.Contains(err.Error(), "\n") {
		t.Errorf("Add(%s) error = %q, want one line naming the commit", missing, err)
	}
	checkClean(t, dir, tmp)
}

// TestUserTreeUnchanged checks that adding and removing a checkout leaves
// the user's working tree, index, stash and refs byte for byte as they
// were, runs no hook, and does not write the index named by
// $GIT_INDEX_FILE, which git sets when the program runs from a hook.
func TestUserTreeUnchanged(t *testing.T) {
	tmp := isolate(t)
	dir := gittest.NewRepo(t,
		map[string]string{"a.txt": "a1\n", "b.txt": "b1\n", ".gitignore": "*.log\n"},
		map[string]string{"a.txt": "a2\n"})
	marker := filepath.Join(t.TempDir(), "hook-ran")
	gittest.WriteFiles(t, dir, map[string]string{
		"a.txt":                    "a3 stashed\n",
		"b.txt":                    "b2 staged\n",
		"c.txt":                    "untracked\n",
		"debug.log":                "ignored\n",
		".git/hooks/post-checkout": "#!/bin/sh\ntouch " + marker + "\n",
	})
	if err := os.Chmod(filepath.Join(dir, ".git", "hooks", "post-checkout"), 0o777); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "stash", "push", "-q", "a.txt")
	gittest.WriteFiles(t, dir, map[string]string{"a.txt": "a4 modified\n"})
	gittest.Git(t, dir, "add", "b.txt")
	// The index a pre-commit hook would see.
	hookIndex := filepath.Join(t.TempDir(), "index")
	if err := os.WriteFile(hookIndex, []byte(readFile(t, filepath.Join(dir, ".git", "index"))), 0o666); err != nil {
		t.Fatal(err)
	}
	hookIndexBefore := readFile(t, hookIndex)
	before := gittest.Snapshot(t, dir)

	t.Setenv("GIT_INDEX_FILE", hookIndex)
	ctx := context.Background()
	repo, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []string{"HEAD~1", "HEAD"} {
		commit, err := repo.Resolve(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := repo.Add(ctx, commit)
		if err != nil {
			t.Fatal(err)
		}
		// Work in the checkout, as callers do.
		gittest.WriteFiles(t, tree.Top(), map[string]string{"a.txt": "scratch\n", "new.txt": "new\n"})
		if err := tree.Remove(); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GIT_INDEX_FILE", "")
	os.Unsetenv("GIT_INDEX_FILE")

	gittest.CheckSnapshot(t, dir, before)
	if readFile(t, hookIndex) != hookIndexBefore {
		t.Errorf("the index named by $GIT_INDEX_FILE was written")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the post-checkout hook ran")
	}
	checkClean(t, dir, tmp)
}

// TestCancel cancels Add before and during the checkout: it returns the
// context's error and leaves no worktree and no temporary directory.
func TestCancel(t *testing.T) {
	tmp := isolate(t)
	files := make(map[string]string)
	for i := range 1000 {
		files[fmt.Sprintf("d%02d/f%04d.txt", i%30, i)] = strings.Repeat(fmt.Sprintf("line %d\n", i), 40)
	}
	dir := gittest.NewRepo(t, files)
	repo, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := repo.Resolve(context.Background(), "HEAD")
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if tree, err := repo.Add(ctx, commit); !errors.Is(err, context.Canceled) {
		if tree != nil {
			tree.Remove()
		}
		t.Errorf("Add with a cancelled context: error %v, want %v", err, context.Canceled)
	}
	checkClean(t, dir, tmp)

	// Time a checkout, then cancel others at fractions of that time.
	start := time.Now()
	tree, err := repo.Add(context.Background(), commit)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if err := tree.Remove(); err != nil {
		t.Fatal(err)
	}
	cancelled := 0
	for _, f := range []float64{0.1, 0.3, 0.6} {
		d := time.Duration(f * float64(took))
		ctx, cancel := context.WithTimeout(context.Background(), d)
		tree, err := repo.Add(ctx, commit)
		cancel()
		switch {
		case err == nil:
			tree.Remove()
		case errors.Is(err, context.DeadlineExceeded):
			cancelled++
		default:
			t.Errorf("Add cancelled after %v: error %v, want %v", d, err, context.DeadlineExceeded)
		}
		checkClean(t, dir, tmp)
	}
	if cancelled == 0 {
		t.Errorf("no Add was cancelled (a checkout takes %v): the test checks nothing", took)
	}
}

// TestRemoveLocked checks that the removal unregisters a locked worktree
// whose directory is gone and whose HEAD was never written: the state of
// a checkout killed early.
func TestRemoveLocked(t *testing.T) {
	tmp := isolate(t)
	dir := gittest.NewRepo(t, map[string]string{"a.txt": "a\n"})
	wtmp, err := os.MkdirTemp("", "goadvise-worktree-")
	if err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(wtmp, "wt")
	gittest.Git(t, dir, "worktree", "add", "-q", "--lock", "--detach", wt, "HEAD")
	// Git writes a null HEAD first and the files last.
	os.RemoveAll(wt)
	admin := filepath.Join(dir, ".git", "worktrees", "wt", "HEAD")
	if err := os.WriteFile(admin, []byte(strings.Repeat("0", 40)+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	tree := &Tree{repo: &Repo{top: dir}, tmp: wtmp, top: wt}
	if err := tree.Remove(); err != nil {
		t.Errorf("Remove: %v", err)
	}
	checkClean(t, dir, tmp)
}

// TestRemoveKeepsOthers checks that removing a checkout does not prune
// the user's own worktrees, even one whose directory is missing (on an
// unmounted disk, say).
func TestRemoveKeepsOthers(t *testing.T) {
	tmp := isolate(t)
	dir := gittest.NewRepo(t, map[string]string{"a.txt": "a\n"})
	mine := filepath.Join(t.TempDir(), "mine")
	gittest.Git(t, dir, "worktree", "add", "-q", "--detach", mine, "HEAD")
	if err := os.RemoveAll(mine); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	repo, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := repo.Add(ctx, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if err := tree.Remove(); err != nil {
		t.Fatal(err)
	}
	if wts := worktrees(t, dir); len(wts) != 2 || wts[1] != mine {
		t.Errorf("worktrees after Remove = %q, want the main one and the user's %s", wts, mine)
	}
	gittest.Git(t, dir, "worktree", "prune")
	checkClean(t, dir, tmp)
}

func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		in, sign string
		want     LineRange
		ok       bool
	}{
		{"-3,2", "-", LineRange{3, 4}, true},
		{"+7", "+", LineRange{7, 7}, true},
		{"+10,0", "+", LineRange{10, 11}, true},
		{"-x,1", "-", LineRange{}, false},
		{"+3", "-", LineRange{}, false},
	} {
		got, ok := parseRange(tc.in, tc.sign)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRange(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if !Touches([]LineRange{{5, 6}}, 6, 9) || Touches([]LineRange{{5, 6}}, 7, 9) {
		t.Errorf("Touches is wrong at the boundary")
	}
}
