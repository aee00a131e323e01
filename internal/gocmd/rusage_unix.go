//go:build unix

package gocmd

import (
	"os"
	"runtime"
	"syscall"
)

// PeakRSS returns the peak resident set size of an exited process in
// bytes, or 0 if it is not known. For the go command, that is the largest
// of its own and of the tools it ran (compiles, links): the system counts
// the children a process waited for.
func PeakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) * 1024 // kilobytes
}
