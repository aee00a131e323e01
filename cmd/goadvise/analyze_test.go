package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMemoryBound checks the soft memory limit check runs under: the goal
// at first, raised by atLeast and never lowered by it, the previous limit
// restored at the end, and none of it when the user set GOGC or
// GOMEMLIMIT.
func TestMemoryBound(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		t.Skip("GOMEMLIMIT or GOGC is set: check leaves the limit alone")
	}
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	before := limit()
	b := boundMemory()
	if got := limit(); got != memoryGoal {
		t.Errorf("limit after boundMemory = %d, want %d", got, memoryGoal)
	}
	b.atLeast(memoryGoal / 2)
	if got := limit(); got != memoryGoal {
		t.Errorf("limit after atLeast(goal/2) = %d, want it kept at %d", got, memoryGoal)
	}
	b.atLeast(3 * memoryGoal)
	if got := limit(); got != 3*memoryGoal {
		t.Errorf("limit after atLeast(3*goal) = %d, want %d", got, 3*memoryGoal)
	}
	b.restore()
	if got := limit(); got != before {
		t.Errorf("limit after restore = %d, want the previous %d", got, before)
	}

	t.Setenv("GOGC", "100")
	b = boundMemory()
	b.atLeast(3 * memoryGoal)
	if got := limit(); got != before {
		t.Errorf("with GOGC set: limit = %d, want it left at %d", got, before)
	}
	b.restore()
}
