package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
	"github.com/goadvise/goadvise/report"
)

// TestHelpFlags checks that -h on every command and subcommand, and help
// COMMAND [SUBCOMMAND], print the usage with the flags on standard output
// and exit 0.
func TestHelpFlags(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	for _, tc := range []struct {
		args  []string
		usage string // the first line
		flag  string // a flag the usage lists, or ""
	}{
		{[]string{"check", "-h"}, "usage: goadvise check [flags] [packages]", "-top"},
		{[]string{"-h"}, "goadvise finds", ""},
		{[]string{"bench", "-h"}, "usage: goadvise bench", "-benchtime"},
		{[]string{"diff", "-h"}, "usage: goadvise diff", "-fail-on"},
		{[]string{"pgo", "-h"}, "usage: goadvise pgo merge|check|explain", ""},
		{[]string{"pgo", "merge", "-h"}, "usage: goadvise pgo merge -o PATH", "-skip-invalid"},
		{[]string{"pgo", "check", "-h"}, "usage: goadvise pgo check", "-min-match"},
		{[]string{"pgo", "explain", "-help"}, "usage: goadvise pgo explain", "-big-caller"},
		{[]string{"cache", "-h"}, "usage: goadvise cache", ""},
		{[]string{"help", "check"}, "usage: goadvise check [flags] [packages]", "-top"},
		{[]string{"help", "pgo", "merge"}, "usage: goadvise pgo merge -o PATH", "-skip-invalid"},
		{[]string{"help", "pgo"}, "usage: goadvise pgo merge|check|explain", ""},
	} {
		stdout, stderr, code := runCmd(t, ".", bin, tc.args...)
		first, _, _ := strings.Cut(stdout, "\n")
		if code != 0 || !strings.HasPrefix(first, tc.usage) || stderr != "" {
			t.Errorf("goadvise %s: exit %d, first line %q, stderr %q; want exit 0 and %q", strings.Join(tc.args, " "), code, first, stderr, tc.usage)
		}
		if tc.flag != "" && !strings.Contains(stdout, "\n  "+tc.flag) {
			t.Errorf("goadvise %s does not list %s:\n%s", strings.Join(tc.args, " "), tc.flag, stdout)
		}
		if n := strings.Count(stdout, "\nFlags:\n"); n > 1 || (tc.flag != "" && n != 1) {
			t.Errorf("goadvise %s heads its flags %d times:\n%s", strings.Join(tc.args, " "), n, stdout)
		}
	}
}

// TestFlagsAfterPackages checks that a flag after the packages is refused
// before any work, with a hint, rather than taken for a package.
func TestFlagsAfterPackages(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	for _, args := range [][]string{
		{"check", "./shop", "-top", "2"},
		{"./shop", "-format", "json"},
		{"pgo", "check", "./...", "-top", "3"},
		{"diff", "-base", "HEAD", "./...", "-fail-on", "escapes"},
	} {
		stdout, stderr, code := runCmd(t, dir, bin, args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "after the arguments: flags go first") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("goadvise %s: exit %d, stdout %q, stderr %q; want exit 2, one line and no output", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

// TestMistypedFlag checks that an unknown flag is refused in one line
// with the closest flag and a pointer to -h, not the whole usage, with the
// flag package's exit status 2.
func TestMistypedFlag(t *testing.T) {
	t.Parallel() // runs no analysis
	for _, tc := range []struct {
		args      []string
		cmd, want string // the command and the first line of standard error
	}{
		{[]string{"check", "-profle", "cpu.pprof", "./..."}, "check", "flag provided but not defined: -profle (did you mean -profile?)"},
		{[]string{"-hotpath.profle=cpu.pprof", "./..."}, "check", "flag provided but not defined: -hotpath.profle (did you mean -hotpath.profile?)"},
		{[]string{"pgo", "check", "--mni-match", "80"}, "pgo check", "flag provided but not defined: -mni-match (did you mean -min-match?)"},
		{[]string{"check", "-frobnicate"}, "check", "flag provided but not defined: -frobnicate"},
		{[]string{"check", "-x"}, "check", "flag provided but not defined: -x"},
		{[]string{"pgo", "check", "-top", "many"}, "pgo check", `invalid value "many" for flag -top: parse error`},
		{[]string{"check", "-format", "sarif", "-sarif.level", "hot=error"}, "check", `invalid value "hot=error" for flag -sarif.level: unknown tier "hot" (want hot-loop, per-item, unknown, cold)`},
		// Values handed to go test are checked before any package is
		// loaded (this directory's would be, and -bench would run its
		// benchmarks).
		{[]string{"check", "-bench", ".", "-benchtime", "banana", "./..."}, "check", `invalid value "banana" for flag -benchtime: want a positive duration (100ms, 2s) or number of iterations (100x)`},
		{[]string{"check", "-bench", ".", "-bench-budget", "0", "./..."}, "check", `invalid value "0" for flag -bench-budget: want a positive duration`},
		{[]string{"check", "-verify", "-verify-benchtime", "0x", "./..."}, "check", `invalid value "0x" for flag -verify-benchtime: want a positive number of iterations, as in 100x`},
		{[]string{"check", "-verify", "-verify-count", "0", "./..."}, "check", `invalid value "0" for flag -verify-count: want at least 1`},
		{[]string{"bench", "-benchtime", "1.5x"}, "bench", `invalid value "1.5x" for flag -benchtime: want a positive number of iterations, as in 100x`},
	} {
		stdout, stderr, code := runCmd(t, ".", bin, tc.args...)
		want := "goadvise " + tc.cmd + ": " + tc.want + "\nrun 'goadvise " + tc.cmd + " -h' for the flags\n"
		if code != exitUsage || stdout != "" || stderr != want {
			t.Errorf("goadvise %s: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and\n%s", strings.Join(tc.args, " "), code, stdout, stderr, want)
		}
	}
}

// TestOutsideModule checks that a run outside any Go module says so in
// one line instead of relaying go list's error and reporting no findings
// in no packages, and that standard library patterns still work there.
func TestOutsideModule(t *testing.T) {
	t.Parallel() // one small run in its own directory
	dir := t.TempDir()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			t.Skipf("%s has a go.mod above it", dir)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	env := []string{"GOWORK=", "GOFLAGS=", "GO111MODULE="}
	want := "goadvise: " + dir + " is not inside a Go module (no go.mod): run it in a module or pass package patterns of one\n"
	for _, args := range [][]string{{}, {"check", "./..."}, {"pgo", "check", "-profile", "cpu.pprof"}, {"pgo", "explain", "-profile", "cpu.pprof", "./cmd/app"}} {
		stdout, stderr, code := runCmdEnv(t, dir, env, bin, args...)
		if code != exitError || stdout != "" || stderr != want {
			t.Errorf("goadvise %s outside a module: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(args, " "), code, stdout, stderr, want)
		}
	}
	stdout, stderr, code := runCmdEnv(t, dir, env, bin, "check", "-escape.off", "unicode/utf8")
	if code != exitOK || !strings.Contains(stdout, "in 1 package") || stderr != "" {
		t.Errorf("goadvise check unicode/utf8 outside a module: exit %d, stdout %q, stderr %q; want the standard library package checked", code, stdout, stderr)
	}
}

// TestJSONFlag checks that check -json is -format json, as go vet spells it.
func TestJSONFlag(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	stdout, stderr, code := runCmd(t, dir, bin, "check", "-all", "-json", "-enable", "deepequal", "./shop")
	var r report.Report
	if code != exitFindings || json.Unmarshal([]byte(stdout), &r) != nil || len(r.Findings) == 0 {
		t.Errorf("check -json: exit %d, stderr %q, output not a JSON report with findings:\n%s", code, stderr, stdout)
	}
	if _, stderr, code := runCmd(t, dir, bin, "check", "-all", "-json", "-format", "sarif", "./shop"); code != exitError || !strings.Contains(stderr, "cannot be used together") {
		t.Errorf("check -json -format sarif: exit %d, stderr %q", code, stderr)
	}
}

// TestNewFromRev checks that check -new-from-rev reports only the findings
// on lines changed since a revision: committed since, uncommitted, or in
// an untracked file; and that a file renamed, with git mv or not, is new
// only where it was edited.
func TestNewFromRev(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	files := map[string]string{}
	src := "testdata/fixture"
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(src, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := gittest.NewRepo(t, files)
	shop := filepath.Join(dir, "shop", "shop.go")
	store := filepath.Join(dir, "shop", "store.go")
	data, err := os.ReadFile(shop)
	if err != nil {
		t.Fatal(err)
	}
	// The file renamed without git mv, with one new DeepEqual; another in
	// an untracked file.
	if err := os.Rename(shop, store); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(store, append(data, []byte("\nfunc SameTwice(a, b Order) bool { return reflect.DeepEqual(a.Items, b.Items) }\n")...), 0o644)
	os.WriteFile(filepath.Join(dir, "shop", "more.go"), []byte("package shop\n\nimport \"reflect\"\n\nfunc SameThrice(a, b Order) bool { return reflect.DeepEqual(a.Items, b.Items) }\n"), 0o644)

	all := checkJSONIn(t, dir, "check", "-all", "-json", "-cold", "-enable", "deepequal", "./...")
	r := checkJSONIn(t, dir, "check", "-all", "-json", "-cold", "-enable", "deepequal", "-new-from-rev", "HEAD", "./...")
	var got []string
	for _, f := range r.Findings {
		got = append(got, filepath.Base(f.File)+":"+f.Function)
	}
	want := "more.go:example.com/fixture/shop.SameThrice store.go:example.com/fixture/shop.SameTwice"
	if strings.Join(got, " ") != want {
		t.Errorf("-new-from-rev HEAD: findings %v, want %s", got, want)
	}
	if r.Stats.Unchanged != len(all.Findings)-2 || r.Stats.NewFromRev != "HEAD" {
		t.Errorf("-new-from-rev HEAD: stats unchanged %d (of %d findings), rev %q", r.Stats.Unchanged, len(all.Findings), r.Stats.NewFromRev)
	}
	if _, stderr, code := runCmd(t, dir, bin, "check", "-all", "-new-from-rev", "nosuchrev", "./..."); code != exitError || !strings.Contains(stderr, "nosuchrev") {
		t.Errorf("-new-from-rev nosuchrev: exit %d, stderr %q", code, stderr)
	}
	// From the configuration file, the error names its line.
	conf := filepath.Join(dir, ".goadvise.yaml")
	os.WriteFile(conf, []byte("# CI\nnew-from-rev: nosuchrev\n"), 0o644)
	want = "goadvise: " + conf + `:2: new-from-rev: unknown git revision "nosuchrev" in ` + dir + "\n"
	if _, stderr, code := runCmd(t, dir, bin, "check", "./..."); code != exitError || stderr != want {
		t.Errorf("new-from-rev: nosuchrev in %s: exit %d, stderr %q; want exit 1 and %q", conf, code, stderr, want)
	}
	os.Remove(conf)

	// A rename alone, staged, reports nothing.
	gittest.Git(t, dir, "reset", "-q", "--hard")
	gittest.Git(t, dir, "clean", "-q", "-f")
	gittest.Git(t, dir, "mv", "shop/shop.go", "shop/store.go")
	stdout, stderr, code := runCmd(t, dir, bin, "check", "-cold", "-enable", "deepequal", "-new-from-rev", "HEAD", "./...")
	if want := fmt.Sprintf("no findings in 1 package; %d on lines not changed since HEAD not shown\n", len(all.Findings)-2); code != exitOK || stdout != want {
		t.Errorf("-new-from-rev HEAD after git mv: exit %d, output %q, stderr %q; want exit 0 and %q", code, stdout, stderr, want)
	}
}

// checkJSONIn runs goadvise with args in dir and decodes its JSON report.
func checkJSONIn(t *testing.T, dir string, args ...string) report.Report {
	t.Helper()
	stdout, stderr, code := runCmd(t, dir, bin, args...)
	var r report.Report
	if code != exitFindings && code != exitOK || json.Unmarshal([]byte(stdout), &r) != nil {
		t.Fatalf("goadvise %v: exit %d\n%s%s", args, code, stdout, stderr)
	}
	return r
}

// TestSARIFValidates runs Microsoft's SARIF validator (Sarif.Multitool
// validate, installed by scripts/install-sarif-multitool.sh) on check's
// SARIF output, with every analyzer and hidden finding, and fails on any
// error or warning it reports.
func TestSARIFValidates(t *testing.T) {
	mt := os.Getenv("GOADVISE_SARIF_MULTITOOL")
	if mt == "" {
		mt, _ = exec.LookPath("Sarif.Multitool")
	}
	if mt == "" {
		msg := "the SARIF validator is not installed (run scripts/install-sarif-multitool.sh and set GOADVISE_SARIF_MULTITOOL to the path it prints)"
		if os.Getenv("GOADVISE_REQUIRE_SARIF") != "" {
			t.Fatalf("GOADVISE_REQUIRE_SARIF is set but %s", msg)
		}
		t.Skip("skipping: " + msg)
	}
	dir := fixture(t)
	stdout, stderr, code := runCmd(t, dir, bin, "check", "-all", "-format", "sarif", "-sarif.level", "hot-loop=error", "-cold", "-heapescape.all", "./...")
	if code != exitFindings {
		t.Fatalf("check -format sarif: exit %d\n%s", code, stderr)
	}
	var levels struct {
		Runs []struct {
			Results []struct {
				Level      string `json:"level"`
				Properties struct {
					Tier string `json:"tier"`
				} `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &levels); err != nil || len(levels.Runs) != 1 {
		t.Fatalf("SARIF output does not decode: %v", err)
	}
	tiers := make(map[string]bool)
	for _, res := range levels.Runs[0].Results {
		tiers[res.Properties.Tier] = true
		if want := map[bool]string{true: "error", false: "warning"}[res.Properties.Tier == "hot-loop"]; res.Level != want {
			t.Errorf("a %s result has level %q with -sarif.level hot-loop=error, want %q", res.Properties.Tier, res.Level, want)
		}
	}
	if !tiers["hot-loop"] || len(tiers) < 2 {
		t.Errorf("the fixture's SARIF results have the tiers %v; want hot-loop and another", tiers)
	}
	log := filepath.Join(t.TempDir(), "goadvise.sarif")
	if err := os.WriteFile(log, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCmd(t, dir, mt, "validate", log, "--output", filepath.Join(t.TempDir(), "validation.sarif"), "--log", "ForceOverwrite")
	report := out + stderr
	if code != 0 || strings.Contains(report, ": warning ") || strings.Contains(report, ": error ") || !strings.Contains(report, "Analysis completed successfully") {
		t.Errorf("Sarif.Multitool validate: exit %d\n%s", code, report)
	}
}
