package report

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// A FixResult is the outcome of applying the fixes of a set of findings.
type FixResult struct {
	Files    map[string]FileChange // by absolute path
	Applied  int                   // fixes applied
	Skipped  []string              // fixes not applied, with the reason
	Findings int                   // findings that had a fix
}

// FileChange is the old and new content of one fixed file.
type FileChange struct {
	Old, New []byte
}

// ApplyFixes computes the result of applying the first fix of each finding.
// Fixes are applied in rank order; a fix that overlaps one already taken
// (other than by an identical edit) is skipped, so that every applied fix
// is applied whole. After the edits, each Go file has imports that it no
// longer uses removed and is formatted with gofmt. Nothing is written.
func ApplyFixes(findings []Finding, readFile func(string) ([]byte, error)) (*FixResult, error) {
	res := &FixResult{Files: make(map[string]FileChange)}
	taken := make(map[string][]Edit) // file -> accepted edits
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			continue
		}
		res.Findings++
		fix := f.Fixes[0]
		var fresh []Edit
		conflict := ""
	edits:
		for _, e := range fix.Edits {
			for _, t := range taken[e.File] {
				if t == e {
					continue edits // identical edit, e.g. the same import added twice
				}
				if overlaps(t, e) {
					conflict = fmt.Sprintf("%s:%d: %s: overlaps another fix", filepath.Base(f.File), f.Line, f.Analyzer)
					break edits
				}
			}
			for _, t := range fresh {
				if overlaps(t, e) {
					conflict = fmt.Sprintf("%s:%d: %s: fix has overlapping edits", filepath.Base(f.File), f.Line, f.Analyzer)
					break edits
				}
			}
			fresh = append(fresh, e)
		}
		if conflict != "" {
			res.Skipped = append(res.Skipped, conflict+" (run again to apply it)")
			continue
		}
		for _, e := range fresh {
			taken[e.File] = append(taken[e.File], e)
		}
		res.Applied++
	}

	files := make([]string, 0, len(taken))
	for file := range taken {
		files = append(files, file)
	}
	slices.Sort(files)
	for _, file := range files {
		old, err := readFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading %s for fixes: %w", file, err)
		}
		edits := taken[file]
		slices.SortStableFunc(edits, func(a, b Edit) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End)) })
		var buf bytes.Buffer
		last := 0
		for _, e := range edits {
			if e.Start < last || e.End > len(old) || e.Start > e.End {
				return nil, fmt.Errorf("%s: fix edit [%d,%d) is out of range (file changed since analysis?)", file, e.Start, e.End)
			}
			buf.Write(old[last:e.Start])
			buf.WriteString(e.New)
			last = e.End
		}
		buf.Write(old[last:])
		out := buf.Bytes()
		if strings.HasSuffix(file, ".go") {
			formatted, err := tidyGo(file, old, out)
			if err != nil {
				return nil, fmt.Errorf("%s: fixed source does not parse: %w", file, err)
			}
			out = formatted
		}
		res.Files[file] = FileChange{Old: old, New: out}
	}
	return res, nil
}

func overlaps(a, b Edit) bool {
	if a.File != b.File {
		return false
	}
	// Two insertions at one point do not overlap: they are applied in rank
	// order (typically two fixes that each add an import).
	return a.Start < b.End && b.Start < a.End
}

// tidyGo removes the imports that the fixed file src no longer refers to
// and formats it. An import is removed only if its name was used as a
// selector qualifier in the original file old and is not in src, so a wrong
// guess of a package's name can keep an unused import but never drop a
// used one.
func tidyGo(filename string, old, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	was := qualifiers(old)
	now := qualifiers(src)
	type spec struct{ name, path string }
	var unused []spec
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || name == "." || path == "C" {
			continue
		}
		effective := name
		if effective == "" {
			effective = guessName(path)
		}
		if was[effective] && !now[effective] {
			unused = append(unused, spec{name, path})
		}
	}
	// Delete after the loop: deletion edits f.Imports.
	for _, u := range unused {
		astutil.DeleteNamedImport(fset, f, u.name, u.path)
	}
	ast.SortImports(fset, f)
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// qualifiers returns the identifiers used as the left operand of a selector
// in the Go source src (nil if it does not parse).
func qualifiers(src []byte) map[string]bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	used := make(map[string]bool)
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	return used
}

// guessName returns the conventional package name of an import path: its
// last element, without a major-version suffix, a "go-" prefix or a
// ".vN"-style suffix.
func guessName(path string) string {
	elem := path[strings.LastIndex(path, "/")+1:]
	if len(elem) >= 2 && elem[0] == 'v' && strings.Trim(elem[1:], "0123456789") == "" {
		if i := strings.LastIndex(path[:len(path)-len(elem)-1], "/"); i >= 0 {
			elem = path[i+1 : len(path)-len(elem)-1]
		}
	}
	elem = strings.TrimPrefix(elem, "go-")
	if i := strings.IndexAny(elem, ".-"); i >= 0 {
		elem = elem[:i]
	}
	return elem
}

// WriteFiles writes the new contents atomically: each file is written to a
// temporary file in its directory, then renamed over the original, keeping
// its permissions. When ctx is cancelled (Ctrl-C) it stops between files:
// every file is then either untouched or completely fixed, and no
// temporary file is left.
func WriteFiles(ctx context.Context, res *FixResult) error {
	for _, file := range sortedKeys(res.Files) {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted before writing %s: %w", file, err)
		}
		if err := writeAtomic(file, res.Files[file].New); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys(m map[string]FileChange) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func writeAtomic(file string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".goadvise-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(name, mode)
	}
	if werr == nil {
		werr = os.Rename(name, file)
	}
	if werr != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", file, werr)
	}
	return nil
}
