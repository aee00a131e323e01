package verify

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/driver"
	"github.com/goadvise/goadvise/report"
)

// TestMain keeps the caches of the tests out of the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "goadvise-verify-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("GOADVISE_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// check copies the fixture module testdata/name into a fresh directory
// and checks it with the analyzers enable, showing every finding (check
// -all). It returns the directory and the result.
func check(t *testing.T, name string, enable ...string) (string, *driver.Result) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
		t.Fatal(err)
	}
	analyzers, err := suite.Select(enable, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Run(context.Background(), driver.Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: analyzers, All: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("check %s: %s", name, strings.Join(res.Errors, "\n"))
	}
	return dir, res
}

// options are the options of the tests' verifications: the top fix,
// measured in 5 rounds (the fewest in which a change is significant),
// writing summary.md to a fresh directory.
func options(t *testing.T) Options {
	return Options{Top: 1, Count: 5, Benchtime: "100x", Dir: t.TempDir(), Progress: func(msg string) { t.Log(msg) }}
}

// summary returns the summary.md that Verify wrote with opts.
func summary(t *testing.T, opts Options) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(opts.Dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPickFixes checks that Verify takes the top findings that have a
// fix, not the top findings, and counts those it passed over.
func TestPickFixes(t *testing.T) {
	fix := []report.Fix{{Message: "fix"}}
	ranked := []report.Finding{
		{Analyzer: "heapescape", Package: "p"},
		{Analyzer: "byvalue", Package: "p", Fixes: fix},
		{Analyzer: "heapescape", Package: "p"},
		{Analyzer: "inlinebudget", Package: "p"},
		{Analyzer: "smallalloc", Package: "p", Fixes: fix},
		{Analyzer: "heapescape", Package: "p"},
		{Analyzer: "deepequal", Package: "p", Fixes: fix},
		{Analyzer: "heapescape", Package: "p"},
	}
	dirs := map[string]string{"p": "/p"}
	out := pickFixes(ranked, 2, dirs)
	if len(out.Fixes) != 2 || out.Fixes[0].Finding.Analyzer != "byvalue" || out.Fixes[1].Finding.Analyzer != "smallalloc" {
		t.Fatalf("picked %v, want byvalue and smallalloc", out.Fixes)
	}
	if got, want := skippedNote(out.Skipped), "; passed over 3 findings ranked among them that have no fix (heapescape 2, inlinebudget 1)"; got != want {
		t.Errorf("skippedNote = %q, want %q", got, want)
	}
	// Asking for more than there are: the findings after the last fix
	// are not passed over.
	out = pickFixes(ranked, 10, dirs)
	if len(out.Fixes) != 3 {
		t.Fatalf("picked %d fixes, want 3", len(out.Fixes))
	}
	if got, want := skippedNote(out.Skipped), "; passed over 4 findings ranked among them that have no fix (heapescape 3, inlinebudget 1)"; got != want {
		t.Errorf("with Top 10: skippedNote = %q, want %q", got, want)
	}
	// No fix at all: every finding was passed over.
	out = pickFixes(ranked[:1], 10, dirs)
	if got, want := skippedNote(out.Skipped), "; passed over 1 finding ranked among them that has no fix (heapescape 1)"; len(out.Fixes) != 0 || got != want {
		t.Errorf("without fixes: %d picked, skippedNote = %q, want %q", len(out.Fixes), got, want)
	}
}

// TestElsewhere tries a fix that helps its own package's benchmark and
// makes the compiler allocate in another package (the elsewhere fixture),
// in Header, exported API that no benchmark runs: how often it runs is
// not known, so the fix is rejected, with where.
func TestElsewhere(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the fixture")
	}
	dir, res := check(t, "elsewhere", "smallalloc")
	src := filepath.Join(dir, "parse.go")
	orig, _ := os.ReadFile(src)
	opts := options(t)
	out, err := Verify(context.Background(), res, opts)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != Broken || len(out.Kept) != 0 || len(out.Fixes) != 1 {
		t.Fatalf("status %d, %d kept of %d fixes; want %d, none kept of one", out.Status, len(out.Kept), len(out.Fixes), Broken)
	}
	v := out.Fixes[0].Finding.Verify
	for _, want := range []string{"allocs/op", "better", "; rejected: makes the compiler's decisions worse in another package: use/use.go:12:7: example.com/fx/use.Header: new heap escape of &fx.Parser{...}"} {
		if v == nil || !strings.Contains(v.Summary, want) {
			t.Errorf("verification %+v does not say %q", v, want)
		}
	}
	if v == nil || !v.Regressed {
		t.Errorf("verification: %+v; want it counted as a regression", v)
	}
	if s := summary(t, opts); !strings.Contains(s, "0 of 1 fix kept.") || !strings.Contains(s, "(dropped: tests pass;") {
		t.Errorf("summary.md does not say the fix was dropped:\n%s", s)
	}
	if now, _ := os.ReadFile(src); !bytes.Equal(now, orig) {
		t.Errorf("Verify changed the user's file:\n%s", now)
	}
}
