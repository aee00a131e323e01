package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/report"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestFindingsCache checks that a re-run serves every package from the
// findings cache with identical output, and that changing one file
// recomputes the packages that can depend on it and only those.
func TestFindingsCache(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
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
		cmd := []string{"check", "-all", "-cold", "-format", "json", "-enable", "deepequal", "./..."}
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
	stdout, _, _ := runCmdEnv(t, dir, []string{"GOADVISE_CACHE=" + cache}, bin, "check", "-all", "-format", "json", "-enable", "deepequal", "-escape.off", "./...")
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
	t.Parallel() // an end-to-end run in its own directory
	if testing.Short() {
		t.Skip("analyses a tree of many packages twice")
	}
	dir := gittest.NewTree(t, manyPackages("example.com/many", 16)) // more than the largest batch
	run := func(env string, args ...string) report.Report {
		t.Helper()
		args = append([]string{"check", "-all", "-cold", "-format", "json"}, append(args, "./...")...)
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

// TestDamagedCaches damages every entry of both caches after a run and
// checks that the next run reports the same findings, warns once, and
// rewrites the entries.
func TestDamagedCaches(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	cache := t.TempDir()
	check := func() (report.Report, string) {
		t.Helper()
		stdout, stderr, code := runCmdEnv(t, dir, []string{"GOADVISE_CACHE=" + cache}, bin, "check", "-all", "-format", "json", "./...")
		if code != exitFindings {
			t.Fatalf("check: exit %d\n%s", code, stderr)
		}
		var r report.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		return r, stderr
	}
	first, _ := check()
	var entries []string
	for _, sub := range []string{"escape", "findings"} {
		e, _ := filepath.Glob(filepath.Join(cache, sub, "*", "*"))
		if len(e) == 0 {
			t.Fatalf("no entries in the %s cache", sub)
		}
		entries = append(entries, e...)
	}
	for i, e := range entries {
		data, _ := os.ReadFile(e)
		switch i % 3 {
		case 0:
			data = data[:len(data)/2]
		case 1:
			data = nil
		case 2:
			data = []byte(strings.Repeat("\x00\xffrandom", len(data)/8+1))
		}
		os.WriteFile(e, data, 0o666)
	}
	second, stderr := check()
	a, _ := json.Marshal(first.Findings)
	b, _ := json.Marshal(second.Findings)
	if string(a) != string(b) || len(first.Findings) == 0 {
		t.Errorf("findings after damage differ: %d, then %d", len(first.Findings), len(second.Findings))
	}
	if n := strings.Count(stderr, "is damaged; recomputing"); n != 1 || !strings.Contains(stderr, "goadvise: cache entry "+cache) {
		t.Errorf("want one warning about a damaged cache entry, got %d:\n%s", n, stderr)
	}
	third, stderr := check()
	if third.Stats.Cached != third.Stats.Packages || strings.Contains(stderr, "damaged") {
		t.Errorf("damaged entries not rewritten: %d of %d packages cached\n%s", third.Stats.Cached, third.Stats.Packages, stderr)
	}
}

// TestCacheClean checks that cache clean removes a cache and refuses a
// directory that is not one, leaving its files alone.
func TestCacheClean(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	user := t.TempDir()
	os.WriteFile(filepath.Join(user, "notes.txt"), []byte("mine"), 0o666)
	_, stderr, code := runCmdEnv(t, ".", []string{"GOADVISE_CACHE=" + user}, bin, "cache", "clean")
	want := "goadvise cache: " + user + " is not goadvise's cache (it has no CACHEDIR.TAG written by goadvise); not cleaning it\n"
	if code != exitError || stderr != want {
		t.Errorf("cache clean of a user directory: exit %d, %q, want %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(user, "notes.txt")); err != nil {
		t.Errorf("user file removed: %v", err)
	}

	cache := filepath.Join(t.TempDir(), "cache")
	dir := fixture(t)
	if _, stderr, code := runCmdEnv(t, dir, []string{"GOADVISE_CACHE=" + cache}, bin, "check", "-all", "./..."); code != exitFindings {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := runCmdEnv(t, dir, []string{"GOADVISE_CACHE=" + cache}, bin, "cache", "clean"); code != exitOK {
		t.Fatalf("cache clean: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		ents, _ := os.ReadDir(cache)
		t.Errorf("cache left after clean: %v", ents)
	}
}

// TestConcurrentChecks runs two checks of one module at once, several
// times, on an empty cache: both succeed, with the same findings, and two
// concurrent -fix runs leave the files as one run does.
func TestConcurrentChecks(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	both := func(dir, cache string, args ...string) (outs, errs [2]string, codes [2]int) {
		t.Helper()
		var cmds [2]*exec.Cmd
		var bufs [2][2]bytes.Buffer
		for i := range cmds {
			cmds[i] = exec.Command(bin, args...)
			cmds[i].Dir = dir
			cmds[i].Env = append(os.Environ(), "GOADVISE_CACHE="+cache)
			cmds[i].Stdout, cmds[i].Stderr = &bufs[i][0], &bufs[i][1]
			if err := cmds[i].Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i, cmd := range cmds {
			cmd.Wait()
			outs[i], errs[i], codes[i] = bufs[i][0].String(), bufs[i][1].String(), cmd.ProcessState.ExitCode()
		}
		return outs, errs, codes
	}
	for range 2 {
		outs, errs, codes := both(fixture(t), t.TempDir(), "check", "-all", "-format", "json", "./...")
		var rs [2]report.Report
		for i := range rs {
			if codes[i] != exitFindings {
				t.Fatalf("concurrent check: exit %d\n%s", codes[i], errs[i])
			}
			json.Unmarshal([]byte(outs[i]), &rs[i])
		}
		a, _ := json.Marshal(rs[0].Findings)
		b, _ := json.Marshal(rs[1].Findings)
		if string(a) != string(b) || len(rs[0].Findings) == 0 {
			t.Errorf("concurrent checks report different findings: %d and %d", len(rs[0].Findings), len(rs[1].Findings))
		}
	}

	one := fixture(t)
	if _, stderr, code := runCmdEnv(t, one, []string{"GOADVISE_CACHE=" + t.TempDir()}, bin, "check", "-all", "-fix", "./..."); code == exitError {
		t.Fatalf("check -fix: exit %d\n%s", code, stderr)
	}
	want, _ := os.ReadFile(filepath.Join(one, "shop", "shop.go"))
	for range 3 {
		dir := fixture(t)
		_, errs, codes := both(dir, t.TempDir(), "check", "-all", "-fix", "./...")
		for i := range codes {
			if codes[i] == exitError {
				t.Fatalf("concurrent check -fix: exit %d\n%s", codes[i], errs[i])
			}
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "shop", "shop.go")); string(got) != string(want) {
			t.Fatalf("two concurrent check -fix runs left shop.go different from one run:\n%s", got)
		}
	}
}
