package worktree

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// source is a Go file of n lines, whose variables' names start with name.
func source(name string, n int) string {
	var b strings.Builder
	b.WriteString("package p\n")
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "var %s%d = %d\n", name, i, i)
	}
	return b.String()
}

// editLine returns src with its line n (1-based) replaced.
func editLine(src string, n int, line string) string {
	lines := strings.SplitAfter(src, "\n")
	lines[n-1] = line + "\n"
	return strings.Join(lines, "")
}

// TestChangesRenames checks that Changes follows renames and copies as git
// does, staged or not, and with the new name untracked: a file moved as it
// is has no changed line, a file moved and edited has only the edited
// lines, and a copy is new only where it differs from its source. The
// user's index and working tree are left as they were.
func TestChangesRenames(t *testing.T) {
	tmp := isolate(t)
	a, b, c := source("a", 40), source("b", 30), source("c", 35)
	edited := editLine(a, 12, "var edited = 12")
	for _, tc := range []struct {
		name string
		// change changes the repository's working tree (and index).
		change func(t *testing.T, dir string)
		// new are the changed lines by file, added the files wholly new.
		new   map[string][]LineRange
		added []string
	}{{
		name:   "git mv",
		change: func(t *testing.T, dir string) { gittest.Git(t, dir, "mv", "a.go", "renamed.go") },
	}, {
		name: "git mv and edit, staged",
		change: func(t *testing.T, dir string) {
			gittest.Git(t, dir, "mv", "a.go", "renamed.go")
			gittest.WriteFiles(t, dir, map[string]string{"renamed.go": edited})
			gittest.Git(t, dir, "add", "renamed.go")
		},
		new: map[string][]LineRange{"renamed.go": {{12, 12}}},
	}, {
		name: "git mv and edit, unstaged",
		change: func(t *testing.T, dir string) {
			gittest.Git(t, dir, "mv", "a.go", "renamed.go")
			gittest.WriteFiles(t, dir, map[string]string{"renamed.go": edited})
		},
		new: map[string][]LineRange{"renamed.go": {{12, 12}}},
	}, {
		name:   "mv, untracked",
		change: func(t *testing.T, dir string) { mv(t, dir, "a.go", "sub/renamed.go") },
	}, {
		name: "mv and edit, untracked",
		change: func(t *testing.T, dir string) {
			mv(t, dir, "a.go", "renamed.go")
			gittest.WriteFiles(t, dir, map[string]string{"renamed.go": edited})
		},
		new: map[string][]LineRange{"renamed.go": {{12, 12}}},
	}, {
		name: "copy, untracked, and a new file",
		change: func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"copy.go": edited, "new.go": "package p\n"})
		},
		new:   map[string][]LineRange{"copy.go": {{12, 12}}, "new.go": {{1, 1}}},
		added: []string{"new.go"},
	}, {
		name: "copy, staged",
		change: func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"copy.go": edited})
			gittest.Git(t, dir, "add", "copy.go")
		},
		new: map[string][]LineRange{"copy.go": {{12, 12}}},
	}, {
		name: "two renames and an edit in place",
		change: func(t *testing.T, dir string) {
			gittest.Git(t, dir, "mv", "b.go", "b2.go")
			mv(t, dir, "c.go", "c2.go")
			gittest.WriteFiles(t, dir, map[string]string{"a.go": editLine(a, 3, "var edited = 3")})
		},
		new: map[string][]LineRange{"a.go": {{3, 3}}},
	}, {
		name: "names git quotes, and added lines that look like a header",
		change: func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{
				"sp ace.go": "package p\n", `q"uote.go`: "package p\n", "tab\t.go": "package p\n",
				"a.go": editLine(editLine(a, 5, "var s = `\n++ b/x.go\n--- a/x.go`"), 30, "var edited = 30"),
			})
		},
		new: map[string][]LineRange{
			"a.go": {{5, 7}, {30, 30}}, "sp ace.go": {{1, 1}}, `q"uote.go`: {{1, 1}}, "tab\t.go": {{1, 1}},
		},
		added: []string{"q\"uote.go", "sp ace.go", "tab\t.go"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.NewRepo(t, map[string]string{"a.go": a, "b.go": b, "c.go": c})
			tc.change(t, dir)
			before := gittest.Snapshot(t, dir)
			repo, err := Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			ch, err := repo.Changes(context.Background(), "HEAD", "")
			if err != nil {
				t.Fatal(err)
			}
			gittest.CheckSnapshot(t, dir, before)
			checkClean(t, dir, tmp)
			var added []string
			for f := range ch.Added {
				added = append(added, f)
			}
			slices.Sort(added)
			if !slices.Equal(added, tc.added) {
				t.Errorf("added files %q, want %q", added, tc.added)
			}
			for f, rs := range ch.New {
				if !slices.Equal(rs, tc.new[f]) {
					t.Errorf("changed lines of %s: %v, want %v", f, rs, tc.new[f])
				}
			}
			for f, rs := range tc.new {
				if _, ok := ch.New[f]; !ok {
					t.Errorf("changed lines of %s: none, want %v", f, rs)
				}
			}
		})
	}
}

// mv renames a file of the working tree without telling git.
func mv(t *testing.T, dir, from, to string) {
	t.Helper()
	to = filepath.Join(dir, filepath.FromSlash(to))
	if err := os.MkdirAll(filepath.Dir(to), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, from), to); err != nil {
		t.Fatal(err)
	}
}
