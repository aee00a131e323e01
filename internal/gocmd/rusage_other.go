//go:build !unix

package gocmd

import "os"

// PeakRSS returns 0: the peak resident set size of a process is only
// known on Unix systems.
func PeakRSS(ps *os.ProcessState) int64 { return 0 }
