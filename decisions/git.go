package decisions

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A gitRepo is the repository containing the directory being compared.
type gitRepo struct {
	top    string // the main worktree's top directory
	prefix string // the compared directory relative to top, slash-separated
}

func openRepo(ctx context.Context, dir string) (*gitRepo, error) {
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s is not in a git repository (needed to check out the base revision): %w", dir, err)
	}
	prefix, err := git(ctx, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	top, err = filepath.EvalSymlinks(top)
	if err != nil {
		return nil, err
	}
	return &gitRepo{top: top, prefix: strings.TrimSuffix(prefix, "/")}, nil
}

func (r *gitRepo) resolve(ctx context.Context, rev string) (string, error) {
	sha, err := git(ctx, r.top, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("unknown git revision %q", rev)
	}
	return sha, nil
}

// addWorktree checks out commit into a new detached worktree at path,
// with hooks disabled. It touches neither the user's working tree, nor
// the index, nor the stash.
//
// The checkout is not interrupted by the context's cancellation: git
// killed while adding a worktree leaves it registered and locked. The
// cancellation is reported once the checkout is complete.
func (r *gitRepo) addWorktree(ctx context.Context, path, commit string) error {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
	defer cancel()
	if _, err := git(actx, r.top, "-c", "core.hooksPath="+os.DevNull, "worktree", "add", "--detach", "--quiet", path, commit); err != nil {
		return fmt.Errorf("checking out %s: %w", commit, err)
	}
	return ctx.Err()
}

// removeWorktree removes the worktree at path and its administrative
// files. It runs even when the run's context was cancelled.
func (r *gitRepo) removeWorktree(path string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	git(ctx, r.top, "worktree", "remove", "--force", "--force", path)
	os.RemoveAll(path)
	// A worktree whose checkout was interrupted stays locked, and prune
	// keeps locked worktrees.
	git(ctx, r.top, "worktree", "unlock", path)
	git(ctx, r.top, "worktree", "prune")
}

// git runs a git command in dir and returns its trimmed standard output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], firstLine(msg))
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return strings.TrimSpace(string(out)), nil
}

// lineRange is a range of lines [lo, hi], 1-based and inclusive.
type lineRange struct{ lo, hi int }

// changes are the lines a diff changed, per file relative to the top of
// the repository (slash-separated).
type changes struct {
	old, new map[string][]lineRange
	added    map[string]bool // files new in head (untracked or added)
	removed  map[string]bool // files only in base
}

// diffLines returns the lines changed between base and head (the working
// tree if head is "").
func (r *gitRepo) diffLines(ctx context.Context, base, head string) (*changes, error) {
	args := []string{"-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", base}
	if head != "" {
		args = append(args, head)
	}
	args = append(args, "--")
	out, err := git(ctx, r.top, args...)
	if err != nil {
		return nil, err
	}
	ch := &changes{old: map[string][]lineRange{}, new: map[string][]lineRange{}, added: map[string]bool{}, removed: map[string]bool{}}
	var oldFile, newFile string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "--- "):
			oldFile = strings.TrimPrefix(strings.TrimPrefix(line, "--- "), "a/")
		case strings.HasPrefix(line, "+++ "):
			newFile = strings.TrimPrefix(strings.TrimPrefix(line, "+++ "), "b/")
			if oldFile == "/dev/null" {
				ch.added[newFile] = true
			}
			if newFile == "/dev/null" {
				ch.removed[oldFile] = true
			}
		case strings.HasPrefix(line, "@@ "):
			// @@ -a,b +c,d @@
			f := strings.Fields(line)
			if len(f) < 3 {
				continue
			}
			if o, ok := parseRange(f[1], "-"); ok {
				ch.old[oldFile] = append(ch.old[oldFile], o)
			}
			if n, ok := parseRange(f[2], "+"); ok {
				ch.new[newFile] = append(ch.new[newFile], n)
			}
		}
	}
	if head == "" {
		// Untracked files are not in git diff's output.
		untracked, err := git(ctx, r.top, "-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard")
		if err != nil {
			return nil, err
		}
		for _, f := range strings.Split(untracked, "\n") {
			if f != "" {
				ch.added[f] = true
			}
		}
	}
	return ch, nil
}

// parseRange parses "-a,b" or "+c,d". A range of zero lines (a pure
// insertion or deletion after line a) is taken as lines a to a+1: the
// function around the insertion point changed.
func parseRange(s, sign string) (lineRange, bool) {
	s, ok := strings.CutPrefix(s, sign)
	if !ok {
		return lineRange{}, false
	}
	startS, countS, hasCount := strings.Cut(s, ",")
	start, err := strconv.Atoi(startS)
	if err != nil {
		return lineRange{}, false
	}
	count := 1
	if hasCount {
		if count, err = strconv.Atoi(countS); err != nil {
			return lineRange{}, false
		}
	}
	if count == 0 {
		return lineRange{start, start + 1}, true
	}
	return lineRange{start, start + count - 1}, true
}

// touches reports whether any of the ranges intersects [lo, hi].
func touches(ranges []lineRange, lo, hi int) bool {
	for _, r := range ranges {
		if r.lo <= hi && lo <= r.hi {
			return true
		}
	}
	return false
}
