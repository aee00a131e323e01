package optlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestCallee checks that an explanation names the called function, not the
// whole call, also for the method expressions the compiler writes, and
// the name of that function alone (stepCallee).
func TestCallee(t *testing.T) {
	for _, tc := range []struct{ call, want, name string }{
		{"r.Read(buf)", "r.Read", "Read"},
		{"io.ReadFull(r, buf[:n])", "io.ReadFull", "ReadFull"},
		{"(*kip951move).maybeAddSharePartition(kmove, sc, drained.cursor, brokers)", "(*kip951move).maybeAddSharePartition", "maybeAddSharePartition"},
		{"(*pair[go.shape.int]).set(p, x)", "(*pair[go.shape.int]).set", "set"},
		{"l.Writer.Write([]byte{...})", "l.Writer.Write", "Write"},
		{"F[go.shape.int](x)", "F[go.shape.int]", "F"},
		{"f", "f", "f"},
	} {
		if got := callee(tc.call); got != tc.want {
			t.Errorf("callee(%q) = %q, want %q", tc.call, got, tc.want)
		}
		if got := stepCallee(tc.call); got != tc.name {
			t.Errorf("stepCallee(%q) = %q, want %q", tc.call, got, tc.name)
		}
	}
}

// TestExplanationWords checks that explanations say in plain words what the
// compiler's flow says in its own: comma-ok assignments and type switches
// are moves within the function, and map, channel and slice stores are
// named as such, never as the compiler's reason ("assign-pair-dot-type").
func TestExplanationWords(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, map[string]string{
		"go.mod": "module words\n\ngo 1.26\n",
		"w/w.go": `package w

var G any
var S []*int

func Assert(b bool) {
	n := 1
	var p any = &n
	if b {
		p = "x"
	}
	if v, ok := p.(*int); ok {
		G = v
	}
}

func Switch(b bool) {
	n := 2
	var p any = &n
	if b {
		p = "x"
	}
	switch v := p.(type) {
	case *int:
		G = v
	}
}

func MapLit(k string) any {
	n := 3
	m := map[string]*int{k: &n}
	if v, ok := m["a"]; ok {
		return v
	}
	return nil
}

func Send(ch chan *int) { n := 4; ch <- &n }

func Copy() { n := 5; s := []*int{&n}; copy(S, s) }
`,
	})
	pr := collectOne(t, dir, "words/w")
	src, err := os.ReadFile(filepath.Join(dir, "w", "w.go"))
	if err != nil {
		t.Fatal(err)
	}
	funcAt := func(line int) string { // the function declared last before line
		name := ""
		for i, l := range strings.Split(string(src), "\n")[:line] {
			if f, ok := strings.CutPrefix(l, "func "); ok && i < line {
				name, _, _ = strings.Cut(f, "(")
			}
		}
		return name
	}
	want := map[string]string{
		"Assert": "n escapes: its address is taken, then converted to an interface, then stored in G",
		"Switch": "n escapes: its address is taken, then converted to an interface, then stored in G",
		"MapLit": "n escapes: its address is taken, then stored in a map",
		"Send":   "n escapes: its address is taken, then sent on a channel",
		"Copy":   "n escapes: its address is taken, then passed to copy, then copied into a slice",
	}
	got := make(map[string]string)
	for _, r := range pr.Records {
		if r.Kind == MovedToHeap || r.Kind == EscapesToHeap {
			if r.Name == "n" {
				got[funcAt(r.Pos.Line)] = r.Explanation
			}
		}
		if strings.Contains(r.Explanation, "assign-pair") || strings.Contains(r.Explanation, "switch case") {
			t.Errorf("%s: explanation %q uses the compiler's reason", r.Pos, r.Explanation)
		}
	}
	for fn, w := range want {
		if got[fn] != w {
			t.Errorf("%s: explanation %q, want %q", fn, got[fn], w)
		}
	}
}
