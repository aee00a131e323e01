// Package old is a module whose go.mod says go 1.12: sync.OnceValue
// (go1.21) does not exist for it, so the advice names sync.Once.
package old

import (
	"regexp"
	"time"
)

// Route compiles a constant pattern on every call.
func Route(path string) bool {
	return regexp.MustCompile(`^/v1/(\w+)$`).MatchString(path) // want `move it to a package-level variable \(or sync\.Once for lazy initialization\)`
}

// Batch routes each path.
func Batch(paths []string) (n int) {
	for _, p := range paths {
		if Route(p) {
			n++
		}
	}
	return n
}

// ProcessZone loads a constant time zone per call.
func ProcessZone(t time.Time) time.Time {
	loc, err := time.LoadLocation("Europe/Paris") // want `move it to a package-level variable \(or sync\.Once for lazy initialization\).*; no automatic fix: the error it returns must still be handled where it was`
	if err != nil {
		return t
	}
	return t.In(loc)
}

// Zones loads each zone.
func Zones(ts []time.Time) {
	for i := range ts {
		ts[i] = ProcessZone(ts[i])
	}
}
