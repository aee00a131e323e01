package syntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestChanges checks that a change found stays found when later
// statements do not change the variable: ast.Inspect goes on to the
// siblings of the node it was told not to descend into.
func TestChanges(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", `package p
func f() {
	x := 1
	x = 2
	y := 3
	_ = y
	s.m()
}`, 0)
	if err != nil {
		t.Fatal(err)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	name := func(want string) func(ast.Expr) bool {
		return func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == want }
	}
	never := func(*ast.SelectorExpr) bool { return false }
	if !Changes(body.List[1], name("x"), never) || !Changes(body, name("x"), never) {
		t.Error("Changes: x = 2 does not change x")
	}
	if Changes(body, name("z"), never) {
		t.Error("Changes: z changed, though nothing names it")
	}
	if Changes(body, name("s"), never) || !Changes(body, name("s"), func(*ast.SelectorExpr) bool { return true }) {
		t.Error("Changes: s.m() must count only as its method says")
	}
}
