// Package atomicfile writes files atomically: the data goes to a temporary
// file in the target's directory, which then takes the target's name, so
// that a reader sees the old file or the whole new one, never a part.
//
// It is the one file writer of goadvise's outputs and caches. A new file
// gets the permissions the umask leaves of 0666, as a file the shell
// creates.
package atomicfile

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Mode says how Write treats an existing file and how durable the write
// is. Modes combine with |.
type Mode uint8

const (
	// Replace replaces an existing file atomically (rename(2)), as
	// go build -o does.
	Replace Mode = 0
	// NoClobber never replaces a file: if name exists when the data is
	// complete (even if it was created while Write ran), Write fails
	// with an error that matches fs.ErrExist and leaves it alone. The
	// temporary file is hard-linked into place, which fails if the name
	// exists.
	NoClobber Mode = 1 << 0
	// Sync flushes the data to stable storage before the file takes its
	// name, so that a crash leaves the old file or the new one.
	Sync Mode = 1 << 1
)

// Test hooks.
var (
	beforeCommit = func() {} // runs when the temporary file is complete
	link         = os.Link
)

// WriteFile writes data to the file name atomically; see Write.
func WriteFile(name string, data []byte, mode Mode) error {
	return Write(name, mode, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// Write writes the file name atomically with what write writes. On any
// error, name is left as it was and the temporary file is removed. The
// error names the file.
//
// A name that is not a regular file (a device such as /dev/null or
// /dev/stdout, a named pipe) is written to directly, as the shell's > does:
// replacing it would put a regular file in its place. NoClobber refuses
// it, as it refuses any existing file.
func Write(name string, mode Mode, write func(io.Writer) error) error {
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		if mode&NoClobber != 0 {
			return fmt.Errorf("%s: %w", name, fs.ErrExist)
		}
		return writeSpecial(name, write)
	}
	f, err := createTemp(name)
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, bare(err))
	}
	tmp := f.Name()
	err = write(f)
	if err == nil && mode&Sync != 0 {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", name, err)
	}
	beforeCommit()
	if mode&NoClobber != 0 {
		err = commitNoClobber(tmp, name)
	} else {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		if fi, serr := os.Stat(name); serr == nil && fi.IsDir() {
			return fmt.Errorf("writing %s: is a directory", name)
		}
		if errors.Is(err, fs.ErrExist) && mode&NoClobber != 0 {
			return fmt.Errorf("%s: %w", name, fs.ErrExist)
		}
		return fmt.Errorf("writing %s: %w", name, bare(err))
	}
	return nil
}

// bare returns the system error inside a *fs.PathError or *os.LinkError,
// which name the temporary file: the caller names the target.
func bare(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// commitNoClobber gives the complete temporary file tmp the name name,
// unless name exists, and removes tmp.
func commitNoClobber(tmp, name string) error {
	err := link(tmp, name)
	if err == nil {
		return os.Remove(tmp)
	}
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	// Some file systems have no hard links (FAT, some network and FUSE
	// file systems). Reserve the name with an exclusive create, which
	// fails if it exists, then rename over the reservation: a reader may
	// see an empty file for a moment, but nobody's file is replaced.
	if !errors.Is(err, errors.ErrUnsupported) && !errors.Is(err, fs.ErrPermission) {
		return err
	}
	r, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	r.Close()
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// createTemp creates a new temporary file beside name. Unlike
// os.CreateTemp it creates it with mode 0666, so that the kernel applies
// the umask as for any new file.
func createTemp(name string) (*os.File, error) {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	var b [8]byte
	for range 100 {
		rand.Read(b[:])
		tmp := filepath.Join(dir, "."+base+".tmp-"+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("creating a temporary file in %s: too many attempts", dir)
}

// writeSpecial writes to name, which is not a regular file, in place.
func writeSpecial(name string, write func(io.Writer) error) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, bare(err))
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// CheckDir reports an error, naming path, if a file cannot be written at
// path because its directory does not exist or is not one: a command that
// measures for minutes checks its output's place first.
func CheckDir(path string) error {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil {
		return fmt.Errorf("-o %s: %w", path, err)
	} else if !fi.IsDir() {
		return fmt.Errorf("-o %s: %s is not a directory", path, dir)
	}
	return nil
}
