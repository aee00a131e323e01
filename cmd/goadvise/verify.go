package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/report"
)

// verifyFlags are the flags of check -verify.
type verifyFlags struct {
	on        bool
	top       int
	count     int
	benchtime string
}

// verifyFindings checks the fixes of the first vf.top findings that have
// one: each is applied alone in a copy of the module, the package's tests
// run, and its benchmarks are compared before and after (see bench.Verify).
// It records the outcome in each finding and returns the findings whose
// fix passed the tests and did not regress. The user's tree is not touched.
func verifyFindings(findings []report.Finding, dirOf map[string]string, vf verifyFlags) ([]report.Finding, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var good []report.Finding
	done := 0
	for i := range findings {
		f := &findings[i]
		if len(f.Fixes) == 0 || done >= vf.top {
			continue
		}
		done++
		dir := dirOf[f.Package]
		if dir == "" {
			continue
		}
		var edits []bench.FileEdit
		for _, e := range f.Fixes[0].Edits {
			edits = append(edits, bench.FileEdit{File: e.File, Start: e.Start, End: e.End, New: e.New})
		}
		fmt.Fprintf(os.Stderr, "goadvise: verifying #%d %s at %s:%d ...\n", f.Rank, f.Analyzer, filepath.Base(f.File), f.Line)
		res, err := bench.Verify(ctx, bench.VerifyOptions{
			Dir:       dir,
			Package:   ".",
			Edits:     edits,
			Count:     vf.count,
			Benchtime: vf.benchtime,
			Threshold: 5,
		})
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("verify interrupted")
			}
			f.Verify = &report.Verification{Summary: "could not verify: " + err.Error()}
			continue
		}
		v := &report.Verification{
			TestsPassed: res.TestsPassed,
			Regressed:   res.Regressed(),
			Summary:     res.Summary(),
		}
		f.Verify = v
		if res.TestsPassed && !res.Regressed() {
			good = append(good, *f)
		}
	}
	return good, nil
}
