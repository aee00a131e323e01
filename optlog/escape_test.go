package optlog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/internal/gittest"
	"github.com/goadvise/goadvise/internal/gocmd"
	"github.com/goadvise/goadvise/load"
)

// fixture covers the allocation sites the compiler reports: make, new,
// &T{}, composite literals, conversions, closures, moved variables,
// interface conversions, append, go/defer, code inlined from another
// package of the module and from the standard library, and generics.
var fixture = map[string]string{
	"go.mod": "module fix\n\ngo 1.26\n",
	"lib/lib.go": `package lib

type R struct{ S string }

func New(s string) *R { return &R{S: s} }

func Box(v int) any { return v }

func Map[T any](xs []T, f func(T) T) []T {
	out := make([]T, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
`,
	"a/a.go": `package a

import (
	"fix/lib"
	"fmt"
	"io"
	"strings"
	"sync"
)

var G any

type T struct{ a, b int }

func F(r io.Reader, n int) []byte {
	buf := make([]byte, n)
	r.Read(buf)
	x := 5
	p := &x
	fmt.Println(*p)
	return buf
}

func NewT() *T { return &T{1, 2} }

func Counter() func() int { y := 3; return func() int { y++; return y } }

func Conv(s string) { b := []byte(s); G = b; G = []rune(s); G = string(b) + s }

func Args(v int) { G = v; go func() {}(); go fmt.Println(v) }

func Inl(s string) { r := lib.New(s); G = r; G = strings.NewReader(s); G = lib.Box(3) }

func Lock() { var mu sync.Mutex; go func() { mu.Lock() }() }

func Big() int { b := make([]byte, 1<<20); return len(b) }

func Grow() { var xs []int; for i := 0; i < 10; i++ { xs = append(xs, i) }; G = xs }

func Defers() *int { for i := 0; i < 3; i++ { defer func() { _ = i }() }; x := 1; return &x }

func Gen(xs []int) []int { return lib.Map(xs, func(x int) int { return x + 1 }) }

func Lit() { G = []int{1, 2}; G = map[string]int{"a": 1}; G = new(T); G = T{} }

func Method() { var t T; G = t.String }

func (t T) String() string { return "" }

func Idx(xs []int, i int) int { return xs[i] + len(xs[i:]) }

func Deref(p *T) int { return p.a }

func CallF() { F(nil, 0) }

func Nil(p *T) { _ = *p }

func Content(p *[]byte) { G = *p }

func Id(p *int) *int { return p }
`,
	"a/a_test.go": `package a

import "testing"

func TestX(t *testing.T) { G = &T{} }
`,
}

// mPos matches a heap line of go build -gcflags=-m output.
var mPos = regexp.MustCompile(`^(.+?):(\d+)(:\d+)?: (?:moved to heap: .*|.* escapes to heap)$`)

// compilerHeap runs go build -gcflags=<pkg>=-m for pkg in dir and returns
// the set of positions of heap allocations it reports, with absolute file
// names. Positions in files of other packages (generic instantiations
// compiled in this package) are included: they are decisions made while
// compiling pkg.
func compilerHeap(t *testing.T, dir, pkg string) map[string]bool {
	t.Helper()
	cmd := exec.Command("go", "build", "-gcflags="+pkg+"=-m", pkg)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m %s: %v\n%s", pkg, err, out)
	}
	set := make(map[string]bool)
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		m := mPos.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		file := m[1]
		if !filepath.IsAbs(file) && !strings.HasPrefix(file, "<") {
			file = filepath.Join(dir, file)
		}
		set[fmt.Sprintf("%s:%s%s", file, m[2], m[3])] = true
	}
	return set
}

func heapSet(recs []Record) map[string]bool {
	set := make(map[string]bool)
	for _, r := range recs {
		if r.Kind.IsHeap() {
			set[r.Pos.String()] = true
		}
	}
	return set
}

func diffSets(t *testing.T, what string, want, got map[string]bool) {
	t.Helper()
	var missing, extra []string
	for p := range want {
		if !got[p] {
			missing = append(missing, p)
		}
	}
	for p := range got {
		if !want[p] {
			extra = append(extra, p)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Errorf("%s: heap positions differ from go build -gcflags=-m:\nmissing (in -m, not collected): %v\nextra (collected, not in -m): %v", what, missing, extra)
	}
	if len(want) == 0 {
		t.Errorf("%s: go build -gcflags=-m reported no heap allocations; the test checks nothing", what)
	}
}

func collectOne(t *testing.T, dir, pkg string) *PackageResult {
	t.Helper()
	res, err := Collect(context.Background(), LoadOptions{Dir: dir, Patterns: []string{pkg}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.ImportPath == pkg && !r.Test {
			if r.Err != "" {
				t.Fatalf("%s: %s", pkg, r.Err)
			}
			return r
		}
	}
	t.Fatalf("no result for %s", pkg)
	return nil
}

// TestAgreementFixture checks that the heap allocations collected from the
// optimization log are exactly those of go build -gcflags=-m.
func TestAgreementFixture(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, fixture)
	for _, pkg := range []string{"fix/a", "fix/lib"} {
		want := compilerHeap(t, dir, pkg)
		got := heapSet(collectOne(t, dir, pkg).Records)
		diffSets(t, pkg, want, got)
	}
}

// TestAgreementStd checks agreement on real standard library packages.
func TestAgreementStd(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles standard library packages")
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, map[string]string{"go.mod": "module m\n\ngo 1.26\n"})
	for _, pkg := range []string{"bufio", "strings", "net/url", "encoding/json"} {
		want := compilerHeap(t, dir, pkg)
		got := heapSet(collectOne(t, dir, pkg).Records)
		diffSets(t, pkg, want, got)
	}
}

// TestRecords checks kinds, causes, flows and explanations on the fixture.
func TestRecords(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, fixture)
	pr := collectOne(t, dir, "fix/a")
	file := filepath.Join(dir, "a", "a.go")
	at := func(line, col int, kind Kind) *Record {
		for i, r := range pr.Records {
			if r.Pos == (Position{file, line, col}) && r.Kind == kind {
				return &pr.Records[i]
			}
		}
		t.Errorf("no %s record at a.go:%d:%d", kind, line, col)
		return nil
	}
	cases := []struct {
		line, col int
		kind      Kind
		name      string
		cause     Cause
		expl      string
	}{
		{16, 13, EscapesToHeap, "make([]byte, n)", CauseInterfaceMethodCall, "make([]byte, n) escapes: passed to r.Read"},
		{20, 14, EscapesToHeap, "*p", CauseInterfaceConversion, "*p escapes: converted to an interface, then passed to fmt.Fprintln"},
		{24, 25, EscapesToHeap, "&T{...}", CauseReturnedOrStored, "&T{...} escapes: returned"},
		{26, 29, MovedToHeap, "y", CauseClosure, "y escapes: captured by a closure"},
		{30, 24, EscapesToHeap, "v", CauseInterfaceConversion, "v escapes: converted to an interface, then stored in G"},
		{30, 30, EscapesToHeap, "func literal", CauseGoDefer, ""},
		{32, 34, EscapesToHeap, "&lib.R{...}", CauseReturnedOrStored, "&lib.R{...} escapes: stored in G"},
		{34, 19, MovedToHeap, "mu", CauseClosure, "mu escapes: captured by a closure"},
		{36, 27, EscapesToHeap, "make([]byte, 1048576)", CauseTooLarge, "make([]byte, 1048576) escapes: too large for stack"},
		{38, 66, EscapesToHeap, "append(xs, i)", CauseAppend, ""},
		{40, 75, MovedToHeap, "x", CauseAddressStored, "x escapes: its address is taken, then returned"},
		{40, 53, EscapesToHeap, "func literal", CauseGoDefer, ""},
		{44, 66, EscapesToHeap, "new(T)", CauseReturnedOrStored, ""},
		{44, 76, EscapesToHeap, "T{}", CauseInterfaceConversion, ""},
	}
	for _, c := range cases {
		r := at(c.line, c.col, c.kind)
		if r == nil {
			continue
		}
		if r.Name != c.name || r.Cause != c.cause || (c.expl != "" && r.Explanation != c.expl) {
			t.Errorf("a.go:%d:%d: got %q cause %q explanation %q; want %q cause %q explanation %q",
				c.line, c.col, r.Name, r.Cause, r.Explanation, c.name, c.cause, c.expl)
		}
		if len(r.Flow) == 0 && c.cause != CauseTooLarge {
			t.Errorf("a.go:%d:%d: no flow", c.line, c.col)
		}
	}
	// Inlined allocation: reported at the call site, with the inlining
	// context of the callee in lib.
	if r := at(32, 34, EscapesToHeap); r != nil {
		want := Position{filepath.Join(dir, "lib", "lib.go"), 5, 32}
		if len(r.InlinedFrom) != 1 || r.InlinedFrom[0] != want {
			t.Errorf("a.go:32:34: inlining context %v, want [%v]", r.InlinedFrom, want)
		}
	}
	// The wrapper of "go fmt.Println(v)" is not a heap record (-m omits it).
	for _, r := range pr.Records {
		if r.Pos == (Position{file, 30, 43}) && r.Kind == Other && r.Reason == "go/defer wrapper" {
			goto wrapperOK
		}
	}
	t.Errorf("no go/defer wrapper record at a.go:30:43")
wrapperOK:
	// Other kinds.
	kinds := make(map[Kind]int)
	for _, r := range pr.Records {
		kinds[r.Kind]++
	}
	for _, k := range []Kind{LeakParam, LeakParamContent, LeakToResult, CanInline, CannotInline, BoundsCheck, SliceBoundsCheck, NilCheck} {
		if kinds[k] == 0 {
			t.Errorf("no %s records", k)
		}
	}
	if r := at(15, 8, LeakParam); r != nil && r.Name != "r" {
		t.Errorf("leak record names %q, want r", r.Name)
	}
	if r := at(15, 6, CannotInline); r != nil && (r.Cost <= 80 || r.Budget != 80) {
		t.Errorf("cannot inline F: cost %d budget %d", r.Cost, r.Budget)
	}
}

// TestCache checks that a second run is served from the cache with the same
// records, that a change to a dependency invalidates the dependent package,
// and that cache.Clean empties the cache.
func TestCache(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GOADVISE_CACHE", root)
	dir := gittest.NewTree(t, fixture)
	opts := LoadOptions{Dir: dir, Patterns: []string{"./..."}}
	first, err := Collect(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Collect(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != len(second) || len(first) != 2 {
		t.Fatalf("got %d and %d results, want 2", len(first), len(second))
	}
	for i := range first {
		if first[i].Cached || !second[i].Cached {
			t.Errorf("%s: cached %v then %v, want false then true", first[i].ImportPath, first[i].Cached, second[i].Cached)
		}
		a, _ := json.Marshal(first[i].Records)
		b, _ := json.Marshal(second[i].Records)
		if string(a) != string(b) {
			t.Errorf("%s: cached records differ", first[i].ImportPath)
		}
	}
	// Changing lib (whose functions are inlined into a) recompiles both.
	libFile := filepath.Join(dir, "lib", "lib.go")
	src, _ := os.ReadFile(libFile)
	src = []byte(strings.Replace(string(src), "func Box(v int) any { return v }", "func Box(v int) any { return nil }", 1))
	if err := os.WriteFile(libFile, src, 0o666); err != nil {
		t.Fatal(err)
	}
	third, err := Collect(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range third {
		if r.Cached {
			t.Errorf("%s: served from cache after a dependency changed", r.ImportPath)
		}
		if r.ImportPath == "fix/a" {
			for _, rec := range r.Records {
				if rec.Kind.IsHeap() && rec.Name == "3" {
					t.Errorf("a: stale record %v after lib.Box stopped boxing", rec.Pos)
				}
			}
		}
	}
	if err := cache.Clean(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("cache not empty after cache.Clean: %d entries", len(ents))
	}
}

// TestBadInput checks packages that do not compile, test-only packages and
// unknown log formats.
func TestBadInput(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, map[string]string{
		"go.mod":             "module bad\n\ngo 1.26\n",
		"broken/b.go":        "package broken\n\nfunc F() int { return \"x\" }\n",
		"good/g.go":          "package good\n\nvar G any\n\nfunc F(v int) { G = v }\n",
		"user/u.go":          "package user\n\nimport \"bad/broken\"\n\nfunc U() int { return broken.F() }\n",
		"testonly/x_test.go": "package testonly\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
	})
	res, err := Collect(context.Background(), LoadOptions{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	byPath := make(map[string]*PackageResult)
	for _, r := range res {
		byPath[r.ImportPath] = r
	}
	if r := byPath["bad/broken"]; r == nil || !strings.Contains(r.Err, "b.go:3") || !strings.Contains(r.Err, "does not compile") {
		t.Errorf("broken package: got %+v, want its compile error", r)
	}
	if r := byPath["bad/user"]; r == nil || !strings.Contains(r.Err, "dependency bad/broken does not compile: broken/b.go:3") || !strings.Contains(r.Err, "b.go:3") {
		t.Errorf("package importing the broken one: got %+v, want its dependency's compile error", r)
	}
	if r := byPath["bad/good"]; r == nil || r.Err != "" || len(heapSet(r.Records)) != 1 {
		t.Errorf("good package next to a broken one: got %+v, want one heap record", r)
	}
	if r := byPath["bad/testonly"]; r != nil && r.Err == "" {
		t.Errorf("test-only package: got %+v, want a stated reason", r)
	}

	// A log with an unknown version names the Go version.
	logDir := t.TempDir()
	sub := filepath.Join(logDir, "p")
	os.MkdirAll(sub, 0o777)
	os.WriteFile(filepath.Join(sub, "a.json"), []byte(`{"version":1,"package":"p","goos":"linux","goarch":"amd64","gc_version":"go1.99","file":"/x/a.go"}`+"\n"), 0o666)
	_, err = parseLogDir(logDir, "p")
	var ufe *UnknownFormatError
	if !errors.As(err, &ufe) || !strings.Contains(err.Error(), "go1.99") || !strings.Contains(err.Error(), "version 1") {
		t.Errorf("unknown log version: got %v, want an error naming go1.99 and version 1", err)
	}
}

// warmTree is a module of three packages, a main one importing the others.
var warmTree = map[string]string{
	"go.mod":   "module warm\n\ngo 1.26\n",
	"a/a.go":   "package a\n\nvar G any\n\nfunc F(v int) { G = v }\n",
	"b/b.go":   "package b\n\nimport \"warm/a\"\n\nfunc B() { a.F(1) }\n",
	"cmd/m.go": "package main\n\nimport \"warm/b\"\n\nfunc main() { b.B() }\n",
}

// TestWarmBuildFlags checks that a go command given Warm's build flags
// reuses Warm's compiles (go/packages loading export data must not compile
// the tree a second time), and that Close removes the log directory.
func TestWarmBuildFlags(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, warmTree)
	w, err := Warm(context.Background(), LoadOptions{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	flags := w.BuildFlags()
	if len(flags) != 3 {
		t.Fatalf("BuildFlags = %q, want one -gcflags per package", flags)
	}
	w.Load([]string{"warm/a"})
	if r := lookup("warm/a", false); r == nil || r.Err != "" || len(heapSet(r.Records)) != 1 {
		t.Errorf("warm/a after Load: got %+v, want one heap record", r)
	}
	list := func(extra ...string) string {
		args := append([]string{"list", "-e", "-export", "-x", "-f", "{{.Export}}"}, extra...)
		cmd := exec.Command("go", append(args, "./...")...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := list(flags...); strings.Contains(out, "/compile ") {
		t.Errorf("go list -export with Warm's flags compiled again:\n%s", out)
	}
	// Without the flags, the same go command compiles: the check above
	// can fail.
	if out := list(); !strings.Contains(out, "/compile ") {
		t.Errorf("go list -export without Warm's flags did not compile; the test proves nothing:\n%s", out)
	}
	logDir, _, _ := strings.Cut(flags[0][strings.Index(flags[0], "-json=0,")+len("-json=0,"):], " ")
	if _, err := os.Stat(logDir); err != nil {
		t.Fatalf("log directory %s before Close: %v", logDir, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(logDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("log directory %s after Close: %v, want it removed", logDir, err)
	}
}

// TestWarmListing checks that Warm, asked to list the packages for package
// load, lists every package its patterns match with export data (so that
// load runs no go command of its own), except when a main package has a
// profile; that the compiles of std's packages run under the soft memory
// limit unless the user set one, and others under none; and that it
// reports their peak memory.
func TestWarmListing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("records the compiles' environment with a shell script")
	}
	// A -toolexec wrapper records the GOMEMLIMIT each compile sees.
	tmp := t.TempDir()
	envLog, script := filepath.Join(tmp, "env.log"), filepath.Join(tmp, "toolexec.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncase \"$*\" in *-V=full*) ;; *) echo \"$(basename \"$1\") $GOMEMLIMIT\" >>'"+envLog+"' ;; esac\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GOFLAGS=") {
			env = append(env, kv)
		}
	}
	env = append(env, "GOFLAGS=-toolexec="+script)
	warm := func(t *testing.T, dir string, env []string) *Warmed {
		t.Helper()
		t.Setenv("GOADVISE_CACHE", t.TempDir())
		os.Remove(envLog)
		w, err := Warm(context.Background(), LoadOptions{Dir: dir, Patterns: []string{"./..."}, Env: env,
			ListFlags: load.ListFlags, ListFields: load.ListFields})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		return w
	}
	compileLimits := func(t *testing.T) []string {
		t.Helper()
		data, err := os.ReadFile(envLog)
		if err != nil {
			t.Fatalf("no compile ran: %v", err)
		}
		var limits []string
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if tool, limit, _ := strings.Cut(l, " "); tool == "compile" {
				limits = append(limits, limit)
			}
		}
		return limits
	}

	t.Run("listing", func(t *testing.T) {
		dir := gittest.NewTree(t, warmTree)
		w := warm(t, dir, env)
		out, goarch := w.Listing()
		if out == nil || goarch == "" {
			t.Fatalf("Listing() = %d bytes, %q; want go list's output and the architecture", len(out), goarch)
		}
		prog, err := load.Decode(bytes.NewReader(out), goarch)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, p := range prog.Roots {
			paths = append(paths, p.PkgPath)
		}
		sort.Strings(paths)
		if want := []string{"warm/a", "warm/b", "warm/cmd"}; !slices.Equal(paths, want) {
			t.Fatalf("listed roots %q, want %q", paths, want)
		}
		load.Check(prog.Roots)
		for _, p := range prog.Roots {
			if len(p.Errors) > 0 || p.Types == nil || !p.Types.Complete() {
				t.Errorf("%s from Warm's listing: errors %v, types %v", p.PkgPath, p.Errors, p.Types)
			}
		}
		// Outside std, the compiles use memory as in a plain build.
		limits := compileLimits(t)
		if len(limits) == 0 || slices.ContainsFunc(limits, func(l string) bool { return l != "" }) {
			t.Errorf("the compiles saw GOMEMLIMIT %q, want none", limits)
		}
		if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
			if p := w.CompilePeak(); p < 1<<20 {
				t.Errorf("CompilePeak() = %d, want the compiles' peak memory", p)
			}
		}
	})
	t.Run("std", func(t *testing.T) {
		t.Setenv("GOADVISE_CACHE", t.TempDir())
		_ = os.Remove(envLog)
		w, err := Warm(context.Background(), LoadOptions{Dir: t.TempDir(), Patterns: []string{"unicode/utf8"}, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if limits := compileLimits(t); len(limits) == 0 || slices.ContainsFunc(limits, func(l string) bool { return l != "280MiB" }) {
			t.Errorf("compiling std's unicode/utf8, the compiles saw GOMEMLIMIT %q, want 280MiB", limits)
		}
	})
	t.Run("user limit", func(t *testing.T) {
		dir := gittest.NewTree(t, warmTree)
		warm(t, dir, append(env, "GOMEMLIMIT=1GiB"))
		if limits := compileLimits(t); len(limits) == 0 || slices.ContainsFunc(limits, func(l string) bool { return l != "1GiB" }) {
			t.Errorf("with GOMEMLIMIT=1GiB set, the compiles saw %q", limits)
		}
	})
	t.Run("profile", func(t *testing.T) {
		prof, err := os.ReadFile(filepath.Join("..", "testdata", "demo", "cpu.pprof"))
		if err != nil {
			t.Fatal(err)
		}
		withProfile := maps.Clone(warmTree)
		withProfile["cmd/default.pgo"] = string(prof)
		dir := gittest.NewTree(t, withProfile)
		if out, _ := warm(t, dir, env).Listing(); out != nil {
			t.Errorf("with a default.pgo, Listing() = %d bytes, want none (load lists with -pgo=off)", len(out))
		}
	})
}

// TestCompileFlagsKeepDecisions checks that the flags that make the
// logging compiles cheaper leave the compiler's decisions as they are.
// (The log's bytes may differ: with several backend goroutines, records at
// one position come in any order.)
func TestCompileFlagsKeepDecisions(t *testing.T) {
	c := &collector{}
	if err := c.loadEnv(context.Background()); err != nil {
		t.Fatal(err)
	}
	const pkg = "encoding/json"
	decisions := func(flags string) []string {
		dir := compileLog(t, pkg, flags)
		recs, err := parseLogDir(dir, pkg)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, fmt.Sprintf("%+v", r))
		}
		sort.Strings(out)
		return out
	}
	plain, cheap := decisions(""), decisions(c.compileFlags(nil))
	if len(plain) == 0 {
		t.Fatal("the compiler logged no decision")
	}
	if !slices.Equal(plain, cheap) {
		t.Errorf("with %q the compiler's decisions in %s changed", c.compileFlags(nil), pkg)
	}
}

// TestDecodeLineCoversCompilerLog checks that decodeLine, the fast path of
// the log parser, decodes every diagnostic line the compiler writes for a
// real package, rather than leave them to encoding/json.
func TestDecodeLineCoversCompilerLog(t *testing.T) {
	const pkg = "encoding/json"
	dir := compileLog(t, pkg, "")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	lines := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			if i == 0 {
				continue // the version header
			}
			lines++
			var d logDiagnostic
			if !decodeLine(withoutLeakFlow(line), &d) {
				t.Errorf("%s: decodeLine left this line to encoding/json: %s", name, line)
			}
		}
	}
	if lines < 100 {
		t.Fatalf("only %d diagnostic lines in the log of %s", lines, pkg)
	}
}

// compileLog compiles pkg with the optimization log and the extra compiler
// flags (each after a space), and returns the log directory.
func compileLog(t *testing.T, pkg, flags string) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "list", "-e", "-export", "-f", "{{.Export}}", "-gcflags="+pkg+"="+gocmd.Quote("-json=0,"+dir)+flags, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	return dir
}

// TestPackageRecords checks that PackageRecords gives the decisions of the
// packages the open Warm build compiled without compiling them again, and
// collects those of others, all in one go command.
func TestPackageRecords(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	dir := gittest.NewTree(t, warmTree)
	w, err := Warm(context.Background(), LoadOptions{Dir: dir, Patterns: []string{"./a"}})
	if err != nil {
		t.Fatal(err)
	}
	escapes := func(recs []Record, file string) bool {
		return slices.ContainsFunc(recs, func(r Record) bool { return r.Kind.IsHeap() && strings.HasSuffix(r.Pos.File, file) })
	}
	has := func(recs []Record, file string) bool {
		return slices.ContainsFunc(recs, func(r Record) bool { return strings.HasSuffix(r.Pos.File, file) })
	}
	collects.Store(0)
	got, err := PackageRecords(context.Background(), dir, []string{"warm/a"})
	if err != nil || !escapes(got["warm/a"], "a.go") || collects.Load() != 0 {
		t.Errorf("PackageRecords(warm/a) = %d records, %v, after %d go commands; want a's, with v's escape, from the build", len(got["warm/a"]), err, collects.Load())
	}
	got, err = PackageRecords(context.Background(), dir, []string{"warm/a", "warm/b", "warm/cmd"})
	if err != nil || collects.Load() != 1 || !escapes(got["warm/a"], "a.go") || !has(got["warm/b"], "b.go") || !has(got["warm/cmd"], "m.go") {
		t.Errorf("PackageRecords(warm/a, warm/b, warm/cmd), of which the build compiled a: %d, %d and %d records, %v, %d collects; want each package's, b and cmd collected together",
			len(got["warm/a"]), len(got["warm/b"]), len(got["warm/cmd"]), err, collects.Load())
	}
	got, err = PackageRecords(context.Background(), dir, []string{"warm/b", "warm/nosuch"})
	if err == nil || !strings.Contains(err.Error(), "warm/nosuch") || !has(got["warm/b"], "b.go") || got["warm/nosuch"] != nil {
		t.Errorf("PackageRecords(warm/b, warm/nosuch) = %d records for b, %v; want b's and an error naming warm/nosuch", len(got["warm/b"]), err)
	}
	w.Close()
	if openWarm.Load() != nil {
		t.Errorf("the closed build is still open")
	}
}
