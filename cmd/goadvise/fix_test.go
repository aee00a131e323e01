package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestFixAcrossFiles applies a smallalloc fix that adds a field to a
// struct declared in another file, reached through a symbolic link: the
// link's target gets the field, the link stays, and the module builds. A
// read-only file first makes -fix refuse in one line and change nothing.
func TestFixAcrossFiles(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	elsewhere := t.TempDir()
	types := "package fx\n\nimport \"io\"\n\n// Parser reads records.\ntype Parser struct {\n\tsrc io.Reader\n}\n"
	if err := os.WriteFile(filepath.Join(elsewhere, "types.go"), []byte(types), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":   "module example.com/fx\n\ngo 1.26\n",
		"parse.go": "package fx\n\n// Parse reads a header.\nfunc (p *Parser) Parse() (byte, error) {\n\tbuf := make([]byte, 4)\n\t_, err := p.src.Read(buf)\n\treturn buf[0], err\n}\n\n// All parses n headers.\nfunc All(p *Parser, n int) int {\n\ttotal := 0\n\tfor range n {\n\t\tb, _ := p.Parse()\n\t\ttotal += int(b)\n\t}\n\treturn total\n}\n",
	}
	dir := t.TempDir()
	gittest.WriteFiles(t, dir, files)
	if err := os.Symlink(filepath.Join(elsewhere, "types.go"), filepath.Join(dir, "types.go")); err != nil {
		t.Fatal(err)
	}
	env := []string{"GOADVISE_CACHE=" + t.TempDir()}
	unchanged := func() {
		t.Helper()
		for name, src := range files {
			if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != src {
				t.Errorf("%s changed:\n%s", name, got)
			}
		}
		if got, _ := os.ReadFile(filepath.Join(elsewhere, "types.go")); string(got) != types {
			t.Errorf("types.go changed:\n%s", got)
		}
	}

	os.Chmod(filepath.Join(elsewhere, "types.go"), 0o444)
	_, stderr, code := runCmdEnv(t, dir, env, bin, "check", "-all", "-enable", "smallalloc", "-fix", "./...")
	if code != exitError || stderr != "goadvise: cannot fix types.go: file is read-only\n" {
		t.Errorf("-fix with a read-only file: exit %d, stderr:\n%s", code, stderr)
	}
	unchanged()

	os.Chmod(filepath.Join(elsewhere, "types.go"), 0o644)
	if _, stderr, code := runCmdEnv(t, dir, env, bin, "check", "-all", "-enable", "smallalloc", "-fix", "./..."); code != exitOK {
		t.Fatalf("-fix: exit %d\n%s", code, stderr)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "types.go")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("types.go is no longer a symbolic link")
	}
	got, _ := os.ReadFile(filepath.Join(elsewhere, "types.go"))
	if !strings.Contains(string(got), "parseBuf [4]byte") {
		t.Errorf("the struct did not get the field:\n%s", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "parse.go")); !strings.Contains(string(got), "buf := p.parseBuf[:]") {
		t.Errorf("parse.go does not use the field:\n%s", got)
	}
	if _, stderr, code := runCmd(t, dir, "go", "build", "./..."); code != 0 {
		t.Fatalf("the fixed module does not build:\n%s", stderr)
	}
}

// TestFixOldGoVersion runs -fix on a module whose go.mod says go 1.12:
// the fixes that would need package maps or slices (go1.21) are not
// applied, the report says why, and the fixed module builds.
func TestFixOldGoVersion(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	files := map[string]string{
		"go.mod": "module example.com/old\n\ngo 1.12\n",
		"eq.go": `package old

import "reflect"

// SameCounts compares two maps.
func SameCounts(a, b map[string]int) bool {
	return reflect.DeepEqual(a, b)
}

// SameIDs compares two slices.
func SameIDs(a, b []int) bool {
	return reflect.DeepEqual(a, b)
}

// SameBytes compares two byte slices.
func SameBytes(a, b []byte) bool {
	return reflect.DeepEqual(a, b)
}
`,
	}
	dir := t.TempDir()
	gittest.WriteFiles(t, dir, files)
	env := []string{"GOADVISE_CACHE=" + t.TempDir()}
	stdout, stderr, code := runCmdEnv(t, dir, env, bin, "check", "-all", "-enable", "deepequal", "./...")
	if code != exitFindings {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"no automatic fix: maps.Equal needs go1.21 and this file is go1.12", "no automatic fix: slices.Equal needs go1.21 and this file is go1.12"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report does not say %q:\n%s", want, stdout)
		}
	}
	_, stderr, code = runCmdEnv(t, dir, env, bin, "check", "-all", "-enable", "deepequal", "-fix", "./...")
	if code != exitFindings {
		t.Errorf("-fix: exit %d, want %d (two findings have no fix)\n%s", code, exitFindings, stderr)
	}
	if want := "applied 1 of 1 fix to 1 file; 2 findings have no automatic fix"; !strings.Contains(stderr, want) {
		t.Errorf("-fix: stderr does not say %q:\n%s", want, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "eq.go"))
	if !strings.Contains(string(got), "bytes.Equal(a, b)") || strings.Contains(string(got), "maps.Equal") || strings.Contains(string(got), "slices.Equal") {
		t.Errorf("eq.go after -fix:\n%s", got)
	}
	if _, stderr, code := runCmd(t, dir, "go", "build", "./..."); code != 0 {
		t.Fatalf("the fixed module does not build:\n%s", stderr)
	}
}

// TestFixBreaksImporter runs -fix where a fix would break another package
// of the module: smallalloc adds a field to Parser, which package use
// builds with an unkeyed literal. The fixes are built and vetted before
// anything is written: -fix fails, names the fix and the importer's
// error, and no file changes.
func TestFixBreaksImporter(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	files := map[string]string{
		"go.mod": "module example.com/fx\n\ngo 1.26\n",
		"parse.go": `package fx

import "io"

// Parser reads records.
type Parser struct {
	Src io.Reader
}

// Parse reads a header.
func (p *Parser) Parse() (byte, error) {
	buf := make([]byte, 4)
	_, err := p.Src.Read(buf)
	return buf[0], err
}

// All parses n headers.
func All(p *Parser, n int) int {
	total := 0
	for range n {
		b, _ := p.Parse()
		total += int(b)
	}
	return total
}
`,
		"use/use.go": `// Package use builds a Parser with an unkeyed literal.
package use

import (
	"strings"

	"example.com/fx"
)

// Header parses the header of s.
func Header(s string) byte {
	p := fx.Parser{strings.NewReader(s)}
	b, _ := p.Parse()
	return b
}
`,
	}
	dir := t.TempDir()
	gittest.WriteFiles(t, dir, files)
	env := []string{"GOADVISE_CACHE=" + t.TempDir()}
	_, stderr, code := runCmdEnv(t, dir, env, bin, "check", "-all", "-enable", "smallalloc", "-fix", "./...")
	if code != exitError {
		t.Errorf("-fix: exit %d, want %d", code, exitError)
	}
	for _, want := range []string{
		"goadvise: the fixes would break the build, so no file was written:",
		"use/use.go:12:37: too few values in struct literal of type fx.Parser",
		"by 1 fix:\n\tparse.go:12: smallalloc: ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-fix: stderr does not say %q:\n%s", want, stderr)
		}
	}
	for name, src := range files {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != src {
			t.Errorf("%s changed:\n%s", name, got)
		}
	}
}
