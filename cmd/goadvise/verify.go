package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/decisions"
	"github.com/goadvise/goadvise/internal/atomicfile"
	"github.com/goadvise/goadvise/report"
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
	verifyKept   = 0 // every verified fix was kept, alone and together
	verifyBroken = 1 // a fix broke the tests or regressed, alone or together
	verifyError  = 2 // the verification could not be done
)

// A verifiedFix is the outcome of trying one finding's fix.
type verifiedFix struct {
	f      *report.Finding
	change *report.FixResult
	res    *bench.VerifyResult
	err    error
	kept   bool
	// benchmarks are the benchmarks chosen to measure the fix (nil with
	// -verify-bench); unmeasured says why none was, and then the fix
	// was not tried.
	benchmarks []string
	unmeasured string
	// runs says what the chosen benchmarks execute: the finding's line,
	// or its function when no benchmark executes the line itself.
	runs string
	// benchDir is the directory of the package whose benchmarks measure
	// the fix when that is not the fix's own package (chosen from check
	// -bench's measurements); "" otherwise.
	benchDir string
	// rejected says why a fix whose tests pass and whose benchmarks do
	// not regress is not kept: it makes the compiler's decisions worse
	// in another package, or changes behaviour where no test runs.
	rejected string
	// note says why a fix that changes behaviour is kept.
	note string
}

// summary is the fix's verdict in one line, for the report and
// summary.md.
func (v *verifiedFix) summary() string {
	s := v.res.Summary()
	switch {
	case v.rejected != "":
		s += "; rejected: " + v.rejected
	case v.note != "":
		s += "; kept: " + v.note
	}
	return s
}

// A verifyRun is the outcome of check -verify.
type verifyRun struct {
	fixes    []*verifiedFix
	skipped  map[string]int // findings ranked above the last tried one that have no fix, by analyzer
	combined []*verifiedFix // all kept fixes together, one per package measured
	dirs     []string       // the package directory of each combined run
}

// A benchChooser chooses the benchmarks that measure a fix: those given
// by -verify-bench, or else the benchmarks of the fix's package that
// execute the finding's line, by their coverage, computed once per
// package.
type benchChooser struct {
	pattern   string // -verify-bench
	moduleDir string
	cover     map[string]*bench.Coverage // by package directory
	coverErr  map[string]error
}

// choose returns the -bench pattern that measures the fix of f, whose
// package is in dir, the benchmarks it names (nil with -verify-bench) and
// what they execute: the finding's line or, when no benchmark executes
// it (a case whose body never runs, merged into another), its function.
// When no benchmark executes either it returns an empty pattern and says
// so in unmeasured.
func (bc *benchChooser) choose(ctx context.Context, f *report.Finding, dir string) (pattern string, names []string, runs, unmeasured string, err error) {
	if bc.pattern != "" {
		return bc.pattern, nil, "", "", nil
	}
	c, err := bc.coverage(ctx, dir, f.Package)
	if err != nil {
		return "", nil, "", "", err
	}
	line := fmt.Sprintf("%s:%d", relTo(bc.moduleDir, f.File), f.Line)
	if names = c.Covering(f.File, f.Line); len(names) > 0 {
		return benchPattern(names), names, line, "", nil
	}
	if names = c.CoveringFunc(f.File, f.Line); len(names) > 0 {
		return benchPattern(names), names, "the function around " + line + " (none runs the line itself)", "", nil
	}
	return "", nil, "", fmt.Sprintf("no benchmark runs %s or its function; not measured", line), nil
}

// coverage returns the benchmark coverage of the package pkg in dir,
// computing it on first use.
func (bc *benchChooser) coverage(ctx context.Context, dir, pkg string) (*bench.Coverage, error) {
	if c, ok := bc.cover[dir]; ok {
		return c, bc.coverErr[dir]
	}
	fmt.Fprintf(os.Stderr, "goadvise: finding the benchmarks of %s that run the fixes' lines (each once with coverage, -benchtime=%s) ...\n", pkg, bench.CoverBenchtime)
	c, err := bench.BenchmarkCoverage(ctx, dir)
	if err != nil {
		err = fmt.Errorf("choosing the benchmarks (choose them with -verify-bench): %w", err)
	}
	if err == nil && len(c.Unreadable) > 0 {
		fmt.Fprintf(os.Stderr, "goadvise: %s of %s print while they run, which breaks their result lines: they are not used to measure fixes\n", strings.Join(c.Unreadable, ", "), pkg)
	}
	bc.cover[dir], bc.coverErr[dir] = c, err
	return c, err
}

// benchPattern returns the go test -bench pattern that runs exactly the
// top-level benchmarks names, with their sub-benchmarks.
func benchPattern(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

// verifyFindings checks the fixes of the first vf.top findings of ranked
// that have one: each is applied alone in a copy of the module, the
// package's tests run, and its benchmarks are compared before and after
// (see bench.Verify); then all kept fixes are measured together, and the
// combined run must hold too. The benchmarks of a fix are those matching
// vf.bench or, without it, those of its package that execute the
// finding's line; a fix that none executes is not tried, not kept, and
// does not change the exit status. It records the outcome in each finding,
// writes fixes.patch and summary.md to vf.dir if set, and returns the
// findings whose fix was kept and the exit status. The user's tree is not
// touched.
func verifyFindings(ranked []report.Finding, dirOf map[string]string, moduleDir string, vf verifyFlags) ([]report.Finding, int, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	run := pickFixes(ranked, vf.top, dirOf)
	fmt.Fprintf(os.Stderr, "goadvise: -verify: trying the %s of the top %s%s\n",
		report.Plural(len(run.fixes), "fix", "fixes"), report.Count(len(run.fixes), "finding that has one", "findings that have one"), skippedNote(run.skipped))
	chooser := &benchChooser{pattern: vf.bench, moduleDir: moduleDir, cover: map[string]*bench.Coverage{}, coverErr: map[string]error{}}
	status := verifyKept
	for _, v := range run.fixes {
		f := v.f
		var pattern string
		dir := dirOf[f.Package]
		if p, names, d, runs, ok := measuredBenchmarks(f, dirOf, moduleDir); ok && vf.bench == "" {
			pattern, v.benchmarks, v.runs, v.benchDir, dir = p, names, runs, d, d
		} else {
			pattern, v.benchmarks, v.runs, v.unmeasured, v.err = chooser.choose(ctx, f, dir)
		}
		if ctx.Err() != nil {
			return nil, verifyError, fmt.Errorf("verify interrupted")
		}
		switch {
		case v.err != nil:
			// Reported below.
		case v.unmeasured != "":
			fmt.Fprintf(os.Stderr, "goadvise: #%d %s at %s:%d: %s\n", f.Rank, f.Analyzer, filepath.Base(f.File), f.Line, v.unmeasured)
			f.Verify = &report.Verification{Summary: v.unmeasured}
			continue
		default:
			with := ""
			if v.benchmarks != nil {
				with = " with " + strings.Join(v.benchmarks, ", ")
			}
			fmt.Fprintf(os.Stderr, "goadvise: verifying #%d %s at %s:%d%s ...\n", f.Rank, f.Analyzer, filepath.Base(f.File), f.Line, with)
			var elsewhere []string
			v.change, v.res, elsewhere, v.err = measure(ctx, []report.Finding{*f}, dir, moduleDir, vf, pattern, true, f.Package)
			if v.err == nil {
				v.judge(elsewhere)
			}
			if v.err == nil {
				v.err = unread(v.res, v.benchmarks)
			}
		}
		if ctx.Err() != nil {
			return nil, verifyError, fmt.Errorf("verify interrupted")
		}
		if v.err != nil {
			f.Verify = &report.Verification{Summary: "could not verify: " + v.err.Error()}
			status = max(status, verifyError)
			continue
		}
		f.Verify = &report.Verification{TestsPassed: v.res.TestsPassed, Regressed: v.res.Regressed() || v.rejected != "", Summary: v.summary()}
		v.kept = v.res.TestsPassed && !v.res.Regressed() && v.rejected == ""
		if !v.kept {
			status = max(status, verifyBroken)
		}
	}
	kept := keptFindings(run.fixes)
	if len(kept) > 1 {
		// All kept fixes together, measured in each package they touch
		// by the benchmarks chosen for the fixes of that package.
		var dirs []string
		names := make(map[string][]string)
		for _, v := range run.fixes {
			if !v.kept {
				continue
			}
			d := dirOf[v.f.Package]
			if v.benchDir != "" {
				d = v.benchDir
			}
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
			for _, n := range v.benchmarks {
				if !slices.Contains(names[d], n) {
					names[d] = append(names[d], n)
				}
			}
		}
		for _, d := range dirs {
			c := &verifiedFix{benchmarks: names[d]}
			pattern, with := vf.bench, ""
			if vf.bench == "" {
				pattern, with = benchPattern(c.benchmarks), " with "+strings.Join(c.benchmarks, ", ")
			}
			fmt.Fprintf(os.Stderr, "goadvise: verifying the %d kept fixes together in %s%s ...\n", len(kept), filepath.Base(d), with)
			c.change, c.res, _, c.err = measure(ctx, kept, d, moduleDir, vf, pattern, false, keptPackages(kept)...)
			if ctx.Err() != nil {
				return nil, verifyError, fmt.Errorf("verify interrupted")
			}
			switch {
			case c.err != nil:
				status = max(status, verifyError)
			case !c.res.TestsPassed || c.res.Regressed():
				status = max(status, verifyBroken)
			default:
				c.kept = true
			}
			run.combined = append(run.combined, c)
			run.dirs = append(run.dirs, d)
		}
		for _, c := range run.combined {
			if !c.kept {
				// The fixes do not hold together: apply none of them.
				kept = nil
			}
		}
	}
	if vf.dir != "" {
		if err := run.write(vf.dir, moduleDir, vf.bench, kept); err != nil {
			return nil, verifyError, err
		}
	}
	return kept, status, nil
}

// pickFixes returns the first top findings of ranked that have a fix to
// try, and counts by analyzer those ranked among them that have none.
func pickFixes(ranked []report.Finding, top int, dirOf map[string]string) *verifyRun {
	run := &verifyRun{skipped: make(map[string]int)}
	pending := make(map[string]int) // passed over since the last fix picked
	for i := range ranked {
		f := &ranked[i]
		if len(run.fixes) >= top {
			break
		}
		switch {
		case len(f.Fixes) == 0:
			pending[f.Analyzer]++
		case dirOf[f.Package] == "":
			pending[f.Analyzer+" (package directory unknown)"]++
		default:
			for a, n := range pending {
				run.skipped[a] += n
			}
			clear(pending)
			run.fixes = append(run.fixes, &verifiedFix{f: f})
		}
	}
	if len(run.fixes) == 0 {
		run.skipped = pending
	}
	return run
}

// keptFindings returns the findings whose fix was kept alone.
func keptFindings(fixes []*verifiedFix) []report.Finding {
	var out []report.Finding
	for _, v := range fixes {
		if v.kept {
			out = append(out, *v.f)
		}
	}
	return out
}

// measure applies the fixes of findings (as check -fix would: formatted,
// imports tidied) in a copy of the module and compares the tests and the
// benchmarks matching pattern of the package in dir before and after.
// The tests of the packages tests (import paths) must pass too.
// With whole, it also compares the compiler's decisions for every package
// of the module in moduleDir, and returns those that got worse outside
// the findings' packages (see decisions.DiffReport.RegressionsOutside);
// and for a fix that changes behaviour it records whether the package's
// tests execute the finding's line.
func measure(ctx context.Context, findings []report.Finding, dir, moduleDir string, vf verifyFlags, pattern string, whole bool, tests ...string) (*report.FixResult, *bench.VerifyResult, []string, error) {
	change, err := report.ApplyFixes(findings, os.ReadFile)
	if err != nil {
		return nil, nil, nil, err
	}
	if change.Applied == 0 {
		return change, nil, nil, fmt.Errorf("the fix does not apply: %s", strings.Join(change.Skipped, "; "))
	}
	var edits []bench.FileEdit
	for name, fc := range change.Files {
		edits = append(edits, bench.FileEdit{File: name, Start: 0, End: len(fc.Old), New: string(fc.New)})
	}
	opts := bench.VerifyOptions{
		Dir:       dir,
		Package:   ".",
		Edits:     edits,
		Tests:     tests,
		Bench:     pattern,
		Count:     vf.count,
		Benchtime: vf.benchtime,
		Threshold: 5,
		ModuleDir: moduleDir,
	}
	var snaps [2]*decisions.Snapshot
	if whole {
		opts.Snapshot = func(ctx context.Context, mdir string, edited bool) error {
			i := 0
			if edited {
				i = 1
			}
			fmt.Fprintf(os.Stderr, "goadvise: compiling the whole module %s the fix, for the compiler's decisions ...\n", []string{"without", "with"}[i])
			var err error
			snaps[i], err = decisions.TakeSnapshot(ctx, mdir, nil, []string{"./..."})
			if err != nil {
				return fmt.Errorf("the compiler's decisions for the module %s the fix: %w", []string{"without", "with"}[i], err)
			}
			return nil
		}
		for _, f := range findings {
			if report.ChangesBehaviour(f) != "" {
				opts.CoverLines = append(opts.CoverLines, bench.FileLine{File: f.File, Line: f.Line})
			}
		}
	}
	res, err := bench.Verify(ctx, opts)
	if err != nil || snaps[1] == nil {
		return change, res, nil, err
	}
	rep := decisions.CompareSnapshots(snaps[0], snaps[1])
	var elsewhere []string
	for _, f := range findings {
		for _, r := range rep.RegressionsOutside(f.Package) {
			elsewhere = append(elsewhere, r.Text)
		}
	}
	return change, res, elsewhere, nil
}

// judge sets v.rejected or v.note from what measure found beyond the
// benchmarks: the compiler's decisions that got worse in other packages
// (elsewhere), and whether the tests run a fix that changes behaviour.
func (v *verifiedFix) judge(elsewhere []string) {
	if v.res == nil || !v.res.TestsPassed {
		return
	}
	if len(elsewhere) > 0 {
		const max = 3
		more := ""
		if len(elsewhere) > max {
			more = fmt.Sprintf(" (and %d more)", len(elsewhere)-max)
			elsewhere = elsewhere[:max]
		}
		v.rejected = "makes the compiler's decisions worse in another package: " + strings.Join(elsewhere, "; ") + more
		return
	}
	if why := report.ChangesBehaviour(*v.f); why != "" {
		if len(v.res.Uncovered) > 0 {
			v.rejected = fmt.Sprintf("changes behaviour (%s), and no test covers line %d", why, v.f.Line)
		} else {
			v.note = "behaviour change covered by tests"
		}
	}
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
	return fmt.Sprintf("; passed over %s ranked among them that %s no fix (%s)", report.Count(n, "finding", "findings"), report.Plural(n, "has", "have"), strings.Join(parts, ", "))
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

// write writes fixes.patch (the fixes of kept, git apply-able from the
// module root: what -fix would apply, so nothing when the kept fixes do not
// hold together) and summary.md (each fix with its diff, the benchmarks
// that measured it and its benchstat table, then the combined table) to
// dir. benchFlag is -verify-bench.
func (run *verifyRun) write(dir, moduleDir, benchFlag string, kept []report.Finding) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	var patch bytes.Buffer
	if len(kept) > 0 {
		all, err := report.ApplyFixes(kept, os.ReadFile)
		if err != nil {
			return err
		}
		if err := report.WriteDiff(&patch, all, moduleDir); err != nil {
			return err
		}
	}
	var md bytes.Buffer
	fmt.Fprintf(&md, "# goadvise: verified fixes\n\n")
	unmeasured := 0
	for _, v := range run.fixes {
		if v.unmeasured != "" {
			unmeasured++
		}
	}
	notMeasured := ""
	if unmeasured > 0 {
		notMeasured = fmt.Sprintf(", %d not measured (no benchmark runs the finding's line)", unmeasured)
	}
	fmt.Fprintf(&md, "%d of %s kept%s%s.\n", len(keptFindings(run.fixes)), report.Count(len(run.fixes), "fix", "fixes"), notMeasured, skippedNote(run.skipped))
	if len(kept) == 0 && len(keptFindings(run.fixes)) > 0 {
		fmt.Fprintf(&md, "\nThe kept fixes do not hold together: fixes.patch is empty, as -fix would apply none of them.\n")
	}
	for i, v := range run.fixes {
		f := v.f
		verdict := "kept"
		switch {
		case v.err != nil:
			verdict = "not verified: " + v.err.Error()
		case v.unmeasured != "":
			verdict = v.unmeasured
		case !v.kept:
			verdict = "dropped: " + v.summary()
		case v.note != "":
			verdict = "kept: " + v.note
		}
		fmt.Fprintf(&md, "\n## %d. %s at %s:%d (%s)\n\n%s\n\n", i+1, f.Analyzer, relTo(moduleDir, f.File), f.Line, verdict, f.Message)
		if v.err == nil && v.unmeasured == "" {
			fmt.Fprintf(&md, "%s\n\n", benchmarksUsed(v.benchmarks, benchFlag, v.runs))
		}
		if v.change != nil {
			fmt.Fprintf(&md, "```diff\n")
			if err := report.WriteDiff(&md, v.change, moduleDir); err != nil {
				return err
			}
			fmt.Fprintf(&md, "```\n\n")
		}
		if err := writeTable(&md, v.res); err != nil {
			return err
		}
	}
	for i, c := range run.combined {
		verdict := "holds"
		switch {
		case c.err != nil:
			verdict = "not verified: " + c.err.Error()
		case !c.kept:
			verdict = "does not hold: " + c.res.Summary()
		}
		where := relTo(moduleDir, run.dirs[i])
		if where == "." {
			where = "the module's root package"
		}
		fmt.Fprintf(&md, "\n## All %d kept fixes together, measured in %s (%s)\n\n", len(keptFindings(run.fixes)), where, verdict)
		fmt.Fprintf(&md, "%s\n\n", benchmarksUsed(c.benchmarks, benchFlag, "the kept fixes' lines"))
		if err := writeTable(&md, c.res); err != nil {
			return err
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "fixes.patch"), patch.Bytes(), atomicfile.Replace); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "summary.md"), md.Bytes(), atomicfile.Replace); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	return nil
}

// benchmarksUsed says in summary.md which benchmarks measured a fix: the
// benchmarks names, which execute what, or those that -verify-bench
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

// writeTable writes the benchstat table of res and its allocs/op change in
// summary.md's form.
func writeTable(md *bytes.Buffer, res *bench.VerifyResult) error {
	if res == nil || res.Comparison == nil {
		if res != nil {
			fmt.Fprintf(md, "%s\n", res.Summary())
		}
		return nil
	}
	fmt.Fprintf(md, "%s\n\n```\n", res.Summary())
	if err := bench.Write(md, res.Comparison, bench.FormatText); err != nil {
		return err
	}
	fmt.Fprintf(md, "```\n")
	if d, ok := allocsDelta(res); ok {
		fmt.Fprintf(md, "\nallocs/op change, summed over the benchmarks: %+g\n", d)
	}
	return nil
}

// relTo returns path relative to dir when it lies inside it.
func relTo(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}

// verifyExit returns check -verify's exit status: an error of the check
// itself (a package that failed to load) is an error of the verification.
func verifyExit(status, verify int) int {
	if status != exitOK {
		return verifyError
	}
	return verify
}

// unread returns an error naming the chosen benchmarks that gave no result
// goadvise could read, before or after the fix: a benchmark that prints
// to stdout while it runs breaks its own result line, and a fix judged
// without it would be judged on the others alone.
func unread(res *bench.VerifyResult, names []string) error {
	if res == nil || res.Comparison == nil || len(names) == 0 {
		return nil
	}
	both := make(map[string]bool)
	for _, r := range res.Comparison.Rows {
		if r.Base != nil && r.Head != nil {
			name, _, _ := strings.Cut(r.Name, "/")
			both["Benchmark"+procsSuffix.ReplaceAllString(name, "")] = true
		}
	}
	var missing []string
	for _, n := range names {
		if !both[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%s gave no result that could be read before and after the fix (a benchmark that prints to its output breaks its result line): measure with -verify-bench naming the others", strings.Join(missing, ", "))
}

// procsSuffix is the -GOMAXPROCS suffix of a benchmark's name.
var procsSuffix = regexp.MustCompile(`-\d+$`)
