package e

import (
	"strconv"
	"strings"
)

// ParseError's Error method builds the message of an error being
// reported: an error path, loops included.
type ParseError struct {
	Line  int
	Names []string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	for _, n := range e.Names {
		b.WriteString(n + strconv.Itoa(mark())) // want `cold: on an error path: builds an error's message`
	}
	return "line " + strconv.Itoa(e.Line) + ": " + b.String()
}

// Code is an error by value.
type Code int

func (c Code) Error() string {
	return "code " + strconv.Itoa(int(c)+mark()) // want `cold: on an error path: builds an error's message`
}

// Labels has an Error method that is not error's: it returns no string.
type Labels struct{ n int }

func (l *Labels) Error() int {
	for i := 0; i < l.n; i++ {
		mark() // want `hot-loop: inside a loop`
	}
	return l.n
}

// Message names its method for errors but is no error type's: a
// function, not a method, runs as its callers do.
func Error(names []string) string {
	return strings.Join(names, ",") + strconv.Itoa(mark()) // want `unknown: exported: how often its callers run it is not known`
}
