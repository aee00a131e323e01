package redundantbranch

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

func (c *checker) offset(pos token.Pos) int {
	return c.pass.Fset.File(pos).Offset(pos)
}

func (c *checker) text(pos, end token.Pos) string {
	return string(c.src[c.offset(pos):c.offset(end)])
}

// lineIndent returns the white space that starts the line of pos.
func (c *checker) lineIndent(pos token.Pos) string {
	off := c.offset(pos)
	start := off
	for start > 0 && c.src[start-1] != '\n' {
		start--
	}
	i := start
	for i < off && (c.src[i] == ' ' || c.src[i] == '\t') {
		i++
	}
	return string(c.src[start:i])
}

// pureFuncs are the standard-library functions and methods that the
// analyzer knows to have no effect and never to panic, by
// types.Func.FullName. A condition calling only these (and builtins such
// as len, and conversions) is dropped with the branch; any other call is
// kept for its side effects.
var pureFuncs = map[string]bool{
	"strings.HasPrefix": true, "strings.HasSuffix": true, "strings.Contains": true,
	"strings.ContainsAny": true, "strings.ContainsRune": true, "strings.EqualFold": true,
	"strings.Compare": true, "strings.Index": true, "strings.IndexByte": true,
	"strings.IndexRune": true, "strings.LastIndex": true, "strings.LastIndexByte": true,
	"bytes.Equal": true, "bytes.HasPrefix": true, "bytes.HasSuffix": true,
	"bytes.Contains": true, "bytes.Compare": true, "bytes.EqualFold": true,
	"bytes.Index": true, "bytes.IndexByte": true,
	"unicode.IsSpace": true, "unicode.IsDigit": true, "unicode.IsLetter": true,
	"unicode.IsUpper": true, "unicode.IsLower": true,
	"unicode/utf8.ValidString": true, "unicode/utf8.Valid": true, "unicode/utf8.RuneLen": true,
	"math.IsNaN": true, "math.IsInf": true, "math.Signbit": true,
	"(time.Time).IsZero": true, "(time.Time).Before": true, "(time.Time).After": true,
	"(time.Duration).Seconds": true,
}

// pureCall reports whether call, apart from its arguments, is known to
// have no effect: a conversion, a builtin that only reads, or a function
// of pureFuncs.
func (c *checker) pureCall(call *ast.CallExpr) bool {
	info := c.pass.TypesInfo
	if tv, ok := info.Types[ast.Unparen(call.Fun)]; ok && tv.IsType() {
		return true // a conversion
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "min", "max", "real", "imag", "complex":
				return true
			}
			return false
		}
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return false
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Indirect() {
			return false // a method through a pointer may dereference nil
		}
	}
	return pureFuncs[fn.FullName()]
}

// effectCall returns the first call or receive in e that may have an
// effect other than a panic, or nil.
func (c *checker) effectCall(e ast.Expr) ast.Expr {
	var found ast.Expr
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				found = n
			}
		case *ast.CallExpr:
			if !c.pureCall(n) {
				found = n
			}
		}
		return found == nil
	})
	return found
}

// savesWork reports whether removing the evaluation of exprs saves more
// than compares and jumps: they call a function known to be pure (which
// the fix drops; calls with effects are kept), other than a builtin or a
// conversion, or index a map.
func (c *checker) savesWork(exprs ...ast.Expr) bool {
	info := c.pass.TypesInfo
	saves := false
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if _, builtin := info.Uses[identOf(n.Fun)].(*types.Builtin); builtin {
					break
				}
				if tv, ok := info.Types[ast.Unparen(n.Fun)]; ok && tv.IsType() {
					break
				}
				if c.pureCall(n) {
					saves = true
				}
			case *ast.IndexExpr:
				if _, ok := info.TypeOf(n.X).Underlying().(*types.Map); ok {
					saves = true
				}
			}
			return !saves
		})
	}
	return saves
}

// conditionCost says what evaluating cond costs for nothing: "the
// condition only costs a compare and a jump", or, when it calls a pure
// function or indexes a map (see savesWork), "the condition's call of
// bytes.IndexByte is wasted work".
func (c *checker) conditionCost(cond ast.Expr) string {
	if !c.savesWork(cond) {
		return "the condition only costs a compare and a jump"
	}
	var what string
	ast.Inspect(cond, func(n ast.Node) bool {
		if what != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if c.pureCall(n) {
				if _, builtin := c.pass.TypesInfo.Uses[identOf(n.Fun)].(*types.Builtin); !builtin {
					if tv, ok := c.pass.TypesInfo.Types[ast.Unparen(n.Fun)]; !ok || !tv.IsType() {
						what = "call of " + types.ExprString(n.Fun)
					}
				}
			}
		case *ast.IndexExpr:
			if _, ok := c.pass.TypesInfo.TypeOf(n.X).Underlying().(*types.Map); ok {
				what = "map lookup " + types.ExprString(n)
			}
		}
		return what == ""
	})
	return "the condition's " + what + " is wasted work"
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// hasSideEffects reports whether evaluating e may have an effect other than
// a panic: it calls a function not known to be pure or receives from a
// channel.
func (c *checker) hasSideEffects(e ast.Expr) bool {
	return c.effectCall(e) != nil
}

// keptEffect returns the words that a message adds when the condition is
// kept for its effects: ", keeping the call to f for its side effects".
func (c *checker) keptEffect(cond ast.Expr) string {
	switch e := c.effectCall(cond).(type) {
	case *ast.CallExpr:
		name := types.ExprString(e.Fun)
		if len(name) > 40 {
			name = name[:37] + "..."
		}
		return ", keeping the call to " + name + " for its side effects"
	case *ast.UnaryExpr:
		return ", keeping the receive for its effect"
	}
	return ""
}

// sideEffect returns the statement that keeps the effects of cond, or "".
func (c *checker) sideEffect(cond ast.Expr) string {
	if !c.hasSideEffects(cond) {
		return ""
	}
	if call, ok := ast.Unparen(cond).(*ast.CallExpr); ok {
		return c.text(call.Pos(), call.End())
	}
	return "_ = " + c.text(cond.Pos(), cond.End())
}

// explainsApart reports whether a fix that deletes the removed spans and
// keeps the code in kept would drop a comment that the kept code does not
// repeat: the arms carry comments of their own (Prometheus'
// "histogram_quantile" and "changes" cases each say why they need the
// buckets), and a merge would leave one arm's reason under the other's
// values, a deletion none at all.
func (c *checker) explainsApart(removed []span, kept span) bool {
	keptText := make(map[string]bool)
	var dropped []string
	for _, g := range c.file.Comments {
		text := strings.TrimSpace(g.Text())
		if text == "" || strings.HasPrefix(text, "want `") || strings.HasPrefix(text, `want "`) {
			continue // nothing, or an analysistest expectation
		}
		if kept.contains(g.Pos()) {
			keptText[text] = true
			continue
		}
		for _, s := range removed {
			if s.contains(g.Pos()) {
				dropped = append(dropped, text)
			}
		}
	}
	for _, t := range dropped {
		if !keptText[t] {
			return true
		}
	}
	return false
}

// removalOK reports whether the code in spans can be deleted without
// leaving a local variable or an import unused, or dropping a label.
func (c *checker) removalOK(spans []span) bool {
	in := func(p token.Pos) bool {
		for _, s := range spans {
			if s.contains(p) {
				return true
			}
		}
		return false
	}
	ok := true
	for _, s := range spans {
		ast.Inspect(c.file, func(n ast.Node) bool {
			if !ok || n == nil || n.End() <= s.pos || n.Pos() >= s.end {
				return false
			}
			switch n := n.(type) {
			case *ast.LabeledStmt:
				if in(n.Pos()) {
					ok = false
				}
			case *ast.Ident:
				if !in(n.Pos()) {
					return true
				}
				switch obj := c.pass.TypesInfo.Uses[n].(type) {
				case *types.Var:
					body := c.fi.decl.Body
					if obj.Pos() < body.Pos() || obj.Pos() >= body.End() || in(obj.Pos()) || c.fi.signature[obj] {
						return true // a parameter or result, a global, or removed with its uses
					}
					used := false
					for _, r := range c.fi.reads[obj] {
						if !in(r) {
							used = true
							break
						}
					}
					ok = used
				case *types.PkgName:
					used := false
					for _, p := range c.pkgUses[obj] {
						if !in(p) {
							used = true
							break
						}
					}
					ok = used
				}
			}
			return ok
		})
	}
	return ok
}

// declaredNames returns the names a statement list declares in its own
// block.
func (c *checker) declaredNames(list []ast.Stmt) []string {
	var names []string
	for _, s := range list {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
						names = append(names, id.Name)
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := s.Decl.(*ast.GenDecl); ok {
				for _, sp := range gd.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							if id.Name != "_" {
								names = append(names, id.Name)
							}
						}
					case *ast.TypeSpec:
						names = append(names, sp.Name.Name)
					}
				}
			}
		}
	}
	return names
}

// scopeOf returns the scope of the block whose statement list holds the
// statement on top of stack.
func (c *checker) scopeOf(stack []ast.Node) *types.Scope {
	info := c.pass.TypesInfo
	parent := stack[len(stack)-2]
	if s := info.Scopes[parent]; s != nil {
		return s
	}
	if len(stack) >= 3 {
		switch gp := stack[len(stack)-3].(type) {
		case *ast.FuncDecl:
			return info.Scopes[gp.Type]
		case *ast.FuncLit:
			return info.Scopes[gp.Type]
		}
	}
	return nil
}

// collides reports whether moving the declarations of list into the
// enclosing block would clash with a name declared there (other than in
// removed code) or change what a later identifier in it refers to.
func (c *checker) collides(list []ast.Stmt, stack []ast.Node, removed span, after []ast.Stmt) bool {
	names := c.declaredNames(list)
	if len(names) == 0 {
		return false
	}
	scope := c.scopeOf(stack)
	if scope == nil {
		return true
	}
	for _, name := range names {
		if obj := scope.Lookup(name); obj != nil && !removed.contains(obj.Pos()) {
			return true
		}
		for _, s := range after {
			found := false
			ast.Inspect(s, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && id.Name == name {
					found = true
				}
				return !found
			})
			if found {
				return true
			}
		}
	}
	return false
}

// hasMultilineRaw reports whether n contains a raw string literal spanning
// lines, which re-indentation must not touch.
func hasMultilineRaw(list []ast.Stmt) bool {
	found := false
	for _, s := range list {
		ast.Inspect(s, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING && strings.HasPrefix(b.Value, "`") && strings.Contains(b.Value, "\n") {
				found = true
			}
			return !found
		})
	}
	return found
}

// inner returns the text between the braces of b, trimmed.
func (c *checker) inner(b *ast.BlockStmt) string {
	return strings.TrimSpace(c.text(b.Lbrace+1, b.Rbrace))
}

// dedent removes one tab of indentation from every line after the first
// that is indented deeper than indent.
func dedent(s, indent string) string {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], indent+"\t") {
			lines[i] = indent + lines[i][len(indent)+1:]
		}
	}
	return strings.Join(lines, "\n")
}

// block renders the statements of b as a nested block at indent, after
// the lines pre (statements and comments).
func (c *checker) block(b *ast.BlockStmt, pre []string, indent string) string {
	var parts []string
	for _, p := range pre {
		parts = append(parts, strings.ReplaceAll(p, "\n", "\n\t"))
	}
	if in := c.inner(b); in != "" {
		parts = append(parts, in)
	}
	if len(parts) == 0 {
		return "{\n" + indent + "}"
	}
	return "{\n" + indent + "\t" + strings.Join(parts, "\n"+indent+"\t") + "\n" + indent + "}"
}

// statements renders the statements of b at indent, after the lines pre
// (statements and comments).
func (c *checker) statements(b *ast.BlockStmt, pre []string, indent string) string {
	parts := append([]string(nil), pre...)
	if in := c.inner(b); in != "" {
		parts = append(parts, dedent(in, indent))
	}
	return strings.Join(parts, "\n"+indent)
}

// deleteLines returns an edit that deletes [pos, end), together with its
// lines if nothing else is on them.
func (c *checker) deleteLines(pos, end token.Pos) analysis.TextEdit {
	start, stop := c.offset(pos), c.offset(end)
	s, e := start, stop
	for s > 0 && (c.src[s-1] == ' ' || c.src[s-1] == '\t') {
		s--
	}
	for e < len(c.src) && (c.src[e] == ' ' || c.src[e] == '\t' || c.src[e] == '\r') {
		e++
	}
	if e+1 < len(c.src) && c.src[e] == '/' && c.src[e+1] == '/' {
		// A comment at the end of the last line goes with the code.
		for e < len(c.src) && c.src[e] != '\n' {
			e++
		}
	}
	if (s == 0 || c.src[s-1] == '\n') && e < len(c.src) && c.src[e] == '\n' {
		start, stop = s, e+1
		// Do not leave two blank lines where there was one on each side.
		if start >= 2 && c.src[start-2] == '\n' && stop < len(c.src) && c.src[stop] == '\n' {
			stop++
		}
	}
	f := c.pass.Fset.File(pos)
	return analysis.TextEdit{Pos: f.Pos(start), End: f.Pos(stop)}
}

// withDoc extends the start of n to the comment lines directly above it.
func (c *checker) withDoc(n ast.Node) token.Pos {
	pos := n.Pos()
	line := c.pass.Fset.Position(pos).Line
	for i := len(c.file.Comments) - 1; i >= 0; i-- {
		cg := c.file.Comments[i]
		if cg.End() > pos {
			continue
		}
		if c.pass.Fset.Position(cg.End()).Line != line-1 || !c.onlyCommentBefore(cg.Pos()) {
			break
		}
		pos = cg.Pos()
		line = c.pass.Fset.Position(pos).Line
	}
	return pos
}

// onlyCommentBefore reports whether only white space precedes pos on its
// line.
func (c *checker) onlyCommentBefore(pos token.Pos) bool {
	off := c.offset(pos)
	for i := off - 1; i >= 0 && c.src[i] != '\n'; i-- {
		if c.src[i] != ' ' && c.src[i] != '\t' {
			return false
		}
	}
	return true
}

// prefix returns the statements that must run before the kept arm: the
// if's init statement and the side effects of its condition.
func (c *checker) prefix(ifs *ast.IfStmt) []string {
	var parts []string
	if ifs.Init != nil {
		parts = append(parts, c.text(ifs.Init.Pos(), ifs.Init.End()))
	}
	if se := c.sideEffect(ifs.Cond); se != "" {
		parts = append(parts, se)
	}
	return parts
}

// initStmts returns the if's init statement as a list.
func initStmts(ifs *ast.IfStmt) []ast.Stmt {
	if ifs.Init == nil {
		return nil
	}
	return []ast.Stmt{ifs.Init}
}

// flattenIf replaces an if/else by its kept arm.
func (c *checker) flattenIf(ifs *ast.IfStmt, keep, drop *ast.BlockStmt, elsePos bool, stack []ast.Node) []analysis.TextEdit {
	pre := c.prefix(ifs)
	removed := []span{{drop.Lbrace, drop.Rbrace + 1}}
	if c.sideEffect(ifs.Cond) == "" {
		removed = append(removed, span{ifs.Cond.Pos(), ifs.Cond.End()})
	}
	if !c.removalOK(removed) || hasMultilineRaw(append(initStmts(ifs), &ast.ExprStmt{X: ifs.Cond})) {
		return nil
	}
	indent := c.lineIndent(ifs.Pos())
	var text string
	switch {
	case elsePos:
		text = c.block(keep, pre, indent)
	default:
		list := syntax.StmtList(stack[len(stack)-2])
		var after []ast.Stmt
		if i := slices.Index(list, ast.Stmt(ifs)); i >= 0 {
			after = list[i+1:]
		}
		if c.collides(append(initStmts(ifs), keep.List...), stack, span{drop.Lbrace, drop.Rbrace}, after) || hasMultilineRaw(keep.List) {
			text = c.block(keep, pre, indent)
		} else {
			text = c.statements(keep, pre, indent)
		}
	}
	if text == "" {
		return []analysis.TextEdit{c.deleteLines(ifs.Pos(), ifs.End())}
	}
	return []analysis.TextEdit{{Pos: ifs.Pos(), End: ifs.End(), NewText: []byte(text)}}
}

// deleteIf deletes an if without else or init, keeping the effects of its
// condition.
func (c *checker) deleteIf(ifs *ast.IfStmt) []analysis.TextEdit {
	se := c.sideEffect(ifs.Cond)
	removed := []span{{ifs.Body.Lbrace, ifs.Body.Rbrace + 1}}
	if se == "" {
		removed = append(removed, span{ifs.Cond.Pos(), ifs.Cond.End()})
	}
	if !c.removalOK(removed) {
		return nil
	}
	if se == "" {
		return []analysis.TextEdit{c.deleteLines(ifs.Pos(), ifs.End())}
	}
	return []analysis.TextEdit{{Pos: ifs.Pos(), End: ifs.End(), NewText: []byte(se)}}
}

// keepIfBody replaces an if without else and the statements after it by
// the if's init statement and body.
func (c *checker) keepIfBody(ifs *ast.IfStmt, rest []ast.Stmt, stack []ast.Node) []analysis.TextEdit {
	pre := c.prefix(ifs)
	last := rest[len(rest)-1]
	restSpan := span{rest[0].Pos(), last.End()}
	removed := []span{restSpan}
	if c.sideEffect(ifs.Cond) == "" {
		removed = append(removed, span{ifs.Cond.Pos(), ifs.Cond.End()})
	}
	if !c.removalOK(removed) || hasMultilineRaw(append(initStmts(ifs), &ast.ExprStmt{X: ifs.Cond})) {
		return nil
	}
	indent := c.lineIndent(ifs.Pos())
	// Comments between the statements after the if are not about the
	// code removed: keep them, before the body so that a comment at the
	// end of the last line stays last.
	var post []string
	for _, cg := range c.file.Comments {
		if cg.Pos() < ifs.End() || cg.End() > last.End() {
			continue
		}
		inside := false
		for _, st := range rest {
			if st.Pos() <= cg.Pos() && cg.Pos() < st.End() {
				inside = true
			}
		}
		if !inside {
			post = append(post, c.text(cg.Pos(), cg.End()))
		}
	}
	var text string
	if c.collides(append(initStmts(ifs), ifs.Body.List...), stack, restSpan, nil) || hasMultilineRaw(ifs.Body.List) {
		text = c.block(ifs.Body, append(pre, post...), indent)
	} else {
		text = c.statements(ifs.Body, append(pre, post...), indent)
	}
	return []analysis.TextEdit{{Pos: ifs.Pos(), End: last.End(), NewText: []byte(text)}}
}
