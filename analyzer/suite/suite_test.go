package suite

import (
	"context"
	"fmt"
	"go/ast"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/proftest"
	"github.com/goadvise/goadvise/pgo"
)

func TestGuard(t *testing.T) {
	boom := &analysis.Analyzer{
		Name: "boom",
		Doc:  "panics",
		Run: func(pass *analysis.Pass) (any, error) {
			var m map[string]int
			m["x"]++ // a nil map write panics
			return nil, nil
		},
	}
	guard(boom)
	var errs []string
	analysistest.Run(errRecorder{t, &errs}, analysistest.TestData(), boom, "p")
	if len(errs) != 1 || !strings.Contains(errs[0], "analyzer boom panicked on package p") || !strings.Contains(errs[0], "suite_test.go:") {
		t.Errorf("errors = %q; want one naming the analyzer, the package and the panic site", errs)
	}
}

// TestGuardLibraryPanic checks that a panic in a library function names
// the library's function and goadvise's code that called it.
func TestGuardLibraryPanic(t *testing.T) {
	n := -1
	boom := &analysis.Analyzer{
		Name: "libboom",
		Doc:  "panics in the standard library",
		Run: func(pass *analysis.Pass) (any, error) {
			return strings.Repeat("x", n), nil // a negative count panics
		},
	}
	guard(boom)
	var errs []string
	analysistest.Run(errRecorder{t, &errs}, analysistest.TestData(), boom, "p")
	if len(errs) != 1 || !strings.Contains(errs[0], "in strings.Repeat, called from ") || !strings.Contains(errs[0], "suite_test.go:") {
		t.Errorf("errors = %q; want one naming strings.Repeat and the test's function that called it", errs)
	}
}

// errRecorder records analysistest's errors instead of failing.
type errRecorder struct {
	*testing.T
	errs *[]string
}

func (r errRecorder) Errorf(format string, args ...any) {
	*r.errs = append(*r.errs, strings.TrimSpace(fmt.Sprintf(format, args...)))
}

func TestSelect(t *testing.T) {
	all, err := Select(nil, nil)
	if err != nil || len(all) != len(Analyzers()) {
		t.Fatalf("Select(nil, nil) = %d analyzers, %v", len(all), err)
	}
	one, err := Select([]string{"deepequal"}, nil)
	if err != nil || len(one) != 1 || one[0].Name != "deepequal" {
		t.Errorf("Select(deepequal) = %v, %v", one, err)
	}
	if _, err := Select([]string{"nosuch"}, nil); err == nil {
		t.Error("unknown analyzer accepted")
	}
	var names []string
	for _, a := range Analyzers() {
		names = append(names, a.Name)
	}
	if _, err := Select(nil, names); err == nil {
		t.Error("disabling everything accepted")
	}
}

// TestNoFacts checks that no analyzer of the suite has facts, even
// through the analyzers it requires: one that had would make go vet run
// goadvise on every dependency and make check type-check every
// dependency from source (buildssa's ctrlflow once made check 5x slower).
func TestNoFacts(t *testing.T) {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func(a *analysis.Analyzer, path string)
	visit = func(a *analysis.Analyzer, path string) {
		if seen[a] {
			return
		}
		seen[a] = true
		path += " -> " + a.Name
		if len(a.FactTypes) > 0 {
			t.Errorf("%s: %s has facts", strings.TrimPrefix(path, " -> "), a.Name)
		}
		for _, r := range a.Requires {
			visit(r, path)
		}
	}
	for _, a := range append(Analyzers(), Helpers()...) {
		visit(a, "")
	}
}

// TestHideCold checks that the suite's analyzers report what goadvise
// check shows by default, for the drivers that print every diagnostic
// (go vet, golangci-lint): no findings in cold code, and of the others
// the highest ranked of the package, at most kind.PerKLOC per 1,000
// lines (here one); and all of them when the driver's options ask for
// everything, as check's driver does.
func TestHideCold(t *testing.T) {
	tiers := &analysis.Analyzer{
		Name:     "tiers",
		Doc:      "reports one finding per tier",
		Requires: []*analysis.Analyzer{kind.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			tier := map[string]string{"Hot": "hot-loop", "Warm": "per-item", "Cold": "cold"}
			for _, f := range pass.Files {
				for _, d := range f.Decls {
					fd := d.(*ast.FuncDecl)
					kind.Report(pass, analysis.Diagnostic{Pos: fd.Pos()}, kind.Fields{
						Kind: testKind, Tier: tier[fd.Name.Name], Text: strings.ToLower(fd.Name.Name) + " finding"})
				}
			}
			return nil, nil
		},
	}
	analysistest.Run(t, analysistest.TestData(), hideCold(tiers, Options{}), "tiers")
	analysistest.Run(t, analysistest.TestData(), hideCold(tiers, Options{Visibility: Everything}), "tiersall")
}

const testKind kind.ID = "tiers/test"

func init() {
	kind.Register(kind.Kind{ID: testKind, Title: "a test finding", Doc: "A finding of TestHideCold.", Scoring: kind.ScoreFlat, CostNS: 10, Rewrite: true})
}

// TestReadOnce checks that an analyzer of the suite reads each file of
// its pass once, however often it asks for it, and still gets errors for
// files that are not the package's.
func TestReadOnce(t *testing.T) {
	reads := 0
	var errs []string
	reader := &analysis.Analyzer{
		Name: "reader",
		Doc:  "reads its files many times",
		Run: func(pass *analysis.Pass) (any, error) {
			for _, f := range pass.Files {
				name := pass.Fset.File(f.FileStart).Name()
				first, err := pass.ReadFile(name)
				if err != nil {
					return nil, err
				}
				for range 100 {
					again, err := pass.ReadFile(name)
					if err != nil || &again[0] != &first[0] {
						errs = append(errs, fmt.Sprintf("%s read again: %v", name, err))
						break
					}
				}
				reads++
			}
			if _, err := pass.ReadFile("/etc/passwd"); err == nil {
				errs = append(errs, "a file outside the package was read")
			}
			return nil, nil
		},
	}
	readOnce(reader)
	analysistest.Run(t, analysistest.TestData(), reader, "p")
	if reads == 0 || len(errs) > 0 {
		t.Errorf("%d files read; %q", reads, errs)
	}
}

// TestConfigure checks that a driver's options reach the suite's
// analyzers: the profile decides their tiers (Setup, never sampled, is
// cold; Same, sampled, is hot), and the visibility which findings they
// report (the cold one only with Cold). The analyzers as Analyzers
// returns them, and hotpath's own state, are left as they were.
func TestConfigure(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.pprof")
	proftest.WriteCPU(t, prof, "configured.Same", "configuredall.Same", "configured.Gen")
	hot, err := pgo.LoadHotness(context.Background(), []string{prof}, pgo.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deq, err := Select([]string{"deepequal"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cut := Configure(deq, Options{Profile: hot})
	all := Configure(deq, Options{Profile: hot, Visibility: Everything})
	if cut[0] == deq[0] || all[0] == deq[0] || cut[0].Name != "deepequal" {
		t.Fatalf("Configure returned the analyzer it was given")
	}
	analysistest.Run(t, analysistest.TestData(), cut[0], "configured")
	analysistest.Run(t, analysistest.TestData(), all[0], "configuredall")
	// Configured or not, analyzers that are not the suite's are kept.
	if other := Configure([]*analysis.Analyzer{hotpath.Analyzer}, Options{}); other[0] != hotpath.Analyzer {
		t.Errorf("Configure replaced an analyzer not of the suite")
	}
	if v := (Visibility{}).Of(deq[0]); v.Cold || v.All {
		t.Errorf("the default visibility of deepequal is %+v after Configure, want none", v)
	}
}
