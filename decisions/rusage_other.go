//go:build !unix

package decisions

import "os"

// peakRSS returns 0: the peak resident set size of a process is only
// known on Unix systems.
func peakRSS(ps *os.ProcessState) int64 { return 0 }
