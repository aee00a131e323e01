//go:build !unix

package gocmd

import (
	"os"
	"os/exec"
)

func interruptGroup(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
}

// signalGroup kills the process with ID pid: without process groups,
// only the command itself can be reached.
func signalGroup(pid int, kill bool) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// groupAlive reports false: a killed process is not waited for.
func groupAlive(pid int) bool { return false }
