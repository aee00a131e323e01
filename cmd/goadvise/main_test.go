package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/internal/toolexec"
	"github.com/goadvise/goadvise/report"
)

// bin is the goadvise binary built for the end-to-end tests.
var bin string

func TestMain(m *testing.M) {
	if helper := os.Getenv(helperEnv); helper != "" {
		// The test binary runs as goadvise, changed for a test (see
		// signal_test.go).
		toolexec.Serve()
		os.Exit(runHelper(helper, os.Args[1:]))
	}
	dir, err := os.MkdirTemp("", "goadvise-e2e-")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "goadvise")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		panic("building goadvise: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fixture copies testdata/fixture into a fresh directory and returns it.
func fixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS("testdata/fixture")); err != nil {
		t.Fatal(err)
	}
	return dst
}

// runCmd runs a command in dir and returns its stdout, stderr and exit code.
func runCmd(t *testing.T, dir string, name string, args ...string) (string, string, int) {
	t.Helper()
	return runCmdEnv(t, dir, nil, name, args...)
}

// runCmdEnv is runCmd with extra environment variables.
func runCmdEnv(t *testing.T, dir string, env []string, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return stdout.String(), stderr.String(), code
}

// The fixture's expected deepequal findings, as line:column.
var wantFixture = []string{"24:9", "31:15", "41:9", "46:9"}

func TestVetTool(t *testing.T) {
	dir := fixture(t)
	// Escapes that are heapescape's own: fmt boxing in a loop, and the
	// boxing for a DeepEqual that deepequal has no replacement for, in
	// cold code.
	os.WriteFile(filepath.Join(dir, "shop", "labels.go"), []byte(`package shop

import (
	"fmt"
	"reflect"
)

// Labels names each item.
func Labels(items []Item) []string {
	out := make([]string, 0, len(items))
	for i, it := range items {
		out = append(out, fmt.Sprintf("%d:%s", i, it.SKU))
	}
	return out
}

// A link holds a pointer: no direct comparison means what DeepEqual means.
type link struct {
	next *link
	n    int
}

// Only init compares links: cold code.
func init() { _ = sameLink(link{}, link{}) }

func sameLink(a, b link) bool {
	return reflect.DeepEqual(a, b)
}
`), 0o644)
	_, stderr, code := runCmd(t, dir, "go", "vet", "-vettool="+bin, "-hotpath.all", "./...")
	if code != 1 {
		t.Fatalf("go vet -vettool exit code %d, want 1 (diagnostics)\n%s", code, stderr)
	}
	// Every DeepEqual is printed: Dedup's is in a loop, the others are
	// exported API, about which nothing says how often it runs (go vet
	// sees one package at a time).
	for _, pos := range wantFixture {
		tier := `\[unknown: exported: how often its callers run it is not known\]`
		if pos == "31:15" {
			tier = `\[hot-loop: inside a loop\]`
		}
		re := regexp.MustCompile(`(?m)^shop/shop.go:` + pos + `: reflect.DeepEqual on .*` + tier + `$`)
		if !re.MatchString(stderr) {
			t.Errorf("go vet output: no finding at shop/shop.go:%s ending in %s\n%s", pos, tier, stderr)
		}
	}
	// heapescape gets the compiler's decisions for the vet unit: the
	// make in Labels escapes by being returned; sameLink's boxing is cold
	// code, shown only with -heapescape.cold. The boxing of the
	// DeepEqual calls that deepequal reports, and of the fmt.Sprintf
	// arguments in Labels' loop that idiom rewrites, is part of those
	// findings: not reported again.
	if !regexp.MustCompile(`(?m)^shop/labels.go:10:\d+: make\(\[\]string, 0, len\(items\)\) escapes to heap because it is returned`).MatchString(stderr) {
		t.Errorf("go vet output lacks the compiler's escape of Labels' make:\n%s", stderr)
	}
	if !regexp.MustCompile(`(?m)^shop/labels.go:12:21: fmt.Sprintf only concatenates .*; write strconv.Itoa\(i\) \+ ":" \+ it.SKU`).MatchString(stderr) ||
		regexp.MustCompile(`(?m)^shop/labels.go:12:\d+: .* escapes to heap because it is converted to an interface`).MatchString(stderr) {
		t.Errorf("go vet output: want idiom's rewrite of Labels' fmt.Sprintf, and not heapescape's escape of its arguments:\n%s", stderr)
	}
	if strings.Contains(stderr, "shop/labels.go:24:27:") || strings.Contains(stderr, "shop/labels.go:27:27:") || strings.Contains(stderr, "shop/shop.go:31:33:") {
		t.Errorf("go vet reported a cold escape without -heapescape.cold, or the boxing of a DeepEqual that deepequal reports:\n%s", stderr)
	}
	// Without -hotpath.all, each analyzer reports the highest ranked of
	// the package: in this small one (3 per 1,000 lines), one DeepEqual,
	// the one in a loop.
	if _, top, _ := runCmd(t, dir, "go", "vet", "-vettool="+bin, "-deepequal", "./..."); strings.Count(top, "reflect.DeepEqual on") != 1 || !strings.Contains(top, "shop/shop.go:31:15: reflect.DeepEqual on Item") {
		t.Errorf("go vet without -hotpath.all: want only the DeepEqual in a loop, at shop/shop.go:31:15:\n%s", top)
	}
	// sameLink is inlined at its one call, in init; the change its
	// boxing asks for (a comparison written for the type) is made in its
	// body, where it is reported, once, and not at the call.
	if _, cold, _ := runCmd(t, dir, "go", "vet", "-vettool="+bin, "-hotpath.all", "-heapescape.cold", "./..."); !strings.Contains(cold, "shop/labels.go:27:27: a escapes to heap because it is converted to an interface to be passed to reflect.DeepEqual; compare with a function written for the type") ||
		strings.Contains(cold, "shop/labels.go:24:") || strings.Contains(cold, "shop/shop.go:24:28:") {
		t.Errorf("go vet -heapescape.cold: want sameLink's boxing in its body, shop/labels.go:27:27, not where init inlines it, and not SameItems' at shop/shop.go:24:28 (deepequal reports that call):\n%s", cold)
	}
	if strings.Contains(stderr, "shop.go:51") {
		t.Errorf("go vet reported the DeepEqual on interfaces (line 51):\n%s", stderr)
	}

	// -json: diagnostics as JSON, exit status 0; -hotpath.cold prints
	// the findings in cold code too.
	stdout, stderr, code := runCmd(t, dir, "go", "vet", "-vettool="+bin, "-json", "-hotpath.all", "-hotpath.cold", "./...")
	if code != 0 {
		t.Fatalf("go vet -json exit code %d\n%s", code, stderr)
	}
	out := stdout + stderr
	start := strings.Index(out, "{")
	var tree map[string]map[string][]struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	}
	if start < 0 || json.NewDecoder(strings.NewReader(out[start:])).Decode(&tree) != nil {
		t.Fatalf("go vet -json output does not hold a JSON object:\n%s", out)
	}
	if got := len(tree["example.com/fixture/shop"]["deepequal"]); got != len(wantFixture) {
		t.Errorf("go vet -json: %d deepequal diagnostics, want %d\n%s", got, len(wantFixture), out)
	}
}

// TestVetToolTempFiles runs go vet -vettool with the escape analyzer's
// data needed, turned off, and not needed (only redundantbranch
// selected): the unit is compiled only in the first case, so no run
// leaves a compile behind it, its log directory in TMPDIR above all.
func TestVetToolTempFiles(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := vetProfileModule(t)
	for _, flags := range [][]string{nil, {"-escape.off"}, {"-redundantbranch"}} {
		tmp := t.TempDir()
		args := append(append([]string{"vet", "-vettool=" + bin, "-hotpath.all"}, flags...), "./...")
		_, stderr, code := runCmdEnv(t, dir, []string{"TMPDIR=" + tmp, "GOADVISE_CACHE=" + t.TempDir()}, "go", args...)
		if code != 1 || !strings.Contains(stderr, "both branches of this if do the same thing") {
			t.Fatalf("go vet -vettool %v: exit code %d, want 1 with redundantbranch's findings\n%s", flags, code, stderr)
		}
		left, _ := filepath.Glob(filepath.Join(tmp, "goadvise-*"))
		if len(left) > 0 {
			t.Errorf("go vet -vettool %v left %s", flags, left)
		}
	}
}

func TestCheckJSON(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	stdout, stderr, code := runCmd(t, dir, bin, "check", "-all", "-cold", "-format", "json", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\n%s", code, exitFindings, stderr)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if r.Stats.Findings != len(r.Findings) || r.Stats.Packages != 1 || r.Stats.ByAnalyzer["deepequal"] != len(wantFixture) {
		t.Fatalf("got %d findings, stats %+v; want %d deepequal findings\n%s", len(r.Findings), r.Stats, len(wantFixture), stdout)
	}
	// The compiler's escapes of DeepEqual's arguments are part of the
	// deepequal findings (they go away with the fix): one problem, one
	// finding.
	deq := make(map[int]bool)
	for _, f := range r.Findings {
		if f.Analyzer == "deepequal" {
			deq[f.Line] = true
		}
	}
	for _, f := range r.Findings {
		if f.Analyzer == "heapescape" && deq[f.Line] {
			t.Errorf("an escape of DeepEqual's arguments is reported apart from the deepequal finding: %s:%d: %s", f.File, f.Line, f.Message)
		}
	}
	got := map[string]report.Finding{}
	for i, f := range r.Findings {
		if f.Rank != i+1 {
			t.Errorf("finding %d has rank %d", i, f.Rank)
		}
		if !filepath.IsAbs(f.File) || f.Package != "example.com/fixture/shop" || f.Function == "" {
			t.Errorf("finding %d: bad location fields: %+v", i, f)
		}
		if f.Analyzer == "deepequal" {
			got[fmt.Sprintf("%d:%d", f.Line, f.Column)] = f
		}
	}
	for _, pos := range wantFixture {
		if _, ok := got[pos]; !ok {
			t.Errorf("no finding at %s", pos)
		}
	}
	// The loop in Dedup makes its findings the hottest.
	if f := r.Findings[0]; f.Function != "example.com/fixture/shop.Dedup" || f.Tier != "hot-loop" {
		t.Errorf("first finding = %s (%s), want the hot loop in shop.Dedup", f.Function, f.Tier)
	}
	// Each fix's edits are byte offsets that reproduce the suggested text.
	f := got["24:9"]
	src, err := os.ReadFile(f.File)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Fixes) != 1 {
		t.Fatalf("finding at 24:9 has %d fixes", len(f.Fixes))
	}
	var replaced bool
	for _, e := range f.Fixes[0].Edits {
		if string(src[e.Start:e.End]) == "reflect.DeepEqual(a.Items, b.Items)" && e.New == "slices.Equal(a.Items, b.Items)" {
			replaced = true
		}
	}
	if !replaced {
		t.Errorf("fix edits do not replace the call with slices.Equal: %+v", f.Fixes[0].Edits)
	}
}

func TestCheckSARIF(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	stdout, stderr, code := runCmd(t, dir, bin, "check", "-all", "-cold", "-format", "sarif", "-enable", "deepequal", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID   string `json:"id"`
						Help struct {
							Text string `json:"text"`
						} `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Properties map[string]any `json:"properties"`
			} `json:"results"`
			OriginalURIBaseIDs map[string]struct {
				URI string `json:"uri"`
			} `json:"originalUriBaseIds"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 {
		t.Fatalf("not a SARIF 2.1.0 log with one run: version %q schema %q runs %d", log.Version, log.Schema, len(log.Runs))
	}
	sr := log.Runs[0]
	if sr.Tool.Driver.Name != "goadvise" {
		t.Errorf("driver name %q", sr.Tool.Driver.Name)
	}
	rules := map[string]int{}
	for i, r := range sr.Tool.Driver.Rules {
		rules[r.ID] = i
		if r.Help.Text == "" {
			t.Errorf("rule %s has no help text", r.ID)
		}
	}
	if _, ok := rules["deepequal/direct-compare"]; !ok {
		t.Fatalf("no rule for deepequal's kind: %+v", sr.Tool.Driver.Rules)
	}
	if len(sr.Results) != len(wantFixture) {
		t.Fatalf("%d results, want %d", len(sr.Results), len(wantFixture))
	}
	if base := sr.OriginalURIBaseIDs["%SRCROOT%"].URI; !strings.HasPrefix(base, "file:///") || !strings.HasSuffix(base, "/") {
		t.Errorf("%%SRCROOT%% = %q, want a file:// directory URI", base)
	}
	for _, r := range sr.Results {
		loc := r.Locations[0].PhysicalLocation
		if r.RuleIndex != rules[r.RuleID] || loc.ArtifactLocation.URI != "shop/shop.go" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartLine == 0 {
			t.Errorf("bad result: %+v", r)
		}
		if r.Level != "error" && r.Level != "warning" && r.Level != "note" {
			t.Errorf("bad level %q", r.Level)
		}
		if r.Properties["rank"] == nil || r.Properties["tier"] == nil {
			t.Errorf("result lacks rank/tier properties: %v", r.Properties)
		}
	}
	// Every tier is a warning by default, which code scanning does not
	// fail on (-sarif.level changes it: TestSARIFValidates).
	if sr.Results[0].Properties["tier"] != "hot-loop" || sr.Results[0].Level != "warning" {
		t.Errorf("first finding: tier %v, level %q; want a hot-loop warning", sr.Results[0].Properties["tier"], sr.Results[0].Level)
	}
}

func TestCheckFix(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	orig, _ := os.ReadFile(filepath.Join(dir, "shop/shop.go"))

	// -diff prints the change and leaves the file alone.
	stdout, stderr, code := runCmd(t, dir, bin, "check", "-all", "-cold", "-enable", "deepequal", "-diff", "./...")
	if code != exitFindings {
		t.Fatalf("-diff exit code %d\n%s", code, stderr)
	}
	for _, want := range []string{"--- a/shop/shop.go", "+++ b/shop/shop.go", "+\treturn slices.Equal(a.Items, b.Items)", "+\t\tif i > 0 && it == items[i-1] {", `+	"slices"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-diff output lacks %q:\n%s", want, stdout)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "shop/shop.go")); !bytes.Equal(now, orig) {
		t.Fatal("-diff modified the file")
	}

	// -fix rewrites the files; the result builds, vets and passes its tests,
	// and a second check finds nothing left to fix.
	_, stderr, code = runCmd(t, dir, bin, "check", "-all", "-cold", "-enable", "deepequal", "-fix", "./...")
	if code != exitOK {
		t.Fatalf("-fix exit code %d\n%s", code, stderr)
	}
	fixed, _ := os.ReadFile(filepath.Join(dir, "shop/shop.go"))
	if bytes.Equal(fixed, orig) {
		t.Fatal("-fix left the file unchanged")
	}
	if out, _, code := runCmd(t, dir, "gofmt", "-l", "."); code != 0 || out != "" {
		t.Errorf("fixed files are not gofmt clean: %s", out)
	}
	if _, stderr, code := runCmd(t, dir, "go", "vet", "./..."); code != 0 {
		t.Fatalf("go vet of the fixed fixture failed:\n%s", stderr)
	}
	if out, stderr, code := runCmd(t, dir, "go", "test", "./..."); code != 0 {
		t.Fatalf("tests of the fixed fixture failed:\n%s%s", out, stderr)
	}
	stdout, _, code = runCmd(t, dir, bin, "check", "-all", "-cold", "-enable", "deepequal", "./...")
	if code != exitOK {
		t.Errorf("after -fix, check exit code %d, want 0:\n%s", code, stdout)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "shop"))
	for _, e := range entries {
		if strings.Contains(e.Name(), "goadvise") {
			t.Errorf("-fix left a temporary file: %s", e.Name())
		}
	}
}

func TestCheckErrors(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	if err := os.MkdirAll(filepath.Join(dir, "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "broken/broken.go"), []byte("package broken\n\nfunc F() int { return \"x\" }\n"), 0o644)

	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown format", []string{"check", "-format", "xml", "./shop"}, exitError, `unknown -format "xml"`},
		{"unknown analyzer", []string{"check", "-enable", "nosuch", "./shop"}, exitError, `unknown analyzer "nosuch"`},
		{"type error", []string{"check", "./..."}, exitError, "package example.com/fixture/broken:"},
		{"no package", []string{"check", "./nosuch"}, exitError, "nosuch"},
		{"unknown command", []string{"frobnicate"}, exitError, `unknown command "frobnicate"`},
		{"disabled", []string{"check", "-disable", allNames(), "./shop"}, exitError, "no analyzers left"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCmd(t, dir, bin, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("goadvise %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.want)
			}
			if strings.Contains(stderr, "panic") {
				t.Errorf("goadvise %v panicked:\n%s", tc.args, stderr)
			}
		})
	}
	// The healthy package is still analysed next to the broken one.
	stdout, _, _ := runCmd(t, dir, bin, "check", "-all", "-cold", "./...")
	if !strings.Contains(stdout, "shop/shop.go:24:9") {
		t.Errorf("findings of the healthy package are missing when another fails to load:\n%s", stdout)
	}
	// The summary counts the package that failed apart from those analysed.
	if !strings.Contains(stdout, "; 1 package failed to load and was not analysed") {
		t.Errorf("summary does not count the package that failed to load:\n%s", stdout)
	}
	stdout, _, _ = runCmd(t, dir, bin, "check", "-all", "./broken")
	if !strings.Contains(stdout, "no findings in 0 packages; 1 package failed to load") {
		t.Errorf("check of a package that fails to load:\n%s", stdout)
	}
}

// TestCheckMissingDependency checks that a package whose dependency does
// not load (here a replace directive names a directory that is not there,
// as in etcd's server module outside its repository) fails to load, with
// the reason, instead of being analysed as if it had no code: go list
// neither compiles it nor lists its compiled files.
func TestCheckMissingDependency(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "\nrequire example.com/missing v0.0.0\n\nreplace example.com/missing => ../missing\n"...)
	if err := os.WriteFile(gomod, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "deps"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package deps\n\nimport \"example.com/missing/x\"\n\nfunc F() int { return x.N }\n"
	if err := os.WriteFile(filepath.Join(dir, "deps/deps.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCmd(t, dir, bin, "check", "-all", "./deps")
	if code != exitError || !strings.Contains(stderr, "package example.com/fixture/deps: deps/deps.go:3:8: example.com/missing@v0.0.0: replacement directory ../missing does not exist") {
		t.Errorf("check of a package whose dependency is missing: exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "no findings in 0 packages; 1 package failed to load") {
		t.Errorf("the summary does not count the package as failed:\n%s", stdout)
	}
	// With -tests (loaded by go/packages), the error says why the import
	// does not load, not only that the type checker could not import it.
	_, stderr, code = runCmd(t, dir, bin, "check", "-all", "-tests", "./deps")
	if code != exitError || !strings.Contains(stderr, "package example.com/fixture/deps: imports example.com/missing/x: example.com/missing@v0.0.0: replacement directory ../missing does not exist") {
		t.Errorf("check -tests of a package whose dependency is missing: exit %d, stderr %q", code, stderr)
	}
}

// allNames lists the names of every analyzer in the suite, comma-separated.
func allNames() string {
	var names []string
	for _, a := range suite.Analyzers() {
		names = append(names, a.Name)
	}
	return strings.Join(names, ",")
}

func TestHelpAndVersion(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	stdout, _, code := runCmd(t, ".", bin, "help")
	if code != 0 || !strings.Contains(stdout, "deepequal") || !strings.Contains(stdout, "check") || !strings.Contains(stdout, "loopalloc") {
		t.Errorf("help: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCmd(t, ".", bin, "help", "deepequal")
	if code != 0 || !strings.Contains(stdout, "bytes.Equal") {
		t.Errorf("help deepequal: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCmd(t, ".", bin, "version")
	if code != 0 || !strings.HasPrefix(stdout, "goadvise ") {
		t.Errorf("version: exit %d\n%s", code, stdout)
	}
}

// TestOutputFile checks -o: the report is written whole, with the
// permissions the umask leaves (0644 under 022, 0600 under 077), and an
// existing report is replaced, as go build -o replaces its output.
func TestOutputFile(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := fixture(t)
	out := filepath.Join(t.TempDir(), "report.html")
	// sh sets the umask of the goadvise it runs.
	withUmask := func(umask string, args ...string) {
		t.Helper()
		_, stderr, code := runCmd(t, dir, "sh", append([]string{"-c", "umask " + umask + ` && exec "$0" "$@"`, bin}, args...)...)
		if code != exitFindings {
			t.Fatalf("check -o: exit %d\n%s", code, stderr)
		}
	}
	withUmask("022", "check", "-all", "-enable", "deepequal", "-format", "html", "-o", out, "./...")
	data, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(data), "<!DOCTYPE html>") || !strings.Contains(string(data), "</html>") {
		t.Fatalf("report file: %v\n%.200s", err, data)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o644 {
		t.Errorf("report file mode %v under umask 022, want 0644", fi.Mode().Perm())
	}
	withUmask("077", "check", "-all", "-enable", "deepequal", "-format", "json", "-o", out, "./...")
	if now, _ := os.ReadFile(out); !strings.HasPrefix(string(now), "{") {
		t.Errorf("the existing report was not replaced:\n%.200s", now)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o600 {
		t.Errorf("report file mode %v under umask 077, want 0600", fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 1 {
		t.Errorf("temporary files left beside the report: %v", ents)
	}
}
