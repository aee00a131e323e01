package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC checks that a unit's process collects less often, a small
// one's least, and never against the user's GOGC.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, c := range []struct {
		size int64
		gogc string
		want int
	}{
		{100 << 10, "", 400},
		{smallUnit, "", 400},
		{smallUnit + 1, "", 200},
		{-1, "", 100},
		{100 << 10, "100", 100},
	} {
		t.Setenv("GOGC", c.gogc)
		debug.SetGCPercent(100)
		tuneGC(c.size)
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("tuneGC(%d) with GOGC=%q: GC percent %d, want %d", c.size, c.gogc, got, c.want)
		}
	}
}
