package report

import (
	"fmt"
	"slices"
	"testing"

	"github.com/goadvise/goadvise/analyzer/kind"
)

// TestRankByWeight checks that without a profile findings are ordered by
// their estimated saving: cost per run times how often the tier runs,
// times the odds that the advice removes the cost. A per-item allocation
// with a rewrite comes before a redundant compare in a loop, which names a
// change, and that before an allocation no rewrite removes; a regular
// expression compiled per call before them all.
func TestRankByWeight(t *testing.T) {
	mk := func(name, tier string, ns float64, rewrite bool, class string) Finding {
		f := Finding{Function: name}
		f.Tier, f.CostNS, f.Rewrite, f.Class = tier, ns, rewrite, class
		return f
	}
	fs := []Finding{
		mk("branch", "hot-loop", 1, true, "negligible"),
		mk("inherent", "hot-loop", 30, false, "inherent"),
		mk("unknown", "per-item", 30, false, ""),
		mk("rewrite", "per-item", 30, true, ""),
		mk("regexp", "unknown", 5000, true, ""),
	}
	Rank(fs)
	BySaving(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Function)
	}
	want := []string{"regexp", "rewrite", "branch", "unknown", "inherent"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Rank: %v, want %v", got, want)
		}
	}
	if w := kind.Weight(&fs[1].Fields); w != 300 {
		t.Errorf("weight of a per-item rewrite of 30 ns: %v, want 300", w)
	}
}

// TestRankRepeats checks that the k-th finding of a kind in one file
// weighs 1/k of its saving: a pattern repeated through a file shows its
// first case before other kinds of slightly lower weight.
func TestRankRepeats(t *testing.T) {
	mk := func(file string, line int, id kind.ID, ns float64) Finding {
		f := Finding{File: file, Line: line}
		f.Kind, f.Tier, f.CostNS, f.Rewrite = id, "per-item", ns, true
		return f
	}
	fs := []Finding{
		mk("/m/log.go", 1, "heapescape/fmt-concat", 30),
		mk("/m/log.go", 2, "heapescape/fmt-concat", 30),
		mk("/m/log.go", 3, "heapescape/fmt-concat", 30),
		mk("/m/enc.go", 9, "heapescape/presize", 20),
	}
	Rank(fs)
	BySaving(fs)
	var got []int
	for _, f := range fs {
		got = append(got, f.Line)
	}
	if want := []int{1, 9, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("Rank: lines %v, want %v", got, want)
	}
}

// TestRankInterleaves checks the order in which the default's cut takes
// findings: turns between the next by estimated saving and the best of
// the next function by spend. A decoder whose five per-item allocations
// name no change costs more than the encoder's two rewrites together, so
// its first allocation comes second, before the encoder's second rewrite,
// although each of its findings saves less by the odds; BySaving then
// prints the rewrites first.
func TestRankInterleaves(t *testing.T) {
	mk := func(fn string, line int, rewrite bool) Finding {
		f := Finding{File: "/m/" + fn + ".go", Line: line, Offset: line, Function: "m." + fn}
		f.Kind, f.Tier, f.CostNS, f.Rewrite = "heapescape/x", "per-item", 30, rewrite
		if !rewrite {
			f.Kind = "heapescape/no-known-rewrite"
		}
		return f
	}
	fs := []Finding{mk("encode", 1, true), mk("encode", 2, true)}
	for line := 10; line < 15; line++ {
		fs = append(fs, mk("decode", line, false))
	}
	Rank(fs)
	var got []string
	for _, f := range fs[:4] {
		got = append(got, fmt.Sprintf("%s:%d", f.Function, f.Line))
	}
	if want := []string{"m.encode:1", "m.decode:10", "m.encode:2", "m.decode:11"}; !slices.Equal(got, want) {
		t.Errorf("Rank: %v, want %v", got, want)
	}
	top := slices.Clone(fs[:2])
	BySaving(top)
	if top[0].Function != "m.encode" || top[0].Rank != 1 || top[1].Rank != 2 {
		t.Errorf("BySaving: %s first, ranks %d %d; want the rewrite first, numbered 1 and 2", top[0].Function, top[0].Rank, top[1].Rank)
	}
}

// TestRankTurnsPerPackage checks that the turns are taken within each
// package: a small package's first two findings are its best by saving
// and its function with most findings, even when every finding of a
// larger package saves more and its functions have more findings.
func TestRankTurnsPerPackage(t *testing.T) {
	mk := func(pkg, fn string, line int, ns float64) Finding {
		f := Finding{Package: pkg, File: "/m/" + pkg + ".go", Line: line, Offset: line, Function: pkg + "." + fn}
		f.Kind, f.Tier, f.CostNS, f.Rewrite = kind.ID("heapescape/"+fn), "per-item", ns, true
		return f
	}
	var fs []Finding
	for line := 1; line <= 6; line++ {
		fs = append(fs, mk("big", "F", line, 100))
	}
	fs = append(fs, mk("small", "branch", 1, 50), mk("small", "alloc", 2, 20), mk("small", "alloc", 3, 20))
	Rank(fs)
	var small []string
	for _, f := range fs {
		if f.Package == "small" {
			small = append(small, fmt.Sprintf("%s:%d", f.Function, f.Line))
		}
	}
	if want := []string{"small.branch:1", "small.alloc:2", "small.alloc:3"}; !slices.Equal(small, want) {
		t.Errorf("small's order %v, want %v", small, want)
	}
	if fs[0].Package != "big" || fs[1].Package != "small" {
		t.Errorf("first two from %s and %s; want each package's first turn, by saving", fs[0].Package, fs[1].Package)
	}
}
