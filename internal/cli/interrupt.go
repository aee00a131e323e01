package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/goadvise/goadvise/internal/gocmd"
)

// InterruptGrace is how long a command waits for its run to end after SIGINT
// or SIGTERM before it exits without it: the analyzers take no context,
// and one of them may be in the middle of a package of thousands of
// functions.
const InterruptGrace = time.Second

// stopGrace is how long the go commands get to exit once interrupted,
// on the way out, before they are killed.
const stopGrace = 300 * time.Millisecond

// An Interrupt covers a run that SIGINT or SIGTERM stops.
type Interrupt struct {
	ctx    context.Context
	cancel context.CancelFunc
	sigs   chan os.Signal
	tmp    string // removed on the way out
	before func() // called before exiting (the status line's stop)

	mu    sync.Mutex
	ended bool // End has been called: the run's caller exits
}

// OnInterrupt returns an Interrupt whose context the first SIGINT or
// SIGTERM cancels. The run it covers should then end: if end has not
// been called InterruptGrace later, or a second signal comes, the
// process exits with status 1 after calling before, ending every go
// command (gocmd.Stop) and removing the directory tmp, which holds the
// run's temporary files.
func OnInterrupt(tmp string, before func()) *Interrupt {
	in := &Interrupt{sigs: make(chan os.Signal, 2), tmp: tmp, before: before}
	in.ctx, in.cancel = context.WithCancel(context.Background())
	signal.Notify(in.sigs, os.Interrupt, syscall.SIGTERM)
	go in.watch()
	return in
}

// Context returns the context the first signal cancels: the run's.
func (in *Interrupt) Context() context.Context { return in.ctx }

func (in *Interrupt) watch() {
	if _, ok := <-in.sigs; !ok {
		return
	}
	in.cancel()
	select {
	case _, ok := <-in.sigs:
		if !ok {
			return
		}
	case <-time.After(InterruptGrace):
	}
	in.mu.Lock() // held until the exit: End waits
	if in.ended {
		in.mu.Unlock()
		return
	}
	in.before()
	CleanUp(in.tmp)
	fmt.Fprintln(os.Stderr, "goadvise: interrupted")
	os.Exit(1)
}

// End stops watching for signals, and reports whether the run was
// interrupted. After it, the caller exits as it sees fit; the signals
// take their default action again.
func (in *Interrupt) End() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.ended = true
	signal.Stop(in.sigs)
	close(in.sigs)
	interrupted := in.ctx.Err() != nil
	in.cancel()
	return interrupted
}

// CleanUp ends the go commands still running (those of analyzers left
// running by an interrupt) and removes the temporary directory tmp.
func CleanUp(tmp string) {
	gocmd.Stop(stopGrace)
	RemoveTemp(tmp)
}

// NewTemp makes a directory of the process's own in the temporary
// directory and makes it the process's temporary directory, and that of
// the commands it runs: every temporary file of the run, the go
// command's work directories included (an interrupted go command leaves
// its own), is then in it, and RemoveTemp removes them all.
func NewTemp() (string, error) {
	dir, err := os.MkdirTemp("", "goadvise-run-")
	if err != nil {
		return "", err
	}
	os.Setenv("TMPDIR", dir)
	return dir, nil
}

// RemoveTemp removes the directory NewTemp made. A process that was
// stopped may still be writing in it: the removal is tried again a few
// times.
func RemoveTemp(dir string) {
	for range 5 {
		if os.RemoveAll(dir) == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
