package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/report"
)

// TestCheckConfig runs check on the fixture with a .goadvise.yaml at the
// top of its repository, above the module: the file is found, its exclude
// drops the findings of a generated copy of the fixture's package, its
// sarif-levels give the SARIF levels, flags override it (-config prints
// the merge), and a mistyped key is a one-line error naming the file and
// line.
func TestCheckConfig(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(repo, "svc")
	if err := os.CopyFS(dir, os.DirFS("testdata/fixture")); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "shop/shop.go"))
	if err != nil {
		t.Fatal(err)
	}
	gen := strings.Replace(string(src), "package shop", "package gen", 1)
	if err := os.MkdirAll(filepath.Join(dir, "internal/gen"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "internal/gen/gen.go"), []byte(gen), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(repo, ".goadvise.yaml")
	writeConf := func(data string) {
		t.Helper()
		if err := os.WriteFile(conf, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeConf("enable: [deepequal]\nexclude: [svc/internal/gen/**]\nsarif-levels:\n  hot-loop: note\n")

	stdout, stderr, code := runCmd(t, dir, bin, "check", "-all", "-cold", "-format", "json", "./...")
	if code != exitFindings {
		t.Fatalf("check: exit %d, want %d\n%s", code, exitFindings, stderr)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if r.Stats.Excluded != len(wantFixture) || len(r.Findings) != len(wantFixture) || r.Stats.ByAnalyzer["deepequal"] != len(wantFixture) {
		t.Errorf("with exclude: %d findings, stats %+v; want the %d deepequal findings of shop, and %[3]d excluded", len(r.Findings), r.Stats, len(wantFixture))
	}
	for _, f := range r.Findings {
		if f.Package != "example.com/fixture/shop" || f.Analyzer != "deepequal" {
			t.Errorf("finding of %s in %s, want only deepequal's in shop (enable, exclude)", f.Analyzer, f.Package)
		}
	}

	stdout, stderr, code = runCmd(t, dir, bin, "check", "-all", "-cold", "-format", "sarif", "./...")
	if code != exitFindings {
		t.Fatalf("check -format sarif: exit %d\n%s", code, stderr)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Level      string         `json:"level"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("not SARIF: %v", err)
	}
	hot := 0
	for _, res := range log.Runs[0].Results {
		if res.Properties["tier"] == "hot-loop" {
			hot++
			if res.Level != "note" {
				t.Errorf("hot-loop result of level %q, want note (sarif-levels)", res.Level)
			}
		}
	}
	if hot == 0 {
		t.Errorf("no hot-loop result in the SARIF log")
	}

	// Flags override the file, key by key; -config prints the merge.
	stdout, stderr, code = runCmd(t, dir, bin, "check", "-config", "-enable", "heapescape,deepequal", "-heapescape.all=false")
	want := "# goadvise check's configuration: " + conf + " and the command line\n" +
		"enable: [heapescape, deepequal]\n" +
		"disable: []\n" +
		"analyzers:\n" +
		"  heapescape:\n" +
		"    all: false\n" +
		"exclude: [svc/internal/gen/**]\n" +
		"sarif-levels:\n" +
		"  hot-loop: note\n"
	if code != exitOK || stderr != "" || !strings.HasPrefix(stdout, want) {
		t.Errorf("check -config: exit %d, stderr %q, output:\n%s\nwant exit 0 and output starting:\n%s", code, stderr, stdout, want)
	}

	writeConf("enable: [deepequal]\nexlude: [svc/internal/gen/**]\n")
	stdout, stderr, code = runCmd(t, dir, bin, "check", "-all", "./...")
	wantErr := "goadvise: " + conf + `:2: unknown key "exlude" (known: enable, disable, analyzers, exclude, sarif-levels, new-from-rev)` + "\n"
	if code != exitError || stdout != "" || stderr != wantErr {
		t.Errorf("check with a mistyped key: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, stdout, stderr, wantErr)
	}
}
