// Package verify tries the fixes of a check's top findings in a copy of
// the module, as check -verify does: each fix alone, with the package's
// tests and the benchmarks that run the finding's line before and after
// it, and with the compiler's decisions for the whole module compared;
// then all the fixes kept, together. The user's files are only read.
//
// A fix is kept when the tests pass, no benchmark regresses
// significantly, a change of behaviour is covered by a test, and every
// new heap escape it causes in another package is one the measurement
// can be trusted over: the benchmarks ran it, so that their result
// includes its cost, or it runs less often than the fixed code (see
// package hotpath's tiers), and the benchmarks improved significantly.
package verify

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/decisions"
	"github.com/goadvise/goadvise/driver"
	"github.com/goadvise/goadvise/internal/plural"
	"github.com/goadvise/goadvise/report"
)

// Options configures [Verify].
type Options struct {
	// Top is how many of the top findings that have a fix to try; 0
	// means 5.
	Top int

	// Bench is the go test -bench pattern of the benchmarks that measure
	// every fix. "" chooses them per fix: those that check -bench
	// measured running the finding's line, or else those of the fix's
	// package that execute the line (or its function), found by running
	// each once with coverage.
	Bench string

	// Count and Benchtime are the benchmark rounds per version and their
	// -benchtime (see bench.Options); 0 and "" for bench's defaults.
	Count     int
	Benchtime string

	// Dir, if set, is the directory where fixes.patch (the fixes kept,
	// as -fix applies them) and summary.md are written.
	Dir string

	// Progress, if not nil, is told what Verify is doing, one line at a
	// time.
	Progress func(msg string)
}

// Status sums up an [Outcome], as check -verify's exit status.
type Status int

// The statuses, from best to worst.
const (
	Kept   Status = iota // every fix measured was kept, alone and together
	Broken               // a fix broke the tests, regressed or was rejected, alone or together
	Failed               // a fix could not be verified
)

// An Outcome is what [Verify] found.
type Outcome struct {
	// Fixes are the fixes tried, in rank order.
	Fixes []*Fix

	// Skipped counts by analyzer the findings ranked among the fixes
	// tried that have no fix.
	Skipped map[string]int

	// Together are the runs of all kept fixes together, one per package
	// whose benchmarks measure them; empty with fewer than two kept.
	Together []*Fix

	// Kept are the findings whose fixes hold, alone and together: what
	// check -fix -verify applies.
	Kept []report.Finding

	Status Status
}

// A Fix is the outcome of trying one finding's fix, or all kept fixes
// together.
type Fix struct {
	// Finding is the finding fixed; nil for a combined run.
	Finding *report.Finding

	// Benchmarks are the top-level benchmarks chosen to measure the fix
	// (nil with Options.Bench).
	Benchmarks []string

	// Unmeasured says why no benchmark measures the fix, which was then
	// not tried; "" when it was.
	Unmeasured string

	// Result is the outcome of the tests and the benchmarks; Err says
	// why there is none.
	Result *bench.VerifyResult
	Err    error

	// Kept reports whether the fix holds.
	Kept bool

	// Rejected says why a fix whose tests pass and whose benchmarks do
	// not regress is not kept; Note why a fix that changes behaviour or
	// the compiler's decisions elsewhere is kept.
	Rejected, Note string

	// Accepted are the compiler's new decisions in other packages that
	// the fix is kept with, each with the reason it was accepted.
	Accepted []string

	change *report.FixResult
	// runs says what the chosen benchmarks execute: the finding's line,
	// or its function when no benchmark executes the line itself.
	runs string
	// dir is the directory of the package whose benchmarks measure the
	// fix.
	dir string
	// elsewhere are the changes of the compiler's decisions in other
	// packages that make code worse, each weighed.
	elsewhere []weighed
}

// summary is the fix's verdict in one line, for the report and
// summary.md.
func (v *Fix) summary() string {
	s := v.Result.Summary()
	switch {
	case v.Rejected != "":
		s += "; rejected: " + v.Rejected
	case v.Note != "":
		s += "; kept: " + v.Note
	}
	return s
}

// Verify checks the fixes of the first opts.Top findings of res.Ranked
// that have one: each is applied alone in a copy of the module (as -fix
// would: formatted, imports tidied), the package's tests run, and its
// benchmarks are compared before and after (see bench.Verify), as are
// the compiler's decisions for the whole module; then all kept fixes are
// measured together, and the combined run must hold too. A fix that no
// benchmark executes is not tried, not kept, and does not change the
// status. Verify records the outcome in each finding tried (its Verify
// field) and writes fixes.patch and summary.md to opts.Dir if set. The
// error is an interruption (ctx) or a failure to write the files; a fix
// that could not be verified is in the outcome.
func Verify(ctx context.Context, res *driver.Result, opts Options) (*Outcome, error) {
	if opts.Top == 0 {
		opts.Top = 5
	}
	out := pickFixes(res.Ranked, opts.Top, res.Dirs)
	opts.progress("-verify: trying the %s of the top %s%s",
		plural.Noun(len(out.Fixes), "fix", "fixes"), plural.Count(len(out.Fixes), "finding that has one", "findings that have one"), skippedNote(out.Skipped))
	chooser := &chooser{pattern: opts.Bench, moduleDir: res.ModuleDir, progress: opts.progress, cover: map[string]*bench.Coverage{}, coverErr: map[string]error{}}
	interrupted := errors.New("verify interrupted")
	// One copy of the module for every fix, in which each fix compiles
	// only what it changes; and the compiler's decisions for the module
	// without any fix, the same for every fix, taken once.
	ws, err := bench.NewWorkspace(ctx, res.ModuleDir)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	defer ws.Close()
	sh := &shared{ws: ws}
	for _, v := range out.Fixes {
		f := v.Finding
		var pattern string
		v.dir = res.Dirs[f.Package]
		if p, names, d, runs, ok := measuredBenchmarks(f, res.Dirs, res.ModuleDir); ok && opts.Bench == "" {
			pattern, v.Benchmarks, v.runs, v.dir = p, names, runs, d
		} else {
			pattern, v.Benchmarks, v.runs, v.Unmeasured, v.Err = chooser.choose(ctx, f, v.dir)
		}
		if ctx.Err() != nil {
			return nil, interrupted
		}
		switch {
		case v.Err != nil:
			// Recorded below.
		case v.Unmeasured != "":
			opts.progress("#%d %s at %s:%d: %s", f.Rank, f.Analyzer, filepath.Base(f.File), f.Line, v.Unmeasured)
			f.Verify = &report.Verification{Summary: v.Unmeasured}
			continue
		default:
			with := ""
			if v.Benchmarks != nil {
				with = " with " + strings.Join(v.Benchmarks, ", ")
			}
			opts.progress("verifying #%d %s at %s:%d%s ...", f.Rank, f.Analyzer, filepath.Base(f.File), f.Line, with)
			v.Err = v.measure(ctx, []report.Finding{*f}, res.ModuleDir, opts, pattern, sh, true, f.Package)
			if v.Err == nil {
				v.judge()
				v.Err = unread(v.Result, v.Benchmarks)
			}
		}
		if ctx.Err() != nil {
			return nil, interrupted
		}
		if v.Err != nil {
			f.Verify = &report.Verification{Summary: "could not verify: " + v.Err.Error()}
			out.Status = max(out.Status, Failed)
			continue
		}
		f.Verify = &report.Verification{TestsPassed: v.Result.TestsPassed, Regressed: v.Result.Regressed() || v.Rejected != "", Summary: v.summary()}
		v.Kept = v.Result.TestsPassed && !v.Result.Regressed() && v.Rejected == ""
		if !v.Kept {
			v.Accepted = nil
			out.Status = max(out.Status, Broken)
		}
	}
	kept := keptFindings(out.Fixes)
	out.Kept = kept
	if len(kept) > 1 {
		// All kept fixes together, measured in each package they touch
		// by the benchmarks chosen for the fixes of that package.
		var dirs []string
		names := make(map[string][]string)
		for _, v := range out.Fixes {
			if !v.Kept {
				continue
			}
			if !slices.Contains(dirs, v.dir) {
				dirs = append(dirs, v.dir)
			}
			for _, n := range v.Benchmarks {
				if !slices.Contains(names[v.dir], n) {
					names[v.dir] = append(names[v.dir], n)
				}
			}
		}
		for _, d := range dirs {
			c := &Fix{Benchmarks: names[d], dir: d}
			pattern, with := opts.Bench, ""
			if opts.Bench == "" {
				pattern, with = benchPattern(c.Benchmarks), " with "+strings.Join(c.Benchmarks, ", ")
			}
			opts.progress("verifying the %d kept fixes together in %s%s ...", len(kept), filepath.Base(d), with)
			c.Err = c.measure(ctx, kept, res.ModuleDir, opts, pattern, sh, false, keptPackages(kept)...)
			if ctx.Err() != nil {
				return nil, interrupted
			}
			switch {
			case c.Err != nil:
				out.Status = max(out.Status, Failed)
			case !c.Result.TestsPassed || c.Result.Regressed():
				out.Status = max(out.Status, Broken)
			default:
				c.Kept = true
			}
			out.Together = append(out.Together, c)
		}
		for _, c := range out.Together {
			if !c.Kept {
				// The fixes do not hold together: apply none of them.
				out.Kept = nil
			}
		}
	}
	if opts.Dir != "" {
		if err := out.write(opts.Dir, res.ModuleDir, opts.Bench); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// progress tells opts.Progress a line.
func (opts *Options) progress(format string, args ...any) {
	if opts.Progress != nil {
		opts.Progress(fmt.Sprintf(format, args...))
	}
}

// pickFixes returns the first top findings of ranked that have a fix to
// try, and counts by analyzer those ranked among them that have none.
func pickFixes(ranked []report.Finding, top int, dirOf map[string]string) *Outcome {
	out := &Outcome{Skipped: make(map[string]int)}
	pending := make(map[string]int) // passed over since the last fix picked
	for i := range ranked {
		f := &ranked[i]
		if len(out.Fixes) >= top {
			break
		}
		switch {
		case len(f.Fixes) == 0:
			pending[f.Analyzer]++
		case dirOf[f.Package] == "":
			pending[f.Analyzer+" (package directory unknown)"]++
		default:
			for a, n := range pending {
				out.Skipped[a] += n
			}
			clear(pending)
			out.Fixes = append(out.Fixes, &Fix{Finding: f})
		}
	}
	if len(out.Fixes) == 0 {
		out.Skipped = pending
	}
	return out
}

// keptFindings returns the findings whose fix was kept alone.
func keptFindings(fixes []*Fix) []report.Finding {
	var out []report.Finding
	for _, v := range fixes {
		if v.Kept {
			out = append(out, *v.Finding)
		}
	}
	return out
}

// keptPackages returns the packages of the findings, whose tests a
// combined run of their fixes must pass wherever it measures them.
func keptPackages(kept []report.Finding) []string {
	var pkgs []string
	for _, f := range kept {
		if !slices.Contains(pkgs, f.Package) {
			pkgs = append(pkgs, f.Package)
		}
	}
	return pkgs
}

// measure applies the fixes of findings (as check -fix would: formatted,
// imports tidied) in a copy of the module and compares the tests and the
// benchmarks matching pattern of the package in v.dir before and after.
// The tests of the packages tests (import paths) must pass too. It
// measures in sh's copy of the module. With whole, it also compares the
// compiler's decisions for every package of the module in moduleDir
// (those without the fix taken once, kept in sh), and weighs those that
// got worse outside the
// findings' packages (see weigh); and for a fix that changes behaviour it
// records whether the package's tests execute the finding's line.
func (v *Fix) measure(ctx context.Context, findings []report.Finding, moduleDir string, opts Options, pattern string, sh *shared, whole bool, tests ...string) error {
	change, err := report.ApplyFixes(findings, os.ReadFile)
	if err != nil {
		return err
	}
	v.change = change
	if change.Applied == 0 {
		return fmt.Errorf("the fix does not apply: %s", strings.Join(change.Skipped, "; "))
	}
	var edits []bench.FileEdit
	for name, fc := range change.Files {
		edits = append(edits, bench.FileEdit{File: name, Start: 0, End: len(fc.Old), New: string(fc.New)})
	}
	bo := bench.VerifyOptions{
		Dir:       v.dir,
		Package:   ".",
		Edits:     edits,
		Tests:     tests,
		Bench:     pattern,
		Count:     opts.Count,
		Benchtime: opts.Benchtime,
		Threshold: 5,
		ModuleDir: moduleDir,
		Workspace: sh.ws,
	}
	if whole {
		bo.Snapshot = func(ctx context.Context, mdir string, edited bool) error {
			if !edited && sh.base != nil {
				return nil
			}
			with := []string{"without", "with"}[btoi(edited)]
			opts.progress("compiling the whole module %s the fix, for the compiler's decisions ...", with)
			snap, err := decisions.TakeSnapshot(ctx, mdir, nil, []string{"./..."})
			if err != nil {
				return fmt.Errorf("the compiler's decisions for the module %s the fix: %w", with, err)
			}
			if !edited {
				sh.base = snap
				return nil
			}
			rep := decisions.CompareSnapshots(sh.base, snap)
			var regs []decisions.Regression
			for _, f := range findings {
				regs = append(regs, rep.RegressionsOutside(f.Package)...)
			}
			if len(regs) == 0 {
				return nil
			}
			// The copy of the package measured, whose benchmarks may
			// run the new escapes.
			rel, err := filepath.Rel(realPath(moduleDir), realPath(v.dir))
			if err != nil || strings.HasPrefix(rel, "..") {
				return fmt.Errorf("the package %s is outside the module %s", v.dir, moduleDir)
			}
			opts.progress("weighing the compiler's %s in other packages ...", plural.Count(len(regs), "new decision", "new decisions"))
			v.elsewhere, err = weigh(ctx, mdir, filepath.Join(mdir, rel), pattern, findings[0], regs)
			if err != nil && ctx.Err() == nil {
				// Not weighed: none is accepted.
				v.elsewhere = make([]weighed, len(regs))
				for i, r := range regs {
					v.elsewhere[i] = weighed{Regression: r, why: "not weighed: " + err.Error()}
				}
				return nil
			}
			return err
		}
		for _, f := range findings {
			if report.ChangesBehaviour(f) != "" {
				bo.CoverLines = append(bo.CoverLines, bench.FileLine{File: f.File, Line: f.Line})
			}
		}
	}
	v.Result, err = bench.Verify(ctx, bo)
	return err
}

// shared is what the measures of one Verify share.
type shared struct {
	ws   *bench.Workspace    // the copy of the module measured in
	base *decisions.Snapshot // the compiler's decisions without a fix, once taken
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// judge sets v.Rejected, v.Note and v.Accepted from what measure found
// beyond the benchmarks: the compiler's decisions that got worse in other
// packages, and whether the tests run a fix that changes behaviour.
func (v *Fix) judge() {
	if v.Result == nil || !v.Result.TestsPassed {
		return
	}
	if len(v.elsewhere) > 0 {
		var bad, good []string
		for _, w := range v.elsewhere {
			if w.ok {
				good = append(good, w.Text+": "+w.why)
			} else {
				bad = append(bad, w.Text+": "+w.why)
			}
		}
		switch {
		case len(bad) > 0:
			v.Rejected = "makes the compiler's decisions worse in another package: " + firstOf(bad)
			return
		case !improved(v.Result):
			v.Rejected = "makes the compiler's decisions worse in another package, and no benchmark improved significantly to outweigh it: " + firstOf(good)
			return
		}
		v.Accepted = good
		v.Note = "the measured gain outweighs " + plural.Count(len(good), "new compiler decision", "new compiler decisions") + " in other packages"
	}
	if why := report.ChangesBehaviour(*v.Finding); why != "" {
		if len(v.Result.Uncovered) > 0 {
			v.Rejected = fmt.Sprintf("changes behaviour (%s), and no test covers line %d", why, v.Finding.Line)
			return
		}
		v.Note = joinNotes(v.Note, "behaviour change covered by tests")
	}
}

// joinNotes joins two notes with "; ", either of which may be empty.
func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// firstOf joins the first three items of list, and counts the rest.
func firstOf(list []string) string {
	const max = 3
	more := ""
	if len(list) > max {
		more = fmt.Sprintf(" (and %d more)", len(list)-max)
		list = list[:max]
	}
	return strings.Join(list, "; ") + more
}

// improved reports whether a benchmark of res improved significantly in
// some unit: allocs/op, which is counted exactly, by any amount; a
// measured time or size by more than the comparison's threshold, as a
// regression must be, since on a busy machine a small difference in time
// is significant by chance one time in forty.
func improved(res *bench.VerifyResult) bool {
	if res.Comparison == nil {
		return false
	}
	for _, r := range res.Comparison.Rows {
		if !r.Significant || (r.Verdict != bench.Better && r.Verdict != bench.Faster) {
			continue
		}
		if r.Unit == "allocs/op" || math.Abs(r.DeltaPct) > res.Comparison.Threshold {
			return true
		}
	}
	return false
}

// skippedNote says which findings -verify passed over, ranked above the
// last fix it tried (or all, if it tried none): "; passed over 3 findings
// ranked among them that have no fix (heapescape 2, inlinebudget 1)".
func skippedNote(skipped map[string]int) string {
	if len(skipped) == 0 {
		return ""
	}
	n := 0
	var parts []string
	for a, k := range skipped {
		n += k
		parts = append(parts, fmt.Sprintf("%s %d", a, k))
	}
	sort.Strings(parts)
	return fmt.Sprintf("; passed over %s ranked among them that %s no fix (%s)", plural.Count(n, "finding", "findings"), plural.Noun(n, "has", "have"), strings.Join(parts, ", "))
}

// realPath returns path with symbolic links resolved, or path itself if
// it cannot be resolved.
func realPath(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		return p
	}
	return path
}
