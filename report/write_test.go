package report

import (
	"strings"
	"testing"
)

// TestRelatedText checks that a related location repeats only what
// differs from the finding's message.
func TestRelatedText(t *testing.T) {
	const advice = `; write root + "/net/" + t.filename instead of fmt.Sprintf: it builds the same string without boxing each argument in an interface [hot-loop: inside a loop]`
	msg := "root escapes to heap because it is converted to an interface and passed to fmt.Sprintf" + advice
	for _, tc := range []struct{ rel, want string }{
		{
			"t.filename escapes to heap because it is converted to an interface and passed to fmt.Sprintf" + advice,
			"t.filename escapes to heap because it is converted to an interface and passed to fmt.Sprintf; same advice",
		},
		{
			// Different advice: kept whole.
			"x escapes to heap because it is returned; inherent: the code keeps it [hot-loop: inside a loop]",
			"x escapes to heap because it is returned; inherent: the code keeps it [hot-loop: inside a loop]",
		},
		{
			// No advice at all.
			"moved to heap: ms",
			"moved to heap: ms",
		},
	} {
		if got := RelatedText(msg, tc.rel); got != tc.want {
			t.Errorf("RelatedText(%q)\n got %q\nwant %q", tc.rel, got, tc.want)
		}
	}
	// In the text report.
	r := &Report{Findings: []Finding{{
		Rank: 1, Analyzer: "heapescape", File: "/m/p.go", Line: 3, Column: 2, Function: "p.F", Message: msg,
		Related: []Related{{Analyzer: "heapescape", File: "/m/p.go", Line: 3, Column: 9, Message: "t.filename escapes to heap because it is converted to an interface and passed to fmt.Sprintf" + advice}},
	}}}
	var b strings.Builder
	if err := WriteText(&b, r, "/m"); err != nil {
		t.Fatal(err)
	}
	if want := "      also p.go:3:9: heapescape: t.filename escapes to heap because it is converted to an interface and passed to fmt.Sprintf; same advice\n"; !strings.Contains(b.String(), want) {
		t.Errorf("text report:\n%s\nwant a line\n%s", b.String(), want)
	}
}
