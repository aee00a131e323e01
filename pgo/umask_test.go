//go:build unix

package pgo

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestWriteFileUmask checks that a merged profile gets 0666 less the
// umask, as a file the shell creates, with or without -force.
func TestWriteFileUmask(t *testing.T) {
	p := synth(t, time.Second, map[string]int64{"main.a:11 runtime.main:12": 9})
	for _, tc := range []struct {
		umask int
		want  os.FileMode
	}{{0o077, 0o600}, {0o022, 0o644}} {
		dir := t.TempDir()
		old := syscall.Umask(tc.umask)
		path, err := WriteFile(p, dir, false)
		_, ferr := WriteFile(p, path, true)
		syscall.Umask(old)
		if err != nil || ferr != nil {
			t.Fatal(err, ferr)
		}
		if fi, err := os.Stat(filepath.Join(dir, "default.pgo")); err != nil || fi.Mode().Perm() != tc.want {
			t.Errorf("umask %03o: %v, want mode %v", tc.umask, fi.Mode().Perm(), tc.want)
		}
	}
}
