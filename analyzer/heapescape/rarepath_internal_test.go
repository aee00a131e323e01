package heapescape

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestLinesAdded checks where a declaration is in a file edited by
// several rare-path changes compiled together: the copies other changes
// add above it move it down, those below it and in other files do not.
func TestLinesAdded(t *testing.T) {
	fset := token.NewFileSet()
	a := fset.AddFile("a.go", -1, 1000)
	b := fset.AddFile("b.go", -1, 1000)
	edit := func(f *token.File, off int, text string) analysis.TextEdit {
		return analysis.TextEdit{Pos: f.Pos(off), End: f.Pos(off), NewText: []byte(text)}
	}
	changes := []rareChange{
		{edits: []analysis.TextEdit{edit(a, 100, "hCopy := h\n\t\t"), edit(a, 120, "hCopy")}},
		{edits: []analysis.TextEdit{edit(a, 300, "xCopy := x\n\t"), edit(a, 310, "yCopy := y\n\t")}},
		{edits: []analysis.TextEdit{edit(b, 50, "zCopy := z\n\t")}},
	}
	for _, tc := range []struct {
		pos  token.Pos
		want int
	}{
		{a.Pos(50), 0},
		{a.Pos(200), 1},
		{a.Pos(305), 2},
		{a.Pos(900), 3},
		{b.Pos(10), 0},
		{b.Pos(60), 1},
	} {
		if got := linesAdded(fset, changes, tc.pos); got != tc.want {
			t.Errorf("linesAdded(%s) = %d, want %d", fset.Position(tc.pos), got, tc.want)
		}
	}
}

// TestReturnIn checks that returnIn finds a return of the function for
// which ok holds wherever it is, also before others for which it does
// not, and none in a function literal.
func TestReturnIn(t *testing.T) {
	src := `package p
func f(x int) int {
	g := func() int { return 3 }
	if x > 0 {
		return 1
	}
	return 2 + g()
}`
	file, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	body := file.Decls[0].(*ast.FuncDecl).Body
	lit := func(want string) func(*ast.ReturnStmt) bool {
		return func(r *ast.ReturnStmt) bool {
			l, ok := r.Results[0].(*ast.BasicLit)
			return ok && l.Value == want
		}
	}
	for want, found := range map[string]bool{"1": true, "3": false, "4": false} {
		if got := returnIn(body, lit(want)); got != found {
			t.Errorf("returnIn(return %s) = %v, want %v", want, got, found)
		}
	}
}
