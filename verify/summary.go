package verify

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/internal/atomicfile"
	"github.com/goadvise/goadvise/report"
)

// write writes fixes.patch (the fixes of out.Kept, git apply-able from
// the module root: what -fix applies, so nothing when the kept fixes do
// not hold together) and summary.md (see report.WriteVerifySummary) to
// dir. benchFlag is Options.Bench.
func (out *Outcome) write(dir, moduleDir, benchFlag string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	var patch bytes.Buffer
	if len(out.Kept) > 0 {
		all, err := report.ApplyFixes(out.Kept, os.ReadFile)
		if err != nil {
			return err
		}
		if err := report.WriteDiff(&patch, all, moduleDir); err != nil {
			return err
		}
	}
	s, err := out.summary(moduleDir, benchFlag)
	if err != nil {
		return err
	}
	var md bytes.Buffer
	if err := report.WriteVerifySummary(&md, s); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "fixes.patch"), patch.Bytes(), atomicfile.Replace); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "summary.md"), md.Bytes(), atomicfile.Replace); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	return nil
}

// summary returns the records of summary.md.
func (out *Outcome) summary(moduleDir, benchFlag string) (*report.VerifySummary, error) {
	s := &report.VerifySummary{Dir: moduleDir, PassedOver: skippedNote(out.Skipped)}
	s.Apart = len(out.Kept) == 0 && len(keptFindings(out.Fixes)) > 0
	for _, v := range out.Fixes {
		f := v.Finding
		verdict := "kept"
		switch {
		case v.Err != nil:
			verdict = "not verified: " + v.Err.Error()
		case v.Unmeasured != "":
			verdict = v.Unmeasured
		case !v.Kept:
			verdict = "dropped: " + v.summary()
		case v.Note != "":
			verdict = "kept: " + v.Note
		}
		r, err := v.run(verdict)
		if err != nil {
			return nil, err
		}
		r.Change = v.change
		if v.Err == nil && v.Unmeasured == "" {
			r.Measured = benchmarksUsed(v.Benchmarks, benchFlag, v.runs)
		}
		s.Fixes = append(s.Fixes, report.VerifiedFix{
			Analyzer: f.Analyzer, File: f.File, Line: f.Line, Message: f.Message,
			Kept: v.Kept, Unmeasured: v.Unmeasured, Accepted: v.Accepted, VerifiedRun: r,
		})
	}
	for _, c := range out.Together {
		verdict := "holds"
		switch {
		case c.Err != nil:
			verdict = "not verified: " + c.Err.Error()
		case !c.Kept:
			verdict = "does not hold: " + c.Result.Summary()
		}
		r, err := c.run(verdict)
		if err != nil {
			return nil, err
		}
		r.Where, r.Measured = c.dir, benchmarksUsed(c.Benchmarks, benchFlag, "the kept fixes' lines")
		s.Together = append(s.Together, r)
	}
	return s, nil
}

// run returns v's result and benchmark table as summary.md shows them.
func (v *Fix) run(verdict string) (report.VerifiedRun, error) {
	r := report.VerifiedRun{Verdict: verdict}
	res := v.Result
	if res == nil {
		return r, nil
	}
	r.Result = res.Summary()
	if res.Comparison == nil {
		return r, nil
	}
	var table bytes.Buffer
	if err := bench.Write(&table, res.Comparison, bench.FormatText); err != nil {
		return r, err
	}
	r.Table = table.String()
	if d, ok := allocsDelta(res); ok {
		r.AllocsDelta = &d
	}
	return r, nil
}

// benchmarksUsed says in summary.md which benchmarks measured a fix: the
// benchmarks names, which execute what, or those that Options.Bench
// (pattern) matches.
func benchmarksUsed(names []string, pattern, what string) string {
	if pattern != "" {
		return fmt.Sprintf("Measured with the benchmarks matching -verify-bench `%s`.", pattern)
	}
	switch len(names) {
	case 0:
		return "Measured with no benchmark."
	case 1:
		return fmt.Sprintf("Measured with %s, which runs %s.", names[0], what)
	}
	return fmt.Sprintf("Measured with %s and %s, which run %s.", strings.Join(names[:len(names)-1], ", "), names[len(names)-1], what)
}

// allocsDelta returns the change of allocs/op summed over the benchmarks
// of res (head minus base), and whether there was any.
func allocsDelta(res *bench.VerifyResult) (float64, bool) {
	if res == nil || res.Comparison == nil {
		return 0, false
	}
	d, ok := 0.0, false
	for _, r := range res.Comparison.Rows {
		if r.Unit == "allocs/op" && r.Base != nil && r.Head != nil {
			d += r.Head.Center - r.Base.Center
			ok = true
		}
	}
	return d, ok
}
