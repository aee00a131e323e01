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

	"github.com/goadvise/goadvise/internal/plural"
)

// A FixResult is the outcome of applying the fixes of a set of findings.
type FixResult struct {
	Files    map[string]FileChange // by absolute path
	Applied  int                   // fixes applied
	Skipped  []string              // fixes not applied, with the reason
	Findings int                   // findings that had a fix
	Fixes    []AppliedFix          // the fixes applied, in rank order
}

// Summary says what applying r did, for the findings of which it applied
// the fixes: "applied 3 of 4 fixes to 2 files; 1 finding has no automatic
// fix".
func (r *FixResult) Summary(findings int) string {
	return fmt.Sprintf("applied %d of %s to %s; %s no automatic fix", r.Applied, plural.Count(r.Findings, "fix", "fixes"),
		plural.Count(len(r.Files), "file", "files"), plural.Count(findings-r.Findings, "finding has", "findings have"))
}

// Write writes the fixed files, all or none, after checking that the
// changed packages and their importers in the module in modDir build and
// vet with them (CheckBuild): a cancelled ctx before the last write
// restores them.
func (r *FixResult) Write(ctx context.Context, modDir string) error {
	if err := CheckBuild(ctx, modDir, nil, r); err != nil {
		return err
	}
	return WriteFiles(ctx, r)
}

// An AppliedFix is one fix of a FixResult: which finding it fixes, and
// the files it edits.
type AppliedFix struct {
	Name  string   // the finding: "parse.go:5: smallalloc: Declare buf before the loop"
	Files []string // absolute paths
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
		af := AppliedFix{Name: fmt.Sprintf("%s:%d: %s", filepath.Base(f.File), f.Line, f.Analyzer)}
		if fix.Message != "" {
			af.Name += ": " + fix.Message
		}
		for _, e := range fresh {
			taken[e.File] = append(taken[e.File], e)
			if !slices.Contains(af.Files, e.File) {
				af.Files = append(af.Files, e.File)
			}
		}
		res.Fixes = append(res.Fixes, af)
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

// ChangesBehaviour returns, for a finding whose change alters what the
// code does on some inputs (deepequal's replacements of reflect.DeepEqual
// that treat nil and empty alike), what changes; "" for the others.
func ChangesBehaviour(f Finding) string {
	return f.Behaviour
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

// fixHook, when a test sets it, is called before each step of WriteFiles
// with the step ("stage", "commit" or "restore") and the file; an error it
// returns is taken as that step's failure.
var fixHook func(step, file string) error

func hook(step, file string) error {
	if fixHook == nil {
		return nil
	}
	return fixHook(step, file)
}

// A pending write is one file of a WriteFiles transaction.
type pending struct {
	name    string      // the file as the fixes name it
	target  string      // the file written: name with symlinks resolved
	fi      os.FileInfo // target's, when planned
	old     []byte
	new     []byte
	inPlace bool   // hard-linked: rewritten in place, not renamed over
	tmp     string // the new content, beside target (renamed files)
	backup  string // a copy of the original content, beside target
	changed bool   // target may no longer hold old
}

// WriteFiles writes the new contents of all the files as one transaction,
// as gofmt -w would write each: through a symbolic link to its target,
// keeping the mode, and in place for a file with other hard links. A file
// that is read-only, or that changed since it was read, is refused and
// nothing is written. Otherwise every new content and a backup of every
// original are first written beside the files, then the files are
// replaced (renamed over, or rewritten in place last for hard-linked
// files). On an error or a cancelled ctx (Ctrl-C) before the last file is
// replaced, the replaced files are restored from their backups: every file
// is then as before, and no temporary file is left. If a file cannot be
// restored, the error names it and the backup that holds its original.
func WriteFiles(ctx context.Context, res *FixResult) error {
	files, err := planWrites(res)
	if err != nil {
		return err
	}
	defer func() {
		for _, p := range files {
			if p.tmp != "" {
				os.Remove(p.tmp)
			}
			if p.backup != "" {
				os.Remove(p.backup)
			}
		}
	}()
	for _, p := range files {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted before writing %s; no file was changed: %w", display(p.name), err)
		}
		if err := p.stage(); err != nil {
			return fmt.Errorf("writing %s: %w; no file was changed", display(p.name), err)
		}
	}
	// Renames first: a rename cannot fail halfway, a rewrite in place can.
	slices.SortStableFunc(files, func(a, b *pending) int {
		if a.inPlace == b.inPlace {
			return 0
		}
		if a.inPlace {
			return 1
		}
		return -1
	})
	for _, p := range files {
		err := hook("commit", p.name)
		if err == nil && ctx.Err() != nil {
			err = fmt.Errorf("interrupted before writing %s: %w", display(p.name), ctx.Err())
		} else {
			if err == nil {
				err = p.commit()
			}
			if err != nil {
				err = fmt.Errorf("writing %s: %w", display(p.name), err)
			}
		}
		if err != nil {
			return rollback(files, err)
		}
	}
	return nil
}

// planWrites checks that every file of res can be written and finds how.
func planWrites(res *FixResult) ([]*pending, error) {
	var files []*pending
	for _, name := range sortedKeys(res.Files) {
		p := &pending{name: name, old: res.Files[name].Old, new: res.Files[name].New}
		target, err := filepath.EvalSymlinks(name)
		if err != nil {
			return nil, fmt.Errorf("cannot fix %s: %w", display(name), err)
		}
		p.target = target
		if p.fi, err = os.Stat(target); err != nil {
			return nil, fmt.Errorf("cannot fix %s: %w", display(name), err)
		}
		switch {
		case !p.fi.Mode().IsRegular():
			return nil, fmt.Errorf("cannot fix %s: not a regular file", display(name))
		case p.fi.Mode().Perm()&0o200 == 0:
			// Checked on the mode, as the owner may be able to write
			// anyway (root can): a read-only file is meant to stay.
			return nil, fmt.Errorf("cannot fix %s: file is read-only", display(name))
		}
		for _, q := range files {
			if os.SameFile(p.fi, q.fi) {
				return nil, fmt.Errorf("cannot fix %s: it is the same file as %s", display(name), display(q.name))
			}
		}
		cur, err := os.ReadFile(target)
		if err != nil {
			return nil, fmt.Errorf("cannot fix %s: %w", display(name), err)
		}
		if !bytes.Equal(cur, p.old) {
			return nil, fmt.Errorf("cannot fix %s: the file changed since it was analysed", display(name))
		}
		p.inPlace = hardLinked(p.fi)
		files = append(files, p)
	}
	return files, nil
}

// stage writes the backup of p's original and, unless p is rewritten in
// place, its new content, beside its target.
func (p *pending) stage() error {
	if err := hook("stage", p.name); err != nil {
		return err
	}
	var err error
	if p.backup, err = writeTemp(p.target, ".goadvise-orig-*", p.old, p.fi.Mode().Perm()); err != nil {
		return err
	}
	if !p.inPlace {
		p.tmp, err = writeTemp(p.target, ".goadvise-*", p.new, p.fi.Mode().Perm())
	}
	return err
}

// commit replaces the content of p's target with the new one.
func (p *pending) commit() error {
	if !p.inPlace {
		if err := os.Rename(p.tmp, p.target); err != nil {
			return err
		}
		p.tmp = ""
		p.changed = true
		return nil
	}
	p.changed = true // a failed write may have truncated it
	return writeInPlace(p.target, p.new)
}

// restore puts p's original content back.
func (p *pending) restore() error {
	if err := hook("restore", p.name); err != nil {
		return err
	}
	if !p.inPlace {
		if err := os.Rename(p.backup, p.target); err != nil {
			return err
		}
		p.backup = ""
		return nil
	}
	return writeInPlace(p.target, p.old)
}

// rollback restores the files already changed after err and returns err,
// completed with the files that could not be restored.
func rollback(files []*pending, err error) error {
	var kept []string
	for _, p := range slices.Backward(files) {
		if !p.changed {
			continue
		}
		if rerr := p.restore(); rerr != nil {
			kept = append(kept, fmt.Sprintf("%s (could not restore it: %v; its original is in %s)", display(p.name), rerr, display(p.backup)))
			p.backup = "" // keep it
		}
	}
	if len(kept) == 0 {
		return fmt.Errorf("%w; no file was changed", err)
	}
	slices.Reverse(kept)
	return fmt.Errorf("%w; still changed: %s; every other file is unchanged", err, strings.Join(kept, ", "))
}

// writeTemp writes data to a new file beside file, named after it with
// pattern, with the given mode, and returns its name.
func writeTemp(file, pattern string, data []byte, mode os.FileMode) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+pattern)
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// writeInPlace overwrites file with data, keeping its inode and so its
// other hard links.
func writeInPlace(file string, data []byte) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// display returns file relative to the current directory if it is
// under it, for messages.
func display(file string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, file); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return file
}

func sortedKeys(m map[string]FileChange) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
