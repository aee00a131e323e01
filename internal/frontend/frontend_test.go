package frontend

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/cache"
)

func TestPatch(t *testing.T) {
	src := []byte("func Main() {\n\tloopvar.LogTransformations(transformed)\n\n\tir.CurFunc = nil\n}\n")
	got, err := patch(src)
	if err != nil {
		t.Fatal(err)
	}
	want := "func Main() {\n\tloopvar.LogTransformations(transformed)\n" + stop + "\n\tir.CurFunc = nil\n}\n"
	if string(got) != want {
		t.Errorf("patch:\n%s\nwant:\n%s", got, want)
	}
	for _, bad := range []string{"func Main() {}\n", string(src) + string(src)} {
		if _, err := patch([]byte(bad)); err == nil || !strings.Contains(err.Error(), "loopvar.LogTransformations") {
			t.Errorf("patch of a main.go with the statement not exactly once: got %v, want an error naming it", err)
		}
	}
}

// TestToolchainPatch checks that the toolchain's own main.go has the
// statement the copy stops after, exactly once.
func TestToolchainPatch(t *testing.T) {
	goroot := goEnv(t, "GOROOT")
	src, err := os.ReadFile(filepath.Join(goroot, "src", "cmd", "compile", "internal", "gc", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := patch(src); err != nil {
		t.Fatal(err)
	}
}

// TestCompiler builds the copy of the toolchain's compiler, checks that
// it stops after the front end (no object file, no back-end records) and
// that a second call finds it.
func TestCompiler(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	tooldir := goEnv(t, "GOTOOLDIR")
	path, first, err := Compiler(context.Background(), tooldir)
	if err != nil || first {
		t.Fatalf("Compiler: %q, %v, %v", path, first, err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "p.go")
	os.WriteFile(src, []byte("package p\n\nfunc F(xs []int, i int) *int { return &xs[i] }\n\nfunc G() *int { x := 1; return &x }\n"), 0o666)
	for _, c := range []struct {
		compiler string
		object   bool
	}{{filepath.Join(tooldir, "compile"), true}, {path, false}} {
		logDir := filepath.Join(dir, filepath.Base(filepath.Dir(c.compiler)))
		out := filepath.Join(logDir, "p.a")
		cmd := exec.Command(c.compiler, "-p", "p", "-o", out, "-json=0,"+logDir, src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", c.compiler, err, msg)
		}
		log, err := os.ReadFile(filepath.Join(logDir, "p", "p.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(log), `"code":"escape"`) || !strings.Contains(string(log), "x escapes to heap") {
			t.Errorf("%s: log without the escape of x:\n%s", c.compiler, log)
		}
		if got := strings.Contains(string(log), `"code":"isInBounds"`); got != c.object {
			t.Errorf("%s: bounds-check records %v, want %v (only the back end writes them)", c.compiler, got, c.object)
		}
		if _, err := os.Stat(out); (err == nil) != c.object {
			t.Errorf("%s: object file written %v, want %v", c.compiler, err == nil, c.object)
		}
	}
	again, first, err := Compiler(context.Background(), tooldir)
	if again != path || first || err != nil {
		t.Errorf("second call: %q, %v, %v; want %q", again, first, err, path)
	}
}

// TestCompilerBusy checks that Compiler does not wait for another
// process's build, and that GOADVISE_FRONTEND=off turns the copy off.
func TestCompilerBusy(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	tooldir := goEnv(t, "GOTOOLDIR")
	// The lock is per open file, so a second TryLock in this process
	// stands for another process.
	unlock, ok, err := cache.TryLock(lockName(t, tooldir))
	if err != nil || !ok {
		t.Fatalf("TryLock: %v, %v", ok, err)
	}
	if _, _, err := Compiler(context.Background(), tooldir); !errors.Is(err, ErrBusy) {
		t.Errorf("Compiler while the lock is held: %v, want ErrBusy", err)
	}
	unlock()
	t.Setenv("GOADVISE_FRONTEND", "off")
	if _, _, err := Compiler(context.Background(), tooldir); !errors.Is(err, ErrOff) {
		t.Errorf("Compiler with GOADVISE_FRONTEND=off: %v, want ErrOff", err)
	}
}

// TestCompilerFailed checks that a build that fails is reported once
// and not tried again: the toolchain here has a compile but no sources.
func TestCompilerFailed(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	goroot := t.TempDir()
	tooldir := filepath.Join(goroot, "pkg", "tool", "os_arch")
	os.MkdirAll(tooldir, 0o777)
	os.WriteFile(filepath.Join(tooldir, "compile"), []byte("#!/bin/sh\n"), 0o777)
	_, first, err := Compiler(context.Background(), tooldir)
	if err == nil || !first || !strings.Contains(err.Error(), "main.go") {
		t.Fatalf("Compiler with no sources: first %v, %v; want an error naming main.go, first", first, err)
	}
	_, first, err2 := Compiler(context.Background(), tooldir)
	if err2 == nil || first || err2.Error() != err.Error() {
		t.Errorf("second call: first %v, %v; want the same error, not first", first, err2)
	}
}

// lockName returns the name of the lock Compiler takes for the
// compiler in tooldir.
func lockName(t *testing.T, tooldir string) string {
	t.Helper()
	key, err := keyOf(filepath.Join(tooldir, "compile"))
	if err != nil {
		t.Fatal(err)
	}
	return "frontend-" + key
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// TestPatchLeaks checks that only the leak's flow is left out, and that a
// solve.go without the statement exactly once is left as it is.
func TestPatchLeaks(t *testing.T) {
	escape := "\t\t\t\t\texplanation := b.explainPath(root, l)\n\t\t\t\t\tif logopt.Enabled() {\n\t\t\t\t\t\tvar e_curfn *ir.Func // TODO(mdempsky): Fix.\n\t\t\t\t\t\tlogopt.LogOpt(l.n.Pos(), \"escape\",\n"
	src := escape + leakFlow + " more)\n"
	got, ok := patchLeaks([]byte(src))
	if !ok {
		t.Fatal("patchLeaks found no leak flow")
	}
	if !strings.HasPrefix(string(got), escape) {
		t.Errorf("patchLeaks changed the escape's flow:\n%s", got)
	}
	if strings.Count(string(got), "explanation := b.explainPath") != 1 || !strings.Contains(string(got), "explanation = b.explainPath(root, l)") ||
		!strings.Contains(string(got), "logopt.LogOpt(l.n.Pos(), \"leak\", more)") {
		t.Errorf("patchLeaks:\n%s", got)
	}
	for _, bad := range []string{escape, src + leakFlow} {
		if _, ok := patchLeaks([]byte(bad)); ok {
			t.Errorf("patchLeaks of a solve.go with the leak flow not exactly once succeeded")
		}
	}
	goroot := goEnv(t, "GOROOT")
	toolchain, err := os.ReadFile(filepath.Join(goroot, "src", "cmd", "compile", "internal", "escape", "solve.go"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := patchLeaks(toolchain); !ok {
		t.Error("the toolchain's escape/solve.go has no leak flow to leave out")
	}
}
