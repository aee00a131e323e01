//go:build unix

package gocmd

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStop starts three commands that each start a child in their
// process group, two of which ignore interrupts, and checks that stop
// ends all three groups (those by killing them after the grace period),
// that the commands' waits return, and that nothing starts afterwards.
// The third is started without the registry, and its context cancelled
// before stop: it must be killed all the same.
func TestStop(t *testing.T) {
	r := newRegistry()
	var cmds []*exec.Cmd
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i, script := range []string{
		"sleep 60 & wait",
		"trap '' INT; sleep 60 & wait", // sleep inherits the ignored interrupt
		"trap '' INT; sleep 60 & wait",
	} {
		cmd := exec.CommandContext(ctx, "sh", "-c", script)
		r.interruptOnCancel(cmd)
		start := r.start
		if i == 2 {
			start = (*exec.Cmd).Start
		}
		if err := start(cmd); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	waited := make(chan error, len(cmds))
	for i, cmd := range cmds {
		go func() {
			if i == 2 {
				waited <- cmd.Wait()
			} else {
				waited <- r.wait(cmd)
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // let sh start its sleep
	cancel()
	time.Sleep(100 * time.Millisecond) // let the cancellation interrupt the third
	begin := time.Now()
	r.stop(300 * time.Millisecond)
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("stop took %v", d)
	}
	// Killed processes may wait a while for their parent (init, for
	// the orphaned sleep) to collect them: only a live one counts.
	time.Sleep(100 * time.Millisecond)
	out, err := exec.Command("ps", "-e", "-o", "pgid=,stat=").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range cmds {
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) == 2 && f[0] == strconv.Itoa(cmd.Process.Pid) && !strings.HasPrefix(f[1], "Z") {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				t.Errorf("%q: a process of its group survived stop", cmd.Args[2])
				break
			}
		}
	}
	for range cmds {
		select {
		case <-waited:
		case <-time.After(10 * time.Second):
			t.Fatal("a wait did not return after stop")
		}
	}
	if err := r.start(exec.Command("true")); !errors.Is(err, ErrStopped) {
		t.Errorf("start after stop: %v, want ErrStopped", err)
	}
}
