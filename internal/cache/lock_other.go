//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd)

package cache

import "os"

// lockFile takes no lock: concurrent runs are not kept apart here.
func lockFile(f *os.File, exclusive bool, wait func()) error { return nil }

// tryLockFile takes no lock and reports that it did.
func tryLockFile(f *os.File) (bool, error) { return true, nil }
