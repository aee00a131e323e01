package main

import (
	"errors"
	"flag"
	"strconv"
	"time"

	"github.com/goadvise/goadvise/bench"
)

// The flag values below check their value when the flag is parsed, so
// that a bad one is refused in one line, with exit status 2, before any
// package is loaded or compiled, rather than failing every benchmark late.

// benchtimeValue is a -benchtime flag handed to go test: a value
// bench.CheckBenchtime accepts.
type benchtimeValue struct{ p *string }

// benchtimeVar defines a -benchtime flag with the default value.
func benchtimeVar(fs *flag.FlagSet, p *string, name, value, usage string) {
	*p = value
	fs.Var(benchtimeValue{p}, name, usage)
}

func (v benchtimeValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v benchtimeValue) Set(s string) error {
	if err := bench.CheckBenchtime(s); err != nil {
		return err
	}
	*v.p = s
	return nil
}

// positiveDurationValue is a duration flag that must be positive.
type positiveDurationValue struct{ p *time.Duration }

// positiveDurationVar defines a flag of a positive duration.
func positiveDurationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var(positiveDurationValue{p}, name, usage)
}

func (v positiveDurationValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

func (v positiveDurationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("want a duration, as in 90s or 5m")
	}
	if d <= 0 {
		return errors.New("want a positive duration")
	}
	*v.p = d
	return nil
}

// minIntValue is an integer flag with a least value.
type minIntValue struct {
	p   *int
	min int
}

// minIntVar defines an integer flag whose value must be at least min.
func minIntVar(fs *flag.FlagSet, p *int, name string, value, min int, usage string) {
	*p = value
	fs.Var(minIntValue{p, min}, name, usage)
}

func (v minIntValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.Itoa(*v.p)
}

func (v minIntValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("want a whole number")
	}
	if n < v.min {
		return errors.New("want at least " + strconv.Itoa(v.min))
	}
	*v.p = n
	return nil
}
