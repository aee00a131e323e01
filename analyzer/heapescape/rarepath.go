package heapescape

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"sync"

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
	c, ok := fd.res.rare.change(fd)
	if !ok || !fd.compiledKeeps(c) {
		return "", ""
	}
	where := fd.pass.Fset.Position(c.sink)
	fd.suggested = &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Take a copy of %s where its address escapes", c.v.Name()),
		TextEdits: c.edits,
	}
	return fmt.Sprintf("its address is taken only on a rare path (line %d, %s): take a copy there and let that escape (%s := %s; ...&%s...), which keeps %s on the stack on every other path; checked by compiling the change",
		where.Line, fd.hot.At(c.sink).Reason, c.name, c.v.Name(), c.name, c.v.Name()), ""
}

// commonReturn reports whether body, a function's, can return other
// than on a rare path: one of its return statements (outside function
// literals) is not in cold code, or it has no results. A function that
// returns only on an error path (a stub that always fails: "return &u,
// errNotImplemented") takes that path on every call.
func (fd *finding) commonReturn(body *ast.BlockStmt) bool {
	if ft, _ := fd.enclosingFunc(); ft == nil || ft.Results == nil || len(ft.Results.List) == 0 {
		return true
	}
	return returnIn(body, func(r *ast.ReturnStmt) bool { return fd.hot.At(r.Pos()).Tier != hotpath.Cold })
}

// rareChange is the change rarePathAdvice proposes: in fn, a copy of v
// named name where its address escapes on a rare path that starts at
// sink.
type rareChange struct {
	fn    *types.Func
	v     *types.Var
	name  string
	sink  token.Pos
	edits []analysis.TextEdit
}

// rarePathChange returns the change for the finding, if its record is of
// the shape rarePathAdvice describes; it does not compile it.
func (fd *finding) rarePathChange() (rareChange, bool) {
	rec := fd.rec
	v := fd.movedVar()
	if v == nil || rec.Kind != optlog.MovedToHeap || fd.tier == hotpath.Cold {
		return rareChange{}, false
	}
	sink := fd.escapeStart()
	if !sink.IsValid() || fd.hot.At(sink).Tier != hotpath.Cold {
		return rareChange{}, false
	}
	body := fd.funcBody()
	if body == nil || fd.declOutsideLits() == nil || !fd.commonReturn(body) {
		return rareChange{}, false
	}
	fn, _ := fd.pass.TypesInfo.Defs[fd.declOutsideLits().Name].(*types.Func)
	if fn == nil {
		return rareChange{}, false
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
		return rareChange{}, false
	}
	// The change: before each statement that takes &v, a copy; the
	// statement takes the copy's address.
	scope := fd.pass.Pkg.Scope().Innermost(amps[0].Pos())
	name := v.Name() + "Copy"
	if _, obj := scope.LookupParent(name, amps[0].Pos()); obj != nil || usesName(body, name) {
		if name = fd.freshName(name, body, scope, amps[0].Pos(), nil); name == "" {
			return rareChange{}, false
		}
	}
	var edits []analysis.TextEdit
	done := make(map[ast.Stmt]bool)
	for _, a := range amps {
		st := fd.stmtOf(a)
		if st == nil {
			return rareChange{}, false
		}
		ind, alone := fd.indent(st.Pos())
		if !alone {
			return rareChange{}, false
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
				return rareChange{}, false
			}
			blocks[cur.Parent().Node()] = true
		}
	}
	return rareChange{fn: fn, v: v, name: name, sink: sink, edits: edits}, true
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

// compiledKeeps reports whether the compiler keeps c.v, a local of c.fn,
// off the heap once c's edits (which add lines before statements and
// rename within lines, in c.fn) are made. The changes of all the pass's
// findings are compiled together, once (see rareBatch); a change that
// could not be part of that compile is compiled alone.
func (fd *finding) compiledKeeps(c rareChange) bool {
	if kept, ok := fd.res.rare.kept[c.v]; ok {
		return kept
	}
	recs, err := compileEdits(fd.pass, []rareChange{c})
	if err != nil {
		return false
	}
	return !movedAt(fd.pass, recs, c.v, 0)
}

// rareBatch compiles the changes that rarePathAdvice may propose for the
// findings of one pass in one compile of the package, rather than one
// compile each: in a package of 100,000 lines with a few dozen such
// findings, one compile instead of dozens. Each change stays within its
// function, so one does not decide another's variable.
type rareBatch struct {
	fds     []*finding // the pass's findings
	once    sync.Once
	changes map[*finding]rareChange // each finding's change, if it has one
	kept    map[*types.Var]bool     // whether the compiler keeps each change's variable off the heap
}

// change returns fd's change (see rarePathChange), the batch compiled.
func (b *rareBatch) change(fd *finding) (rareChange, bool) {
	b.once.Do(func() { b.compile(fd.pass) })
	c, ok := b.changes[fd]
	return c, ok
}

func (b *rareBatch) compile(pass *analysis.Pass) {
	var changes []rareChange
	b.changes = make(map[*finding]rareChange)
	taken := make(map[*token.File][][2]token.Pos) // the spans edited so far, per file
	for _, fd := range b.fds {
		c, ok := fd.rarePathChange()
		if !ok {
			continue
		}
		b.changes[fd] = c
		tf := pass.Fset.File(c.edits[0].Pos)
		if overlaps(taken[tf], c.edits) {
			continue // compiled alone if asked
		}
		for _, e := range c.edits {
			taken[tf] = append(taken[tf], [2]token.Pos{e.Pos, e.End})
		}
		changes = append(changes, c)
	}
	if len(changes) < 2 {
		return // nothing to share: each is compiled alone if asked
	}
	recs, err := compileEdits(pass, changes)
	if err != nil {
		return // compiled alone if asked
	}
	b.kept = make(map[*types.Var]bool)
	for _, c := range changes {
		b.kept[c.v] = !movedAt(pass, recs, c.v, linesAdded(pass.Fset, changes, c.v.Pos()))
	}
}

// linesAdded returns how many lines the changes' edits add before pos in
// its file: how far down the edited file moves what is at pos.
func linesAdded(fset *token.FileSet, changes []rareChange, pos token.Pos) int {
	n := 0
	for _, c := range changes {
		for _, e := range c.edits {
			if fset.File(e.Pos) == fset.File(pos) && e.Pos < pos {
				n += strings.Count(string(e.NewText), "\n")
			}
		}
	}
	return n
}

// overlaps reports whether an edit touches one of the spans.
func overlaps(spans [][2]token.Pos, edits []analysis.TextEdit) bool {
	for _, e := range edits {
		for _, s := range spans {
			if e.Pos <= s[1] && s[0] <= e.End {
				return true
			}
		}
	}
	return false
}

// compileEdits compiles the package with the changes' edits applied and
// returns the compiler's records.
func compileEdits(pass *analysis.Pass, changes []rareChange) ([]optlog.Record, error) {
	byFile := make(map[*token.File][]analysis.TextEdit)
	var keep []*types.Func
	for _, c := range changes {
		tf := pass.Fset.File(c.edits[0].Pos)
		byFile[tf] = append(byFile[tf], c.edits...)
		if !slices.Contains(keep, c.fn) {
			keep = append(keep, c.fn)
		}
	}
	replace := make(map[string][]byte)
	for tf, edits := range byFile {
		src, err := pass.ReadFile(tf.Name())
		if err != nil {
			return nil, err
		}
		es := slices.Clone(edits)
		slices.SortStableFunc(es, func(a, b analysis.TextEdit) int { return int(a.Pos - b.Pos) })
		var out []byte
		at := 0
		for _, e := range es {
			start, end := tf.Offset(e.Pos), tf.Offset(e.End)
			if start < at {
				return nil, fmt.Errorf("overlapping edits in %s", tf.Name())
			}
			out = append(out, src[at:start]...)
			out = append(out, e.NewText...)
			at = end
		}
		replace[tf.Name()] = append(out, src[at:]...)
	}
	return optlog.CompileEdited(context.Background(), pass, replace, keep)
}

// movedAt reports whether recs move v to the heap at its declaration,
// shift lines below where it is in the unedited file (a change adds its
// copies after the declaration it is about).
func movedAt(pass *analysis.Pass, recs []optlog.Record, v *types.Var, shift int) bool {
	decl := pass.Fset.Position(v.Pos())
	for _, r := range recs {
		if r.Kind == optlog.MovedToHeap && r.Name == v.Name() && r.Pos.Line == decl.Line+shift && filepath.Clean(r.Pos.File) == filepath.Clean(decl.Filename) {
			return true
		}
	}
	return false
}
