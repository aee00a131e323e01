package report

import (
	"context"
	"os"
	"path/filepath"
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
