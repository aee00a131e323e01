package e

import "fmt"

type conn struct {
	trace bool
	opts  struct{ Debug, NoTrace bool }
	out   []string
}

// packets writes trace output under switches named for it: that code is
// cold, like an error path.
func (c *conn) packets(ps []int, verbose bool) {
	trace := c.trace
	for _, p := range ps {
		if trace {
			c.out = append(c.out, fmt.Sprint(mark())) // want `cold: only when tracing or debugging is on`
		}
		if p > 0 && c.opts.Debug {
			mark() // want `cold: only when tracing or debugging is on`
			describe(p)
		}
		if verbose {
			mark() // want `cold: only when tracing or debugging is on`
		}
		if c.opts.NoTrace {
			mark() // want `hot-loop: inside a loop`
		}
		if !trace {
			mark() // want `hot-loop: inside a loop`
		}
		if trace || p > 3 {
			mark() // want `hot-loop: inside a loop`
		}
	}
}

// describe is called only when debugging.
func describe(p int) {
	for range p {
		mark() // want `cold: called only when tracing or debugging is on`
	}
}

var _ = (*conn).packets
