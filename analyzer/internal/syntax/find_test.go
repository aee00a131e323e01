package syntax

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"golang.org/x/tools/go/ast/inspector"
)

// TestFinder checks that a Finder answers as the root cursor does, for
// every range of up to three characters in files whose declarations
// have doc comments, meet without space between them, are separated by
// comments, and hold function literals, and for every node.
func TestFinder(t *testing.T) {
	fset := token.NewFileSet()
	srcs := []string{
		`// Package p is a test.
package p

import "fmt"

// T is a type.
type T struct{ a, b int }

var x, y = 1, func() int { return 2 }()

// m is a method.
func (t *T) m(n int) int { if n > 0 { return t.a }; return fmt.Sprint(n) }
func f[P any](p P) P { return p }; func g() {}
/* between */
const (
	c = iota
	d
)

func h() { defer func() { _ = recover() }(); g() }
// trailing`,
		"package p\nfunc k() {}\n",
	}
	var files []*ast.File
	// The second file first: an inspector's files need not be in
	// position order.
	for i := len(srcs) - 1; i >= 0; i-- {
		f, err := parser.ParseFile(fset, "f"+string(rune('0'+i))+".go", srcs[i], parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	in := inspector.New(files)
	x := NewFinder(in)
	root := in.Root()
	n := 0
	for _, f := range files {
		for start := f.FileStart - 1; start <= f.FileEnd+1; start++ {
			for end := start; end <= start+3; end++ {
				want, wok := root.FindByPos(start, end)
				got, gok := x.FindByPos(start, end)
				if got != want || gok != wok {
					t.Errorf("FindByPos(%d, %d) = %v, %v; want %v, %v", start, end, got, gok, want, wok)
				}
				n++
			}
		}
	}
	for c := range root.Preorder() {
		got, ok := x.FindNode(c.Node())
		if !ok || got != c {
			t.Errorf("FindNode(%T at %d) = %v, %v; want %v", c.Node(), c.Node().Pos(), got, ok, c)
		}
	}
	if n < 1000 {
		t.Fatalf("only %d ranges compared", n)
	}
}
