package cli

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// A status line shows what a long run is doing on stderr, when it is on,
// stderr is a terminal and the run has taken more than two seconds;
// otherwise it prints nothing. Machine-readable output (-format json)
// turns it off: whatever reads it wants nothing else on the terminal.
type Status struct {
	mu    sync.Mutex
	msg   string
	done  chan struct{}
	ended chan struct{}
}

// NewStatus returns a status line, on if on.
func NewStatus(on bool) *Status {
	s := &Status{done: make(chan struct{}), ended: make(chan struct{})}
	if !on || !IsTerminal(os.Stderr) {
		close(s.ended)
		return s
	}
	go func() {
		defer close(s.ended)
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		begin := time.Now()
		shown := false
		for {
			select {
			case <-s.done:
				if shown {
					fmt.Fprint(os.Stderr, "\r\033[K")
				}
				return
			case <-tick.C:
				if time.Since(begin) < 2*time.Second {
					continue
				}
				s.mu.Lock()
				msg := s.msg
				s.mu.Unlock()
				fmt.Fprintf(os.Stderr, "\r\033[Kgoadvise: %s", msg)
				shown = true
			}
		}
	}()
	return s
}

// Set changes the message.
func (s *Status) Set(msg string) {
	s.mu.Lock()
	s.msg = msg
	s.mu.Unlock()
}

// Stop clears the line and stops refreshing.
func (s *Status) Stop() {
	select {
	case <-s.done:
	default:
		close(s.done)
	}
	<-s.ended
}

// IsTerminal reports whether f is a character device, such as a terminal.
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
