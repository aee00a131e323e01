package cache

import (
	"fmt"
	"os"
	"path/filepath"
)

// Lock takes the lock called name in the cache directory, shared or
// exclusive, and returns the function that releases it. If another
// process holds it in a conflicting mode, Lock calls wait (if not nil)
// and then blocks until it is released. The operating system releases
// the lock when the process ends, however it ends. Where file locks are
// not supported, Lock takes no lock.
func Lock(name string, exclusive bool, wait func()) (unlock func(), err error) {
	f, err := openLock(name)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f, exclusive, wait); err != nil {
		f.Close()
		return nil, fmt.Errorf("cache: locking %s: %w", f.Name(), err)
	}
	return func() { f.Close() }, nil // closing releases the lock
}

// TryLock takes the exclusive lock called name in the cache directory if
// no other process holds it, and returns the function that releases it,
// or ok false if another process holds it. Where file locks are not
// supported, TryLock always takes the lock.
func TryLock(name string) (unlock func(), ok bool, err error) {
	f, err := openLock(name)
	if err != nil {
		return nil, false, err
	}
	ok, err = tryLockFile(f)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			err = fmt.Errorf("cache: locking %s: %w", f.Name(), err)
		}
		return nil, false, err
	}
	return func() { f.Close() }, true, nil
}

// openLock opens the file of the lock called name.
func openLock(name string) (*os.File, error) {
	root, err := Dir()
	if err != nil {
		return nil, err
	}
	if err := ensureRoot(root); err != nil {
		return nil, err
	}
	dir := filepath.Join(root, "locks")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, name+".lock"), os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return f, nil
}
