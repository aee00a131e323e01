package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/goadvise/goadvise/driver"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/verify"
)

// verifyFlags are the flags of check -verify.
type verifyFlags struct {
	on        bool
	top       int
	count     int
	benchtime string
	// bench is -verify-bench: the benchmarks of every fix; empty to
	// choose, for each fix, those that execute the finding's line.
	bench string
	// dir is where fixes.patch and summary.md are written (check's -o
	// with -verify); empty for none.
	dir string
}

// Exit statuses of check -verify, for CI.
const (
	verifyKept   = int(verify.Kept)   // every verified fix was kept, alone and together
	verifyBroken = int(verify.Broken) // a fix broke the tests or regressed, alone or together
	verifyError  = int(verify.Failed) // the verification could not be done
)

// verifyFindings verifies the fixes of the top findings of res (see
// verify.Verify), and returns the findings whose fix was kept and the
// exit status. Ctrl-C stops it.
func verifyFindings(res *driver.Result, vf verifyFlags) ([]report.Finding, int, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out, err := verify.Verify(ctx, res, verify.Options{
		Top:       vf.top,
		Bench:     vf.bench,
		Count:     vf.count,
		Benchtime: vf.benchtime,
		Dir:       vf.dir,
		Progress:  func(msg string) { fmt.Fprintf(os.Stderr, "goadvise: %s\n", msg) },
	})
	if err != nil {
		return nil, verifyError, err
	}
	return out.Kept, int(out.Status), nil
}

// verifyExit returns check -verify's exit status: an error of the check
// itself (a package that failed to load) is an error of the verification.
func verifyExit(status, verify int) int {
	if status != exitOK {
		return verifyError
	}
	return verify
}
