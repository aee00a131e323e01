package worktree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A LineRange is a range of lines [Lo, Hi], 1-based and inclusive.
type LineRange struct{ Lo, Hi int }

// Changes are the lines a diff changed, per file relative to the top of
// the repository (slash-separated).
type Changes struct {
	Old, New map[string][]LineRange
	Added    map[string]bool // files new in head (untracked or added)
	Removed  map[string]bool // files only in base
}

// Changes returns the lines changed between the revisions base and head
// (the working tree, untracked files included, if head is "").
//
// Renames and copies are followed as git follows them (git diff
// --find-copies-harder): a file moved or copied from another, of base or
// of head, changed only on the lines that differ from its source, so that
// a line moved with its file is not new. In the working tree this holds
// whether the move is staged or not, and with the new name untracked: the
// diff is taken with a copy of the index in which the untracked files are
// added with intent to add; the user's index is not written.
func (repo *Repo) Changes(ctx context.Context, base, head string) (*Changes, error) {
	args := []string{"-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
		"--src-prefix=a/", "--dst-prefix=b/", "--find-copies-harder", base}
	var env []string
	if head != "" {
		args = append(args, head)
	} else {
		tmp, err := os.MkdirTemp("", "goadvise-index-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		if env, err = repo.untrackedIndex(ctx, tmp); err != nil {
			return nil, err
		}
	}
	args = append(args, "--")
	out, err := run(ctx, repo.top, env, args...)
	if err != nil {
		return nil, err
	}
	return parseDiff(out), nil
}

// untrackedIndex writes in the directory tmp a copy of the repository's
// index, refreshed, to which the untracked files that are not ignored are
// added with intent to add (which records their names, not their
// content), and returns the environment of a git command that uses it. A
// diff of the working tree against a commit with that index sees those
// files as new, and pairs them by rename and copy detection with the files
// they came from.
func (repo *Repo) untrackedIndex(ctx context.Context, tmp string) ([]string, error) {
	index, err := run(ctx, repo.top, nil, "rev-parse", "--git-path", "index")
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(index) {
		index = filepath.Join(repo.top, index)
	}
	copyIndex := filepath.Join(tmp, "index")
	data, err := os.ReadFile(index)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading the git index: %w", err)
	}
	if err == nil { // else no index yet: git starts an empty one
		if err := os.WriteFile(copyIndex, data, 0o600); err != nil {
			return nil, err
		}
	}
	env := []string{"GIT_INDEX_FILE=" + copyIndex}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_INDEX_FILE=") {
			env = append(env, kv)
		}
	}
	// Rename detection compares the files whose index entries are
	// stale: a copied working tree's, or one whose files were touched.
	if _, err := run(ctx, repo.top, env, "update-index", "-q", "--refresh"); err != nil {
		return nil, err
	}
	untracked, err := runRaw(ctx, repo.top, env, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	if len(untracked) == 0 {
		return env, nil
	}
	list := filepath.Join(tmp, "untracked")
	if err := os.WriteFile(list, untracked, 0o600); err != nil {
		return nil, err
	}
	if _, err := run(ctx, repo.top, append(env, "GIT_LITERAL_PATHSPECS=1"),
		"-c", "advice.addEmbeddedRepo=false", "add", "--intent-to-add", "--pathspec-from-file="+list, "--pathspec-file-nul"); err != nil {
		return nil, err
	}
	return env, nil
}

// parseDiff reads the changed lines from the output of git diff -U0.
func parseDiff(out string) *Changes {
	ch := &Changes{Old: map[string][]LineRange{}, New: map[string][]LineRange{}, Added: map[string]bool{}, Removed: map[string]bool{}}
	var oldFile, newFile string
	header := false // in a file's header, where "--- " starts a file's name, not a removed line
	for line := range strings.Lines(out) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "diff --git "):
			oldFile, newFile, header = "", "", true
		case strings.HasPrefix(line, "@@ "):
			// @@ -a,b +c,d @@
			header = false
			f := strings.Fields(line)
			if len(f) < 3 {
				continue
			}
			if o, ok := parseRange(f[1], "-"); ok && oldFile != "" {
				ch.Old[oldFile] = append(ch.Old[oldFile], o)
			}
			if n, ok := parseRange(f[2], "+"); ok && newFile != "" {
				ch.New[newFile] = append(ch.New[newFile], n)
			}
		case !header:
			// A removed or added line.
		case strings.HasPrefix(line, "--- "):
			oldFile = diffPath(strings.TrimPrefix(line, "--- "), "a/")
		case strings.HasPrefix(line, "+++ "):
			newFile = diffPath(strings.TrimPrefix(line, "+++ "), "b/")
			if oldFile == "" && newFile != "" {
				ch.Added[newFile] = true
			}
			if newFile == "" && oldFile != "" {
				ch.Removed[oldFile] = true
			}
		}
	}
	return ch
}

// diffPath returns the file named on a "---" or "+++" line of a diff
// after the marker, without its prefix, or "" for /dev/null. Git quotes
// a name with special characters as a C string, and ends a name with a
// space with a tab.
func diffPath(s, prefix string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	} else {
		s = strings.TrimSuffix(s, "\t")
	}
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(s, prefix)
}

// parseRange parses "-a,b" or "+c,d". A range of zero lines (a pure
// insertion or deletion after line a) is taken as lines a to a+1: the
// function around the insertion point changed.
func parseRange(s, sign string) (LineRange, bool) {
	s, ok := strings.CutPrefix(s, sign)
	if !ok {
		return LineRange{}, false
	}
	startS, countS, hasCount := strings.Cut(s, ",")
	start, err := strconv.Atoi(startS)
	if err != nil {
		return LineRange{}, false
	}
	count := 1
	if hasCount {
		if count, err = strconv.Atoi(countS); err != nil {
			return LineRange{}, false
		}
	}
	if count == 0 {
		return LineRange{start, start + 1}, true
	}
	return LineRange{start, start + count - 1}, true
}

// Touches reports whether any of the ranges intersects [lo, hi].
func Touches(ranges []LineRange, lo, hi int) bool {
	for _, r := range ranges {
		if r.Lo <= hi && lo <= r.Hi {
			return true
		}
	}
	return false
}
