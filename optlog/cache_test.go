package optlog

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/internal/gittest"
)

// TestDamagedCache checks that damaged cache entries (truncated, emptied,
// random bytes) are recomputed, with one warning, and rewritten: the
// records are those of a run on an empty cache.
func TestDamagedCache(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GOADVISE_CACHE", root)
	var warnings []string
	cache.Warn = func(msg string) { warnings = append(warnings, msg) }
	defer func() { cache.Warn = func(string) {} }()
	dir := gittest.NewTree(t, fixture)
	opts := LoadOptions{Dir: dir, Patterns: []string{"./..."}}
	warm := func() map[string]string {
		t.Helper()
		w, err := Warm(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		w.LoadAll()
		out := make(map[string]string)
		for _, r := range w.results {
			res := lookup(r.ImportPath, r.Test)
			if res.Err != "" {
				t.Errorf("%s: %s", r.ImportPath, res.Err)
			}
			b, _ := json.Marshal(res.Records)
			out[r.ImportPath] = string(b)
		}
		return out
	}
	first := warm()
	entries, _ := filepath.Glob(filepath.Join(root, "escape", "*", "*"))
	if len(entries) < 2 {
		t.Fatalf("%d cache entries, want at least 2", len(entries))
	}
	damage := []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)/2] },
		func([]byte) []byte { return nil },
		func(b []byte) []byte { return []byte(strings.Repeat("\x93\x00garbage", len(b)/9+1)) },
	}
	for i, e := range entries {
		b, _ := os.ReadFile(e)
		os.WriteFile(e, damage[i%len(damage)](b), 0o666)
	}
	second := warm()
	for p, recs := range first {
		if second[p] != recs {
			t.Errorf("%s: records after damage differ (%d bytes of JSON, was %d)", p, len(second[p]), len(recs))
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], filepath.Join(root, "escape")) || !strings.HasSuffix(warnings[0], "is damaged; recomputing") {
		t.Errorf("warnings %q, want one about a damaged entry", warnings)
	}
	// The entries were rewritten.
	for _, e := range entries {
		key := strings.TrimSuffix(filepath.Base(e), filepath.Ext(e))
		if !decisions.Has(key) {
			t.Errorf("damaged entry %s not rewritten", e)
		}
	}
}

// TestCompileMemoryLimit checks that the compiles' memory limit leaves a
// large package the heap its compile needs: below that the collector
// would run without pause (nats-server's server package took three times
// the CPU).
func TestCompileMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small.go"), filepath.Join(dir, "big.go")
	if err := os.WriteFile(small, make([]byte, 1<<10), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, 3<<20), 0o666); err != nil {
		t.Fatal(err)
	}
	if got := compileMemoryLimit([]*target{{files: []string{small}}}); got != "280MiB" {
		t.Errorf("small package: limit %s, want 280MiB", got)
	}
	if got, want := compileMemoryLimit([]*target{{files: []string{small}}, {files: []string{big, small}}}), fmt.Sprintf("%dMiB", (sourceHeapFactor*(3<<20+1<<10))>>20); got != want {
		t.Errorf("with a 3 MiB package: limit %s, want %s", got, want)
	}
	// The standard library's packages fit the default: its runtime has
	// 2.7 MB of source, mostly comments.
	if got := compileMemoryLimit([]*target{{files: []string{big}, std: true}}); got != "280MiB" {
		t.Errorf("with a 3 MiB package of std: limit %s, want 280MiB", got)
	}
}
