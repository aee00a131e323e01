//go:build !unix

package gocmd

import (
	"os"
	"os/exec"
)

func interruptGroup(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
}
