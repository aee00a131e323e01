package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/report"
)

// TestCheckVerify tries the DeepEqual fix of the rank fixture in a copy:
// its tests pass and its benchmark allocates less; the user's files are
// unchanged, and -fix -verify then applies the verified fix.
func TestCheckVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the fixture twice")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/rank")); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "rank.go")
	orig, _ := os.ReadFile(src)
	args := []string{"check", "-format", "json", "-enable", "deepequal", "-verify", "-verify-top", "1", "-verify-count", "5", "-verify-benchtime", "300x", "./..."}
	stdout, stderr, code := runCmd(t, dir, bin, args...)
	if code != exitFindings {
		t.Fatalf("check -verify: exit %d\n%s", code, stderr)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 1 || r.Findings[0].Verify == nil {
		t.Fatalf("want one verified finding, got %+v", r.Findings)
	}
	v := r.Findings[0].Verify
	if !v.TestsPassed || v.Regressed || !strings.Contains(v.Summary, "allocs/op") || !strings.Contains(v.Summary, "better") {
		t.Errorf("verification: %+v; want tests passing and fewer allocs/op", v)
	}
	if now, _ := os.ReadFile(src); !bytes.Equal(now, orig) {
		t.Fatal("check -verify modified the user's file")
	}

	_, stderr, code = runCmd(t, dir, bin, "check", "-enable", "deepequal", "-verify", "-verify-top", "1", "-verify-count", "5", "-verify-benchtime", "300x", "-fix", "./...")
	if code != exitOK {
		t.Fatalf("check -fix -verify: exit %d\n%s", code, stderr)
	}
	if now, _ := os.ReadFile(src); !bytes.Contains(now, []byte("bytes.Equal(x, k)")) {
		t.Errorf("check -fix -verify did not apply the verified fix:\n%s", now)
	}
}
