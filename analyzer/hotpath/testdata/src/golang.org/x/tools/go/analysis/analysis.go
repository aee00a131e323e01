// Package analysis stands for golang.org/x/tools/go/analysis: the types
// through which an analyzer reports its diagnostics.
package analysis

import "go/token"

type Diagnostic struct {
	Pos, End       token.Pos
	Message        string
	SuggestedFixes []SuggestedFix
}

type SuggestedFix struct {
	Message   string
	TextEdits []TextEdit
}

type TextEdit struct {
	Pos, End token.Pos
	NewText  []byte
}

// Pass reports with a field, Report, and with methods, as the real one.
type Pass struct {
	Report func(Diagnostic)
}

func (p *Pass) Reportf(pos token.Pos, format string, args ...any) {}
