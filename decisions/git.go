package decisions

import (
	"bufio"
	"context"
	"strconv"
	"strings"

	"github.com/goadvise/goadvise/worktree"
)

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
func diffLines(ctx context.Context, repo *worktree.Repo, base, head string) (*changes, error) {
	args := []string{"-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", base}
	if head != "" {
		args = append(args, head)
	}
	args = append(args, "--")
	out, err := repo.Git(ctx, args...)
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
		untracked, err := repo.Git(ctx, "-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard")
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
