package optlog

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestCompileMemoryLimit checks that only a build of std's packages alone
// gets the compiles' memory limit: outside std, a compile may need more
// than that live, and the collector would then run without pause
// (go-redis's root package took three times as long).
func TestCompileMemoryLimit(t *testing.T) {
	if got := compileMemoryLimit([]*target{{std: true}, {std: true}}); got != "280MiB" {
		t.Errorf("std: limit %q, want 280MiB", got)
	}
	if got := compileMemoryLimit([]*target{{std: true}, {}}); got != "" {
		t.Errorf("std and a package outside it: limit %q, want none", got)
	}
}

// TestKeysNameExecutable checks that the keys of the compiler's decisions
// change with goadvise's executable: the records hold what it parsed from
// the log (causes, explanations), which a rebuilt goadvise may parse
// differently.
func TestKeysNameExecutable(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.go")
	if err := os.WriteFile(src, []byte("package p\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	cfg := &vetConfigFile{ImportPath: "example.com/p", GoVersion: "go1.26", GoFiles: []string{src}}
	c := &collector{}
	vet1, global1 := vetKey(cfg), c.globalKey(nil)
	old := cache.Executable
	t.Cleanup(func() { cache.Executable = old })
	cache.Executable = func() string { return "/elsewhere/goadvise 1 2" }
	if vetKey(cfg) == vet1 {
		t.Error("vetKey does not change with the executable")
	}
	if c.globalKey(nil) == global1 {
		t.Error("globalKey does not change with the executable")
	}
}

// TestWarmedInterrupted checks that once the context given to Warm is
// done, Err and Close return without waiting for the logs to be parsed
// (one huge package's take seconds), and that the log directory is
// removed when they are.
func TestWarmedInterrupted(t *testing.T) {
	logDir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	w := &Warmed{logDir: logDir, parsed: make(chan struct{}), ctx: ctx}
	cancel()
	returned := make(chan error, 2)
	go func() { returned <- w.Err() }()
	go func() { returned <- w.Close() }()
	for range 2 {
		select {
		case err := <-returned:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("got %v, want nil or context.Canceled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Err or Close waited for the logs to be parsed")
		}
	}
	if _, err := os.Stat(logDir); err != nil {
		t.Fatalf("the log directory was removed while the logs were being parsed: %v", err)
	}
	close(w.parsed)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(logDir); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the log directory is still there after the logs were parsed")
		}
	}
}
