// Package sig handles OS signals in loops, as servers do: the handling
// runs when a signal arrives, not per item of work.
package sig

import (
	"os"
	"os/signal"
	"syscall"
)

func mark(...any) int { return 0 }

type Server struct{ conns []int }

// Reload rereads the configuration; only the signal loop calls it. Its
// name says it is set-up work, which is no evidence of how often it
// runs: unknown, loops included.
func (s *Server) Reload() {
	for range s.conns {
		mark() // want `unknown: set-up by its name, how often it runs is not known`
	}
	mark() // want `unknown: set-up by its name, how often it runs is not known`
}

// HandleSignals waits for signals, named like per-item work.
func (s *Server) HandleSignals(quit chan struct{}) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGHUP)
	for {
		select {
		case sig := <-c:
			mark(sig) // want `cold: runs rarely: handles an OS signal`
			s.Reload()
		case <-quit:
			mark() // want `hot-loop: inside a loop`
		}
	}
}

// Wait handles each signal received.
func Wait(c <-chan os.Signal) {
	for sig := range c {
		mark(sig) // want `cold: runs rarely: handles an OS signal`
	}
}
