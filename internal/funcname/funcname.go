// Package funcname names functions as the Go toolchain does, so that the
// names goadvise reads from profiles, from the compiler's optimization log
// and from source (syntax, types or SSA) compare equal.
//
// The full name is the one pprof and the linker print:
// "example.com/svc/kv.(*Store).Put", "example.com/svc/kv.Get",
// "example.com/svc/kv.Map[...].Len" for a method of a generic type. The
// compiler names a function literal after its enclosing function
// ("kv.Get.func1", nested ones "kv.Get.func1.1"), a method value wrapper
// with a "-fm" suffix and the body of a range-over-func loop with "-rangeN".
//
// Profiles and the linker escape a package path's last element: a dot in
// it is "%2e" ("github.com/nats-io/nats%2ego.Connect", "gopkg.in/yaml%2ev3.Unmarshal"),
// so that the name's first dot after its last slash still ends the path.
// [Package] understands both forms; [FromProfile] turns a profile's name
// into the form source gives.
//
// [Short] is the one short form goadvise shows a user in text, HTML and
// JSON alike: the package name and the function, "kv.(*Store).Put".
// [InPackage] is the form of an analyzer's message about its own package,
// as go vet writes it: "(*Store).Put".
package funcname

import (
	"go/ast"
	"go/types"
	"net/url"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Of returns the full name of fn as profiles name it:
// "pkg/path.F", "pkg/path.(*T).M", "pkg/path.T.M", and "pkg/path.F[...]"
// or "pkg/path.(*T[...]).M" for generic code (of every instantiation). A
// function without a package (a method of the error interface) has no
// package part.
func Of(fn *types.Func) string {
	name := InPackage(fn)
	if fn.Pkg() == nil {
		return name
	}
	return fn.Pkg().Path() + "." + name
}

// InPackage returns the name of fn without its package path: "F",
// "(*T).M", "T.M", "F[...]" or "(*T[...]).M". Analyzers use it in messages
// about the package they analyze.
func InPackage(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		if ok && sig.TypeParams().Len() > 0 {
			return fn.Name() + "[...]"
		}
		return fn.Name()
	}
	t := sig.Recv().Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	name := "?"
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		name = t.Obj().Name()
		if t.TypeParams().Len() > 0 || t.TypeArgs().Len() > 0 {
			name += "[...]"
		}
	case *types.Interface:
		name = "interface"
	}
	return recv(name, ptr) + fn.Name()
}

// OfSSA returns the full name of the declared function fn belongs to: a
// function literal is named after its enclosing declaration and an
// instantiation after its generic function, as in [Of]. A synthetic
// function without a declaration (a wrapper) is named "pkg/path.Name" by
// its SSA name.
func OfSSA(fn *ssa.Function) string {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		return Of(obj)
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg.Path() + "." + fn.Name()
	}
	return fn.Name()
}

// Decl returns the name of a declared function without its package path,
// from syntax alone: "F", "T.M", "(*T).M", "F[...]", "(*T[...]).M". It
// agrees with [InPackage] of the function's object.
func Decl(fd *ast.FuncDecl) string {
	name := fd.Name.Name
	if fd.Type.TypeParams != nil && fd.Type.TypeParams.NumFields() > 0 {
		name += "[...]"
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return name
	}
	t := fd.Recv.List[0].Type
	if p, ok := t.(*ast.ParenExpr); ok {
		t = p.X
	}
	ptr := false
	if st, ok := t.(*ast.StarExpr); ok {
		ptr, t = true, st.X
	}
	generic := false
	switch x := t.(type) {
	case *ast.IndexExpr:
		t, generic = x.X, true
	case *ast.IndexListExpr:
		t, generic = x.X, true
	}
	typ := "?"
	if id, ok := t.(*ast.Ident); ok {
		typ = id.Name
	}
	if generic {
		typ += "[...]"
	}
	return recv(typ, ptr) + name
}

// recv returns the receiver part of a method name: "(*T)." or "T.".
func recv(typ string, ptr bool) string {
	if ptr {
		return "(*" + typ + ")."
	}
	return typ + "."
}

// Package returns the package path of a full name:
// "example.com/pkg" for "example.com/pkg.(*T).M" or
// "example.com/pkg.G[go.shape.int]". A name without a package (one that
// starts with a receiver, "(*T).M") has none: it returns "". The path of
// a profile's name is unescaped: "github.com/nats-io/nats.go" for
// "github.com/nats-io/nats%2ego.Connect".
func Package(name string) string {
	if strings.HasPrefix(name, "(") {
		return ""
	}
	return unescape(name[:pathEnd(name)])
}

// FromProfile returns a function name as profiles and the linker print it
// in the form that source gives: the package path unescaped,
// "github.com/nats-io/nats.go.Connect" for
// "github.com/nats-io/nats%2ego.Connect". Other names are returned as
// they are.
func FromProfile(name string) string {
	if !strings.Contains(name, "%") || strings.HasPrefix(name, "(") {
		return name
	}
	n := pathEnd(name)
	return unescape(name[:n]) + name[n:]
}

// pathEnd returns the length of the package path that starts name, as
// the linker writes it: up to the first dot after the last slash before
// any type arguments.
func pathEnd(name string) int {
	end := len(name)
	if i := strings.IndexByte(name, '['); i >= 0 {
		end = i
	}
	slash := strings.LastIndexByte(name[:end], '/')
	if dot := strings.IndexByte(name[slash+1:end], '.'); dot >= 0 {
		return slash + 1 + dot
	}
	return end
}

// unescape undoes the linker's escaping of a package path ("%2e" for a
// dot); a path it cannot decode is returned as it is.
func unescape(path string) string {
	if !strings.Contains(path, "%") {
		return path
	}
	if p, err := url.PathUnescape(path); err == nil {
		return p
	}
	return path
}

// Short returns the form of a full name that goadvise shows: the name
// without the directories of its package path, "kv.(*Store).Put" for
// "example.com/svc/kv.(*Store).Put". It keeps the package name, so that
// functions of different packages stay apart in a report; type arguments
// are kept as they are.
func Short(name string) string {
	pkg := Package(name)
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// InPackageOf returns a full name without its package path:
// "(*T).M" for "example.com/kv.(*T).M". A name without a package is
// returned as it is.
func InPackageOf(name string) string {
	pkg := Package(name)
	if pkg == "" || pkg == name {
		return name
	}
	return name[len(pkg)+1:]
}

// Outer returns, for a name the compiler makes (a function literal
// "F.func1", "F.func1.2", the body of a range-over-func loop "F-range1", a
// go or defer wrapper "F.gowrap1", "F.deferwrap1", a method value wrapper
// "T.M-fm"), the name of the declared function it belongs to, and true.
// For any other name it returns the name and false.
func Outer(name string) (outer string, made bool) {
	pkg := Package(name)
	rest := name[len(pkg):]
	cut := len(rest)
	for _, marker := range []string{".func", "-range", ".gowrap", ".deferwrap", "-fm"} {
		if i := strings.Index(rest, marker); i >= 0 && i < cut {
			cut = i
		}
	}
	if cut == len(rest) {
		return name, false
	}
	return pkg + rest[:cut], true
}

// NoTypeArgs removes the type parameters or arguments from a name, as the
// compiler's log writes instantiations with shape types:
// "(*G[go.shape.int]).Elem" and "(*G[...]).Elem" both become "(*G).Elem".
func NoTypeArgs(name string) string {
	if !strings.Contains(name, "[") {
		return name
	}
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Cut returns the function name at the start of s, as the compiler
// prints it in its -m and -d=pgodebug remarks, and the text after it. The
// name ends at the first space outside brackets: the type arguments of an
// instantiation may hold spaces, as in
// "atomic.(*Pointer[go.shape.struct { example.com/c.k int }]).Load".
func Cut(s string) (name, rest string) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			if depth > 0 {
				depth--
			}
		case ' ':
			if depth == 0 {
				return s[:i], s[i:]
			}
		}
	}
	return s, ""
}

// Brief returns the form of a name that goadvise shows where the whole
// name would be long: [Short], with the package paths in its type
// arguments cut to package names as well:
// "atomic.(*Pointer[go.shape.struct { cache.k int }]).Load" for
// "sync/atomic.(*Pointer[go.shape.struct { example.com/gx/cache.k int }]).Load".
// Instantiations stay apart unless their types differ only in package
// paths.
func Brief(name string) string { return shortTypeArgs(Short(name)) }

// From returns a name as seen from package pkg: without its package path
// ([InPackageOf]) if it is a function of pkg, else [Brief]. Type arguments
// are shortened as by [Brief] in both cases.
func From(pkg, name string) string {
	if pkg != "" && Package(name) == pkg {
		return shortTypeArgs(InPackageOf(name))
	}
	return Brief(name)
}

// shortTypeArgs cuts the package paths in the brackets of name to package
// names: "example.com/q.U" becomes "q.U".
func shortTypeArgs(name string) string {
	i := strings.IndexByte(name, '[')
	if i < 0 {
		return name
	}
	var b strings.Builder
	b.WriteString(name[:i])
	start := i // the start of the current token
	flush := func(end int) {
		tok := name[start:end]
		if j := strings.LastIndexByte(tok, '/'); j >= 0 {
			tok = tok[j+1:]
		}
		b.WriteString(tok)
	}
	for j := i; j < len(name); j++ {
		switch name[j] {
		case '[', ']', '{', '}', '(', ')', ' ', ',', ';', '*':
			flush(j)
			b.WriteByte(name[j])
			start = j + 1
		}
	}
	flush(len(name))
	return b.String()
}
