package pgo

import (
	"fmt"

	"github.com/google/pprof/profile"
)

// testRunners are the frames at the bottom of every test and benchmark
// goroutine of a test binary.
var testRunners = map[string]bool{
	"testing.(*B).runN":       true,
	"testing.(*B).launch":     true,
	"testing.(*B).doBench":    true,
	"testing.tRunner":         true,
	"testing.runFuzzing":      true,
	"testing.fRunner":         true,
	"testing.(*F).Fuzz.func1": true,
}

// testBinaryWarning returns a warning if 10% or more of p's samples ran
// under the testing package's test or benchmark runners (a service's
// profile has none): the profile comes from a test binary, and its call
// edges are those of the benchmark's loop, not of the service that
// default.pgo is built for. It returns "" otherwise.
func testBinaryWarning(p *profile.Profile) string {
	var total, under int64
	for _, s := range p.Sample {
		if len(s.Value) == 0 {
			continue
		}
		v := s.Value[0]
		total += v
	frames:
		for _, l := range s.Location {
			for _, ln := range l.Line {
				if ln.Function != nil && testRunners[ln.Function.Name] {
					under += v
					break frames
				}
			}
		}
	}
	if total == 0 || under*10 < total {
		return ""
	}
	return fmt.Sprintf("%.0f%% of the samples run under testing.(*B).runN or testing.tRunner: the profile comes from a test or benchmark binary, whose hot call edges are the benchmark's, not the service's; for default.pgo, profile the service (e.g. /debug/pprof/profile)", 100*float64(under)/float64(total))
}
