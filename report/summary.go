package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/goadvise/goadvise/internal/plural"
)

// A VerifySummary is the outcome of check -verify, for
// [WriteVerifySummary]: each fix tried, then the kept fixes measured
// together.
type VerifySummary struct {
	// Dir is the module's directory: files are named relative to it.
	Dir string

	// Fixes are the fixes tried, in rank order.
	Fixes []VerifiedFix

	// PassedOver says which findings ranked among the fixes tried have
	// no fix: "; passed over 3 findings ranked among them that have no
	// fix (heapescape 2, inlinebudget 1)", or "".
	PassedOver string

	// Apart reports that the fixes kept alone do not hold together, so
	// that none of them is applied.
	Apart bool

	// Together are the runs of all kept fixes together, one per package
	// whose benchmarks measured them.
	Together []VerifiedRun
}

// A VerifiedFix is the outcome of trying one finding's fix.
type VerifiedFix struct {
	Analyzer string
	File     string // absolute path
	Line     int
	Message  string

	Kept bool
	// Unmeasured says why no benchmark measured the fix, which was then
	// not tried; "" when it was.
	Unmeasured string

	// Accepted are the compiler's new decisions in other packages that
	// the fix was kept with, each with the reason it was accepted.
	Accepted []string

	VerifiedRun
}

// A VerifiedRun is one measurement of one or more fixes.
type VerifiedRun struct {
	// Where is the directory of the package whose benchmarks measured
	// the fixes (for a combined run).
	Where string

	// Verdict is the outcome in a few words: "kept", "dropped: tests
	// fail", "holds", "not verified: ...".
	Verdict string

	// Measured says which benchmarks measured the fixes, in a sentence;
	// "" when none did.
	Measured string

	// Change is the fixes' diff; nil when they were not applied.
	Change *FixResult

	// Result is the result in one line ("tests pass; allocs/op 2 → 1
	// (-50.00%) better"), Table the benchmark comparison; both "" when
	// there is none.
	Result, Table string

	// AllocsDelta is the change of allocs/op summed over the benchmarks,
	// when they report it.
	AllocsDelta *float64
}

// WriteVerifySummary writes s as Markdown: how many fixes were kept, then
// per fix its verdict, the finding, the benchmarks that measured it, the
// compiler's new decisions elsewhere that were accepted, its diff and its
// benchmark table, then the combined runs.
func WriteVerifySummary(w io.Writer, s *VerifySummary) error {
	var md bytes.Buffer
	kept, unmeasured := 0, 0
	for _, v := range s.Fixes {
		if v.Kept {
			kept++
		}
		if v.Unmeasured != "" {
			unmeasured++
		}
	}
	fmt.Fprintf(&md, "# goadvise: verified fixes\n\n")
	notMeasured := ""
	if unmeasured > 0 {
		notMeasured = fmt.Sprintf(", %d not measured (no benchmark runs the finding's line)", unmeasured)
	}
	fmt.Fprintf(&md, "%d of %s kept%s%s.\n", kept, plural.Count(len(s.Fixes), "fix", "fixes"), notMeasured, s.PassedOver)
	if s.Apart {
		fmt.Fprintf(&md, "\nThe kept fixes do not hold together: fixes.patch is empty, as -fix would apply none of them.\n")
	}
	for i, v := range s.Fixes {
		fmt.Fprintf(&md, "\n## %d. %s at %s:%d (%s)\n\n%s\n\n", i+1, v.Analyzer, relPath(s.Dir, v.File), v.Line, v.Verdict, v.Message)
		if v.Measured != "" {
			fmt.Fprintf(&md, "%s\n\n", v.Measured)
		}
		if len(v.Accepted) > 0 {
			fmt.Fprintf(&md, "Kept with the compiler's new %s in other packages:\n\n", plural.Noun(len(v.Accepted), "decision", "decisions"))
			for _, a := range v.Accepted {
				fmt.Fprintf(&md, "- %s\n", a)
			}
			fmt.Fprintf(&md, "\n")
		}
		if err := v.write(&md, s.Dir); err != nil {
			return err
		}
	}
	for _, c := range s.Together {
		where := relPath(s.Dir, c.Where)
		if where == "." {
			where = "the module's root package"
		}
		fmt.Fprintf(&md, "\n## All %d kept fixes together, measured in %s (%s)\n\n", kept, where, c.Verdict)
		fmt.Fprintf(&md, "%s\n\n", c.Measured)
		if err := c.write(&md, s.Dir); err != nil {
			return err
		}
	}
	_, err := w.Write(md.Bytes())
	return err
}

// write writes the run's diff and its benchmark table.
func (r *VerifiedRun) write(md *bytes.Buffer, dir string) error {
	if r.Change != nil {
		fmt.Fprintf(md, "```diff\n")
		if err := WriteDiff(md, r.Change, dir); err != nil {
			return err
		}
		fmt.Fprintf(md, "```\n\n")
	}
	switch {
	case r.Table != "":
		fmt.Fprintf(md, "%s\n\n```\n%s```\n", r.Result, r.Table)
	case r.Result != "":
		fmt.Fprintf(md, "%s\n", r.Result)
	}
	if r.AllocsDelta != nil {
		fmt.Fprintf(md, "\nallocs/op change, summed over the benchmarks: %+g\n", *r.AllocsDelta)
	}
	return nil
}
