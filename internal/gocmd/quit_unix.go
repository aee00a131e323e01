//go:build unix

package gocmd

import (
	"context"
	"os/exec"
	"syscall"
)

// QuitOnDeadline makes cmd, a Go program started with InterruptOnCancel,
// receive SIGQUIT rather than an interrupt when its context is cancelled
// while parent is not (its own deadline passed): the Go runtime then
// prints the stack of every goroutine, with what each waits for, before
// it exits, which says where a program that had to be stopped was stuck.
// The signal goes to cmd's process group, so that what it started stops
// too. A cancellation of parent interrupts it as before.
func QuitOnDeadline(cmd *exec.Cmd, parent context.Context) {
	interrupt := cmd.Cancel
	cmd.Cancel = func() error {
		if parent.Err() != nil {
			return interrupt()
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGQUIT)
	}
}
