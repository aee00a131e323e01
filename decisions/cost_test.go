package decisions

import (
	"context"
	"os"
	"testing"
)

// TestMeasureCostClean measures clean builds, with an empty build cache,
// of the fixture's command. It compiles the runtime and its dependencies
// twice, once with the profile (one to three minutes on a loaded 2-core
// machine), so it runs only with GOADVISE_SLOW_TESTS=1.
func TestMeasureCostClean(t *testing.T) {
	if testing.Short() || os.Getenv("GOADVISE_SLOW_TESTS") != "1" {
		t.Skip("clean builds compile the standard library twice (1-3 minutes); set GOADVISE_SLOW_TESTS=1 to run")
	}
	testEnv(t)
	dir, prof := shapesFixture(t)
	tg, err := resolveTargets(context.Background(), dir, os.Environ(), []string{"./cmd/app"}, true)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := measureCost(context.Background(), dir, os.Environ(), tg, prof, CostOptions{Runs: 1, Clean: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ct.CleanRuns != 1 {
		t.Errorf("CleanRuns = %d", ct.CleanRuns)
	}
	wall, mod := ct.Row(MetricCleanWall), ct.Row(MetricModuleWall)
	cpu, rss := ct.Row(MetricCleanCPU), ct.Row(MetricCleanRSS)
	if wall == nil || cpu == nil || rss == nil || mod == nil {
		t.Fatalf("clean rows missing: %+v", ct.Rows)
	}
	// A clean build compiles the runtime: it takes longer than
	// recompiling the module's two packages, and its largest compile
	// (the runtime) uses more memory.
	if wall.Off.Median <= mod.Off.Median || wall.On.Median <= mod.On.Median {
		t.Errorf("clean build (%v, %v) not slower than module build (%v, %v)", wall.Off.Median, wall.On.Median, mod.Off.Median, mod.On.Median)
	}
	if c := ct.Row(MetricCompileRSS); rss.Off.Median <= c.Off.Median {
		t.Errorf("clean build's largest compile (%vMB) not above the module's (%vMB)", rss.Off.Median, c.Off.Median)
	}
	t.Logf("clean build: off %.1fs (CPU %.1fs), on %.1fs (CPU %.1fs)", wall.Off.Median, cpu.Off.Median, wall.On.Median, cpu.On.Median)
}
