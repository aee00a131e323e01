//go:build !unix

package gocmd

import (
	"context"
	"os/exec"
)

// QuitOnDeadline leaves cmd as InterruptOnCancel set it: this system has
// no SIGQUIT.
func QuitOnDeadline(cmd *exec.Cmd, parent context.Context) {}
