// Package gocmd holds what goadvise's packages that run the go command for
// a long time (benchmarks, measured builds, compiles for the compiler's
// decisions) share: stopping it gently, keeping the end of its output for
// an error message, and learning how much memory its compiles took.
package gocmd

import (
	"os/exec"
	"strings"
	"time"
)

// InterruptOnCancel makes cmd, and on Unix the processes it starts (the
// go command's compiles), receive an interrupt, rather than be killed,
// when its context is cancelled, so that the go command can remove its own
// temporary files; it is killed if it has not exited 10 seconds later.
func InterruptOnCancel(cmd *exec.Cmd) {
	interruptGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
}

// Tail returns the last n lines of s.
func Tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
