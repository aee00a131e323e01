package cli

import (
	"errors"
	"flag"
	"strconv"
	"time"
)

// The flag values below check their value when the flag is parsed, so
// that a bad one is refused in one line, with exit status 2, before any
// package is loaded or compiled, rather than failing every benchmark late.

// checkedValue is a string flag whose value check accepts.
type checkedValue struct {
	p     *string
	check func(string) error
}

// CheckedVar defines a string flag with the default value whose values
// check accepts (bench.CheckBenchtime for a -benchtime handed to go test).
func CheckedVar(fs *flag.FlagSet, p *string, name, value, usage string, check func(string) error) {
	*p = value
	fs.Var(checkedValue{p, check}, name, usage)
}

func (v checkedValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v checkedValue) Set(s string) error {
	if err := v.check(s); err != nil {
		return err
	}
	*v.p = s
	return nil
}

// positiveDurationValue is a duration flag that must be positive.
type positiveDurationValue struct{ p *time.Duration }

// PositiveDurationVar defines a flag of a positive duration.
func PositiveDurationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
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

// MinIntVar defines an integer flag whose value must be at least min.
func MinIntVar(fs *flag.FlagSet, p *int, name string, value, min int, usage string) {
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
