package report

import (
	"bytes"
	"testing"
)

// TestWriteVerifySummary writes the summary of two fixes, one kept and
// one not measured, and their combined run, and checks it whole.
func TestWriteVerifySummary(t *testing.T) {
	delta := -1.0
	s := &VerifySummary{
		Dir: "/m",
		Fixes: []VerifiedFix{
			{
				Analyzer: "smallalloc", File: "/m/p/p.go", Line: 7, Message: "make([]byte, 8) escapes",
				Kept: true,
				VerifiedRun: VerifiedRun{
					Verdict:     "kept",
					Measured:    "Measured with BenchmarkP, which runs p/p.go:7.",
					Change:      &FixResult{Files: map[string]FileChange{"/m/p/p.go": {Old: []byte("a\nb\n"), New: []byte("a\nc\n")}}},
					Result:      "tests pass; allocs/op 2 → 1 (-50.00%) better",
					Table:       "TABLE\n",
					AllocsDelta: &delta,
				},
			},
			{
				Analyzer: "deepequal", File: "/m/q.go", Line: 3, Message: "DeepEqual of []byte",
				Unmeasured:  "no benchmark runs q.go:3 or its function; not measured",
				VerifiedRun: VerifiedRun{Verdict: "no benchmark runs q.go:3 or its function; not measured"},
			},
		},
		PassedOver: "; passed over 1 finding ranked among them that has no fix (heapescape 1)",
		Together:   []VerifiedRun{{Where: "/m", Verdict: "holds", Measured: "Measured with BenchmarkP, which runs the kept fixes' lines.", Result: "tests pass; no benchmarks to measure"}},
	}
	var b bytes.Buffer
	if err := WriteVerifySummary(&b, s); err != nil {
		t.Fatal(err)
	}
	want := "# goadvise: verified fixes\n\n" +
		"1 of 2 fixes kept, 1 not measured (no benchmark runs the finding's line); passed over 1 finding ranked among them that has no fix (heapescape 1).\n" +
		"\n## 1. smallalloc at p/p.go:7 (kept)\n\nmake([]byte, 8) escapes\n\n" +
		"Measured with BenchmarkP, which runs p/p.go:7.\n\n" +
		"```diff\n--- a/p/p.go\n+++ b/p/p.go\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n```\n\n" +
		"tests pass; allocs/op 2 → 1 (-50.00%) better\n\n```\nTABLE\n```\n" +
		"\nallocs/op change, summed over the benchmarks: -1\n" +
		"\n## 2. deepequal at q.go:3 (no benchmark runs q.go:3 or its function; not measured)\n\nDeepEqual of []byte\n\n" +
		"\n## All 1 kept fixes together, measured in the module's root package (holds)\n\n" +
		"Measured with BenchmarkP, which runs the kept fixes' lines.\n\n" +
		"tests pass; no benchmarks to measure\n"
	if got := b.String(); got != want {
		t.Errorf("summary.md:\n%s\nwant:\n%s", got, want)
	}
}
