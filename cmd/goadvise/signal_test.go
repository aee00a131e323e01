package main

import (
	"bytes"
	"fmt"
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
// afterwards every file is either untouched or completely fixed, and no
// temporary file is left behind.
func TestFixInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs check -fix many times")
	}
	files := map[string]string{"go.mod": "module example.com/sig\n\ngo 1.26\n"}
	for i := range 30 {
		files[fmt.Sprintf("p%02d/p.go", i)] = pkgFile(fmt.Sprintf("p%02d", i))
	}
	cache := t.TempDir()
	env := []string{"GOADVISE_CACHE=" + cache}

	// The fully fixed tree, for comparison, and how long a run takes.
	full := t.TempDir()
	gittest.WriteFiles(t, full, files)
	begin := time.Now()
	if _, stderr, code := runCmdEnv(t, full, env, bin, "check", "-enable", "deepequal", "-fix", "./..."); code != exitOK {
		t.Fatalf("check -fix: exit %d\n%s", code, stderr)
	}
	runTime := time.Since(begin)
	fixed := map[string][]byte{}
	for name := range files {
		fixed[name], _ = os.ReadFile(filepath.Join(full, name))
	}

	for i := range 12 {
		delay := runTime * time.Duration(i) / 10
		dir := t.TempDir()
		gittest.WriteFiles(t, dir, files)
		cmd := exec.Command(bin, "check", "-enable", "deepequal", "-fix", "./...")
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
		t.Logf("delay %v: %d of %d files fixed", delay, changed, len(files)-1)
	}
}
