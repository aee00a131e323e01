// Package docs extracts an analyzer's documentation from the package
// comment of its doc.go, so that the text shown by "goadvise help NAME",
// "go vet help" and pkg.go.dev is written once.
package docs

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// Section returns the "# Analyzer NAME" section of the package comment in
// the Go source src (the content of a doc.go file), with the heading
// removed. It panics if the section is missing, since that is a build-time
// mistake in an analyzer package.
func Section(src, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		panic(fmt.Sprintf("docs: no package comment in doc.go of %s: %v", name, err))
	}
	text := f.Doc.Text()
	heading := "# Analyzer " + name
	i := strings.Index(text, heading)
	if i < 0 {
		panic("docs: doc.go has no " + heading + " section")
	}
	text = text[i+len(heading):]
	if j := strings.Index(text, "\n# "); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSpace(text)
}
