package e

import (
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
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

// Wrap adds context to an error, as pkg/errors' Wrap.
func Wrap(err error, msg string) error { return err }

func chunk(*status.Status) []byte { return nil }

// answer builds replies, as grpc-gateway's handler does: the blocks that
// build a grpc status with a code other than OK, or wrap an error, are
// error paths.
func answer(resps []any, err error) [][]byte {
	var out [][]byte
	for _, r := range resps {
		switch {
		case r == nil:
			out = append(out, chunk(status.New(codes.Internal, fmt.Sprint("empty response", mark())))) // want `cold: on an error path`
		case r == "bad":
			returnError(status.Errorf(codes.Internal, "bad %d", mark())) // want `cold: on an error path`
		case r == "wrapped":
			returnError(Wrap(err, fmt.Sprint("wrapped", mark()))) // want `cold: on an error path`
		case r == "ok":
			out = append(out, chunk(status.New(codes.OK, fmt.Sprint("fine", mark())))) // want `hot-loop: inside a loop`
		}
	}
	return out
}

var _ = parse
