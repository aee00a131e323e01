package report

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestApplyFixes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.go")
	src := "package p\n\nimport (\n\t\"reflect\"\n\tfoo \"example.com/bar\"\n)\n\nfunc f(a, b []byte) bool { return reflect.DeepEqual(a, b) }\n\nvar _ = foo.X\n"
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	at := func(s string) (int, int) {
		i := strings.Index(src, s)
		return i, i + len(s)
	}
	s1, e1 := at("reflect.DeepEqual(a, b)")
	imp, _ := at("\t\"reflect\"")
	add := Edit{File: file, Start: imp, End: imp, New: "\t\"bytes\"\n"}
	findings := []Finding{
		{Analyzer: "x", File: file, Fixes: []Fix{{Edits: []Edit{add, {File: file, Start: s1, End: e1, New: "bytes.Equal(a, b)"}}}}},
		// Overlaps the first fix's replacement: skipped.
		{Analyzer: "y", File: file, Fixes: []Fix{{Edits: []Edit{{File: file, Start: s1 + 2, End: s1 + 4, New: "zz"}}}}},
		// Adds the same import with an identical edit: merged.
		{Analyzer: "z", File: file, Fixes: []Fix{{Edits: []Edit{add}}}},
		{Analyzer: "w", File: file}, // no fix
	}
	res, err := ApplyFixes(findings, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied != 2 || len(res.Skipped) != 1 || res.Findings != 3 {
		t.Errorf("applied %d, skipped %v, findings with fixes %d; want 2, 1, 3", res.Applied, res.Skipped, res.Findings)
	}
	got := string(res.Files[file].New)
	want := "package p\n\nimport (\n\t\"bytes\"\n\tfoo \"example.com/bar\"\n)\n\nfunc f(a, b []byte) bool { return bytes.Equal(a, b) }\n\nvar _ = foo.X\n"
	if got != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
	// Nothing is written until WriteFiles.
	if now, _ := os.ReadFile(file); string(now) != src {
		t.Fatal("ApplyFixes wrote the file")
	}
	if err := WriteFiles(context.Background(), res); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(file); string(now) != want {
		t.Errorf("WriteFiles wrote:\n%s", now)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("WriteFiles changed the mode to %v", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("WriteFiles left %d files in the directory", len(entries))
	}
}

func TestApplyFixesStaleFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.go")
	os.WriteFile(file, []byte("package p\n"), 0o644)
	_, err := ApplyFixes([]Finding{{File: file, Fixes: []Fix{{Edits: []Edit{{File: file, Start: 5, End: 500}}}}}}, os.ReadFile)
	if err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("edit past the end of the file: err = %v", err)
	}
}

// fixModule is a module whose fixes span three files: other.go gets an
// independent fix, and a smallalloc-like fix adds a field to the struct in
// types.go and uses it in parse.go. parse.go fixed without types.go does
// not compile.
var fixModule = map[string]string{
	"go.mod":   "module example.com/fx\n\ngo 1.26\n",
	"other.go": "package fx\n\nimport (\n\t\"reflect\"\n)\n\n// Same compares.\nfunc Same(a, b []byte) bool { return reflect.DeepEqual(a, b) }\n",
	"parse.go": "package fx\n\n// Parse reads a header.\nfunc (p *Parser) Parse() (byte, error) {\n\tbuf := make([]byte, 4)\n\t_, err := p.src.Read(buf)\n\treturn buf[0], err\n}\n",
	"types.go": "package fx\n\nimport \"io\"\n\n// Parser reads records.\ntype Parser struct {\n\tsrc io.Reader\n}\n",
}

// writeModule writes files into a new directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// moduleFixes returns the findings with fixes for fixModule in dir.
func moduleFixes(dir string) []Finding {
	edit := func(name, old, new string, insert bool) Edit {
		src := fixModule[name]
		i := strings.Index(src, old)
		e := Edit{File: filepath.Join(dir, name), Start: i, End: i + len(old), New: new}
		if insert {
			e.End = e.Start
		}
		return e
	}
	return []Finding{
		{Analyzer: "smallalloc", File: filepath.Join(dir, "parse.go"), Fixes: []Fix{{Edits: []Edit{
			edit("types.go", "}\n", "\tparseBuf [4]byte // scratch space for (*Parser).Parse\n", true),
			edit("parse.go", "make([]byte, 4)", "p.parseBuf[:]\n\tclear(buf)", false),
		}}}},
		{Analyzer: "deepequal", File: filepath.Join(dir, "other.go"), Fixes: []Fix{{Edits: []Edit{
			edit("other.go", "\"reflect\"", "\"bytes\"\n\t", true),
			edit("other.go", "reflect.DeepEqual", "bytes.Equal", false),
		}}}},
	}
}

// goBuild runs go build ./... in dir.
func goBuild(t *testing.T, dir string) error {
	t.Helper()
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v\n%s", err, out)
	}
	return nil
}

// checkUntouched fails t unless every file of fixModule in dir is as
// written, no other file is there, and the module builds.
func checkUntouched(t *testing.T, dir string) {
	t.Helper()
	for name, src := range fixModule {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != src {
			t.Errorf("%s changed:\n%s", name, got)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if _, ok := fixModule[e.Name()]; !ok {
			t.Errorf("left in the directory: %s", e.Name())
		}
	}
	if err := goBuild(t, dir); err != nil {
		t.Errorf("the module no longer builds: %v", err)
	}
}

func setHook(t *testing.T, h func(step, file string) error) {
	fixHook = h
	t.Cleanup(func() { fixHook = nil })
}

// TestWriteFilesMultiFile applies a fix that spans two files and another
// fix: all three files change and the module builds.
func TestWriteFilesMultiFile(t *testing.T) {
	dir := writeModule(t, fixModule)
	res, err := ApplyFixes(moduleFixes(dir), os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(context.Background(), res); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"other.go", "parse.go", "types.go"} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) == fixModule[name] {
			t.Errorf("%s was not fixed", name)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "types.go")); !strings.Contains(string(got), "parseBuf [4]byte") {
		t.Errorf("types.go lacks the field:\n%s", got)
	}
	if err := goBuild(t, dir); err != nil {
		t.Fatalf("the fixed module does not build: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != len(fixModule) {
		t.Errorf("%d files in the directory, want %d", len(entries), len(fixModule))
	}
}

// TestWriteFilesFaults injects a failure or an interrupt at each step of a
// multi-file fix: afterwards every file is byte-identical to before, no
// temporary file is left, and the module builds.
func TestWriteFilesFaults(t *testing.T) {
	fail := errors.New("injected failure")
	for _, tc := range []struct {
		name      string
		step      string // fail at this step
		file      string // of this file
		interrupt bool   // cancel the context instead of failing
		hardLink  bool   // types.go has a second name: rewritten in place
		want      string // in the error
	}{
		{name: "write of the middle file fails", step: "stage", file: "parse.go", want: "writing parse.go: injected failure; no file was changed"},
		{name: "write of the last file fails", step: "stage", file: "types.go", want: "writing types.go: injected failure; no file was changed"},
		{name: "signal between two renames", step: "commit", file: "types.go", interrupt: true, want: "interrupted before writing types.go: context canceled; no file was changed"},
		{name: "rename of the last file fails", step: "commit", file: "types.go", want: "writing types.go: injected failure; no file was changed"},
		{name: "signal before the rewrite in place", step: "commit", file: "types.go", interrupt: true, hardLink: true, want: "no file was changed"},
		{name: "rewrite in place fails", step: "commit", file: "types.go", hardLink: true, want: "writing types.go: injected failure; no file was changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeModule(t, fixModule)
			t.Chdir(dir)
			if tc.hardLink {
				other := filepath.Join(t.TempDir(), "types.go")
				if err := os.Link(filepath.Join(dir, "types.go"), other); err != nil {
					t.Fatal(err)
				}
				defer func() {
					if got, _ := os.ReadFile(other); string(got) != fixModule["types.go"] {
						t.Errorf("the other name of types.go changed:\n%s", got)
					}
				}()
			}
			res, err := ApplyFixes(moduleFixes(dir), os.ReadFile)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			setHook(t, func(step, file string) error {
				if step != tc.step || filepath.Base(file) != tc.file {
					return nil
				}
				if tc.interrupt {
					cancel()
					return nil
				}
				return fail
			})
			err = WriteFiles(ctx, res)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			checkUntouched(t, dir)
		})
	}
}

// TestWriteFilesRestoreFails makes the restore of a renamed file fail
// after a later file failed: the error names the file left changed and
// the backup that holds its original.
func TestWriteFilesRestoreFails(t *testing.T) {
	dir := writeModule(t, fixModule)
	t.Chdir(dir)
	res, err := ApplyFixes(moduleFixes(dir), os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	setHook(t, func(step, file string) error {
		if (step == "commit" && filepath.Base(file) == "types.go") || (step == "restore" && filepath.Base(file) == "parse.go") {
			return errors.New("injected failure")
		}
		return nil
	})
	err = WriteFiles(context.Background(), res)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	m := regexp.MustCompile(`^writing types\.go: injected failure; still changed: parse\.go \(could not restore it: injected failure; its original is in (\.parse\.go\.goadvise-orig-\d+)\); every other file is unchanged$`).FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("err = %s", msg)
	}
	if got, _ := os.ReadFile(m[1]); string(got) != fixModule["parse.go"] {
		t.Errorf("the backup %s holds:\n%s", m[1], got)
	}
	if got, _ := os.ReadFile("parse.go"); string(got) != string(res.Files[filepath.Join(dir, "parse.go")].New) {
		t.Errorf("parse.go is not the fixed one:\n%s", got)
	}
	for _, name := range []string{"other.go", "types.go"} {
		if got, _ := os.ReadFile(name); string(got) != fixModule[name] {
			t.Errorf("%s changed", name)
		}
	}
}

// fixOne returns the result of a fix that appends a line to file.
func fixOne(t *testing.T, file string) *FixResult {
	t.Helper()
	old, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ApplyFixes([]Finding{{File: file, Fixes: []Fix{{Edits: []Edit{{File: file, Start: len(old), End: len(old), New: "\nvar X = 1\n"}}}}}}, os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestWriteFilesSymlink writes through a symbolic link, as gofmt -w does:
// the target changes and the link stays a link.
func TestWriteFilesSymlink(t *testing.T) {
	dir, real := t.TempDir(), t.TempDir()
	target := filepath.Join(real, "p.go")
	if err := os.WriteFile(target, []byte("package p\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "p.go")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(context.Background(), fixOne(t, link)); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("p.go is no longer a symbolic link (%v, %v)", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(target); string(got) != "package p\n\nvar X = 1\n" {
		t.Errorf("the link's target holds:\n%s", got)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("the target's mode is %v, want 0640", fi.Mode().Perm())
	}
	for _, d := range []string{dir, real} {
		if entries, _ := os.ReadDir(d); len(entries) != 1 {
			t.Errorf("%d files left in %s", len(entries), d)
		}
	}
}

// TestWriteFilesHardLink rewrites a file with two names in place: both
// names see the fix and stay one file.
func TestWriteFilesHardLink(t *testing.T) {
	dir := t.TempDir()
	file, other := filepath.Join(dir, "p.go"), filepath.Join(dir, "q.txt")
	if err := os.WriteFile(file, []byte("package p\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(file, other); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(context.Background(), fixOne(t, file)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{file, other} {
		if got, _ := os.ReadFile(name); string(got) != "package p\n\nvar X = 1\n" {
			t.Errorf("%s holds:\n%s", filepath.Base(name), got)
		}
	}
	a, _ := os.Stat(file)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the hard link was broken")
	}
	if a.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", a.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files left in the directory", len(entries))
	}
}

// TestWriteFilesReadOnly refuses a read-only file in one line and applies
// none of the fixes, even to writable files (also when running as root,
// who could write it).
func TestWriteFilesReadOnly(t *testing.T) {
	dir := writeModule(t, fixModule)
	t.Chdir(dir)
	if err := os.Chmod("types.go", 0o444); err != nil {
		t.Fatal(err)
	}
	res, err := ApplyFixes(moduleFixes(dir), os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	err = WriteFiles(context.Background(), res)
	if err == nil || err.Error() != "cannot fix types.go: file is read-only" {
		t.Errorf("err = %v, want cannot fix types.go: file is read-only", err)
	}
	checkUntouched(t, dir)
	if fi, _ := os.Stat("types.go"); fi.Mode().Perm() != 0o444 {
		t.Errorf("mode %v, want 0444", fi.Mode().Perm())
	}
}

// TestWriteFilesChanged refuses a file that changed since it was read.
func TestWriteFilesChanged(t *testing.T) {
	dir := writeModule(t, fixModule)
	t.Chdir(dir)
	res, err := ApplyFixes(moduleFixes(dir), os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	edited := fixModule["types.go"] + "\n// Edited meanwhile.\n"
	os.WriteFile("types.go", []byte(edited), 0o644)
	err = WriteFiles(context.Background(), res)
	if err == nil || err.Error() != "cannot fix types.go: the file changed since it was analysed" {
		t.Errorf("err = %v", err)
	}
	for _, name := range []string{"other.go", "parse.go"} {
		if got, _ := os.ReadFile(name); string(got) != fixModule[name] {
			t.Errorf("%s changed", name)
		}
	}
}
