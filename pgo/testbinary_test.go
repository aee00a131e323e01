package pgo

import (
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

func TestTestBinaryWarning(t *testing.T) {
	fn := func(id uint64, name string) *profile.Function {
		return &profile.Function{ID: id, Name: name, Filename: "x.go", StartLine: 1}
	}
	work, runN, main := fn(1, "example.com/p.Work"), fn(2, "testing.(*B).runN"), fn(3, "main.main")
	loc := func(id uint64, f *profile.Function) *profile.Location {
		return &profile.Location{ID: id, Line: []profile.Line{{Function: f, Line: 2}}}
	}
	lw, lr, lm := loc(1, work), loc(2, runN), loc(3, main)
	mk := func(bottom *profile.Location) *profile.Profile {
		return &profile.Profile{
			SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
			Sample:     []*profile.Sample{{Location: []*profile.Location{lw, bottom}, Value: []int64{10, 1e8}}},
			Location:   []*profile.Location{lw, lr, lm},
			Function:   []*profile.Function{work, runN, main},
		}
	}
	if w := testBinaryWarning(mk(lr)); !strings.Contains(w, "test or benchmark binary") {
		t.Errorf("benchmark profile: warning %q", w)
	}
	if w := testBinaryWarning(mk(lm)); w != "" {
		t.Errorf("service profile: warning %q", w)
	}
}
