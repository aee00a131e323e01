package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goadvise/goadvise/report"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestFindingsCache checks that a re-run serves every package from the
// findings cache with identical output, and that changing one file
// recomputes the packages that can depend on it and only those.
func TestFindingsCache(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":         "module example.com/c\n\ngo 1.26\n",
		"low/low.go":     "package low\n\nimport \"reflect\"\n\n// Same compares.\nfunc Same(a, b []int) bool { return reflect.DeepEqual(a, b) }\n",
		"high/high.go":   "package high\n\nimport (\n\t\"reflect\"\n\n\t\"example.com/c/low\"\n)\n\n// Same compares twice.\nfunc Same(a, b []int) bool { return low.Same(a, b) && reflect.DeepEqual(a, b) }\n",
		"other/other.go": "package other\n\nimport \"reflect\"\n\n// Same compares.\nfunc Same(a, b string) bool { return reflect.DeepEqual(a, b) }\n",
	}
	for name, content := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := t.TempDir()
	check := func() report.Report {
		t.Helper()
		cmd := []string{"check", "-cold", "-format", "json", "-enable", "deepequal", "./..."}
		stdout, stderr, code := runCmdEnv(t, dir, []string{"GOADVISE_CACHE=" + cache}, bin, cmd...)
		if code != exitFindings {
			t.Fatalf("check: exit %d\n%s", code, stderr)
		}
		var r report.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := check()
	if first.Stats.Cached != 0 || first.Stats.Packages != 3 || len(first.Findings) != 3 {
		t.Fatalf("first run: %d cached of %d packages, %d findings", first.Stats.Cached, first.Stats.Packages, len(first.Findings))
	}
	second := check()
	if second.Stats.Cached != 3 {
		t.Errorf("unchanged re-run: %d of 3 packages cached", second.Stats.Cached)
	}
	a, _ := json.Marshal(first.Findings)
	b, _ := json.Marshal(second.Findings)
	if string(a) != string(b) {
		t.Errorf("cached findings differ from fresh ones:\n%s\n%s", a, b)
	}

	// Editing low invalidates low and high (which imports it), not other.
	os.WriteFile(filepath.Join(dir, "low/low.go"), []byte(files["low/low.go"]+"\n// Edited.\n"), 0o644)
	third := check()
	if third.Stats.Cached != 1 {
		t.Errorf("after editing low: %d packages cached, want 1 (other)", third.Stats.Cached)
	}
	// Editing high invalidates high alone.
	os.WriteFile(filepath.Join(dir, "high/high.go"), []byte(files["high/high.go"]+"\n// Edited.\n"), 0o644)
	if fourth := check(); fourth.Stats.Cached != 2 {
		t.Errorf("after editing high: %d packages cached, want 2", fourth.Stats.Cached)
	}
	// A changed flag value is a different analysis: nothing is reused.
	stdout, _, _ := runCmdEnv(t, dir, []string{"GOADVISE_CACHE=" + cache}, bin, "check", "-format", "json", "-enable", "deepequal", "-escape.off", "./...")
	var r report.Report
	json.Unmarshal([]byte(stdout), &r)
	if r.Stats.Cached != 0 {
		t.Errorf("with a different flag value: %d packages cached, want 0", r.Stats.Cached)
	}
}

// TestBatches checks that analysing a tree in batches (more packages than
// the largest batch) gives the same findings as one batch: batches of the
// packages the findings cache missed, batches of the packages package
// load listed (no findings cache), and one batch of the patterns, which is
// how go/packages loads them without the findings cache (-tests; the tree
// has no test files).
func TestBatches(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses a tree of many packages twice")
	}
	dir := gittest.NewTree(t, manyPackages("example.com/many", 16)) // more than the largest batch
	run := func(env string, args ...string) report.Report {
		t.Helper()
		args = append([]string{"check", "-cold", "-format", "json"}, append(args, "./...")...)
		stdout, stderr, code := runCmdEnv(t, dir, []string{env}, bin, args...)
		if code != exitFindings {
			t.Fatalf("check %v: exit %d\n%s", env, code, stderr)
		}
		var r report.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	single := run("GOADVISE_NOCACHE=1", "-tests")
	b, _ := json.Marshal(single.Findings)
	for _, env := range []string{"GOADVISE_CACHE=" + t.TempDir(), "GOADVISE_NOCACHE=1"} {
		batched := run(env)
		a, _ := json.Marshal(batched.Findings)
		if string(a) != string(b) || len(batched.Findings) < 16 {
			t.Errorf("with %s, batched and single-batch findings differ (%d and %d findings)", env, len(batched.Findings), len(single.Findings))
		}
	}
}
