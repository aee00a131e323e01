//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSpecialFiles checks that a name that is not a regular file (a named
// pipe here, as /dev/null or /dev/stdout with -o) is written to, not
// replaced by a regular file: check -o /dev/null once turned /dev/null
// into an empty file.
func TestSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	if err := WriteFile(fifo, []byte("report\n"), Replace); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "report\n" {
		t.Errorf("the pipe's reader got %q, want the report", b)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the named pipe was replaced: %v %v", fi.Mode(), err)
	}
	if err := WriteFile(fifo, []byte("x"), NoClobber); !errors.Is(err, fs.ErrExist) {
		t.Errorf("NoClobber on a named pipe: %v, want an error matching fs.ErrExist", err)
	}
	if err := WriteFile(os.DevNull, []byte("report\n"), Replace); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a device: %v %v", os.DevNull, fi.Mode(), err)
	}
}
