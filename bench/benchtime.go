package bench

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// CheckBenchtime reports whether s is a value go test's -benchtime
// accepts: a positive duration ("100ms", "2s") or a positive number of
// iterations followed by x ("100x"). A value the test binary refuses
// would make every benchmark fail at start, so the flags that pass it on
// check it first.
func CheckBenchtime(s string) error {
	// As the testing package parses it.
	if n, ok := strings.CutSuffix(s, "x"); ok {
		i, err := strconv.ParseInt(n, 10, 0)
		if err != nil || i <= 0 {
			return errors.New("want a positive number of iterations, as in 100x")
		}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return errors.New("want a positive duration (100ms, 2s) or number of iterations (100x)")
	}
	return nil
}
