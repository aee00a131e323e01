package main

import (
	"github.com/goadvise/goadvise/internal/cli"

	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/percall"
	"github.com/goadvise/goadvise/internal/gittest"
	"github.com/goadvise/goadvise/internal/gocmd"
)

// TestFixInterrupt sends SIGINT to check -fix at many moments of its run:
// afterwards either every file is untouched or every file is completely
// fixed, and no temporary file is left behind.
func TestFixInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check -fix many times")
	}
	files := manyPackages("example.com/sig", 12)
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

	// Moments over the whole run, closer together towards its end, where
	// the fixes are written; the last is past the end of most runs.
	for _, permille := range []time.Duration{0, 500, 800, 900, 950, 1050} {
		delay := runTime * permille / 1000
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
// for the compiler's decisions: nothing may be left in the temporary
// directory, not even the go command's work directory (which an
// interrupted go command leaves: check gives the go commands a temporary
// directory of its own, and removes it).
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
	checkLeftovers(t, "SIGINT", tmp)
}

// TestCheckSignalAlone sends SIGTERM to the goadvise process alone (not
// its process group, as kill PID does) while it compiles: goadvise must
// pass it on to the go commands, wait for them, remove its temporary
// files and exit 1, leaving no process behind.
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
		checkLeftovers(t, sig.String(), tmp)
	}
}

// TestCheckInterruptStuckAnalyzer sends SIGTERM to check while an
// analyzer, which takes no context, is busy (as with a package of
// thousands of functions, which took minutes) after starting a child
// process (as inlinebudget's compiles are) and writing a temporary file:
// goadvise must exit within seconds, ending the child and removing the
// file. The check runs in the test binary, with one analyzer replaced
// (see runHelper).
func TestCheckInterruptStuckAnalyzer(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a package")
	}
	dir := gittest.NewTree(t, manyPackages("example.com/stuck", 1))
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "check", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), helperEnv+"=stuck", "GOADVISE_CACHE="+t.TempDir(), "GOADVISE_FRONTEND=off", "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() }) // if the test fails early
	child := waitStuck(t, tmp, exited, &stderr)
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-exited
		syscall.Kill(child, syscall.SIGKILL)
		t.Fatalf("still running 10 s after SIGTERM\n%s", stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != exitError || !strings.Contains(stderr.String(), "goadvise: interrupted") {
		t.Errorf("exit %d, stderr %q; want exit 1 and goadvise: interrupted", code, stderr.String())
	}
	if running(child) {
		syscall.Kill(child, syscall.SIGKILL)
		t.Errorf("the analyzer's child process %d still runs after goadvise exited", child)
	}
	checkLeftovers(t, "SIGTERM", tmp)
}

// waitStuck waits until the stuck analyzer of the process whose exit
// exited reports has written its file in tmp, and returns the process ID
// of its child.
func waitStuck(t *testing.T, tmp string, exited <-chan error, stderr *bytes.Buffer) int {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-exited:
			t.Fatalf("exited before the analyzer ran: %v\n%s", err, stderr)
		default:
		}
		m, _ := filepath.Glob(filepath.Join(tmp, "stuck"))
		m2, _ := filepath.Glob(filepath.Join(tmp, "*", "stuck"))
		if m = append(m, m2...); len(m) == 0 {
			continue
		}
		data, _ := os.ReadFile(m[0])
		if pid, err := strconv.Atoi(string(data)); err == nil {
			return pid
		}
	}
	t.Fatalf("the analyzer never ran; the test proves nothing\n%s", stderr)
	return 0
}

// TestInterruptUnended checks check's last resort: a run that does not
// end after SIGINT or SIGTERM (one that no context reaches) is left to
// the process's exit, one grace period later, or at once on a second
// signal, and the temporary directory is removed all the same.
func TestInterruptUnended(t *testing.T) {
	for _, signals := range [][]syscall.Signal{{syscall.SIGTERM}, {syscall.SIGINT, syscall.SIGINT}} {
		tmp := t.TempDir()
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), helperEnv+"=unended", "TMPDIR="+tmp)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		t.Cleanup(func() { cmd.Process.Kill() }) // if the test fails early
		waitStuck(t, tmp, exited, &stderr)
		begin := time.Now()
		for _, sig := range signals {
			cmd.Process.Signal(sig)
			time.Sleep(10 * time.Millisecond)
		}
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Fatalf("%v: still running 10 s after the signal\n%s", signals, stderr.String())
		}
		took := time.Since(begin)
		if code := cmd.ProcessState.ExitCode(); code != exitError || strings.TrimSpace(stderr.String()) != "goadvise: interrupted" {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and goadvise: interrupted", signals, code, stderr.String())
		}
		// One signal waits for the grace period; two do not.
		if len(signals) == 1 && took < cli.InterruptGrace {
			t.Errorf("%v: exited after %v, before the grace period", signals, took)
		}
		if len(signals) == 2 && took >= cli.InterruptGrace {
			t.Logf("%v: exited after %v (a loaded machine?)", signals, took)
		}
		checkLeftovers(t, fmt.Sprint(signals), tmp)
	}
}

// helperEnv, set in the environment of the test binary, makes it run as
// goadvise, changed as runHelper says, instead of running the tests.
const helperEnv = "GOADVISE_TEST_HELPER"

// runHelper runs goadvise with args, changed as helper says:
//   - "stuck": the percall analyzer starts a child process (sleep) through
//     package gocmd, writes its process ID to the file "stuck" in the
//     temporary directory, and then does not return;
//   - "unended": args are ignored; an interrupt covers a run that never
//     ends, which writes the file "stuck" in its temporary directory.
func runHelper(helper string, args []string) int {
	switch helper {
	case "stuck":
		// The analyzer itself, which the suite wraps anew for each
		// run's options.
		percall.Analyzer.Run = stuck
		return run(args)
	case "unended":
		tmp, err := cli.NewTemp()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return exitError
		}
		cli.OnInterrupt(tmp, func() {})
		os.WriteFile(filepath.Join(tmp, "stuck"), []byte(strconv.Itoa(os.Getpid())), 0o666)
		time.Sleep(time.Hour)
		return exitOK
	}
	fmt.Fprintf(os.Stderr, "unknown %s %q\n", helperEnv, helper)
	return exitError
}

// stuck is the Run of the stuck analyzer (see runHelper).
func stuck(*analysis.Pass) (any, error) {
	cmd := exec.CommandContext(context.Background(), "sleep", "600")
	gocmd.InterruptOnCancel(cmd)
	if err := gocmd.Start(cmd); err != nil {
		return nil, err
	}
	go gocmd.Wait(cmd)
	file := filepath.Join(os.TempDir(), "stuck")
	if err := os.WriteFile(file, []byte(strconv.Itoa(cmd.Process.Pid)), 0o666); err != nil {
		return nil, err
	}
	time.Sleep(time.Hour) // busy, as far as the driver can tell
	return nil, nil
}

// running reports whether the process pid runs (and has not merely
// exited, waiting for its parent to collect it).
func running(pid int) bool {
	if runtime.GOOS == "linux" {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false
		}
		_, after, _ := strings.Cut(string(stat), ") ")
		return !strings.HasPrefix(after, "Z")
	}
	return syscall.Kill(pid, 0) == nil
}

// checkLeftovers fails the test if the temporary directory tmp, that of
// a goadvise that exited, is not empty, or (on Linux) if a process whose
// temporary directory is in tmp still runs.
func checkLeftovers(t *testing.T, what, tmp string) {
	t.Helper()
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		t.Errorf("%s: left in the temporary directory: %s", what, e.Name())
	}
	if runtime.GOOS != "linux" {
		return
	}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", p.Name(), "environ"))
		if err != nil || !bytes.Contains(env, []byte("TMPDIR="+tmp)) || !running(pid) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("%s: still running after goadvise exited: %s", what, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
	}
}

// startCompiling starts goadvise check on a new module of many packages
// (module path mod) with a TMPDIR of its own, in a process group of its
// own, and returns once the go command compiles (its work directory is in
// TMPDIR, or in goadvise's own directory there), or fails the test if it
// never does.
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
		m, _ := filepath.Glob(filepath.Join(tmp, "go-build*"))
		m2, _ := filepath.Glob(filepath.Join(tmp, "*", "go-build*"))
		if len(m)+len(m2) > 0 {
			return cmd, tmp, stderr
		}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	t.Fatalf("the go command never made its work directory in TMPDIR; the test proves nothing\n%s", stderr)
	return nil, "", nil
}
