package heapescape

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/optlog"
)

// rarePathAdvice returns the change for a variable the compiler moves to
// the heap although the flow that makes it escape, as the compiler gives
// it, starts on a rare path: its address is taken in cold code (returned
// with an error, put in a panic, logged under a trace flag), while the
// variable is declared on the common path. A copy taken on the rare path,
// whose address escapes instead (vc := v; return &vc, err), leaves v on
// the stack on every other path. The change is checked by compiling it:
// it is advised only if the compiler then keeps v on the stack. It
// returns "" when the record is not of that shape.
func (fd *finding) rarePathAdvice() (advice, noFix string) {
	rec := fd.rec
	v := fd.movedVar()
	if v == nil || rec.Kind != optlog.MovedToHeap || fd.tier == hotpath.Cold {
		return "", ""
	}
	sink := fd.escapeStart()
	if !sink.IsValid() || fd.hot.At(sink).Tier != hotpath.Cold {
		return "", ""
	}
	body := fd.funcBody()
	if body == nil || fd.declOutsideLits() == nil {
		return "", ""
	}
	fn, _ := fd.pass.TypesInfo.Defs[fd.declOutsideLits().Name].(*types.Func)
	if fn == nil {
		return "", ""
	}
	// The addresses of v taken in cold code get a copy each; whether v
	// then stays on the stack, with the uses of the common path as they
	// are (&v passed to a function that keeps nothing), is the
	// compiler's to say.
	info := fd.pass.TypesInfo
	var amps []*ast.UnaryExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
			if id, isID := ast.Unparen(u.X).(*ast.Ident); isID && info.Uses[id] == v && fd.hot.At(u.Pos()).Tier == hotpath.Cold {
				amps = append(amps, u)
				return false
			}
		}
		return true
	})
	if len(amps) == 0 {
		return "", ""
	}
	// The change: before each statement that takes &v, a copy; the
	// statement takes the copy's address.
	scope := fd.pass.Pkg.Scope().Innermost(amps[0].Pos())
	name := v.Name() + "Copy"
	if _, obj := scope.LookupParent(name, amps[0].Pos()); obj != nil || usesName(body, name) {
		if name = fd.freshName(name, body, scope, amps[0].Pos(), nil); name == "" {
			return "", ""
		}
	}
	var edits []analysis.TextEdit
	done := make(map[ast.Stmt]bool)
	for _, a := range amps {
		st := fd.stmtOf(a)
		if st == nil {
			return "", ""
		}
		ind, alone := fd.indent(st.Pos())
		if !alone {
			return "", ""
		}
		if !done[st] {
			done[st] = true
			edits = append(edits, analysis.TextEdit{Pos: st.Pos(), End: st.Pos(), NewText: []byte(name + " := " + v.Name() + "\n" + ind)})
		}
		edits = append(edits, analysis.TextEdit{Pos: a.X.Pos(), End: a.X.End(), NewText: []byte(name)})
	}
	if len(done) > 1 {
		// One copy per statement would declare the name twice in one
		// scope when two statements share a block.
		blocks := make(map[ast.Node]bool)
		for st := range done {
			cur, ok := fd.find.FindNode(st)
			if !ok || blocks[cur.Parent().Node()] {
				return "", ""
			}
			blocks[cur.Parent().Node()] = true
		}
	}
	if !fd.compiledKeeps(fn, v, edits) {
		return "", ""
	}
	where := fd.pass.Fset.Position(sink)
	fd.suggested = &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Take a copy of %s where its address escapes", v.Name()),
		TextEdits: edits,
	}
	return fmt.Sprintf("its address is taken only on a rare path (line %d, %s): take a copy there and let that escape (%s := %s; ...&%s...), which keeps %s on the stack on every other path; checked by compiling the change",
		where.Line, fd.hot.At(sink).Reason, name, v.Name(), name, v.Name()), ""
}

// usesName reports whether an identifier of body is name.
func usesName(body *ast.BlockStmt, name string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// stmtOf returns the statement of a block (or case clause) that holds n.
func (fd *finding) stmtOf(n ast.Node) ast.Stmt {
	cur, ok := fd.find.FindNode(n)
	if !ok {
		return nil
	}
	for c := range cur.Enclosing() {
		st, isStmt := c.Node().(ast.Stmt)
		if !isStmt {
			continue
		}
		switch c.Parent().Node().(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return st
		}
	}
	return nil
}

// escapeStart returns where the record's escape flow takes the variable's
// address (its first "address-of" step), or else where it reaches its
// sink (see sinkPos): where the escape begins. A variable whose address is
// returned with an error into a named result that the common path then
// passes to an interface method escapes through that method, but begins
// to on the error path.
func (fd *finding) escapeStart() token.Pos {
	for _, st := range fd.rec.Flow {
		if _, reason, ok := st.From(); ok && reason == "address-of" {
			if p := fd.posOf(st.Pos); p.IsValid() {
				return p
			}
		}
	}
	return fd.sinkPos()
}

// sinkPos returns where the record's escape flow reaches its sink, in the
// package's files: the sink's step, or, when that step is in code inlined
// from another package (log.Printf's fmt.Appendf), the last step of the
// flow in the package, the call that inlines it.
func (fd *finding) sinkPos() token.Pos {
	if p := fd.posOf(fd.rec.SinkPos); p.IsValid() {
		return p
	}
	for i := len(fd.rec.Flow) - 1; i >= 0; i-- {
		if _, _, ok := fd.rec.Flow[i].From(); ok {
			if p := fd.posOf(fd.rec.Flow[i].Pos); p.IsValid() {
				return p
			}
		}
	}
	return token.NoPos
}

// posOf resolves a position of the compiler's log in the pass's files.
func (fd *finding) posOf(p optlog.Position) token.Pos {
	tf := fd.files[p.File]
	if tf == nil || p.Line < 1 || p.Line > tf.LineCount() || p.Col < 1 {
		return token.NoPos
	}
	off := tf.Offset(tf.LineStart(p.Line)) + p.Col - 1
	if off >= tf.Size() {
		return token.NoPos
	}
	return tf.Pos(off)
}

// compiledKeeps compiles the package with edits applied (which add a line
// before a statement and rename within lines, in fn) and reports whether
// the compiler then keeps v, a local of fn, off the heap.
func (fd *finding) compiledKeeps(fn *types.Func, v *types.Var, edits []analysis.TextEdit) bool {
	tf := fd.pass.Fset.File(edits[0].Pos)
	src, err := fd.pass.ReadFile(tf.Name())
	if err != nil {
		return false
	}
	es := slices.Clone(edits)
	slices.SortStableFunc(es, func(a, b analysis.TextEdit) int { return int(a.Pos - b.Pos) })
	var out []byte
	at := 0
	for _, e := range es {
		start, end := tf.Offset(e.Pos), tf.Offset(e.End)
		if start < at {
			return false
		}
		out = append(out, src[at:start]...)
		out = append(out, e.NewText...)
		at = end
	}
	out = append(out, src[at:]...)
	recs, err := optlog.CompileEdited(context.Background(), fd.pass, map[string][]byte{tf.Name(): out}, []*types.Func{fn})
	if err != nil {
		return false
	}
	decl := fd.pass.Fset.Position(v.Pos())
	for _, r := range recs {
		// The declaration's line does not move: the copies are added
		// after it.
		if r.Kind == optlog.MovedToHeap && r.Name == v.Name() && r.Pos.Line == decl.Line && filepath.Clean(r.Pos.File) == filepath.Clean(decl.Filename) {
			return false
		}
	}
	return true
}
