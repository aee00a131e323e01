package e

import (
	"fmt"
	"log/slog"
	"net/http"
)

type server struct {
	logger *slog.Logger
	log    leveled
}

// LogLevel is the level of a message, as franz-go's kgo.LogLevel.
type LogLevel int8

const (
	LogLevelInfo LogLevel = iota
	LogLevelWarn
	LogLevelError
)

// leveled logs at a level given as an argument, as franz-go's kgo.Logger.
type leveled interface {
	Log(level LogLevel, msg string, keyvals ...any)
}

// Warnf logs a warning, as nats-server's Server does.
func (s *server) Warnf(format string, args ...any) {}

// Error returns a message: calls of it log nothing.
func (s *server) Error() string { return "" }

// check logs the problems it meets: the blocks that end by logging a
// warning or an error are error paths.
func (s *server) check(w http.ResponseWriter, names []string) {
	for _, n := range names {
		if n == "" {
			reason := fmt.Sprint("empty", mark()) // want `cold: on an error path`
			s.Warnf("skipping: %s", reason)
			continue
		}
		if len(n) > 8 {
			mark() // want `cold: on an error path`
			s.logger.Error("too long", "name", n)
		}
		if n == "x" {
			mark() // want `cold: on an error path`
			http.Error(w, "x", http.StatusBadRequest)
		}
		if n == "y" {
			mark() // want `hot-loop: inside a loop`
			_ = s.Error()
		}
		if n == "z" {
			mark() // want `hot-loop: inside a loop`
			s.logger.Info("z")
		}
		if n == "bad kafka" {
			msg := fmt.Sprint("bad reply", mark()) // want `cold: on an error path`
			s.log.Log(LogLevelError, msg, "name", n)
			continue
		}
		if n == "w" {
			mark() // want `cold: on an error path`
			s.logger.Log(nil, slog.LevelWarn, "w")
		}
		if n == "i" {
			mark() // want `hot-loop: inside a loop`
			s.log.Log(LogLevelInfo, "i")
			s.logger.Log(nil, slog.LevelInfo, "i")
		}
	}
}

var _ = (*server).check

// decoder records the first error it meets, as json-iterator's Iterator
// does with ReportError.
type decoder struct{ err error }

func (d *decoder) ReportError(op, msg string) {}
func (d *decoder) addError(msg string)        {}
func logWarnf(format string, args ...any)     {}

// ErrorCount returns a number: calls of it report nothing.
func (d *decoder) ErrorCount() int { return 0 }

// Terror is not named for an error.
func (d *decoder) Terror() {}

// read gives up on what it cannot decode: a block that ends by reporting
// an error through a function or method whose name's last word is Error,
// Errorf, Warnf..., and then returns nothing, nils, or goes on with the
// next item, is an error path.
func (d *decoder) read(kinds []byte) (any, error) {
	for _, k := range kinds {
		switch k {
		case 'x':
			d.ReportError("read", fmt.Sprint("unexpected ", mark())) // want `cold: on an error path`
			return nil, nil
		case 'y':
			d.addError(fmt.Sprint("bad ", mark())) // want `cold: on an error path`
			continue
		case 'z':
			logWarnf("odd %v", mark()) // want `cold: on an error path`
			return nil, nil
		case 'c':
			_ = d.ErrorCount() + mark() // want `hot-loop: inside a loop`
			continue
		case 't':
			d.Terror()
			mark() // want `hot-loop: inside a loop`
			continue
		case 'v':
			// Not an error path; it returns, so it runs once per call.
			mark() // want `unknown: no loop or per-item code of the package calls it`
			d.ReportError("read", "value")
			return k, nil
		}
	}
	return nil, nil
}

var _ = (*decoder).read

// skip gives up the same way with a constant result ("return true //
// already failed"), which says nothing of the input: an error path. A
// result computed from the input is not one.
func (d *decoder) skip(kinds []byte) bool {
	for i, k := range kinds {
		switch k {
		case 'x':
			d.ReportError("skip", fmt.Sprint("invalid control character ", mark())) // want `cold: on an error path`
			return true
		case 'y':
			d.addError(fmt.Sprint("bad ", mark())) // want `cold: on an error path`
			return false
		case 'v':
			// Not an error path; it returns, so it runs once per call.
			mark() // want `unknown: no loop or per-item code of the package calls it`
			d.ReportError("skip", "value")
			return i > 0
		}
	}
	return false
}

// count reports and gives up with a constant number.
func (d *decoder) count(kinds []byte) int {
	for _, k := range kinds {
		if k == 0 {
			logWarnf("zero kind %v", mark()) // want `cold: on an error path`
			return -1
		}
	}
	return len(kinds)
}

var _, _ = (*decoder).skip, (*decoder).count
