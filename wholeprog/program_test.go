package wholeprog_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/wholeprog"
)

// TestMain gives the tests one escape cache of their own, shared by the
// tests so that the fixture is compiled once.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "goadvise-program-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("GOADVISE_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// analyze loads the module in dir and runs the passes on it. The
// compiler's decisions come from really building it.
func analyze(t *testing.T, dir string, passes []string) []report.Finding {
	t.Helper()
	return analyzeWith(t, dir, wholeprog.Options{Passes: passes})
}

// analyzeWith runs the passes on every package of the module in dir with
// opts.
func analyzeWith(t *testing.T, dir string, opts wholeprog.Options) []report.Finding {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedModule, Dir: dir}
	roots, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var stats wholeprog.Stats
	opts.Dir, opts.Stats = dir, &stats
	fs, err := wholeprog.Analyze(context.Background(), roots, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stats: %+v", stats)
	for _, f := range fs {
		t.Logf("%s %s:%d:%d %s %s: %s", f.Analyzer, filepath.Base(f.File), f.Line, f.Column, f.Function, f.Tier, f.Message)
	}
	return fs
}

func fixtureDir(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("testdata", "svc"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// want checks that exactly one finding of the pass is at file:line and
// that its message contains each fragment.
func want(t *testing.T, fs []report.Finding, pass, file string, line int, fragments ...string) {
	t.Helper()
	var found []report.Finding
	for _, f := range fs {
		if f.Analyzer == pass && filepath.Base(f.File) == file && f.Line == line {
			found = append(found, f)
		}
	}
	if len(found) != 1 {
		t.Errorf("%s at %s:%d: got %d findings, want 1", pass, file, line, len(found))
		return
	}
	for _, frag := range fragments {
		if !strings.Contains(found[0].Message, frag) {
			t.Errorf("%s at %s:%d: message %q does not contain %q", pass, file, line, found[0].Message, frag)
		}
	}
}

// TestFixture runs both passes on a service with several packages. Of the
// four interface calls in the hot loop only Decoder.Decode has a single
// implementation: Hasher has two, Sink's second is built by reflection,
// and Codec's second is registered at init through a registry. The
// allocation of grow is attributed to the loop of Pump; the ones of
// readHeader (returned to the loop), of note (on a branch of note), of
// small (inlinable) and of grow in Drain (called on some iterations only)
// are not. Generic functions and
// method values are part of the program.
func TestFixture(t *testing.T) {
	fs := analyze(t, fixtureDir(t), nil)
	want(t, fs, "devirt", "server.go", 40,
		"codec.Decoder.Decode is an interface call whose receiver is always *bin.Decoder in the whole program",
		"call it on a *bin.Decoder",
		"the call can be inlined (the method costs ",
		"what escapes only because the callee is unknown can stay on the stack (make([]byte, 16) escapes: passed to s.dec.Decode)",
		"[hot-loop: inside a loop]")
	want(t, fs, "loopalloc", "server.go", 135,
		"new([131072]byte) in grow (server.go:118) allocates on every call, once per iteration of the loop in Pump via grow (new([131072]byte) escapes",
		"[hot-loop: inside a loop]")
	if len(fs) != 2 {
		t.Errorf("got %d findings, want 2", len(fs))
	}
	if f := fs[0]; f.Function != "example.com/svc/server.(*Server).Serve" || f.Package != "example.com/svc/server" || f.Tier != "hot-loop" || f.Fixes == nil {
		t.Errorf("finding has wrong fields: %+v", f)
	}
}

// TestLibrary checks that without a main package among the roots the
// program is open (importers may pass any implementation), so devirt
// reports nothing, though it still counts the candidate. It also checks
// that Options.Passes selects the passes: loopalloc, which would report
// grow, does not run.
func TestLibrary(t *testing.T) {
	dir := fixtureDir(t)
	roots, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedModule, Dir: dir}, "./server")
	if err != nil {
		t.Fatal(err)
	}
	var stats wholeprog.Stats
	fs, err := wholeprog.Analyze(context.Background(), roots, wholeprog.Options{Dir: dir, Passes: []string{wholeprog.Devirt}, Stats: &stats})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 0 || stats.Candidates != 1 {
		t.Errorf("got %d findings and %d candidates, want 0 and 1", len(fs), stats.Candidates)
	}
}

// TestNegativesAreReal removes the reflection-built Sink and the
// registered second Codec from a copy of the fixture: the call on Sink
// becomes single-implementation and is reported, which shows that the
// fixture's negative is due to the second implementation. The call on
// Codec is still not reported: the codec comes from a registry that
// codec.Register, exported, fills, so other programs can register other
// codecs.
func TestNegativesAreReal(t *testing.T) {
	dir := t.TempDir()
	src := fixtureDir(t)
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		switch filepath.ToSlash(rel) {
		case "server/server.go":
			text = strings.Replace(text, "s.out = memsink.Make()", "s.out = &sink.File{}", 1)
			text = strings.Replace(text, "\t\"example.com/svc/memsink\"\n", "\t// memsink removed\n", 1)
		case "memsink/memsink.go":
			return nil // the package is gone from the program
		case "bin/bin.go":
			text = strings.Replace(text, `func init() { codec.Register("raw", Raw{}) }`, `var _ = codec.Lookup`, 1)
		}
		out := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o777); err != nil {
			return err
		}
		return os.WriteFile(out, []byte(text), 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
	fs := analyze(t, dir, []string{wholeprog.Devirt})
	want(t, fs, "devirt", "server.go", 46, "codec.Sink.Put is an interface call whose receiver is always *sink.File")
	want(t, fs, "devirt", "server.go", 40, "always *bin.Decoder")
	if len(fs) != 2 {
		t.Errorf("got %d findings, want 2", len(fs))
	}
}

// TestClosedProgram checks that the program a module's command makes is
// the closed world: in the module's library package, the Store that the
// command sets through an exported option (lib.go:49), always a
// *MemStore, is reported, as are the internal package's Codec in Run
// (engine.go:17) and the unexported function count (lib.go:72), whose
// only caller always passes a Bytes; a package no main imports
// (orphan.go:19) is not part of the program, and is not reported.
//
// With Options.OpenWorld, for a module whose packages other programs
// import too, devirt reports a receiver only where no program but this
// one can supply it: not the Store (any importer's), nor the Codec that
// the internal Pipe's Feed receives (engine.go:29), since lib hands the
// Pipe to importers as an interface.
func TestClosedProgram(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "open"))
	if err != nil {
		t.Fatal(err)
	}
	fs := analyze(t, dir, []string{wholeprog.Devirt})
	want(t, fs, "devirt", "lib.go", 49, "Store.Get is an interface call whose receiver is always *MemStore")
	want(t, fs, "devirt", "engine.go", 17, "Codec.Enc is an interface call whose receiver is always Fast")
	want(t, fs, "devirt", "lib.go", 72, "counter.Count is an interface call whose receiver is always Bytes")
	for _, f := range fs {
		if strings.HasSuffix(f.File, "orphan.go") {
			t.Errorf("a package no main imports is reported: %s", f.Message)
		}
	}

	fs = analyzeWith(t, dir, wholeprog.Options{Passes: []string{wholeprog.Devirt}, OpenWorld: true})
	want(t, fs, "devirt", "engine.go", 17, "Codec.Enc is an interface call whose receiver is always Fast")
	want(t, fs, "devirt", "lib.go", 72, "counter.Count is an interface call whose receiver is always Bytes")
	if len(fs) != 2 {
		t.Errorf("open world: got %d findings, want 2", len(fs))
	}
}

// TestLoopAllocHoistable checks that loopalloc reports only allocations a
// developer can hoist: the large scratch buffer of constant size that
// scratch zeroes on every call (work.go:63) and the header buffer of frame
// (work.go:85), which only an io.Reader and a function that does not keep
// it see; not the formatting of the iteration's number (label), the join
// of its values (key), nor the buffer keep stores, each of which must be
// made anew per iteration.
func TestLoopAllocHoistable(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "loop"))
	if err != nil {
		t.Fatal(err)
	}
	fs := analyze(t, dir, []string{wholeprog.LoopAlloc})
	want(t, fs, "loopalloc", "work.go", 63,
		"make([]byte, 131072) in scratch (work.go:54) allocates on every call, once per iteration of the loop in Scan via scratch (make([]byte, 131072) escapes: too large for stack)",
		"its size is constant and it does not outlive the call")
	want(t, fs, "loopalloc", "work.go", 85, "make([]byte, 5) in frame (work.go:74) allocates on every call")
	if len(fs) != 2 {
		t.Errorf("got %d findings, want 2", len(fs))
	}
}

// TestLoadError checks that a package that does not compile is an error
// naming it, not a panic.
func TestLoadError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module bad\n\ngo 1.26\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package bad\n\nfunc F() int { return \"x\" }\n"), 0o666)
	roots, err := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	_, err = wholeprog.Analyze(context.Background(), roots, wholeprog.Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "bad") {
		t.Errorf("got error %v, want one naming package bad", err)
	}
}

func TestPassesDocs(t *testing.T) {
	for _, p := range wholeprog.Passes() {
		if p.Name == "" || !strings.HasPrefix(p.Doc, p.Name+": ") || p.URL == "" {
			t.Errorf("pass %+v: want a name, a doc starting with the name, a URL", p)
		}
	}
}

// TestDependencies checks the rules that keep devirt's claims true when
// dependencies are read from export data, without their functions'
// bodies: in the module in testdata/deps, the app's loops call Weigh on a
// light or on the impl.Heavy that dep.Make builds by reflection from a
// struct field, and Put on a *memSink or on the *box.Box[*Item] that
// box.New builds the same way. No code converts an impl.Heavy or a
// *box.Box[*Item] to an interface, so neither call may be reported: the
// receiver of Weigh comes out of a function without a body (main.go:46),
// and a type of a dependency, box.Box, implements Sink (main.go:62). The
// call on Massive, always a solid (main.go:52), is reported. Only the
// app's package has bodies.
func TestDependencies(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "deps"))
	if err != nil {
		t.Fatal(err)
	}
	roots, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedModule, Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var stats wholeprog.Stats
	fs, err := wholeprog.Analyze(context.Background(), roots, wholeprog.Options{Dir: dir, Passes: []string{wholeprog.Devirt}, Stats: &stats})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		t.Logf("%s %s:%d: %s", f.Analyzer, filepath.Base(f.File), f.Line, f.Message)
	}
	want(t, fs, "devirt", "main.go", 52, "Massive.Mass is an interface call whose receiver is always solid")
	if len(fs) != 1 {
		t.Errorf("got %d findings, want 1 (neither main.go:46 nor main.go:62)", len(fs))
	}
	if stats.Bodies != 1 || stats.Packages <= stats.Bodies {
		t.Errorf("%d packages of %d have bodies, want the app's alone", stats.Bodies, stats.Packages)
	}
}
