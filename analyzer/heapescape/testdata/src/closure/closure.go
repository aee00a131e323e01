// Package closure makes closures on every call that capture only the
// receiver: one made once would serve every call.
package closure

import "time"

// Registry keeps the callbacks it is given.
type Registry interface{ Register(func()) }

type conn struct {
	n     int
	reg   Registry
	timer *time.Timer
}

func (c *conn) expire() { c.n = 0 }

// Arm passes a closure to a function that keeps it.
func (c *conn) Arm(d time.Duration) {
	c.timer = time.AfterFunc(d, func() { c.expire() }) // want `func literal escapes to heap because .*; the closure captures only c, the same on every call: make it once \(a field of c set when c is made, or the first time it is needed\) and pass that`
}

// Watch passes a closure to an interface method.
func (c *conn) Watch() {
	c.reg.Register(func() { c.n++ }) // want `func literal escapes to heap because .*; the closure captures only c, the same on every call: make it once`
}

// Handler returns a closure.
func (c *conn) Handler() func() int {
	return func() int { return c.n } // want `func literal escapes to heap because .*; the closure captures only c, the same on every call: make it once`
}

// Count captures an argument too: each call's closure differs.
func (c *conn) Count(k int) {
	c.reg.Register(func() { c.n += k })
}

type counter struct{ reg Registry }

// Bump has a value receiver, a copy per call: a closure made once would
// keep the first copy.
func (v counter) Bump() {
	v.reg.Register(func() { _ = v.reg })
}
