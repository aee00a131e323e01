package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/report"
)

// TestCheckVerify tries the DeepEqual fix of the rank fixture in a copy:
// its tests pass and its benchmark allocates less; the user's files are
// unchanged, and -fix -verify then applies the verified fix. The fix
// changes behaviour (bytes.Equal takes nil and empty as equal): it is
// rejected while no test runs its line, and kept once one does.
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
	args := []string{"check", "-all", "-format", "json", "-enable", "deepequal", "-verify", "-verify-top", "1", "-verify-count", "5", "-verify-benchtime", "300x", "./..."}
	stdout, stderr, code := runCmd(t, dir, bin, args...)
	if want := "; rejected: changes behaviour (a nil and an empty slice compare equal with it but not with DeepEqual), and no test covers line 30"; code != verifyBroken || !strings.Contains(stdout, want) {
		t.Fatalf("check -verify with no test of Lookup: exit %d, want %d and %q\n%s%s", code, verifyBroken, want, stdout, stderr)
	}
	test := "package rank\n\nimport \"testing\"\n\nfunc TestLookup(t *testing.T) {\n\tif Lookup([][]byte{[]byte(\"a\")}, []byte(\"a\")) != 0 {\n\t\tt.Error(\"a not found\")\n\t}\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "lookup_test.go"), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runCmd(t, dir, bin, args...)
	if code != verifyKept {
		t.Fatalf("check -verify: exit %d\n%s%s", code, stdout, stderr)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	// Lookup's DeepEqual, in a loop, ranks first and is the one tried;
	// Rare's, exported API with no caller, is shown after it.
	if len(r.Findings) != 2 || r.Findings[0].Verify == nil || r.Findings[1].Verify != nil || r.Findings[1].Tier != "unknown" {
		t.Fatalf("want a verified finding and Rare's unknown one, got %+v", r.Findings)
	}
	v := r.Findings[0].Verify
	if !v.TestsPassed || v.Regressed || !strings.Contains(v.Summary, "allocs/op") || !strings.Contains(v.Summary, "better") || !strings.HasSuffix(v.Summary, "; kept: behaviour change covered by tests") {
		t.Errorf("verification: %+v; want tests passing and fewer allocs/op", v)
	}
	if now, _ := os.ReadFile(src); !bytes.Equal(now, orig) {
		t.Fatal("check -verify modified the user's file")
	}

	stdout, stderr, code = runCmd(t, dir, bin, "check", "-all", "-enable", "deepequal", "-verify", "-verify-top", "1", "-verify-count", "5", "-verify-benchtime", "300x", "-fix", "./...")
	if code != exitOK {
		t.Fatalf("check -fix -verify: exit %d\n%s%s", code, stdout, stderr)
	}
	if now, _ := os.ReadFile(src); !bytes.Contains(now, []byte("bytes.Equal(x, k)")) {
		t.Errorf("check -fix -verify did not apply the verified fix:\n%s", now)
	}
}

// TestVerifyPatch runs check -verify -o on the fixes fixture, which has
// an allocation of each fixed kind on the path of its benchmark (byvalue,
// smallalloc by variable and by value, deepequal, optional, heapescape's
// hoist out of a loop): every fix is kept, the allocs/op saved by all of
// them together is exactly the sum of their single savings, and
// fixes.patch applies to a fresh git checkout, which then builds and
// passes its tests.
func TestVerifyPatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the fixture five times")
	}
	dir, out := t.TempDir(), t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/fixes")); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCmd(t, dir, bin, "check", "-all", "-format", "json", "-verify", "-verify-top", "6", "-verify-count", "3", "-verify-benchtime", "100x", "-o", out, "./...")
	if code != verifyKept {
		t.Fatalf("check -verify -o: exit %d, want %d\n%s", code, verifyKept, stderr)
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for a, file := range map[string]string{"byvalue": "fixes.go", "smallalloc": "fixes.go", "deepequal": "fixes.go", "optional": "optional.go", "heapescape": "hoist.go"} {
		if !regexp.MustCompile(`## \d\. ` + a + ` at ` + regexp.QuoteMeta(file) + `:\d+ \(kept(: behaviour change covered by tests)?\)`).Match(summary) {
			t.Errorf("summary.md: no kept %s fix\n%s", a, summary)
		}
	}
	if !bytes.Contains(summary, []byte("6 of 6 fixes kept")) || !bytes.Contains(summary, []byte("All 6 kept fixes together, measured in the module's root package (holds)")) ||
		!bytes.Contains(summary, []byte("allocs/op")) || !bytes.Contains(summary, []byte("p=")) {
		t.Errorf("summary.md lacks the verdicts or the tables:\n%s", summary)
	}
	// The savings: one line per fix, then the combined one.
	var deltas []float64
	for _, m := range regexp.MustCompile(`allocs/op change, summed over the benchmarks: (\S+)`).FindAllSubmatch(summary, -1) {
		d, err := strconv.ParseFloat(string(m[1]), 64)
		if err != nil {
			t.Fatal(err)
		}
		deltas = append(deltas, d)
	}
	if len(deltas) != 7 {
		t.Fatalf("summary.md has %d allocs/op changes, want 7 (6 fixes, combined)\n%s", len(deltas), summary)
	}
	sum := 0.0
	for _, d := range deltas[:6] {
		if d >= 0 {
			t.Errorf("allocs/op: a single fix changes it by %v, want a drop", d)
		}
		sum += d
	}
	if sum != deltas[6] {
		t.Errorf("allocs/op: single changes %v sum to %v, combined %v; want equal", deltas[:6], sum, deltas[6])
	}

	// The patch applies to a fresh copy, which builds and passes its tests.
	fresh := t.TempDir()
	if err := os.CopyFS(fresh, os.DirFS("testdata/fixes")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"git", "init", "-q"},
		{"git", "apply", filepath.Join(out, "fixes.patch")},
		{"go", "build", "./..."},
		{"go", "vet", "./..."},
		{"go", "test", "./..."},
	} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = fresh
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(fresh, "fixes.go")); !bytes.Contains(b, []byte("func newPoint(x, y int) point {")) {
		t.Errorf("the patch did not return point by value:\n%s", b)
	} else if !bytes.Contains(b, []byte("b := e.putHeaderB[:]")) {
		t.Errorf("the patch did not reuse PutHeader's first buffer:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(fresh, "optional.go")); !bytes.Contains(b, []byte("l.max, l.hasMax = n, true")) {
		t.Errorf("the patch did not store limit.max by value:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(fresh, "hoist.go")); !regexp.MustCompile(`frame := make\(\[\]byte, 128\)\n\tfor _, k := range keys \{\n\t\tclear\(frame\)\n`).Match(b) {
		t.Errorf("the patch did not hoist Frames' buffer out of its loop:\n%s", b)
	}
}

// lineOf returns the line of file on which substr first occurs.
func lineOf(t *testing.T, file, substr string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(substr))
	if i < 0 {
		t.Fatalf("%q not in %s", substr, file)
	}
	return bytes.Count(data[:i], []byte("\n")) + 1
}

// TestVerifyBenchChoice runs check -verify on the cover fixture, whose
// BenchmarkPut runs the smallalloc finding's line, BenchmarkSum does not,
// and no benchmark runs the deepequal finding's line: the smallalloc fix
// is measured with BenchmarkPut alone, the deepequal fix is not measured
// (and not applied by -fix), and -verify-bench chooses the benchmarks of
// every fix instead.
func TestVerifyBenchChoice(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the fixture")
	}
	dir, out := t.TempDir(), t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/cover")); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "cover.go")
	putLine := lineOf(t, src, "make([]byte, 8)")
	indexLine := lineOf(t, src, "reflect.DeepEqual(key, k)")
	verify := []string{"check", "-all", "-enable", "smallalloc,deepequal", "-verify", "-verify-count", "3", "-verify-benchtime", "100x"}

	stdout, stderr, code := runCmd(t, dir, bin, append(verify, "-format", "json", "-o", out, "./...")...)
	if code != verifyKept {
		t.Fatalf("check -verify: exit %d, want %d (a fix not measured changes nothing)\n%s", code, verifyKept, stderr)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	notMeasured := fmt.Sprintf("no benchmark runs cover.go:%d or its function; not measured", indexLine)
	for _, f := range r.Findings {
		switch {
		case f.Verify == nil:
			t.Errorf("%s at line %d: not verified", f.Analyzer, f.Line)
		case f.Analyzer == "deepequal" && (f.Verify.Summary != notMeasured || f.Verify.TestsPassed):
			t.Errorf("deepequal: verification %+v, want %q", f.Verify, notMeasured)
		case f.Analyzer == "smallalloc" && (!f.Verify.TestsPassed || f.Verify.Regressed):
			t.Errorf("smallalloc: verification %+v, want kept", f.Verify)
		}
	}
	if want := fmt.Sprintf("verifying #2 smallalloc at cover.go:%d with BenchmarkPut ...", putLine); !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"1 of 2 fixes kept, 1 not measured",
		fmt.Sprintf("## 1. deepequal at cover.go:%d (%s)", indexLine, notMeasured),
		fmt.Sprintf("## 2. smallalloc at cover.go:%d (kept)", putLine),
		fmt.Sprintf("Measured with BenchmarkPut, which runs cover.go:%d.", putLine),
		"Put-",
	} {
		if !bytes.Contains(summary, []byte(want)) {
			t.Errorf("summary.md lacks %q\n%s", want, summary)
		}
	}
	if bytes.Contains(summary, []byte("Sum-")) {
		t.Errorf("summary.md: BenchmarkSum, which runs neither line, measured a fix\n%s", summary)
	}

	// -fix applies the measured fix only.
	_, stderr, code = runCmd(t, dir, bin, append(verify, "-fix", "./...")...)
	if code != exitOK {
		t.Fatalf("check -verify -fix: exit %d\n%s", code, stderr)
	}
	if now, _ := os.ReadFile(src); !bytes.Contains(now, []byte("b := e.putB[:]")) || !bytes.Contains(now, []byte("reflect.DeepEqual(key, k)")) {
		t.Errorf("check -verify -fix: want the smallalloc fix applied and the deepequal one not:\n%s", now)
	}
}

// TestVerifyBenchFlag checks that -verify-bench measures every fix with
// the benchmarks it matches, even one that does not run the fix's line.
func TestVerifyBenchFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and benchmarks the fixture")
	}
	dir, out := t.TempDir(), t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/cover")); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCmd(t, dir, bin, "check", "-all", "-enable", "smallalloc,deepequal", "-verify", "-verify-bench", "Sum$", "-verify-count", "3", "-verify-benchtime", "100x", "-o", out, "./...")
	if code != verifyKept {
		t.Fatalf("check -verify -verify-bench: exit %d\n%s", code, stderr)
	}
	summary, err := os.ReadFile(filepath.Join(out, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(summary, []byte("Measured with the benchmarks matching -verify-bench `Sum$`.")); n != 3 {
		t.Errorf("summary.md names -verify-bench %d times, want 3 (2 fixes, combined)\n%s", n, summary)
	}
	if !bytes.Contains(summary, []byte("2 of 2 fixes kept.")) || !bytes.Contains(summary, []byte("Sum-")) || bytes.Contains(summary, []byte("Put-")) {
		t.Errorf("summary.md: want both fixes kept, measured with BenchmarkSum alone\n%s", summary)
	}
	if _, stderr, code := runCmd(t, dir, bin, "check", "-all", "-verify", "-verify-bench", "(", "./..."); code != exitError || !strings.Contains(stderr, "-verify-bench") {
		t.Errorf("-verify-bench '(': exit %d, want %d and an error naming the flag\n%s", code, exitError, stderr)
	}
}
