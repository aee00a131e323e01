package e

import (
	"errors"
	"fmt"
)

type configErr struct{ reason string }

func (e *configErr) Error() string { return e.reason }

// configError is an error type that is a string, as sarama's
// ConfigurationError.
type configError string

func (e configError) Error() string { return string(e) }

// label is a string type that is not an error.
type label string

type item struct {
	name string
	err  error
}

// parse collects errors and goes on, as nats-server's configuration
// parser does: the blocks that build an error are error paths.
func parse(keys []string, errs *[]error) []item {
	var out []item
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			*errs = append(*errs, &configErr{fmt.Sprint("duplicate ", k, mark())}) // want `cold: on an error path`
			continue
		}
		switch {
		case k == "":
			mark() // want `cold: on an error path`
			out = append(out, item{err: errors.New("empty key")})
		case len(k) > 8:
			mark() // want `cold: on an error path`
			*errs = append(*errs, fmt.Errorf("long key %q", k))
		case len(k) > 6:
			returnError(configError(fmt.Sprint("key too long: ", k, mark()))) // want `cold: on an error path`
			continue
		case len(k) > 4:
			out = append(out, item{name: string(label(fmt.Sprint(k, mark())))}) // want `hot-loop: inside a loop`
		default:
			mark() // want `hot-loop: inside a loop`
			out = append(out, item{name: k})
		}
		if len(k) == 1 {
			mark() // want `hot-loop: inside a loop`
			if k == "x" {
				*errs = append(*errs, errors.New("x"))
			}
		}
		seen[k] = true
	}
	return out
}

func returnError(error) {}

var _ = parse
