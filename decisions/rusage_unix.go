//go:build unix

package decisions

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS returns the peak resident set size of an exited process in
// bytes, or 0 if it is not known.
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes
	}
	return int64(ru.Maxrss) * 1024 // kilobytes
}
