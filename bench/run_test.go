package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goadvise/goadvise/internal/gittest"
)

// Fixture benchmarks run a fixed, small number of iterations: the tests
// assert allocation counts, which are deterministic, never timings.
const fixtureBenchtime = "100x"

func fixtureFiles(allocs int) map[string]string {
	return map[string]string{"go.mod": fixtureMod, "fx.go": workSource(allocs), "fx_test.go": fixtureTest}
}

func TestRunHeadAllocatesLess(t *testing.T) {
	tmp := isolateTemp(t)
	dir := gittest.NewRepo(t, fixtureFiles(2), fixtureFiles(1))
	before := gittest.Snapshot(t, dir)
	cmp, err := Run(context.Background(), Options{
		Dir: dir, Base: "HEAD~1", Head: "HEAD", Count: 5, Benchtime: fixtureBenchtime,
	})
	if err != nil {
		t.Fatal(err)
	}
	row := cmp.Find("Work", "allocs/op")
	if row == nil {
		t.Fatalf("no allocs/op row for BenchmarkWork in %+v", cmp.Rows)
	}
	if row.Base.Center != 2 || row.Head.Center != 1 {
		t.Errorf("allocs/op = %v → %v, want 2 → 1", row.Base.Center, row.Head.Center)
	}
	if row.DeltaPct != -50 {
		t.Errorf("allocs/op delta = %v%%, want -50%%", row.DeltaPct)
	}
	if !row.Significant || row.Verdict != Better || row.P >= 0.05 {
		t.Errorf("allocs/op: significant=%v verdict=%q p=%v, want a significant improvement", row.Significant, row.Verdict, row.P)
	}
	if b := cmp.Find("Work", "B/op"); b == nil || b.Base.Center != 128 || b.Head.Center != 64 || b.Verdict != Better {
		t.Errorf("B/op row = %+v, want 128 → 64, better", b)
	}
	if s := cmp.Find("Work", "sec/op"); s == nil || s.Base.N() != 5 || s.Head.N() != 5 {
		t.Errorf("sec/op row = %+v, want 5 samples per version", s)
	}
	if cmp.Regressed() {
		t.Errorf("Regressed() = true for an improvement: %v", cmp.Regressions())
	}
	if !strings.HasPrefix(cmp.BaseLabel, "HEAD~1 (") || !strings.HasPrefix(cmp.HeadLabel, "HEAD (") {
		t.Errorf("labels = %q, %q", cmp.BaseLabel, cmp.HeadLabel)
	}
	var buf bytes.Buffer
	if err := Write(&buf, cmp, FormatText); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"pkg: example.com/fx", "allocs/op", "Work-", "2.000 ± ∞", "1.000 ± ∞", "-50.00%", "(p=0.008 n=5)", "no significant regression"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	gittest.CheckSnapshot(t, dir, before)
	checkNoWorktrees(t, dir)
	checkTempClean(t, tmp)
}

func TestRunNoChangeWorkingTree(t *testing.T) {
	tmp := isolateTemp(t)
	dir := gittest.NewRepo(t, fixtureFiles(1))
	// Uncommitted and untracked changes that do not change the code's
	// behaviour: head is the working tree as it is.
	gittest.WriteFiles(t, dir, map[string]string{
		"fx.go":         workSource(1) + "\n// An uncommitted comment.\n",
		"notes.txt":     "untracked\n",
		"sub/extra.txt": "untracked too\n",
	})
	before := gittest.Snapshot(t, dir)
	cmp, err := Run(context.Background(), Options{
		Dir: dir, Count: 5, Benchtime: fixtureBenchtime,
		// Timings of identical code may differ significantly by
		// chance (that is what alpha means); this test is about
		// the deterministic units, so time cannot fail it.
		Threshold: 1000,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cmp.BaseLabel, "HEAD (") || cmp.HeadLabel != "working tree" {
		t.Errorf("labels = %q, %q, want HEAD (sha) and working tree", cmp.BaseLabel, cmp.HeadLabel)
	}
	for _, unit := range []string{"allocs/op", "B/op"} {
		row := cmp.Find("Work", unit)
		if row == nil {
			t.Fatalf("no %s row", unit)
		}
		if row.Verdict != NoChange || row.Significant || row.Regression {
			t.Errorf("%s: verdict %q significant=%v regression=%v, want no significant change", unit, row.Verdict, row.Significant, row.Regression)
		}
	}
	if cmp.Regressed() {
		t.Errorf("Regressed() = true (exit status 1) for unchanged code: %v", cmp.Regressions())
	}
	var buf bytes.Buffer
	Write(&buf, cmp, FormatText)
	if !strings.Contains(buf.String(), "~") {
		t.Errorf("text output shows no \"~\" for unchanged allocations:\n%s", buf.String())
	}
	gittest.CheckSnapshot(t, dir, before)
	checkNoWorktrees(t, dir)
	checkTempClean(t, tmp)
}

func TestRunRegression(t *testing.T) {
	// The module is in a subdirectory of the repository, and the
	// packages are given as a pattern.
	sub := func(files map[string]string) map[string]string {
		m := map[string]string{"README": "repo\n"}
		for k, v := range files {
			m["svc/"+k] = v
		}
		return m
	}
	dir := gittest.NewRepo(t, sub(fixtureFiles(1)), sub(fixtureFiles(2)))
	// Three rounds are too few for the U test to ever reach p < 0.05
	// (its smallest p is 0.1), yet the allocation increase is exact
	// and counts regardless of the huge threshold.
	cmp, err := Run(context.Background(), Options{
		Dir: filepath.Join(dir, "svc"), Packages: []string{"./..."},
		Base: "HEAD~1", Head: "HEAD", Count: 3, Benchtime: fixtureBenchtime, Threshold: 1000,
	})
	if err != nil {
		t.Fatal(err)
	}
	row := cmp.Find("Work", "allocs/op")
	if row == nil {
		t.Fatal("no allocs/op row")
	}
	if !row.Regression || row.Verdict != Worse || row.DeltaPct != 100 {
		t.Errorf("allocs/op: regression=%v verdict=%q delta=%v, want a +100%% regression", row.Regression, row.Verdict, row.DeltaPct)
	}
	if math.Abs(row.MinP-0.1) > 1e-9 {
		t.Errorf("MinP = %v, want 0.1 for 3+3 samples", row.MinP)
	}
	if s := cmp.Find("Work", "sec/op"); s == nil || s.Verdict != TooFewSamples || s.Regression {
		t.Errorf("sec/op row = %+v, want too few samples and no regression", s)
	}
	if !cmp.Regressed() {
		t.Error("Regressed() = false (exit status 0), want true (exit status 1)")
	}
	var buf bytes.Buffer
	Write(&buf, cmp, FormatText)
	if !strings.Contains(buf.String(), "REGRESSION: Work-") {
		t.Errorf("text output does not name the regression:\n%s", buf.String())
	}
	checkNoWorktrees(t, dir)
}

func TestRunErrors(t *testing.T) {
	dir := gittest.NewRepo(t, fixtureFiles(1))
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"bad revision", Options{Base: "no-such-rev"}, `unknown git revision "no-such-rev"`},
		{"no match", Options{Bench: "NoSuchBenchmark", Count: 2, Benchtime: "1x"}, "no benchmark matches -bench=NoSuchBenchmark"},
		{"pgo and base", Options{Base: "HEAD", PGO: "x.pprof"}, "cannot be combined"},
		{"missing profile", Options{PGO: filepath.Join(dir, "missing.pprof")}, "missing.pprof"},
		{"not git", Options{Dir: t.TempDir()}, "not in a git repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.opts.Dir == "" {
				tc.opts.Dir = dir
			}
			_, err := Run(context.Background(), tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	checkNoWorktrees(t, dir)
}

func TestRunPGO(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: with a cold build cache, -pgo rebuilds the standard library (about 20 s)")
	}
	dir := gittest.NewRepo(t, fixtureFiles(1))
	// testdata/cpu.pprof is a CPU profile of the fixture's BenchmarkWork
	// (go test -bench . -cpuprofile). Being a fixed file, the standard
	// library built with it stays in the build cache between test runs.
	prof, err := filepath.Abs(filepath.Join("testdata", "cpu.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := Run(context.Background(), Options{Dir: dir, PGO: prof, Count: 4, Benchtime: fixtureBenchtime, Threshold: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if cmp.BaseLabel != "working tree (pgo=off)" || cmp.HeadLabel != "working tree (pgo=cpu.pprof)" {
		t.Errorf("labels = %q, %q", cmp.BaseLabel, cmp.HeadLabel)
	}
	if row := cmp.Find("Work", "allocs/op"); row == nil || row.Verdict != NoChange || row.Base.Center != 1 {
		t.Errorf("allocs/op row = %+v, want 1 alloc and no change", row)
	}

	// A file that is not a profile fails the build, and the error says so.
	bad := filepath.Join(t.TempDir(), "bad.pprof")
	os.WriteFile(bad, []byte("not a profile\n"), 0o666)
	_, err = Run(context.Background(), Options{Dir: dir, PGO: bad, Count: 1})
	if err == nil || !strings.Contains(err.Error(), "building test binary") {
		t.Errorf("Run with a malformed profile: err = %v, want a build error", err)
	}
}

// The helper process for TestRunInterrupt: it runs Run the way
// cmd/goadvise does, with a context cancelled by SIGINT.
func TestMain(m *testing.M) {
	if dir := os.Getenv("GOADVISE_BENCH_HELPER"); dir != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		_, err := Run(ctx, Options{Dir: dir, Bench: "Slow", Count: 2, Benchtime: "1x"})
		stop()
		fmt.Fprintln(os.Stderr, "helper: Run returned:", err)
		if ctx.Err() != nil {
			os.Exit(3)
		}
		os.Exit(4)
	}
	os.Exit(m.Run())
}

func TestRunInterrupt(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "running")
	slow := fixtureTest + `
func BenchmarkSlow(b *testing.B) {
	os.WriteFile(os.Getenv("FX_MARKER"), []byte(os.Getenv("PWD")), 0o666)
	time.Sleep(time.Minute)
}
`
	slow = strings.Replace(slow, `import "testing"`, "import (\n\t\"os\"\n\t\"testing\"\n\t\"time\"\n)", 1)
	files := fixtureFiles(1)
	files["fx_test.go"] = slow
	dir := gittest.NewRepo(t, files)
	tmp := t.TempDir()

	cmd := exec.Command(os.Args[0], "-test.run=^TestRunInterrupt$")
	cmd.Env = append(os.Environ(), "GOADVISE_BENCH_HELPER="+dir, "FX_MARKER="+marker, "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	// Wait until the slow benchmark of the base runs in its worktree.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("helper exited early: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("benchmark did not start within 60s\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := strings.Count(gittest.Git(t, dir, "worktree", "list", "--porcelain"), "worktree "); n != 2 {
		t.Errorf("while running: %d worktrees, want 2 (main and base)", n)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
			t.Errorf("helper exit: %v, want status 3 (interrupted)\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("helper did not exit within 30s of SIGINT\n%s", stderr.String())
	}
	checkNoWorktrees(t, dir)
	checkTempClean(t, tmp)
}

func TestJSONAndCSV(t *testing.T) {
	cmp := compareText(t, oldText, newText, 5)
	var buf bytes.Buffer
	if err := Write(&buf, cmp, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Regression bool
		Rows       []struct {
			Name, Unit, Verdict string
			DeltaPct            *float64 `json:"delta_pct"`
			P                   *float64
			Base                struct{ N int }
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, buf.String())
	}
	if !got.Regression || len(got.Rows) != 6 {
		t.Fatalf("JSON: regression=%v rows=%d, want true and 6\n%s", got.Regression, len(got.Rows), buf.String())
	}
	r := got.Rows[0]
	if r.Name != "Parse-8" || r.Unit != "sec/op" || r.Verdict != "faster" || r.DeltaPct == nil || math.Abs(*r.DeltaPct+20) > 1e-9 || r.Base.N != 5 {
		t.Errorf("JSON first row = %+v", r)
	}

	buf.Reset()
	if err := Write(&buf, cmp, FormatCSV); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 7 || lines[0] != strings.Join(csvHeader, ",") {
		t.Fatalf("CSV:\n%s", buf.String())
	}
	if f := strings.Split(lines[1], ","); len(f) != len(csvHeader) || f[0] != "example.com/p" || f[1] != "Parse-8" || f[2] != "sec/op" || f[5] != "5" || f[11] != "faster" || f[12] != "false" {
		t.Errorf("CSV row 1 = %q", lines[1])
	}

	if err := Write(&buf, cmp, "xml"); err == nil {
		t.Error("Write with format xml succeeded")
	}
}

// TestRunBinaryExitsEarly checks that a benchmark binary that calls
// os.Exit(0) in the head (which go test reports as a failure) is an error
// naming the revision and the package, not a comparison without the
// head's results.
func TestRunBinaryExitsEarly(t *testing.T) {
	exiting := fixtureFiles(1)
	exiting["fx_test.go"] = strings.Replace(fixtureTest, "import \"testing\"", "import (\n\t\"os\"\n\t\"testing\"\n)", 1)
	exiting["fx_test.go"] = strings.Replace(exiting["fx_test.go"], "\tfor b.Loop() {", "\tos.Exit(0)\n\tfor b.Loop() {", 1)
	dir := gittest.NewRepo(t, fixtureFiles(1), exiting)
	_, err := Run(context.Background(), Options{Dir: dir, Base: "HEAD~1", Head: "HEAD", Count: 2, Benchtime: fixtureBenchtime})
	if err == nil {
		t.Fatal("Run succeeded although the head's benchmark binary exited early")
	}
	if msg := err.Error(); !strings.Contains(msg, "HEAD (") || !strings.Contains(msg, "example.com/fx") {
		t.Errorf("error %q does not name the revision and the package", msg)
	}
	checkNoWorktrees(t, dir)
}
