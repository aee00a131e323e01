package optlog

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
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

// TestResultIndexes checks HeapIn, CanInlineIn and InlinedAt, which
// search indexes, against going through every record, on records in no
// particular order of position, some at no position, some inlined from
// positions spelt with an unclean file name.
func TestResultIndexes(t *testing.T) {
	kinds := []Kind{EscapesToHeap, MovedToHeap, CanInline, InlineCall, LeakParam}
	files := []string{"/m/a.go", "/m/./a.go", "/m/b.go"}
	var recs []Record
	for i := range 300 {
		r := Record{Kind: kinds[i*7%len(kinds)], TokPos: token.Pos(i * 37 % 101)}
		if i%3 == 0 {
			r.InlinedFrom = []Position{{File: files[i%len(files)], Line: i % 5, Col: i % 4}, {File: "/m/c.go", Line: 1, Col: 1}}
		}
		recs = append(recs, r)
	}
	r := &Result{records: recs}
	for start := token.Pos(0); start < 105; start++ {
		for end := start; end < start+12; end++ {
			var want []Record
			canInline := false
			for _, rec := range recs {
				if rec.Kind.IsHeap() && rec.TokPos.IsValid() && rec.TokPos >= start && rec.TokPos < end {
					want = append(want, rec)
				}
				canInline = canInline || rec.Kind == CanInline && rec.TokPos >= start && rec.TokPos < end
			}
			sort.SliceStable(want, func(i, j int) bool { return want[i].TokPos < want[j].TokPos })
			if got := r.HeapIn(start, end); !reflect.DeepEqual(got, want) {
				t.Errorf("HeapIn(%d, %d) = %d records, want %d", start, end, len(got), len(want))
			}
			if got := r.CanInlineIn(start, end); got != canInline {
				t.Errorf("CanInlineIn(%d, %d) = %v, want %v", start, end, got, canInline)
			}
		}
	}
	found := 0
	for _, file := range files {
		for line := range 5 {
			for col := range 4 {
				var want []*Record
				for i := range recs {
					rec := &recs[i]
					if len(rec.InlinedFrom) > 0 && rec.InlinedFrom[0].Line == line && rec.InlinedFrom[0].Col == col &&
						filepath.Clean(rec.InlinedFrom[0].File) == filepath.Clean(file) {
						want = append(want, rec)
					}
				}
				got := r.InlinedAt(token.Position{Filename: file, Line: line, Column: col})
				if !slices.Equal(got, want) {
					t.Errorf("InlinedAt(%s:%d:%d) = %d records, want %d", file, line, col, len(got), len(want))
				}
				found += len(want)
			}
		}
	}
	if found == 0 {
		t.Fatal("no record is inlined from the positions asked: the test proves nothing")
	}
}
