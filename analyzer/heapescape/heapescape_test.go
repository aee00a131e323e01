package heapescape_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/heapescape"
	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/kind"
)

// run runs heapescape on the fixture module dir with the analyzer's flags
// set to flags (name, value pairs), restoring the defaults after. The
// Analyzer gets the compiler's decisions by building the fixture (the
// escape fallback path), so the expectations are the compiler's real
// decisions.
func run(t *testing.T, dir string, flags ...string) []*analysistest.Result {
	t.Helper()
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	for i := 0; i+1 < len(flags); i += 2 {
		f := heapescape.Analyzer.Flags.Lookup(flags[i])
		def := f.DefValue
		if err := f.Value.Set(flags[i+1]); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Value.Set(def) })
	}
	a := rewrites
	for i := 0; i+1 < len(flags); i += 2 {
		if flags[i] == "all" && flags[i+1] == "true" {
			a = heapescape.Analyzer
		}
	}
	return analysistest.Run(t, filepath.Join(analysistest.TestData(), "src", dir), a, "./...")
}

// rewrites is heapescape reporting only the findings that advise a
// rewrite: the fixtures of each rewrite kind state those, and leave the
// allocations that no rewrite removes (whose findings TestInherent
// checks, with "all" set) unannotated.
var rewrites = func() *analysis.Analyzer {
	a := *heapescape.Analyzer
	a.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			if k := kind.ID(d.Category); k != heapescape.NoRewrite && k != heapescape.Inherent {
				report(d)
			}
		}
		return heapescape.Analyzer.Run(pass)
	}
	return &a
}()

// TestAnalyzer checks the avoidable allocations of each fix kind: with
// -all=false (the default) inherent ones are not reported.
func TestAnalyzer(t *testing.T) {
	run(t, "a", "cold", "true")
}

// TestAdvice checks that the advice fits the type (locks, noCopy, atomic
// values, size), the callee (interface method calls through io.ReadFull),
// allocations inlined from other packages, error paths and
// reflect.DeepEqual arguments; inherent allocations are not reported.
func TestAdvice(t *testing.T) {
	results := run(t, "advice", "cold", "true")
	// The buffered reader and the reader over data in memory go with one
	// change: their findings share a Group, which report.Merge folds
	// into one.
	groups := make(map[int][]string) // line -> groups of its in-memory reader findings
	narrow := make(map[string]bool)  // position -> API of a narrow-result finding
	for _, r := range results {
		col := r.Pass.ResultOf[kind.Analyzer].(*kind.Collector)
		for _, d := range r.Diagnostics {
			f, _ := col.Lookup(d)
			if f.Kind == heapescape.InMemoryReader && f.Group != "" {
				line := r.Pass.Fset.Position(d.Pos).Line
				groups[line] = append(groups[line], f.Group)
			}
			if f.Kind == heapescape.NarrowResult {
				narrow[r.Pass.Fset.Position(d.Pos).String()] = f.API
			}
		}
	}
	// A method added to MsgStore, exported, changes the API; one added
	// to msgLoader does not.
	apis := make(map[bool]int)
	for _, api := range narrow {
		apis[api]++
	}
	if len(narrow) != 2 || apis[true] != 1 {
		t.Errorf("narrow-result findings' API: %v, want one with and one without", narrow)
	}
	if len(groups) == 0 {
		t.Fatal("no in-memory reader findings")
	}
	for line, gs := range groups {
		if len(gs) < 2 || slices.ContainsFunc(gs, func(g string) bool { return g != gs[0] }) {
			t.Errorf("line %d: in-memory reader findings with groups %q, want the reader's and the buffered reader's in one", line, gs)
		}
	}
}

// TestHotOnly checks that by default findings in cold code and on error
// paths are not reported.
func TestHotOnly(t *testing.T) {
	run(t, "hot")
}

// TestShapes checks that the advice follows from what the code around each
// allocation does: hoisting only values that do not outlive the iteration,
// preallocating only slices whose final size is known, nothing for lazy or
// grow-on-demand allocation, for a constructor's or a parser's product, for
// calls that must run per item, or for conversions that do not allocate.
func TestShapes(t *testing.T) {
	run(t, "shapes", "cold", "true")
}

// TestHoistFix checks the fix that hoists an allocation that does not
// outlive a loop iteration (hoist.go.golden is the fixed source): made
// before the loop, reset where it was made, renamed where its name would
// change what another name refers to; and, where no fix is safe (the
// value is assigned, appended, sized per iteration, or kept through an
// element's address, an array field's slice or a method), no fix, and the
// message says why.
func TestHoistFix(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "src", "hoist"), rewrites, "./...")
}

// TestKinds checks the kinds of change that remove an allocation the code
// keeps by its shape alone, each with its advice and, where the change is
// mechanical, its fix (kinds.go.golden): sort.Sort and sort.Slice boxing
// the slice (slices), a map re-made per call in a field (clear and reuse),
// a field stack reset without capacity (x.f[:0]), a dead make (deleted),
// a local stack that starts empty, a closure made per call from the
// receiver alone, a pointer field allocated with its container, and
// (package lazymap) maps a constructor makes that only another type's
// methods query (made lazily), but not when the constructed type's code
// may query them: directly, through a function taking the type, through
// an interface method or by a read deciding more than their upkeep, or
// when the maps' holder is handed out to code that does.
func TestKinds(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	f := heapescape.Analyzer.Flags.Lookup("cold")
	f.Value.Set("true")
	t.Cleanup(func() { f.Value.Set("false") })
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "src", "kinds"), rewrites, "./...")
}

// TestKindsOldGo checks the kinds in a module whose go.mod says go 1.12:
// the map is cleared with the loop of deletes, and sort is left alone
// with the reason, since package slices and clear came with go1.21.
func TestKindsOldGo(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	f := heapescape.Analyzer.Flags.Lookup("cold")
	f.Value.Set("true")
	t.Cleanup(func() { f.Value.Set("false") })
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "src", "kinds112"), rewrites, "./...")
}

// TestInherent checks that with -all the allocations for which no change
// is identified are reported, saying why they are inherent, also on error
// paths.
func TestInherent(t *testing.T) {
	run(t, "inherent", "all", "true", "cold", "true")
}

// TestCategory checks the diagnostics' categories: the finding's kind,
// heapescape/inherent for what is proven inherent,
// heapescape/no-known-rewrite for the other allocations no rewrite
// removes, a rewrite kind for the rest.
func TestCategory(t *testing.T) {
	results := run(t, "inherent", "all", "true", "cold", "true")
	count := make(map[kind.ID]int)
	for _, r := range results {
		for _, d := range r.Diagnostics {
			k := kind.ID(d.Category)
			count[k]++
			if _, ok := kind.Lookup(k); !ok || k.Analyzer() != "heapescape" {
				t.Errorf("%s: category %q is not a kind of heapescape", r.Pass.Fset.Position(d.Pos), d.Category)
			}
			says := map[kind.ID]string{heapescape.Inherent: "; inherent: ", heapescape.NoRewrite: "; no known rewrite: "}
			for k2, phrase := range says {
				if strings.Contains(d.Message, phrase) != (k == k2) {
					t.Errorf("%s: category %q for %q", r.Pass.Fset.Position(d.Pos), d.Category, d.Message)
				}
			}
		}
	}
	if count[heapescape.Inherent] == 0 || count[heapescape.NoRewrite] == 0 || len(count) < 3 {
		t.Errorf("kinds reported: %v; want inherent, no known rewrite and a rewrite", count)
	}
}

// TestRarePath checks that a variable whose address escapes only on a rare
// path (returned with an error, in a panic, logged under a trace flag) is
// advised a copy there, checked by compiling the change, and the fix
// (rare.go.golden); and that one whose address also escapes on the common
// path is not.
func TestRarePath(t *testing.T) {
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	analysistest.RunWithSuggestedFixes(t, filepath.Join(analysistest.TestData(), "src", "rare"), rewrites, "./...")
}

// TestAppendAPI checks that a string or byte slice an unexported function
// builds and returns, which every caller only appends to something longer
// (append(dst, f()...), copy, Write, WriteString, +), gets the advice of an
// append-style API, and not when a caller keeps it.
func TestAppendAPI(t *testing.T) {
	run(t, "appendapi")
}

// TestClosureOnce checks that a closure made on every call of a method
// with a pointer receiver, capturing only the receiver, is advised to be
// made once, wherever it goes (passed to a function or an interface
// method that keeps it, returned), and not when it captures more or the
// receiver is a value.
func TestClosureOnce(t *testing.T) {
	run(t, "closure")
}

// TestZeroCopy checks that a conversion passed to a function that only
// reads it gets the module's own zero-copy conversion as advice.
func TestZeroCopy(t *testing.T) {
	run(t, "zerocopy")
}

// TestHotpathCold checks that -hotpath.cold, which go vet passes on and
// golangci-lint's cold setting means, makes heapescape report the
// allocations in cold code as its own -cold does.
func TestHotpathCold(t *testing.T) {
	f := hotpath.Analyzer.Flags.Lookup("cold")
	if err := f.Value.Set("true"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Value.Set("false") })
	run(t, "hotcold", "all", "true")
}

// TestResetKept checks that a value another package's constructor makes
// on every call, stored in a field of a value the code did not make (a
// receiver through a local variable, a parameter, a range variable, a
// package-level variable), is advised to be kept and reset when its type's
// Reset takes what the constructor takes first; and not when the code
// made the owner itself or returns the value. The same for a value passed
// to a method that keeps it in its receiver (inlined or not, through
// another method of that receiver, another package's gzip.Reader) when
// the receiver comes from a sync.Pool or is a parameter; not when the
// method keeps it elsewhere or the code made the receiver.
func TestResetKept(t *testing.T) {
	run(t, "resetkept", "cold", "true")
}

// TestGrowth checks that an append that cannot outgrow the capacity its
// slice was made with (at most one element per iteration of a loop that
// runs at most that many times, over a slice, a map, an integer or a
// counter) is not reported, and that one that can (two appends per
// iteration, a smaller capacity, a bound changed after the make, an inner
// loop) is; TestNeverGrows measures the first kind. A slice made with a
// capacity by a function of the package (a function, a method) is
// presized; one made without, or returned alongside another, is not.
func TestGrowth(t *testing.T) {
	run(t, "growth", "all", "true")
}

// TestInlinedAway checks that an allocation in the body of a function the
// compiler inlines at each of its calls in the package is not ranked by
// those calls' hotness (an exported iterator's closure), and not reported
// when nothing else can call that body (unexported constructors, one of
// which escapes where it is inlined and is reported there, once); and that
// it is reported as usual when the function is also used as a value or
// started by a go statement.
func TestInlinedAway(t *testing.T) {
	run(t, "inlined", "all", "true", "cold", "true")
}

// TestTemporaries checks that a result of a call passed on whole into an
// interface (returned, passed to a call, assigned), which the compiler
// copies through a temporary it names ".autotmp_N", is named by its type
// and the call: one result converted of two, or two of three told apart
// by the order in which the compiler's flow passes the temporaries on.
func TestTemporaries(t *testing.T) {
	run(t, "autotmp", "all", "true", "cold", "true")
}

// TestLiteralBuffer checks that a slice literal of constant length passed
// to a method that must not keep it (io.Writer.Write, hash.Hash's Write)
// gets the buffer advice of make([]byte, n): an array field of a pointer
// receiver, a pointer receiver for a method on a value, a buffer lent by
// the callers of a function; and that a literal passed to a method that
// may keep it, one that outlives the call, or a keyed one does not.
func TestLiteralBuffer(t *testing.T) {
	run(t, "litbuf", "cold", "true")
}

// TestInlinedCall checks the cause of a value made in the body of a
// function inlined at its call, where the compiler puts every step of the
// value's flow: the call that lets it escape is the body's (an interface
// method, a function value, a static callee that keeps it), never the
// inlined function itself; and that a body inlined at every call that
// has a change to make (an array field, a pointer receiver, slices.SortFunc)
// is reported in the body, once, and not at its calls.
func TestInlinedCall(t *testing.T) {
	run(t, "inlinedcall", "all", "true", "cold", "true")
}

// TestLazy checks that an allocation that fills a location only when the
// condition around it finds it missing or too small (a field grown on
// demand, a package-level table filled on first use, a caller's buffer
// made when too short), and the growth of a slice its owner keeps (a
// field appended to, or to its [:0], a strings.Builder field), are
// amortized, also where inlined: the tier is at most unknown and the
// fields say so, while an allocation made on every run (a local that is
// nil each time, a condition that does not test what it fills) is not.
func TestLazy(t *testing.T) {
	results := run(t, "lazy", "all", "true")
	want := make(map[string]bool) // "file:line" of the amortized allocations
	var got []string
	for _, r := range results {
		col := r.Pass.ResultOf[kind.Analyzer].(*kind.Collector)
		for _, f := range r.Pass.Files {
			name := r.Pass.Fset.File(f.Pos()).Name()
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					if c.Text == "// amortized" {
						want[fmt.Sprintf("%s:%d", name, r.Pass.Fset.Position(c.Pos()).Line+1)] = true
					}
				}
			}
		}
		for _, d := range r.Diagnostics {
			fields, ok := col.Lookup(d)
			if !ok {
				t.Fatalf("no fields for %v", d.Message)
			}
			pos := r.Pass.Fset.Position(d.Pos)
			if fields.Amortized {
				got = append(got, fmt.Sprintf("%s:%d", pos.Filename, pos.Line))
				if fields.Tier != "unknown" || kind.Spend(&fields) != 0 {
					t.Errorf("%s: amortized with tier %s, spend %v; want unknown, 0", pos, fields.Tier, kind.Spend(&fields))
				}
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("amortized findings at %v, want those after an \"amortized\" comment: %v", got, want)
	}
	for _, g := range got {
		if !want[g] {
			t.Errorf("%s: amortized, not marked so", g)
		}
	}
}

// TestMemReader checks that a reader made over bytes in memory
// (bytes.NewReader, strings.NewReader) only to be read through an
// interface is advised away: in a local variable also asked for its
// length, passed at once to a function of the package, passed to another
// module's function (binary.Read, io.Copy: a change a person must judge),
// or to an exported function of the package that other callers may give
// a stream (also a person's to judge); and that one returned, stored,
// captured by a function literal or kept by the callee is not.
func TestMemReader(t *testing.T) {
	run(t, "memreader")
}
