// Package directive defines a helper Analyzer that reads the suppression
// comments users write to silence goadvise findings:
//
//	//goadvise:ignore ANALYZER[,ANALYZER...] reason
//	//nolint:goadvise            (golangci-lint style; also //nolint:ANALYZER, //nolint)
//
// A directive applies to the line it ends, or, on a line of its own, to the
// next line. In a function's doc comment, or on the line before a
// declaration, it applies to the whole declaration. "all" names every
// analyzer.
//
// The goadvise suite wraps each of its analyzers so that suppressed
// diagnostics are dropped, whichever driver runs them (goadvise check, go
// vet, golangci-lint), and counted.
package directive

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
)

// Analyzer finds the suppression directives of a package.
var Analyzer = &analysis.Analyzer{
	Name:             "directive",
	Doc:              "read //goadvise:ignore and //nolint directives (used by the other goadvise analyzers)",
	URL:              "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/directive",
	Run:              run,
	ResultType:       reflect.TypeFor[*Result](),
	RunDespiteErrors: true,
}

// Result answers whether a diagnostic is suppressed.
type Result struct {
	fset  *token.FileSet
	lines map[lineKey][]string // analyzers suppressed on a line ("all" for any)
	spans []span               // declarations with a directive
	count atomic.Int64
}

type lineKey struct {
	file string
	line int
}

type span struct {
	pos, end token.Pos
	names    []string
}

// Ignored reports whether a diagnostic of the named analyzer at pos is
// suppressed, and if so counts it.
func (r *Result) Ignored(analyzer string, pos token.Pos) bool {
	if r == nil || !pos.IsValid() {
		return false
	}
	p := r.fset.Position(pos)
	if matches(r.lines[lineKey{p.Filename, p.Line}], analyzer) {
		r.count.Add(1)
		return true
	}
	for _, s := range r.spans {
		if s.pos <= pos && pos < s.end && matches(s.names, analyzer) {
			r.count.Add(1)
			return true
		}
	}
	return false
}

// Suppressed returns how many diagnostics Ignored has suppressed.
func (r *Result) Suppressed() int { return int(r.count.Load()) }

func matches(names []string, analyzer string) bool {
	for _, n := range names {
		if n == "all" || n == analyzer || n == "goadvise" {
			return true
		}
	}
	return false
}

// parse returns the analyzer names a comment suppresses, or nil if it is
// not a directive.
func parse(text string) []string {
	text = strings.TrimSpace(strings.TrimPrefix(text, "//"))
	if rest, ok := strings.CutPrefix(text, "goadvise:ignore"); ok {
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return nil
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return []string{"all"}
		}
		return strings.Split(fields[0], ",")
	}
	if rest, ok := strings.CutPrefix(text, "nolint"); ok {
		switch {
		case rest == "" || rest[0] == ' ' || rest[0] == '\t':
			return []string{"all"} // bare //nolint
		case rest[0] == ':':
			list, _, _ := strings.Cut(rest[1:], " ")
			var names []string
			for _, n := range strings.Split(list, ",") {
				if n = strings.TrimSpace(n); n != "" {
					names = append(names, n)
				}
			}
			return names
		}
	}
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{fset: pass.Fset, lines: make(map[lineKey][]string)}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		// Declarations, to widen directives on the line before them or in
		// their doc comment to the whole declaration.
		declAt := make(map[int]ast.Decl) // first line of a declaration (or of its doc)
		for _, d := range f.Decls {
			declAt[tf.Line(d.Pos())] = d
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
				for _, c := range fd.Doc.List {
					if names := parse(c.Text); names != nil {
						r.spans = append(r.spans, span{d.Pos(), d.End(), names})
					}
				}
			}
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				names := parse(c.Text)
				if names == nil {
					continue
				}
				line := tf.Line(c.Pos())
				key := lineKey{tf.Name(), line}
				r.lines[key] = append(r.lines[key], names...)
				if ownLine(pass, tf, c) {
					next := lineKey{tf.Name(), line + 1}
					r.lines[next] = append(r.lines[next], names...)
					if d, ok := declAt[line+1]; ok {
						r.spans = append(r.spans, span{d.Pos(), d.End(), names})
					}
				}
			}
		}
	}
	return r, nil
}

// ownLine reports whether comment c is the only thing on its line.
func ownLine(pass *analysis.Pass, tf *token.File, c *ast.Comment) bool {
	content, err := pass.ReadFile(tf.Name())
	if err != nil {
		return false
	}
	start := tf.Offset(tf.LineStart(tf.Line(c.Pos())))
	return strings.TrimSpace(string(content[start:tf.Offset(c.Pos())])) == ""
}

// Wrap returns a copy of a that drops the diagnostics that directives
// suppress. The copy has the same name, documentation, flags and result.
func Wrap(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Requires = append(append([]*analysis.Analyzer(nil), a.Requires...), Analyzer)
	w.Run = func(pass *analysis.Pass) (any, error) {
		dirs := pass.ResultOf[Analyzer].(*Result)
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			if !dirs.Ignored(a.Name, d.Pos) {
				report(d)
			}
		}
		return a.Run(pass)
	}
	return &w
}
