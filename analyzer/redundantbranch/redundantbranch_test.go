package redundantbranch_test

import (
	"bytes"
	"flag"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/internal/fixtest"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/analyzer/redundantbranch"
)

var update = flag.Bool("update", false, "rewrite the .golden files from the analyzer's fixes")

var packages = []string{"a", "fix", "gen", "comments"}

// setFlag sets one of the analyzer's flags for the rest of the test.
func setFlag(t *testing.T, name, value string) {
	t.Helper()
	old := redundantbranch.Analyzer.Flags.Lookup(name).Value.String()
	if err := redundantbranch.Analyzer.Flags.Set(name, value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { redundantbranch.Analyzer.Flags.Set(name, old) })
}

// The fixtures a and fix pin the findings that use err == nil too, which
// -nilfacts turns on.
func TestAnalyzer(t *testing.T) {
	setFlag(t, "nilfacts", "true")
	setFlag(t, "all", "true")
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), redundantbranch.Analyzer, packages...)
}

// TestNoFixSaysWhy checks that every finding without a fix says in its
// message why there is none, and that no finding with a fix says so.
func TestNoFixSaysWhy(t *testing.T) {
	setFlag(t, "nilfacts", "true")
	setFlag(t, "all", "true")
	fixtest.SaysWhy(t, analysistest.Run(fixtest.IgnoreWants{}, analysistest.TestData(), redundantbranch.Analyzer, packages...))
}

// TestGoldenExact applies the suggested fixes without reformatting and
// checks that the result is byte for byte the golden file, that the golden
// file is gofmt-clean, and that it type-checks.
func TestGoldenExact(t *testing.T) {
	setFlag(t, "nilfacts", "true")
	setFlag(t, "all", "true")
	results := analysistest.Run(t, analysistest.TestData(), redundantbranch.Analyzer, packages...)
	type edit struct {
		start, end int
		text       string
	}
	edits := make(map[string][]edit)
	for _, r := range results {
		for _, d := range r.Diagnostics {
			f, _ := kind.Of(r.Pass, d)
			tier, class := f.Tier, f.Class
			switch tier {
			case "cold", "unknown", "per-item", "hot-loop":
			default:
				t.Errorf("%s: tier %q is not a hot-path tier", r.Pass.Fset.Position(d.Pos), tier)
			}
			if k := kind.ID(d.Category); k != f.Kind || k.Analyzer() != "redundantbranch" {
				t.Errorf("%s: category %q is not the finding's kind %q", r.Pass.Fset.Position(d.Pos), d.Category, f.Kind)
			}
			if class != "" && class != "negligible" {
				t.Errorf("%s: class %q is unknown", r.Pass.Fset.Position(d.Pos), class)
			}
			if !strings.Contains(d.Message, " ["+tier) || !strings.HasSuffix(d.Message, "]") {
				t.Errorf("%s: message does not end with its tier: %s", r.Pass.Fset.Position(d.Pos), d.Message)
			}
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					file := r.Pass.Fset.File(e.Pos)
					edits[file.Name()] = append(edits[file.Name()], edit{file.Offset(e.Pos), file.Offset(e.End), string(e.NewText)})
				}
			}
		}
	}
	for _, pkg := range packages {
		files, _ := filepath.Glob(filepath.Join(analysistest.TestData(), "src", pkg, "*.go"))
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			es := edits[name]
			sort.Slice(es, func(i, j int) bool { return es[i].start > es[j].start })
			fixed := src
			for i, e := range es {
				if i > 0 && e.end > es[i-1].start {
					t.Fatalf("%s: overlapping edits", name)
				}
				fixed = append(append(append([]byte(nil), fixed[:e.start]...), e.text...), fixed[e.end:]...)
			}
			golden := name + ".golden"
			if len(es) == 0 {
				golden = name
			} else if *update {
				if err := os.WriteFile(golden, fixed, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(fixed, want) {
				t.Errorf("%s: fixes applied verbatim differ from %s:\n%s", name, golden, fixed)
			}
			if formatted, err := format.Source(want); err != nil || !bytes.Equal(formatted, want) {
				t.Errorf("%s is not gofmt-clean (err=%v)", golden, err)
			}
			f, err := parser.ParseFile(fset, strings.TrimSuffix(golden, ".golden"), want, 0)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, f)
		}
		conf := types.Config{Importer: importer.Default()}
		if _, err := conf.Check(pkg, fset, parsed, nil); err != nil {
			t.Errorf("fixed package %s does not type-check: %v", pkg, err)
		}
	}
}

// TestFlags checks that -nilfacts is off by default and that
// -mergecases=false turns off its findings (package flags has no want
// comments for them).
func TestFlags(t *testing.T) {
	setFlag(t, "mergecases", "false")
	setFlag(t, "all", "true")
	analysistest.Run(t, analysistest.TestData(), redundantbranch.Analyzer, "flags")
}

// TestNegligible checks that every redundant branch is reported, those
// whose removal saves only a compare (no pure call or map lookup in the
// condition) in the class "negligible", which ranks them low.
func TestNegligible(t *testing.T) {
	got := make(map[int]string)
	for _, r := range analysistest.Run(fixtest.IgnoreWants{}, analysistest.TestData(), redundantbranch.Analyzer, "cost") {
		for _, d := range r.Diagnostics {
			f, _ := kind.Of(r.Pass, d)
			got[r.Pass.Fset.Position(d.Pos).Line] = f.Class
		}
	}
	want := map[int]string{20: "negligible", 32: "", 40: "", 48: "negligible"}
	if !maps.Equal(got, want) {
		t.Errorf("classes by line: got %v, want %v", got, want)
	}
}
