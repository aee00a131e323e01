package optlog

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/goadvise/goadvise/internal/cache"
)

// TestEscapeBench measures collection against its floor, one go build
// -gcflags=-m of the same packages with the same warm build cache. It runs
// only when ESCAPE_BENCH_DIR names a module that it may modify (a copy: it
// appends a comment to one file of each package before each cold run, so
// that the go command must recompile those packages while their
// dependencies stay cached). scripts/escape-bench.sh sets it up.
func TestEscapeBench(t *testing.T) {
	dir := os.Getenv("ESCAPE_BENCH_DIR")
	if dir == "" {
		t.Skip("set ESCAPE_BENCH_DIR (see scripts/escape-bench.sh)")
	}
	patterns := strings.Fields(os.Getenv("ESCAPE_BENCH_PATTERNS"))
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	opts := LoadOptions{Dir: dir, Patterns: patterns}

	// The first file of each target package, to touch.
	res, err := Collect(context.Background(), opts) // also warms the build cache for dependencies
	if err != nil {
		t.Fatal(err)
	}
	var touch []string
	for _, r := range res {
		if r.Err == "" && len(r.Files) > 0 && strings.HasPrefix(r.Files[0], dir) {
			touch = append(touch, r.Files[0])
		}
	}
	nonce := 0
	modify := func() {
		nonce++
		for _, f := range touch {
			fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(fh, "\n// goadvise bench nonce %d\n", nonce)
			fh.Close()
		}
	}
	floor := func() time.Duration {
		modify()
		cmd := exec.Command("go", append([]string{"build", "-gcflags=-m"}, patterns...)...)
		cmd.Dir = dir
		start := time.Now()
		// Packages that do not compile fail both runs alike; the go
		// command still compiles all the others.
		cmd.CombinedOutput()
		return time.Since(start)
	}
	cold := func() time.Duration {
		modify()
		if err := cache.Clean(); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := Collect(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	warm := func() time.Duration {
		start := time.Now()
		if _, err := Collect(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	const runs = 3
	var fl, co, wa []time.Duration
	for range runs {
		fl = append(fl, floor())
		co = append(co, cold())
		wa = append(wa, warm())
	}
	med := func(d []time.Duration) time.Duration {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d[len(d)/2]
	}
	f, c, w := med(fl), med(co), med(wa)
	t.Logf("packages: %d (%s in %s), median of %d runs", len(touch), strings.Join(patterns, " "), filepath.Base(dir), runs)
	t.Logf("floor  go build -gcflags=-m: %v", f)
	t.Logf("cold   escape collection:   %v  ratio to floor %.2f (target <= 1.20)", c, float64(c)/float64(f))
	t.Logf("warm   escape collection:   %v  ratio to cold  %.3f (target <= 0.10)", w, float64(w)/float64(c))
}
