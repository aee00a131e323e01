package docs

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSection(t *testing.T) {
	src := "// Package p does things.\n//\n// # Analyzer p\n//\n// p: find things\n//\n// Details here.\n//\n// # Other\n//\n// Not this.\npackage p\n"
	got := Section(src, "p")
	if !strings.HasPrefix(got, "p: find things") || !strings.Contains(got, "Details here.") || strings.Contains(got, "Not this") {
		t.Errorf("Section = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Section with a missing heading did not panic")
		}
	}()
	Section(src, "q")
}

// TestPackageComment compares packageComment with go/parser's package
// comment on every doc.go of goadvise's analyzers and on comments with
// the cases CommentGroup.Text handles: directives, blank runs, a comment
// group that a blank line separates from the package clause.
func TestPackageComment(t *testing.T) {
	files, err := filepath.Glob("../../*/doc.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no doc.go found: %v", err)
	}
	srcs := map[string]string{
		"directive": "//go:build linux\n\n// Package p.\n//go:generate x\n//\n//\n//\tcode  \n// line two\n//\n//\npackage p\n",
		"separated": "// Not the doc.\n\npackage p\n",
		"none":      "package p\n",
		"spaces":    "//  two spaces\n//no space\n// line tricky: a:b\n//line x.go:1\npackage p // trailing\n",
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = string(data)
	}
	for name, src := range srcs {
		f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, wantOK := "", f.Doc != nil
		if wantOK {
			want = f.Doc.Text()
		}
		got, ok := packageComment(src)
		if got != want || ok != wantOK {
			t.Errorf("%s: packageComment = %q, %v; go/parser gives %q, %v", name, got, ok, want, wantOK)
		}
	}
}
