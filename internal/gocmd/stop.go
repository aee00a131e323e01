package gocmd

import (
	"errors"
	"os/exec"
	"slices"
	"sync"
	"time"
)

// ErrStopped is Start's error once Stop has been called.
var ErrStopped = errors.New("not started: goadvise is stopping")

// Start starts cmd, which InterruptOnCancel has prepared, as cmd.Start
// does, and keeps it among the commands that Stop ends until Wait has
// waited for it. Once Stop has been called it starts nothing.
func Start(cmd *exec.Cmd) error { return running.start(cmd) }

// Wait waits for cmd, which Start started, as cmd.Wait does.
func Wait(cmd *exec.Cmd) error { return running.wait(cmd) }

// Run starts cmd with Start and waits for it with Wait.
func Run(cmd *exec.Cmd) error {
	if err := Start(cmd); err != nil {
		return err
	}
	return Wait(cmd)
}

// Stop ends the commands that Start started and that have not been waited
// for, and those that InterruptOnCancel prepared and their context's
// cancellation interrupted, with every process of their process groups
// (the go command's compiles): it interrupts them, and returns once no
// process of theirs remains, or after grace, killing what remains. No
// command starts afterwards. A program calls it on its way out after an
// interrupt, when the work that started the commands cannot be waited for
// (an analyzer, which takes no context, in the middle of a package).
func Stop(grace time.Duration) { running.stop(grace) }

// running holds the commands of the process that Start started.
var running = newRegistry()

// A registry holds the commands started and not yet waited for, and the
// process groups of those interrupted.
type registry struct {
	mu          sync.Mutex
	stopped     bool
	cmds        map[*exec.Cmd]bool
	interrupted map[int]bool // process IDs of commands interrupted by their context
}

func newRegistry() *registry {
	return &registry{cmds: make(map[*exec.Cmd]bool), interrupted: make(map[int]bool)}
}

// interruptOnCancel makes the cancellation of cmd's context interrupt
// its process group (see interruptGroup), and r note it: a command that
// the cancellation of its context did not end by the time Stop is
// called is ended there, even if it was not started by Start.
func (r *registry) interruptOnCancel(cmd *exec.Cmd) {
	interruptGroup(cmd)
	interrupt := cmd.Cancel
	cmd.Cancel = func() error {
		r.mu.Lock()
		r.interrupted[cmd.Process.Pid] = true
		r.mu.Unlock()
		return interrupt()
	}
}

func (r *registry) start(cmd *exec.Cmd) error {
	// Starting under the lock, a command is either started before
	// stop sees the registry, or not at all.
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return ErrStopped
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r.cmds[cmd] = true
	return nil
}

func (r *registry) wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	r.mu.Lock()
	// An interrupted group stays noted: processes of it may outlive
	// the command (a shell's background job ignores interrupts).
	delete(r.cmds, cmd)
	r.mu.Unlock()
	return err
}

func (r *registry) stop(grace time.Duration) {
	r.mu.Lock()
	r.stopped = true
	var pids []int
	for cmd := range r.cmds {
		pids = append(pids, cmd.Process.Pid)
	}
	for pid := range r.interrupted {
		if !slices.Contains(pids, pid) {
			pids = append(pids, pid)
		}
	}
	r.mu.Unlock()
	for _, pid := range pids {
		signalGroup(pid, false)
	}
	// A group is gone when its last process is; one that has exited
	// but that its parent has not yet waited for still counts, so that
	// the grace period may run out on processes that are already dead:
	// killing them then is harmless.
	for deadline := time.Now().Add(grace); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		pids = slices.DeleteFunc(pids, func(pid int) bool { return !groupAlive(pid) })
		if len(pids) == 0 {
			return
		}
	}
	for _, pid := range pids {
		signalGroup(pid, true)
	}
}
