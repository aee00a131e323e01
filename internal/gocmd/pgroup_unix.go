//go:build unix

package gocmd

import (
	"os/exec"
	"syscall"
)

// interruptGroup starts cmd in a process group of its own and makes its
// cancellation interrupt the whole group: the go command relies on the
// terminal to interrupt the compiles it runs, and a signal sent to
// goadvise alone (kill PID) would otherwise leave them running.
func interruptGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
}

// signalGroup interrupts, or kills, the process group of the command
// with process ID pid (see interruptGroup).
func signalGroup(pid int, kill bool) {
	sig := syscall.SIGINT
	if kill {
		sig = syscall.SIGKILL
	}
	syscall.Kill(-pid, sig)
}

// groupAlive reports whether a process of the group of the command with
// process ID pid remains.
func groupAlive(pid int) bool {
	return syscall.Kill(-pid, 0) == nil
}
