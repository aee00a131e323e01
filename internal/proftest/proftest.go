// Package proftest writes profiles for tests.
package proftest

import (
	"os"
	"testing"

	"github.com/google/pprof/profile"
)

// WriteCPU writes a CPU profile to the file name with 10 samples, of 10
// ms each, in each of the functions fns (named as profiles name them,
// "example.com/m.F"), over one second.
func WriteCPU(t testing.TB, name string, fns ...string) {
	t.Helper()
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10000000,
		DurationNanos: 1e9,
	}
	for i, fn := range fns {
		f := &profile.Function{ID: uint64(i + 1), Name: fn, SystemName: fn, Filename: "p.go"}
		loc := &profile.Location{ID: uint64(i + 1), Line: []profile.Line{{Function: f, Line: 6}}}
		p.Function = append(p.Function, f)
		p.Location = append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{10, 10 * 10000000}})
	}
	out, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(out); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
