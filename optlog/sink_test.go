package optlog

import (
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestSink checks the sink of each shape of escape flow, read from a real
// compile: returns, stores through pointers, into elements and maps and
// globals, sends, calls (static and dynamic, inlined or not), closures,
// go statements, boxing, containers and sizes.
func TestSink(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, map[string]string{
		"go.mod": "module sinks\n\ngo 1.26\n",
		"s/s.go": `package s

import (
	"fmt"
	"io"
	"sync"
)

type T struct {
	a, b int
	p    *int
	m    map[string]*int
	q    []byte
}

var G *int
var pool sync.Pool

//go:noinline
func keep(p *int) { G = p }

func ret() *T                       { return &T{a: 1} }
func field(t *T)                    { x1 := 1; t.p = &x1 }
func mapv(t *T)                     { x2 := 2; t.m["k"] = &x2 }
func elem(s []*int)                 { x3 := 3; s[0] = &x3 }
func global()                       { x4 := 4; G = &x4 }
func ch(c chan *int)                { x5 := 5; c <- &x5 }
func dyn(r io.Reader)               { b1 := make([]byte, 4); r.Read(b1) }
func full(r io.Reader)              { b2 := make([]byte, 4); io.ReadFull(r, b2) }
func callee()                       { x6 := 6; keep(&x6) }
func sprint(n int) string           { return fmt.Sprintf("%d", n) }
func put()                          { b3 := make([]byte, 64); pool.Put(b3) }
func closure() func() int           { x7 := 1; return func() int { x7++; return x7 } }
func grow(n int) []int              { var s []int; for i := 0; i < n; i++ { s = append(s, i) }; return s }
func big() int                      { b4 := make([]byte, 1<<20); return len(b4) }
func sized(n int) []byte            { b5 := make([]byte, n); return b5 }
func fnval(f func([]byte))          { b6 := make([]byte, 8); f(b6) }
func goer()                         { x8 := 1; go func() { x8++ }() }
func contained() *T                 { return &T{q: make([]byte, 8)} }
func errpath(n int) (*T, error)     { h := T{a: n}; if n < 0 { return &h, io.EOF }; return nil, nil }
`,
	})
	recs := collectOne(t, dir, "sinks/s").Records
	want := map[string]Sink{
		"&T{...} 22": SinkReturn,
		"x1":         SinkField,
		"x2":         SinkElement,
		"x3":         SinkElement,
		"x4":         SinkGlobal,
		"x5":         SinkChannel,
		// Without types, every call is SinkCallee; refine, which has
		// them, tells the dynamic calls (r.Read, f(b6)) apart.
		"make([]byte, 4) 28":    SinkCallee,
		"make([]byte, 4) 29":    SinkCallee,
		"x6":                    SinkCallee,
		"n":                     SinkCallee,
		"b3":                    SinkCallee,
		"make([]byte, 64)":      SinkInterface,
		"x7":                    SinkClosure,
		"append(s, i)":          SinkReturn,
		"make([]byte, 1048576)": SinkSize,
		"make([]byte, n)":       SinkReturn,
		"make([]byte, 8) 37":    SinkCallee,
		"x8":                    SinkClosure,
		"make([]byte, 8) 39":    SinkContainer,
		"h":                     SinkReturn,
	}
	got := make(map[string]Sink)
	for _, r := range recs {
		if !r.Kind.IsHeap() {
			continue
		}
		got[r.Name] = r.Sink
		got[r.Name+" "+itoa(r.Pos.Line)] = r.Sink
	}
	for name, s := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("no heap record %q; have %v", name, got)
			continue
		}
		if g != s {
			t.Errorf("%s: sink %v, want %v", name, g, s)
		}
	}
}
