package worktree

import (
	"bufio"
	"context"
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
func (repo *Repo) Changes(ctx context.Context, base, head string) (*Changes, error) {
	args := []string{"-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", base}
	if head != "" {
		args = append(args, head)
	}
	args = append(args, "--")
	out, err := repo.Git(ctx, args...)
	if err != nil {
		return nil, err
	}
	ch := &Changes{Old: map[string][]LineRange{}, New: map[string][]LineRange{}, Added: map[string]bool{}, Removed: map[string]bool{}}
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
				ch.Added[newFile] = true
			}
			if newFile == "/dev/null" {
				ch.Removed[oldFile] = true
			}
		case strings.HasPrefix(line, "@@ "):
			// @@ -a,b +c,d @@
			f := strings.Fields(line)
			if len(f) < 3 {
				continue
			}
			if o, ok := parseRange(f[1], "-"); ok {
				ch.Old[oldFile] = append(ch.Old[oldFile], o)
			}
			if n, ok := parseRange(f[2], "+"); ok {
				ch.New[newFile] = append(ch.New[newFile], n)
			}
		}
	}
	if head == "" {
		// Untracked files are not in git diff's output.
		untracked, err := repo.Git(ctx, "-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard")
		if err != nil {
			return nil, err
		}
		for _, f := range strings.Split(untracked, "\n") {
			if f != "" {
				ch.Added[f] = true
			}
		}
	}
	return ch, nil
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
