package report

import (
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// TestMakeFindingClass checks that a diagnostic's category is split into
// the tier and the class: "per-item,inherent" is an inherent allocation in
// per-item code.
func TestMakeFindingClass(t *testing.T) {
	fset := token.NewFileSet()
	tf := fset.AddFile("/m/p.go", -1, 100)
	pkg := &packages.Package{Fset: fset, PkgPath: "m/p"}
	a := &analysis.Analyzer{Name: "heapescape"}
	for _, tc := range []struct{ category, tier, class string }{
		{"per-item,inherent", "per-item", "inherent"},
		{"hot-loop", "hot-loop", ""},
		{"", "cold", ""},
		{"cold,inherent", "cold", "inherent"},
	} {
		d := analysis.Diagnostic{Pos: tf.Pos(10), Category: tc.category, Message: "m"}
		f := makeFinding(pkg, a, d, make(map[*token.File][]funcRange))
		if f.Tier != tc.tier || f.Class != tc.class {
			t.Errorf("category %q: tier %q, class %q; want %q, %q", tc.category, f.Tier, f.Class, tc.tier, tc.class)
		}
	}
}

// TestSummaryHidden checks that the summary line counts the findings
// check did not show, and says which flag shows them.
func TestSummaryHidden(t *testing.T) {
	for _, tc := range []struct {
		stats Stats
		want  []string
	}{
		{Stats{Packages: 1, Findings: 2, Total: 2, Ranking: "static", HiddenCold: 5, HiddenInherent: 1},
			[]string{"2 findings in 1 package", "; 5 in cold code not shown (-cold shows them)", "; 1 inherent allocation not shown (-heapescape.all shows them)"}},
		{Stats{Packages: 3, Ranking: "static", HiddenInherent: 7},
			[]string{"no findings in 3 packages", "; 7 inherent allocations not shown (-heapescape.all shows them)"}},
	} {
		var b strings.Builder
		if err := writeSummary(&b, &Report{Stats: tc.stats}); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("summary %q does not say %q", b.String(), w)
			}
		}
		if tc.stats.HiddenCold == 0 && strings.Contains(b.String(), "in cold code") {
			t.Errorf("summary %q mentions cold code with none hidden", b.String())
		}
	}
}
