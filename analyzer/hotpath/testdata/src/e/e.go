package e

import (
	"errors"
	"fmt"
	"log"
	"os"
)

func mark(...any) int { return 0 }

var errEmpty = errors.New("empty")

// Sum returns an error from inside its loop: that code is cold, the rest
// of the loop is not.
func Sum(xs []int) (int, error) {
	s := 0
	for _, x := range xs {
		if x < 0 {
			mark()                                      // want `cold: on an error path`
			return 0, fmt.Errorf("negative %d", mark()) // want `cold: on an error path`
		}
		if x == 0 {
			mark() // want `per-item: function Sum runs per item`
			return s, nil
		}
		mark() // want `hot-loop: inside a loop`
		s += x
	}
	if s == 0 {
		return 0, errEmpty
	}
	return s, nil
}

// Parse handles an error and goes on: the handling is cold.
func Parse(lines []string) {
	for _, l := range lines {
		_, err := fmt.Sscan(l)
		if err != nil {
			for range 3 {
				mark() // want `cold: on an error path`
			}
			continue
		}
		mark() // want `hot-loop: inside a loop`
	}
}

// Check panics, exits and logs fatally in its loop.
func Check(xs []int) {
	for _, x := range xs {
		switch {
		case x < 0:
			mark() // want `cold: on an error path`
			panic("negative")
		case x > 100:
			mark() // want `hot-loop: inside a loop`
		}
		if x == 7 {
			os.Exit(mark()) // want `cold: on an error path`
		}
		log.Fatalf("%d", mark()) // want `cold: on an error path`
	}
}

// Server recovers from panics in its handler.
type Server struct{}

func (s *Server) ServeHTTP() {
	defer func() {
		if r := recover(); r != nil {
			for range 3 {
				mark() // want `cold: on an error path`
			}
			report(r)
			Describe()
		}
	}()
	defer func() {
		if recover() != nil {
			mark() // want `cold: on an error path`
		}
	}()
	defer func() {
		r := recover()
		mark() // want `per-item: method ServeHTTP runs per item`
		if r == nil {
			return
		}
		mark() // want `cold: on an error path`
	}()
	defer func() {
		if r := recover(); r == nil {
			mark() // want `per-item: method ServeHTTP runs per item`
		} else {
			mark() // want `cold: on an error path`
		}
	}()
	mark() // want `per-item: method ServeHTTP runs per item`
}

// report is called only when recovering from a panic: its loop is cold.
func report(r any) {
	for i := 0; i < 10; i++ {
		mark(r) // want `cold: called only on error paths`
	}
	frames()
}

// frames is called only by report: cold as well.
func frames() {
	for range 10 {
		mark() // want `cold: called only on error paths`
	}
}

// Recovery returns a handler that recovers, as gin's middleware does:
// stack runs only when a panic is recovered.
func Recovery() func() {
	return func() {
		defer func() {
			if err := recover(); err != nil {
				stack(3)
			}
		}()
		// A hole: nothing is known, Recovery's estimate holds.
		mark() // want `unknown: in a function literal run elsewhere: how often is not known`
	}
}

func stack(skip int) {
	for i := skip; i < 32; i++ {
		mark() // want `cold: called only on error paths`
	}
}

// Describe is exported: others may call it, so it keeps its estimate,
// but ServeHTTP's call on an error path does not make it per-item.
func Describe() {
	mark() // want `unknown: exported: how often its callers run it is not known`
}

// Load fails on a bad file, and calls usage only then; lookup is called
// on its error path and in a loop.
func Load(names []string) error {
	for _, n := range names {
		if n == "" {
			usage()
			lookup(n)
			return fmt.Errorf("empty name")
		}
		lookup(n)
	}
	return nil
}

func usage() {
	for range 3 {
		mark() // want `cold: called only on error paths`
	}
}

func lookup(string) {
	mark() // want `per-item: called in a loop in Load`
}

// setup runs in init and on error paths: cold, loops included.
func setup() {
	for range 3 {
		mark() // want `cold: called only from init or on error paths`
	}
}

func init() {
	setup()
}

func Reset() error {
	if err := os.Remove("x"); err != nil {
		setup()
		return err
	}
	return nil
}
