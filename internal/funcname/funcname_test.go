package funcname

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const src = `package kv

type Store struct{}

func (s *Store) Put() { _ = func() { _ = func() {} } }

func (s Store) Get() {}

type Map[K comparable, V any] struct{ m map[K]V }

func (m *Map[K, V]) Len() int { return len(m.m) }

func (m Map[K, _]) Has(k K) bool { _, ok := m.m[k]; return ok }

func Keys[K comparable, V any](m map[K]V) []K { return nil }

func F() { _ = Keys[int, int]; var m Map[int, int]; _ = m.Len() }

type (Paren struct{})

func (p (*Paren)) M() {}
`

// load type-checks src as package example.com/svc/kv.
func load(t *testing.T) (*token.FileSet, *ast.File, *types.Package, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "kv.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{}, Instances: map[*ast.Ident]types.Instance{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Implicits: map[ast.Node]types.Object{}, FileVersions: map[*ast.File]string{}}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("example.com/svc/kv", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return fset, f, pkg, info
}

// want is each declaration's full name, as pprof prints it.
var want = map[string]string{
	"Put":  "example.com/svc/kv.(*Store).Put",
	"Get":  "example.com/svc/kv.Store.Get",
	"Len":  "example.com/svc/kv.(*Map[...]).Len",
	"Has":  "example.com/svc/kv.Map[...].Has",
	"Keys": "example.com/svc/kv.Keys[...]",
	"F":    "example.com/svc/kv.F",
	"M":    "example.com/svc/kv.(*Paren).M",
}

func TestOfAndDecl(t *testing.T) {
	_, f, pkg, info := load(t)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		fn := info.Defs[fd.Name].(*types.Func)
		w := want[fd.Name.Name]
		if got := Of(fn); got != w {
			t.Errorf("Of(%s) = %q, want %q", fd.Name.Name, got, w)
		}
		if got, w := Decl(fd), w[len(pkg.Path())+1:]; got != w {
			t.Errorf("Decl(%s) = %q, want %q", fd.Name.Name, got, w)
		}
		if got, w := InPackage(fn), w[len(pkg.Path())+1:]; got != w {
			t.Errorf("InPackage(%s) = %q, want %q", fd.Name.Name, got, w)
		}
	}
	// An instantiated method is named as its generic method.
	m := pkg.Scope().Lookup("Map").Type().(*types.Named)
	inst, err := types.Instantiate(nil, m, []types.Type{types.Typ[types.Int], types.Typ[types.String]}, true)
	if err != nil {
		t.Fatal(err)
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(inst), false, pkg, "Len")
	if got := Of(obj.(*types.Func)); got != want["Len"] {
		t.Errorf("Of(instantiated Len) = %q, want %q", got, want["Len"])
	}
	// A method of the universe's error interface has no package.
	errFn, _, _ := types.LookupFieldOrMethod(types.Universe.Lookup("error").Type(), false, nil, "Error")
	if got := Of(errFn.(*types.Func)); got != "error.Error" {
		t.Errorf("Of(error.Error) = %q, want %q", got, "error.Error")
	}
}

func TestOfSSA(t *testing.T) {
	fset, f, pkg, _ := load(t)
	spkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage(pkg.Path(), pkg.Name()), []*ast.File{f}, ssa.InstantiateGenerics)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	check := func(fn *ssa.Function) {
		got := OfSSA(fn)
		seen[got] = true
		for _, anon := range fn.AnonFuncs {
			if g := OfSSA(anon); g != got {
				t.Errorf("OfSSA(%s) = %q, want %q (the enclosing declaration)", anon, g, got)
			}
			for _, inner := range anon.AnonFuncs {
				if g := OfSSA(inner); g != got {
					t.Errorf("OfSSA(%s) = %q, want %q (the enclosing declaration)", inner, g, got)
				}
			}
		}
	}
	scope := spkg.Pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			check(spkg.Prog.FuncValue(obj))
		case *types.TypeName:
			if n, ok := obj.Type().(*types.Named); ok {
				for i := range n.NumMethods() {
					check(spkg.Prog.FuncValue(n.Method(i)))
				}
			}
		}
	}
	// Instantiations are named as their generic function.
	for fn := range ssautil.AllFunctions(spkg.Prog) {
		if fn.Origin() != nil {
			if got := OfSSA(fn); !seen[got] {
				t.Errorf("OfSSA(%s) = %q, not the name of a declaration", fn, got)
			}
		}
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no SSA function named %q; got %v", w, seen)
		}
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name, pkg, short, inPkg, outer string
	}{
		{"example.com/svc/kv.(*Store).Put", "example.com/svc/kv", "kv.(*Store).Put", "(*Store).Put", ""},
		{"example.com/svc/kv.Store.Get", "example.com/svc/kv", "kv.Store.Get", "Store.Get", ""},
		{"main.main", "main", "main.main", "main", ""},
		{"runtime.mallocgc", "runtime", "runtime.mallocgc", "mallocgc", ""},
		{"example.com/a.b/pkg.F[...]", "example.com/a.b/pkg", "pkg.F[...]", "F[...]", ""},
		{"example.com/pkg.G[go.shape.int]", "example.com/pkg", "pkg.G[go.shape.int]", "G[go.shape.int]", ""},
		{"example.com/p.(*T[go.shape.*example.com/q.U]).M", "example.com/p", "p.(*T[go.shape.*example.com/q.U]).M", "(*T[go.shape.*example.com/q.U]).M", ""},
		{"example.com/p.F.func1", "example.com/p", "p.F.func1", "F.func1", "example.com/p.F"},
		{"example.com/p.(*T).M.func2.1", "example.com/p", "p.(*T).M.func2.1", "(*T).M.func2.1", "example.com/p.(*T).M"},
		{"example.com/p.T.M-fm", "example.com/p", "p.T.M-fm", "T.M-fm", "example.com/p.T.M"},
		{"example.com/p.F-range1", "example.com/p", "p.F-range1", "F-range1", "example.com/p.F"},
		{"example.com/p.F.Seq-range2.1", "example.com/p", "p.F.Seq-range2.1", "F.Seq-range2.1", "example.com/p.F.Seq"},
		{"example.com/p.F.gowrap1", "example.com/p", "p.F.gowrap1", "F.gowrap1", "example.com/p.F"},
		{"example.com/p.F.deferwrap2", "example.com/p", "p.F.deferwrap2", "F.deferwrap2", "example.com/p.F"},
		{"example.com/p.Keys[...].func1", "example.com/p", "p.Keys[...].func1", "Keys[...].func1", "example.com/p.Keys[...]"},
		{"(*T).M", "", "(*T).M", "(*T).M", ""},
		// The HTML report's former shortFunc cases, whose form text and JSON now share.
		{"example.com/svc/kv.Describe", "example.com/svc/kv", "kv.Describe", "Describe", ""},
		{"example.com/a.F[example.com/b.T].m", "example.com/a", "a.F[example.com/b.T].m", "F[example.com/b.T].m", ""},
		{"example.com/a.(*T[example.com/b.U]).M", "example.com/a", "a.(*T[example.com/b.U]).M", "(*T[example.com/b.U]).M", ""},
	} {
		if got := Package(tc.name); got != tc.pkg {
			t.Errorf("Package(%q) = %q, want %q", tc.name, got, tc.pkg)
		}
		if got := Short(tc.name); got != tc.short {
			t.Errorf("Short(%q) = %q, want %q", tc.name, got, tc.short)
		}
		if got := InPackageOf(tc.name); got != tc.inPkg {
			t.Errorf("InPackageOf(%q) = %q, want %q", tc.name, got, tc.inPkg)
		}
		outer, made := Outer(tc.name)
		if tc.outer == "" {
			if made || outer != tc.name {
				t.Errorf("Outer(%q) = %q, %v; want it unchanged, false", tc.name, outer, made)
			}
		} else if !made || outer != tc.outer {
			t.Errorf("Outer(%q) = %q, %v; want %q, true", tc.name, outer, made, tc.outer)
		}
	}
}

func TestNoTypeArgs(t *testing.T) {
	for in, want := range map[string]string{
		"(*G[go.shape.int]).Elem":        "(*G).Elem",
		"(*G[...]).Elem":                 "(*G).Elem",
		"F[go.shape.[]int,go.shape.int]": "F",
		"(*T).M":                         "(*T).M",
	} {
		if got := NoTypeArgs(in); got != want {
			t.Errorf("NoTypeArgs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct{ in, name, rest string }{
		{"scan", "scan", ""},
		{"strings.Index func(string, string) int { return 0 }", "strings.Index", " func(string, string) int { return 0 }"},
		{"atomic.(*Pointer[go.shape.struct { example.com/gx/cache.k int; example.com/gx/cache.v int }]).Load", "atomic.(*Pointer[go.shape.struct { example.com/gx/cache.k int; example.com/gx/cache.v int }]).Load", ""},
		{"F[go.shape.interface { M() }] with cost 12", "F[go.shape.interface { M() }]", " with cost 12"},
	} {
		if name, rest := Cut(tc.in); name != tc.name || rest != tc.rest {
			t.Errorf("Cut(%q) = %q, %q; want %q, %q", tc.in, name, rest, tc.name, tc.rest)
		}
	}
}

func TestBrief(t *testing.T) {
	for _, tc := range []struct{ pkg, name, brief, from string }{
		{"example.com/svc/kv", "example.com/svc/kv.(*Store).Put", "kv.(*Store).Put", "(*Store).Put"},
		{"example.com/gx/cache", "sync/atomic.(*Pointer[go.shape.struct { example.com/gx/cache.k int; example.com/gx/cache.v int }]).Load",
			"atomic.(*Pointer[go.shape.struct { cache.k int; cache.v int }]).Load", "atomic.(*Pointer[go.shape.struct { cache.k int; cache.v int }]).Load"},
		{"example.com/p", "example.com/p.(*T[go.shape.*example.com/q.U]).M", "p.(*T[go.shape.*q.U]).M", "(*T[go.shape.*q.U]).M"},
		{"example.com/a", "example.com/a.F[map[example.com/b.K][]example.com/c/d.V,go.shape.int].func1", "a.F[map[b.K][]d.V,go.shape.int].func1", "F[map[b.K][]d.V,go.shape.int].func1"},
		{"", "atomic.(*Pointer[example.com/gx/cache.entry]).Load", "atomic.(*Pointer[cache.entry]).Load", "atomic.(*Pointer[cache.entry]).Load"},
	} {
		if got := Brief(tc.name); got != tc.brief {
			t.Errorf("Brief(%q) = %q, want %q", tc.name, got, tc.brief)
		}
		if got := From(tc.pkg, tc.name); got != tc.from {
			t.Errorf("From(%q, %q) = %q, want %q", tc.pkg, tc.name, got, tc.from)
		}
	}
}

// TestEscapedPackage checks the names of a package whose path's last
// element has a dot, which profiles and the linker escape as %2e.
func TestEscapedPackage(t *testing.T) {
	for _, c := range []struct{ name, pkg, source string }{
		{"github.com/nats-io/nats%2ego.DecodeHeadersMsg", "github.com/nats-io/nats.go", "github.com/nats-io/nats.go.DecodeHeadersMsg"},
		{"github.com/nats-io/nats%2ego.(*Conn).Publish.func1", "github.com/nats-io/nats.go", "github.com/nats-io/nats.go.(*Conn).Publish.func1"},
		{"gopkg.in/yaml%2ev3.Unmarshal", "gopkg.in/yaml.v3", "gopkg.in/yaml.v3.Unmarshal"},
		{"gopkg.in/yaml%2ev3.Map[go.shape.int%2eX]", "gopkg.in/yaml.v3", "gopkg.in/yaml.v3.Map[go.shape.int%2eX]"},
		{"github.com/nats-io/nats.go/jetstream.(*js).Publish", "github.com/nats-io/nats.go/jetstream", "github.com/nats-io/nats.go/jetstream.(*js).Publish"},
		{"example.com/svc/kv.(*Store).Put", "example.com/svc/kv", "example.com/svc/kv.(*Store).Put"},
		{"runtime.mallocgc", "runtime", "runtime.mallocgc"},
	} {
		if got := Package(c.name); got != c.pkg {
			t.Errorf("Package(%q) = %q, want %q", c.name, got, c.pkg)
		}
		if got := FromProfile(c.name); got != c.source {
			t.Errorf("FromProfile(%q) = %q, want %q", c.name, got, c.source)
		}
	}
}
