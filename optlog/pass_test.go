package optlog

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"testing"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/goadvise/goadvise/internal/funcname"
)

// TestDeclLookups checks callAt and enclosingFunc, which find the
// declaration by halves, against a walk of the whole file at every
// position: calls nested in calls, in function literals, in a variable's
// initialiser, in methods and around comments.
func TestDeclLookups(t *testing.T) {
	const src = `package p

import "fmt"

var v = fmt.Sprint(1, g(2))

// T is a type.
type T struct{ f func(int) int }

func (t *T) M(x int) int { return t.f(g(x)) }

/* between */
func g(x int) int { return func() int { return h(x)(x) }() }

func h(int) func(int) int { return nil }

func (T) N() { defer fmt.Println(v) }
`
	fset := token.NewFileSet()
	f, err := goparser.ParseFile(fset, "p.go", src, goparser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	calls, funcs := 0, 0
	for pos := f.FileStart; pos <= f.FileEnd; pos++ {
		var wantCall *ast.CallExpr
		path, _ := astutil.PathEnclosingInterval(f, pos, pos+1)
		for _, n := range path {
			if c, ok := n.(*ast.CallExpr); ok && c.Lparen == pos {
				wantCall = c
				break
			}
		}
		if got := callAt(f, pos); got != wantCall {
			t.Errorf("callAt(%v) = %v, want %v", fset.Position(pos), got, wantCall)
		}
		if wantCall != nil {
			calls++
		}
		wantFunc := ""
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
				wantFunc = funcname.NoTypeArgs(funcname.Decl(fd))
			}
		}
		if got := enclosingFunc(f, pos); got != wantFunc {
			t.Errorf("enclosingFunc(%v) = %q, want %q", fset.Position(pos), got, wantFunc)
		}
		if wantFunc != "" {
			funcs++
		}
	}
	if calls != 8 || funcs == 0 {
		t.Fatalf("found %d calls and %d positions in functions; the test source has 8 calls", calls, funcs)
	}
}
