package optlog

import (
	"context"
	"go/types"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// inliningFixture writes a package with one function that can be inlined
// (F) and one too complex to be (G), and returns the pass of it.
func inliningFixture(t *testing.T) (*analysis.Pass, string) {
	t.Helper()
	return fixturePass(t, map[string]string{
		"go.mod": "module example.com/inl\n\ngo 1.26\n",
		"a.go":   "package inl\n\nfunc F(x int) int { return x*2 + 1 }\n\nfunc G(x []int) int {\n\ts := 0\n\tfor i, v := range x {\n\t\tif v > i {\n\t\t\ts += v * i\n\t\t} else {\n\t\t\ts -= F(v) + F(i)*F(s) - F(s+v)*F(s-i) + F(v*i)\n\t\t\ts *= F(s) ^ F(v+1) | F(i+2)\n\t\t}\n\t\tfor j := range v {\n\t\t\ts ^= j << 2\n\t\t}\n\t}\n\treturn s\n}\n",
		"b.go":   "package inl\n\nimport \"fmt\"\n\nfunc H(n int) string { return fmt.Sprint(n) }\n",
	})
}

// TestInliningEdited checks that the inlining decisions of a compile
// stopped after inlining are those of the whole compile, for functions
// whose lines the edit moved, and that the compile is stopped (through
// the test binary as -toolexec wrapper) unless the go command has a
// wrapper of its own.
func TestInliningEdited(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a fixture package")
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	pass, dir := inliningFixture(t)
	a := filepath.Join(dir, "a.go")
	src, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	// Two lines more before F (at line 5) and G (at 7); G gets cheaper.
	edited := strings.Replace(string(src), "package inl\n", "package inl\n\n// moved\n", 1)
	edited = strings.Replace(edited, "\t\tfor j := range v {\n\t\t\ts ^= j << 2\n\t\t}\n", "", 1)
	replace := map[string][]byte{a: []byte(edited)}
	want := []Position{{File: a, Line: 5}, {File: a, Line: 7}}
	var keep []*types.Func
	for _, name := range []string{"F", "G"} {
		keep = append(keep, pass.Pkg.Scope().Lookup(name).(*types.Func))
	}

	full, err := CompileEdited(context.Background(), pass, replace, nil)
	if err != nil {
		t.Fatal(err)
	}
	expect := inliningAt(full, want)
	if len(expect) != 2 {
		t.Fatalf("the full compile decided %d of F and G: %v", len(expect), expect)
	}
	byLine := func(recs []Record) map[int]Record {
		m := make(map[int]Record)
		for _, r := range recs {
			m[r.Pos.Line] = r
		}
		return m
	}
	check := func(t *testing.T, got []Record) {
		t.Helper()
		g, w := byLine(got), byLine(expect)
		for line, e := range w {
			r, ok := g[line]
			switch {
			case !ok:
				t.Errorf("no decision about the function at line %d; want %v cost %d", line, e.Kind, e.Cost)
			case r.Kind != e.Kind || r.Cost != e.Cost || r.Pos.File != a:
				t.Errorf("line %d: %v cost %d in %s, the full compile says %v cost %d", line, r.Kind, r.Cost, r.Pos.File, e.Kind, e.Cost)
			}
		}
		if len(g) != len(w) {
			t.Errorf("got decisions at lines %v, want only at %v", g, w)
		}
	}
	if e := byLine(expect); e[5].Kind != CanInline || e[7].Kind != CannotInline || e[7].Cost <= e[7].Budget {
		t.Fatalf("the fixture does not give F a cost under the budget and G one over it: %v", expect)
	}

	// stopped checks that InliningEdited gives the full compile's
	// decisions from a compile it stopped.
	stopped := func(t *testing.T) {
		before := inliningStops.Load()
		got, err := InliningEdited(context.Background(), pass, replace, keep, want)
		if err != nil {
			t.Fatal(err)
		}
		check(t, got)
		if inliningStops.Load() == before {
			t.Errorf("the compile was not stopped after inlining")
		}
	}
	t.Run("stopped", stopped)
	t.Run("wrapped", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("wraps the tools with a shell script")
		}
		// A -toolexec of the user's own: the package is compiled whole.
		wrap := filepath.Join(t.TempDir(), "wrap.sh")
		if err := os.WriteFile(wrap, []byte("#!/bin/sh\nexec \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("GOFLAGS", "-toolexec="+wrap)
		before := inliningStops.Load()
		got, err := InliningEdited(context.Background(), pass, replace, keep, want)
		if err != nil {
			t.Fatal(err)
		}
		check(t, got)
		if inliningStops.Load() != before {
			t.Errorf("the compile was stopped through goadvise's wrapper despite GOFLAGS=-toolexec")
		}
	})
	t.Run("broken", func(t *testing.T) {
		bad := map[string][]byte{a: []byte(strings.Replace(edited, "return x*2 + 1", "return y", 1))}
		_, err := InliningEdited(context.Background(), pass, bad, keep, want)
		if err == nil || !strings.Contains(err.Error(), "undefined: y") {
			t.Errorf("compiling an edit that does not compile: got %v, want the compile error", err)
		}
	})
	t.Run("vet", func(t *testing.T) {
		// Under go vet -vettool the unit's compile is run and watched
		// directly.
		useVetUnit(t, dir, "example.com/inl")
		stopped(t)
	})
	if b, _ := os.ReadFile(a); string(b) != string(src) {
		t.Errorf("a.go was modified")
	}
}
