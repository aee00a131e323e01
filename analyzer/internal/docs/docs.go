// Package docs extracts an analyzer's documentation from the package
// comment of its doc.go, so that the text shown by "goadvise help NAME",
// "go vet help" and pkg.go.dev is written once.
package docs

import (
	"fmt"
	"strings"
)

// Section returns the "# Analyzer NAME" section of the package comment in
// the Go source src (the content of a doc.go file), with the heading
// removed. It panics if the section is missing, since that is a build-time
// mistake in an analyzer package.
//
// Every goadvise process, each of go vet's units among them, calls it for
// every analyzer as it starts, so it reads the comment's lines itself
// instead of parsing the file: the package comment of a doc.go is the
// group of // comments just before the package clause.
func Section(src, name string) string {
	text, ok := packageComment(src)
	if !ok {
		panic(fmt.Sprintf("docs: no package comment in doc.go of %s", name))
	}
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

// packageComment returns the text of the group of line comments that ends
// on the line before the package clause of src, as go/ast's
// CommentGroup.Text gives it, or false if there is none. Block comments
// are not recognised: no doc.go of goadvise uses them.
func packageComment(src string) (string, bool) {
	var group []string
	for line := range strings.Lines(src) {
		line = strings.TrimRight(line, " \t\r\n")
		switch {
		case strings.HasPrefix(line, "//"):
			group = append(group, line)
		case strings.HasPrefix(line, "package "):
			if len(group) == 0 {
				return "", false
			}
			return commentText(group), true
		default:
			// A blank line or anything else ends the group.
			group = nil
		}
	}
	return "", false
}

// commentText is CommentGroup.Text for line comments: the markers and one
// following space removed, directives (//go:embed) dropped, trailing
// spaces trimmed, blank lines at the start and end removed and runs of
// blank lines reduced to one.
func commentText(comments []string) string {
	var lines []string
	for _, c := range comments {
		c = c[2:]
		if isDirective(c) {
			continue
		}
		c = strings.TrimPrefix(c, " ")
		lines = append(lines, strings.TrimRight(c, " \t"))
	}
	var b strings.Builder
	blank := false
	for _, l := range lines {
		if l == "" {
			blank = b.Len() > 0
			continue
		}
		if blank {
			b.WriteByte('\n')
			blank = false
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// isDirective reports whether c, a line comment without its //, is a
// directive such as "go:embed" or "line ...", which CommentGroup.Text
// leaves out.
func isDirective(c string) bool {
	if strings.HasPrefix(c, "line ") || strings.HasPrefix(c, "extern ") || strings.HasPrefix(c, "export ") {
		return true
	}
	colon := strings.Index(c, ":")
	if colon <= 0 || colon+1 >= len(c) {
		return false
	}
	for i := 0; i <= colon+1; i++ {
		if i == colon {
			continue
		}
		b := c[i]
		if !('a' <= b && b <= 'z' || '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}
