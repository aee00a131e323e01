package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestFixInterrupt sends SIGINT to check -fix at many moments of its run:
// afterwards either every file is untouched or every file is completely
// fixed, and no temporary file is left behind.
func TestFixInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check -fix many times")
	}
	files := manyPackages("example.com/sig", 30)
	cache := t.TempDir()
	env := []string{"GOADVISE_CACHE=" + cache}

	// The fully fixed tree, for comparison, and how long a run takes.
	full := t.TempDir()
	gittest.WriteFiles(t, full, files)
	begin := time.Now()
	if _, stderr, code := runCmdEnv(t, full, env, bin, "check", "-all", "-enable", "deepequal", "-fix", "./..."); code != exitOK {
		t.Fatalf("check -fix: exit %d\n%s", code, stderr)
	}
	runTime := time.Since(begin)
	fixed := map[string][]byte{}
	toFix := 0
	for name := range files {
		fixed[name], _ = os.ReadFile(filepath.Join(full, name))
		if string(fixed[name]) != files[name] {
			toFix++
		}
	}

	for i := range 12 {
		delay := runTime * time.Duration(i) / 10
		dir := t.TempDir()
		gittest.WriteFiles(t, dir, files)
		cmd := exec.Command(bin, "check", "-all", "-enable", "deepequal", "-fix", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
		if strings.Contains(stderr.String(), "panic") {
			t.Fatalf("delay %v: panic:\n%s", delay, stderr.String())
		}
		changed := 0
		filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			if strings.Contains(info.Name(), "goadvise") || strings.Contains(info.Name(), ".tmp") {
				t.Errorf("delay %v: temporary file left: %s", delay, rel)
			}
			orig, ok := files[rel]
			if !ok {
				return nil
			}
			got, _ := os.ReadFile(path)
			switch {
			case string(got) == orig:
			case bytes.Equal(got, fixed[rel]):
				changed++
			default:
				t.Errorf("delay %v: %s is neither original nor fixed:\n%s", delay, rel, got)
			}
			return nil
		})
		if changed != 0 && changed != toFix {
			t.Errorf("delay %v: %d of %d files fixed, want none or all", delay, changed, toFix)
		}
		t.Logf("delay %v: %d of %d files fixed", delay, changed, toFix)
	}
}

// TestCheckInterruptCompiling sends SIGINT to check's process group, as
// Ctrl-C in a terminal does, while the go command compiles the packages
// for the compiler's decisions: goadvise's log directory must not be left
// in the temporary directory. (The go command's own work directory is the
// go command's: interrupted in the middle of a build, it leaves it, as
// go build does on Ctrl-C.)
func TestCheckInterruptCompiling(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a tree of many packages")
	}
	cmd, tmp, stderr := startCompiling(t, "example.com/sigc")
	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	cmd.Wait()
	if strings.Contains(stderr.String(), "panic") {
		t.Fatalf("panic:\n%s", stderr.String())
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		if strings.HasPrefix(e.Name(), "goadvise") {
			t.Errorf("left in the temporary directory after the interrupt: %s", e.Name())
		}
	}
}

// TestCheckSignalAlone sends SIGTERM to the goadvise process alone (not
// its process group, as kill PID does) while it compiles: goadvise must
// pass it on to the go commands, wait for them, remove its log directory
// and exit 1, leaving no process of its group behind.
func TestCheckSignalAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a tree of many packages")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		cmd, tmp, stderr := startCompiling(t, "example.com/sigp")
		pgid := cmd.Process.Pid
		cmd.Process.Signal(sig)
		cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != exitError || !strings.Contains(stderr.String(), "goadvise: interrupted") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and goadvise: interrupted", sig, code, stderr.String())
		}
		// Once goadvise has exited, no process of its group may run.
		if err := syscall.Kill(-pgid, 0); err == nil {
			syscall.Kill(-pgid, syscall.SIGKILL)
			t.Errorf("%v: a child of goadvise still runs after it exited", sig)
		}
		left, _ := os.ReadDir(tmp)
		for _, e := range left {
			if strings.HasPrefix(e.Name(), "goadvise") {
				t.Errorf("%v: left in the temporary directory: %s", sig, e.Name())
			}
		}
	}
}

// startCompiling starts goadvise check on a new module of many packages
// (module path mod) with a TMPDIR of its own, in a process group of its
// own, and returns once the go command compiles (its work directory is in
// TMPDIR), or fails the test if it never does.
func startCompiling(t *testing.T, mod string) (cmd *exec.Cmd, tmp string, stderr *bytes.Buffer) {
	t.Helper()
	dir := gittest.NewTree(t, manyPackages(mod, 30))
	tmp = t.TempDir()
	cmd = exec.Command(bin, "check", "-all", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOADVISE_CACHE="+t.TempDir(), "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr = new(bytes.Buffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(tmp, "go-build*")); len(m) > 0 {
			return cmd, tmp, stderr
		}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	t.Fatalf("the go command never made its work directory in TMPDIR; the test proves nothing\n%s", stderr)
	return nil, "", nil
}
