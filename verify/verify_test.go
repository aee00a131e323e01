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

// check copies the fixture module testdata/names[0] into a fresh
// directory, adds the files of testdata/names[1:], and checks it with
// smallalloc, showing every finding (check -all). It returns the
// directory and the result.
func check(t *testing.T, names ...string) (string, *driver.Result) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", name))); err != nil {
			t.Fatal(err)
		}
	}
	analyzers, err := suite.Select([]string{"smallalloc"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Run(context.Background(), driver.Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: analyzers, Visibility: suite.Visibility{All: true}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("check %s: %s", names, strings.Join(res.Errors, "\n"))
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
	dir, res := check(t, "elsewhere")
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

// TestDecoder tries the fix of the decoder fixture: smallalloc's fix of
// Next (its per-call header buffer as an array field of the Decoder)
// saves an allocation per record in BenchmarkNext, and makes the Decoder
// that main makes once escape to the heap. That new escape runs once, in
// main outside its loops, where the removed allocation ran once per
// record: the fix is kept, and summary.md says which new decisions were
// accepted and why. Measured by a benchmark that does not run Next, so
// that nothing improves, the same fix is rejected.
func TestDecoder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the fixture twice")
	}
	_, res := check(t, "decoder")
	opts := options(t)
	out, err := Verify(context.Background(), res, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := summary(t, opts)
	if out.Status != Kept || len(out.Kept) != 1 {
		t.Fatalf("status %d, %d kept; want %d and the fix kept\n%s", out.Status, len(out.Kept), Kept, s)
	}
	v := out.Fixes[0]
	if v.Finding.Line != 27 || len(v.Accepted) != 1 {
		t.Fatalf("fix at line %d, accepted %q; want line 27 and the escape in main", v.Finding.Line, v.Accepted)
	}
	const why = "runs less often than the fixed code: cold (runs once: in main, outside its loops), against per-item (method Next runs per item)"
	for _, a := range v.Accepted {
		if !strings.HasPrefix(a, "cmd/decode/main.go:15:") || !strings.HasSuffix(a, why) {
			t.Errorf("accepted %q; want an escape in main, accepted because it %s", a, why)
		}
	}
	for _, want := range []string{
		"1 of 1 fix kept.",
		"## 1. smallalloc at decoder.go:27 (kept: the measured gain outweighs 1 new compiler decision in other packages)",
		"Kept with the compiler's new decision in other packages:\n\n- cmd/decode/main.go:15:25: example.com/decoder/cmd/decode.main: new heap escape of &decoder.Decoder{...} (passed to an interface method or unknown function): " + why + "\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary.md lacks %q\n%s", want, s)
		}
	}
	if p, err := os.ReadFile(filepath.Join(opts.Dir, "fixes.patch")); err != nil || !bytes.Contains(p, []byte("+\thdr := d.nextHdr[:]")) {
		t.Errorf("fixes.patch lacks the fix (%v):\n%s", err, p)
	}

	opts = options(t)
	opts.Bench = "^BenchmarkStream$"
	if out, err = Verify(context.Background(), res, opts); err != nil {
		t.Fatal(err)
	}
	if v := out.Fixes[0]; out.Status != Broken || v.Kept || !strings.HasPrefix(v.Rejected, "makes the compiler's decisions worse in another package, and no benchmark improved significantly to outweigh it: cmd/decode/main.go:15:") {
		t.Errorf("measured by BenchmarkStream: status %d, kept %v, rejected %q; want it rejected for want of a gain", out.Status, v.Kept, v.Rejected)
	}
}

// TestDecoderHot adds package batch to the decoder fixture: the fix of
// Next makes Count's Decoder, one per stream in a loop that no benchmark
// runs, escape too. That escape runs as often as the removed allocation
// or more, and no measurement includes it: the fix is rejected, and says
// why. Lengths's new escape, in a loop too, is accepted: BenchmarkLengths
// runs it, and is one of the benchmarks that measure the fix.
func TestDecoderHot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the fixture")
	}
	_, res := check(t, "decoder", "decoderhot")
	opts := options(t)
	out, err := Verify(context.Background(), res, opts)
	if err != nil {
		t.Fatal(err)
	}
	v := out.Fixes[0]
	if out.Status != Broken || v.Kept || len(out.Kept) != 0 {
		t.Fatalf("status %d, kept %v; want %d, the fix rejected\n%s", out.Status, v.Kept, Broken, summary(t, opts))
	}
	const count = "batch/batch.go:17:26: example.com/decoder/batch.Count: new heap escape of &decoder.Decoder{...} (passed to an interface method or unknown function): no benchmark runs it, and it runs as often as the fixed code or more: hot-loop (inside a loop), against per-item (method Next runs per item)"
	if want := "makes the compiler's decisions worse in another package: " + count; v.Rejected != want {
		t.Errorf("rejected: %q\nwant %q", v.Rejected, want)
	}
	var weighed []string
	for _, w := range v.elsewhere {
		weighed = append(weighed, fmt.Sprintf("%v %s: %s", w.ok, w.Text, w.why))
	}
	got := strings.Join(weighed, "\n")
	for _, want := range []string{
		"false " + count,
		"true batch/batch.go:32:26: example.com/decoder/batch.Lengths: new heap escape of &decoder.Decoder{...} (passed to an interface method or unknown function): the benchmarks run it, so that their measurement includes its cost",
		"true cmd/decode/main.go:15:25: example.com/decoder/cmd/decode.main: new heap escape of &decoder.Decoder{...} (passed to an interface method or unknown function): runs less often than the fixed code",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("weighed:\n%s\nlacks %q", got, want)
		}
	}
}
