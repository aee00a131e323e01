package heapescape

import (
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
