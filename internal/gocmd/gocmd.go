// Package gocmd holds what goadvise's packages that run the go command
// share: stopping it gently, ending every one still running when goadvise
// exits after an interrupt, running it for its output with what it said
// as the error, keeping the end of its output for an error message, and
// learning how much memory its compiles took.
package gocmd

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"time"
)

// InterruptOnCancel makes cmd, and on Unix the processes it starts (the
// go command's compiles), receive an interrupt, rather than be killed,
// when its context is cancelled, so that the go command can remove its own
// temporary files; it is killed if it has not exited 10 seconds later,
// or by Stop.
func InterruptOnCancel(cmd *exec.Cmd) {
	running.interruptOnCancel(cmd)
	cmd.WaitDelay = 10 * time.Second
}

// Quote quotes s, if it needs it, as one element of the value of a go
// command flag that the go command splits at spaces (-gcflags, -toolexec):
// a temporary directory or an executable with a space in its name.
func Quote(s string) string {
	switch {
	case !strings.ContainsAny(s, " \t\n'\""):
		return s
	case !strings.Contains(s, "'"):
		return "'" + s + "'"
	default:
		return `"` + s + `"`
	}
}

// Tail returns the last n lines of s.
func Tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Output runs the go command with args in dir and env (nil: the
// process's), stopped as InterruptOnCancel says when ctx is cancelled or
// by Stop, and returns its standard output. If it fails, the error is what it printed
// on standard error, trimmed, or else how it failed.
func Output(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	InterruptOnCancel(cmd)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := Run(cmd); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return stdout.Bytes(), nil
}
