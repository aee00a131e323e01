//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestUmask checks that a new file gets 0666 less the umask, as a file
// the shell creates.
func TestUmask(t *testing.T) {
	for _, tc := range []struct {
		umask int
		want  os.FileMode
	}{{0o077, 0o600}, {0o022, 0o644}, {0o002, 0o664}} {
		old := syscall.Umask(tc.umask)
		dir := t.TempDir()
		for _, mode := range []Mode{Replace, NoClobber} {
			name := filepath.Join(dir, "out")
			os.Remove(name)
			err := WriteFile(name, []byte("x"), mode)
			fi, serr := os.Stat(name)
			if err != nil || serr != nil {
				t.Fatal(err, serr)
			}
			if fi.Mode().Perm() != tc.want {
				t.Errorf("umask %03o, mode %d: file mode %v, want %v", tc.umask, mode, fi.Mode().Perm(), tc.want)
			}
		}
		syscall.Umask(old)
	}
}
