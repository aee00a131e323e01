//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd

package cache

import (
	"errors"
	"os"
	"syscall"
)

func lockFile(f *os.File, exclusive bool, wait func()) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	fd := int(f.Fd())
	err := flock(fd, how|syscall.LOCK_NB)
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return err
	}
	if wait != nil {
		wait()
	}
	return flock(fd, how)
}

func tryLockFile(f *os.File) (bool, error) {
	err := flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func flock(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if err != syscall.EINTR {
			return err
		}
	}
}
