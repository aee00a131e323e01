//go:build unix

package gocmd

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestQuitOnDeadline runs a shell that says which signal it got: SIGQUIT
// when its own deadline passes, an interrupt when the parent context is
// cancelled.
func TestQuitOnDeadline(t *testing.T) {
	script := `trap 'echo quit; exit 3' QUIT; trap 'echo interrupt; exit 4' INT; echo ready; while :; do sleep 0.05; done`
	for _, c := range []struct {
		name string
		stop func(parentCancel, cancel context.CancelFunc)
		want string
	}{
		{"deadline", func(_, cancel context.CancelFunc) { cancel() }, "quit"},
		{"parent", func(parentCancel, _ context.CancelFunc) { parentCancel() }, "interrupt"},
	} {
		parent, parentCancel := context.WithCancel(context.Background())
		ctx, cancel := context.WithCancel(parent)
		cmd := exec.CommandContext(ctx, "sh", "-c", script)
		InterruptOnCancel(cmd)
		QuitOnDeadline(cmd, parent)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		if line, err := r.ReadString('\n'); line != "ready\n" {
			t.Fatalf("%s: the shell said %q (%v), want ready", c.name, line, err)
		}
		c.stop(parentCancel, cancel)
		rest, _ := io.ReadAll(r)
		cmd.Wait()
		if got := strings.TrimSpace(string(rest)); got != c.want {
			t.Errorf("%s: the shell said %q, want %s", c.name, got, c.want)
		}
		parentCancel()
		cancel()
	}
}
