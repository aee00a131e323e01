package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/report"
)

// TestBenchVerify runs check -bench Reader -verify on driver's benchlib
// fixture, whose allocation is in package enc and whose benchmark
// BenchmarkReader, in package reader, runs it in one of its two
// sub-benchmarks: the finding ranks first with its measured allocs/op,
// and its fix is measured with that benchmark, in the other package,
// allocs/op going from 2 to 0.
func TestBenchVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the fixture")
	}
	dir, out := t.TempDir(), t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../driver/testdata/benchlib")); err != nil {
		t.Fatal(err)
	}
	line := lineOf(t, filepath.Join(dir, "enc", "enc.go"), "make([]byte, 16)")
	stdout, stderr, code := runCmdEnv(t, dir, []string{"GOADVISE_CACHE=" + t.TempDir()}, bin,
		"check", "-all", "-bench", "Reader", "-benchtime", "20ms", "-verify", "-verify-count", "3", "-verify-benchtime", "100x", "-format", "json", "-o", out, "./...")
	if code != verifyKept {
		t.Fatalf("check -bench -verify: exit %d, want %d\n%s", code, verifyKept, stderr)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) == 0 {
		t.Fatalf("no findings\n%s", stderr)
	}
	f := r.Findings[0]
	if f.Analyzer != "smallalloc" || f.Line != line || len(f.Benchmarks) != 1 || f.Benchmarks[0].AllocsPerOp != 2 {
		t.Errorf("first finding: %s at line %d measured %+v; want smallalloc at line %d, 2 allocs/op in BenchmarkReader/plain", f.Analyzer, f.Line, f.Benchmarks, line)
	}
	if f.Verify == nil || !f.Verify.TestsPassed || f.Verify.Regressed {
		t.Errorf("first finding's verification %+v, want kept", f.Verify)
	}
	if want := fmt.Sprintf("verifying #1 smallalloc at enc.go:%d with BenchmarkReader ...", line); !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf("Measured with BenchmarkReader, which runs enc/enc.go:%d (measured by -bench: BenchmarkReader/plain).", line),
		"allocs/op change, summed over the benchmarks: -2",
	} {
		if !bytes.Contains(summary, []byte(want)) {
			t.Errorf("summary.md lacks %q\n%s", want, summary)
		}
	}
	if bytes.Contains(summary, []byte("Reader/none")) {
		t.Errorf("summary.md: BenchmarkReader/none, which does not run the line, measured the fix\n%s", summary)
	}
}
