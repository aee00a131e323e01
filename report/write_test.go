package report

import (
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/plural"
)

// TestRelatedText checks that a related location repeats only what
// differs from the finding's message.
func TestRelatedText(t *testing.T) {
	const advice = `write root + "/net/" + t.filename instead of fmt.Sprintf: it builds the same string without boxing each argument in an interface`
	f := Finding{Rank: 1, Analyzer: "heapescape", File: "/m/p.go", Line: 3, Column: 2, Function: "p.F"}
	f.Tier, f.TierReason, f.Advice = "hot-loop", "inside a loop", advice
	f.Text = "root escapes to heap because it is converted to an interface and passed to fmt.Sprintf; " + advice
	f.Message = f.Fields.Message()
	rel := func(what, adv string) Related {
		r := Related{Analyzer: "heapescape", File: "/m/p.go", Line: 3, Column: 9, What: what, Advice: adv, Tier: "hot-loop", TierReason: "inside a loop"}
		text := what
		if adv != "" {
			text += "; " + adv
		}
		r.Message = text + " [hot-loop: inside a loop]"
		return r
	}
	for _, tc := range []struct {
		rel  Related
		want string
	}{
		{
			rel("t.filename escapes to heap because it is converted to an interface and passed to fmt.Sprintf", advice),
			"t.filename escapes to heap because it is converted to an interface and passed to fmt.Sprintf; same advice [hot-loop: inside a loop]",
		},
		{
			// Different advice: kept whole.
			rel("x escapes to heap because it is returned", "inherent: the code keeps it"),
			"x escapes to heap because it is returned; inherent: the code keeps it [hot-loop: inside a loop]",
		},
		{
			// No advice at all.
			rel("moved to heap: ms", ""),
			"moved to heap: ms [hot-loop: inside a loop]",
		},
	} {
		if got := RelatedText(f, tc.rel); got != tc.want {
			t.Errorf("RelatedText(%q)\n got %q\nwant %q", tc.rel.Message, got, tc.want)
		}
	}
	// In the text report.
	f.Related = []Related{rel("t.filename escapes to heap because it is converted to an interface and passed to fmt.Sprintf", advice)}
	r := &Report{Findings: []Finding{f}}
	var b strings.Builder
	if err := WriteText(&b, r, "/m"); err != nil {
		t.Fatal(err)
	}
	if want := "      also p.go:3:9: heapescape: t.filename escapes to heap because it is converted to an interface and passed to fmt.Sprintf; same advice [hot-loop: inside a loop]\n"; !strings.Contains(b.String(), want) {
		t.Errorf("text report:\n%s\nwant a line\n%s", b.String(), want)
	}
}

// TestSummaryCounts checks that the summary's counts are true: the
// packages that hold the findings, not all those analysed; the number of
// findings whose CPU share is added up, under -top too; singular nouns
// for one.
func TestSummaryCounts(t *testing.T) {
	findings := func(pkgs ...string) []Finding {
		var out []Finding
		for i, p := range pkgs {
			out = append(out, Finding{Package: p, Score: float64(i + 1)})
		}
		return out
	}
	prof := &ProfileStats{Samples: 1, DurationS: 0.01}
	for _, tc := range []struct {
		name string
		r    Report
		want string
	}{
		{"distinct packages", Report{Stats: Stats{Packages: 5, Findings: 5, Total: 5}, Findings: findings("a", "a", "b", "b", "a")},
			"5 findings in 2 packages (of 5 analysed)"},
		{"one of one", Report{Stats: Stats{Packages: 1, Findings: 1, Total: 1}, Findings: findings("a")},
			"1 finding in 1 package"},
		{"top 8", Report{Stats: Stats{Packages: 1, Findings: 8, Total: 20, Profile: prof}, Findings: findings("a", "a", "a", "a", "a", "a", "a", "a")},
			"8 of 20 findings shown in 1 package, top 8 cover ~36.0% of CPU; 1 sample: profile at least"},
		{"without -top", Report{Stats: Stats{Packages: 1, Findings: 8, Total: 8, Profile: prof}, Findings: findings("a", "a", "a", "a", "a", "a", "a", "a")},
			"8 findings in 1 package, top 5 cover ~15.0% of CPU"},
	} {
		var b strings.Builder
		if err := writeSummary(&b, &tc.r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s: summary %q does not say %q", tc.name, b.String(), tc.want)
		}
	}
	if got := plural.Count(1, "file", "files") + ", " + plural.Count(2, "file", "files") + ", " + plural.Count(0, "fix", "fixes"); got != "1 file, 2 files, 0 fixes" {
		t.Errorf("Count: %q", got)
	}
}
