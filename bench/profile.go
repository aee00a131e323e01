package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/internal/gocmd"
)

// DefaultProfileBenchtime is the default -benchtime of the CPU-profiled
// run of each benchmark in Profile: short, since a check measures every
// benchmark of the module, yet about ten CPU samples per benchmark.
const DefaultProfileBenchtime = "100ms"

// DefaultBudget is the default bound on the time Profile spends running
// benchmarks.
const DefaultBudget = 5 * time.Minute

// heapBase is the -benchtime, in iterations, of the first of the two
// heap-profiled runs of a benchmark: more than one, so that a benchmark
// using b.N runs its set-up twice in both runs (testing runs b.N=1 first,
// then b.N=Nx unless N is 1) and a benchmark using b.Loop once in both.
const heapBase = 2

// maxHeapOps bounds the iterations by which the second heap-profiled run
// exceeds the first: with -memprofilerate=1 every allocation records its
// stack, which slows allocating code down several times.
const maxHeapOps = 100

// heapEnv is the environment of the heap-profiled runs: the collector
// runs only when the testing package asks before each run of a benchmark
// (or when the heap reaches 1 GiB), and on one P, so that what depends on
// collections and on the scheduler (sync.Pool's per-P caches, weak
// caches, the goroutines of b.RunParallel) is the same in both runs and
// cancels out.
var heapEnv = []string{"GOGC=off", "GOMEMLIMIT=1GiB", "GOMAXPROCS=1"}

// ProfileOptions configures Profile.
type ProfileOptions struct {
	// Dir is a directory of the module whose packages are measured. The
	// module is copied to a temporary directory and the benchmarks run
	// there, so that benchmarks writing files do not write them in the
	// user's tree.
	Dir string

	// Packages are the packages whose benchmarks are run.
	Packages []ProfilePackage

	// Bench is the benchmark regular expression, as for go test -bench;
	// "" means ".".
	Bench string

	// Benchtime is the -benchtime of the CPU-profiled runs; "" means
	// DefaultProfileBenchtime.
	Benchtime string

	// Budget bounds the time spent; 0 means DefaultBudget. A benchmark
	// still running when it is spent is stopped and reported as skipped,
	// as are those not yet run.
	Budget time.Duration

	// Progress, if not nil, is told which benchmark runs and the time
	// left, whenever that changes.
	Progress func(msg string)
}

// A ProfilePackage is a package whose benchmarks Profile runs.
type ProfilePackage struct {
	ImportPath string
	// Dir is the package's directory.
	Dir string
	// Key is the package's content key (its files, its test files and
	// its dependencies): measurements under the same key, Bench and
	// Benchtime, with the same testdata tree and runtime settings, are
	// taken from the cache while what the benchmarks read is unchanged
	// (see input). "" means not cached.
	Key string
}

// A Measured is one benchmark (a top-level benchmark or a sub-benchmark
// that has no sub-benchmarks of its own) as Profile measured it.
type Measured struct {
	Package string // import path of the package declaring it
	Name    string // "BenchmarkReader/plain", without the -GOMAXPROCS suffix

	// N is the number of iterations of the CPU-profiled run's result;
	// CPU is that run's CPU profile (gzip-compressed pprof).
	N   int
	CPU []byte

	// Heap is a heap profile, recorded with -memprofilerate=1, of the
	// allocations of exactly Ops iterations: the difference between
	// two runs of heapBase and heapBase+Ops iterations, which removes
	// the allocations of the program's start, of the benchmark's set-up
	// and of the iterations both runs make.
	Ops  int
	Heap []byte
}

// NotRun is the Reason of the benchmarks Profile did not run because
// the budget was spent.
const NotRun = "not run: the budget was spent"

// A SkippedBenchmark is a benchmark whose measurement failed.
type SkippedBenchmark struct {
	Package string
	Name    string // the benchmark, or "" for all the package's
	Reason  string // one line
}

// Measurements are the result of Profile.
type Measurements struct {
	Benchmarks []*Measured
	Skipped    []SkippedBenchmark
	// Packages is the number of packages with matching benchmarks, and
	// Cached the number of those whose measurements came from the cache.
	Packages, Cached int
	// Runs is the number of test binaries built or run.
	Runs int
}

// profileCache holds the measurements of a package, by key.
var profileCache = cache.New("benchprof")

// cachedProfile is what the cache holds for a package.
type cachedProfile struct {
	// Inputs are what the benchmarks read, with its state when they
	// ran: the entry holds while none has changed.
	Inputs     []input
	Benchmarks []*Measured
	Skipped    []SkippedBenchmark
	None       bool // the package has no matching benchmark
}

// Profile runs the benchmarks of the packages matching opts.Bench, one
// (sub-)benchmark at a time, in a copy of the module: once for
// opts.Benchtime with a CPU profile, then twice for a fixed number of
// iterations with every allocation recorded (after one iteration of its
// top-level benchmark, which lists its sub-benchmarks), and returns the profiles.
// Allocations per iteration at a line are the difference of the two heap
// profiles at the line divided by Measured.Ops: exact for code whose
// allocations do not depend on timing.
//
// A benchmark that skips itself, fails, exits without PASS (os.Exit) or
// is still running when the budget is spent is skipped, with the reason,
// and the others are kept. Profile returns an error only when the module
// cannot be copied or the context is cancelled.
//
// The measurements of a package are cached, with what its benchmarks
// read (see input), unless the budget cut them short or a run of its
// test binary ended without the testing package writing its test log
// (a benchmark crashed it): what such a run read is unknown.
func Profile(ctx context.Context, opts ProfileOptions) (m *Measurements, err error) {
	if opts.Bench == "" {
		opts.Bench = "."
	}
	if opts.Benchtime == "" {
		opts.Benchtime = DefaultProfileBenchtime
	}
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	if opts.Progress == nil {
		opts.Progress = func(string) {}
	}
	top, rest, _ := strings.Cut(opts.Bench, "/")
	if _, err := regexp.Compile(top); err != nil {
		return nil, fmt.Errorf("-bench: %w", err)
	}
	m = &Measurements{}
	salt := fmt.Sprintf("goadvise-benchprof-v2\nbench=%s\nbenchtime=%s\n", opts.Bench, opts.Benchtime)
	key := func(p ProfilePackage) string {
		if p.Key == "" || p.Dir == "" {
			return ""
		}
		static, ok := staticKey(p.Dir)
		if !ok {
			return ""
		}
		sum := sha256.Sum256([]byte(salt + p.Key + "\n" + static))
		return hex.EncodeToString(sum[:])
	}

	// The packages measured before are taken from the cache, if what
	// their benchmarks read is unchanged.
	type pkgRun struct {
		ProfilePackage
		key   string
		bin   *testBinary
		names []string
		reads *reads
		res   cachedProfile
		timed bool // the budget stopped one of its benchmarks
	}
	var runs []*pkgRun
	for _, p := range opts.Packages {
		k := key(p)
		if k != "" {
			if data, ok := profileCache.Get(k); ok {
				var c cachedProfile
				if json.Unmarshal(data, &c) == nil && changed(c.Inputs) == "" {
					if !c.None {
						m.Packages++
						m.Cached++
					}
					m.Benchmarks = append(m.Benchmarks, c.Benchmarks...)
					m.Skipped = append(m.Skipped, c.Skipped...)
					continue
				}
			}
		}
		runs = append(runs, &pkgRun{ProfilePackage: p, key: k})
	}
	if len(runs) == 0 {
		return m, nil
	}

	deadline := time.Now().Add(opts.Budget)
	bctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	tmp, err := os.MkdirTemp("", "goadvise-benchprof-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if rerr := os.RemoveAll(tmp); rerr != nil && err == nil {
			err = rerr
		}
	}()
	opts.Progress("copying the module to run its benchmarks")
	copied := time.Now()
	root, cdir, err := copyPackage(ctx, opts.Dir, filepath.Join(tmp, "src"))
	if err != nil {
		return nil, err
	}
	// The profiles name the user's files, not the copy's.
	rel := &relocation{from: []string{filepath.Join(tmp, "src"), realPath(filepath.Join(tmp, "src"))}, to: root}

	// Build every test binary and list its benchmarks first, so that
	// the progress can tell how many are left.
	total := 0
	for i, r := range runs {
		opts.Progress("building the test binary of " + r.ImportPath)
		r.reads = newReads(rel)
		pkgs, err := listPackages(bctx, cdir, []string{r.ImportPath})
		if err == nil && len(pkgs) != 1 {
			err = fmt.Errorf("%d packages, want one", len(pkgs))
		}
		if err == nil {
			r.bin = pkgs[0]
			r.bin.path = filepath.Join(tmp, "bin", fmt.Sprintf("%d.test", i))
			m.Runs++
			err = buildTest(bctx, cdir, r.bin, "")
		}
		if err == nil {
			r.names, err = listBenchmarks(bctx, r.bin, top)
			if err != nil {
				// The test binary failed to start: what it read,
				// in its TestMain or its package's initialisation,
				// is unknown.
				r.reads.complete = false
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			r.timed = bctx.Err() != nil
			r.res.Skipped = append(r.res.Skipped, SkippedBenchmark{Package: r.ImportPath, Reason: oneLine(err)})
			continue
		}
		r.res.None = len(r.names) == 0
		total += len(r.names)
	}

	start, done := time.Now(), 0
	for _, r := range runs {
		br := &binRun{parent: ctx, ctx: bctx, budget: opts.Budget, bin: r.bin, tmp: tmp, rel: rel, reads: r.reads, runs: &m.Runs}
		for _, name := range r.names {
			eta := "?"
			if done > 0 {
				eta = (time.Duration(float64(time.Since(start)) / float64(done) * float64(total-done))).Round(time.Second).String()
			}
			n := done + 1
			show := func(what string) {
				opts.Progress(fmt.Sprintf("benchmark %s (%d of %d, ETA %s)", what, n, total, eta))
			}
			show(name)
			done++
			if bctx.Err() != nil {
				r.timed = true
				r.res.Skipped = append(r.res.Skipped, SkippedBenchmark{Package: r.ImportPath, Name: name, Reason: NotRun})
				continue
			}
			ms, skipped := br.measure(name, rest, opts.Benchtime, show)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			r.timed = r.timed || bctx.Err() != nil
			r.res.Benchmarks = append(r.res.Benchmarks, ms...)
			r.res.Skipped = append(r.res.Skipped, skipped...)
		}
	}
	for _, r := range runs {
		if !r.res.None {
			m.Packages++
		}
		m.Benchmarks = append(m.Benchmarks, r.res.Benchmarks...)
		m.Skipped = append(m.Skipped, r.res.Skipped...)
		// A measurement the budget cut short depends on the budget,
		// one whose inputs are not all known may depend on anything,
		// and one whose testdata changed during the run on both
		// versions: they are not kept.
		if r.key == "" || r.timed || key(r.ProfilePackage) != r.key {
			continue
		}
		in, ok := r.reads.inputs(copied)
		if !ok {
			continue
		}
		r.res.Inputs = in
		if data, err := json.Marshal(&r.res); err == nil {
			profileCache.Put(r.key, data)
		}
	}
	return m, nil
}

// listBenchmarks returns the top-level benchmarks of the test binary
// matching the regular expression re.
func listBenchmarks(ctx context.Context, b *testBinary, re string) ([]string, error) {
	if !b.hasTests {
		return nil, nil
	}
	cmd := exec.CommandContext(ctx, b.path, "-test.list", re)
	cmd.Dir = b.dir
	gocmd.InterruptOnCancel(cmd)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the benchmarks: %v", err)
	}
	var names []string
	for _, name := range strings.Fields(string(out)) {
		if strings.HasPrefix(name, "Benchmark") {
			names = append(names, name)
		}
	}
	return names, nil
}

// maxCrashes bounds the sub-benchmarks of one top-level benchmark that
// crash the test binary and are named before the others are given up.
const maxCrashes = 10

// A binRun runs the test binary of one package for Profile.
type binRun struct {
	parent context.Context // Profile's: its cancellation is the user's
	ctx    context.Context // parent with the budget's deadline
	budget time.Duration
	bin    *testBinary
	tmp    string
	rel    *relocation
	reads  *reads // what the runs read
	runs   *int   // counts the runs
}

// measure measures the top-level benchmark name, or those of its
// sub-benchmarks that match rest (the part of -bench after the first
// slash): see Profile. show is told which benchmark runs.
func (r *binRun) measure(name, rest, benchtime string, show func(string)) ([]*Measured, []SkippedBenchmark) {
	skip := func(name, reason string) SkippedBenchmark {
		return SkippedBenchmark{Package: r.bin.importPath, Name: name, Reason: reason}
	}
	pattern := "^" + regexp.QuoteMeta(name) + "$"
	if rest != "" {
		pattern += "/" + rest
	}
	// One iteration of each, with the testing package's verbose output,
	// lists the benchmarks to measure (the top-level one or its
	// sub-benchmarks) and names those that skip themselves or fail. A
	// sub-benchmark that crashes the binary or does not finish is named
	// and left out of the next run (-test.skip), so that it does not
	// hide the others.
	var skipped, bad []SkippedBenchmark
	var without []string
	var l *listing
	for {
		flags := []string{"-test.benchtime=1x", "-test.v=test2json"}
		if len(without) > 0 {
			flags = append(flags, "-test.skip="+strings.Join(without, "|"))
		}
		out, err := r.run(pattern, nil, flags...)
		if err != nil && r.ctx.Err() != nil {
			return nil, append(bad, skip(name, oneLine(err)))
		}
		l = readListing(out)
		skipped = skipped[:0]
		for _, s := range append(l.skipped, l.failed...) {
			skipped = append(skipped, skip(s.Name, s.Reason))
		}
		crashed := err != nil && !l.ended
		// A benchmark that did not finish, if the binary then crashed,
		// is what crashed it: the testing package went on before the
		// runtime reported its panic (see unfinished), perhaps to
		// start the next benchmark, which is not to blame.
		var fresh []SkippedBenchmark
		for _, u := range l.unfinished {
			reason := errUnfinished.Error()
			if crashed && len(fresh) == 0 {
				reason = err.Error()
			}
			fresh = append(fresh, skip(u, reason))
		}
		if crashed && len(fresh) == 0 {
			c := l.running
			if c == "" {
				c = name
			}
			fresh = append(fresh, skip(c, err.Error()))
		}
		bad = append(bad, fresh...)
		if !crashed {
			if err != nil && len(l.failed) == 0 && len(fresh) == 0 {
				// Failed, but none of its benchmarks did: TestMain
				// or a test of the package.
				return nil, append(bad, skip(name, err.Error()))
			}
			break
		}
		for _, f := range fresh {
			if !strings.HasPrefix(f.Name, name+"/") {
				// The top-level benchmark's own code: its
				// sub-benchmarks cannot run without it.
				return nil, append(r.explain(bad), skipped...)
			}
			without = append(without, leafPattern(f.Name))
		}
		if len(without) > maxCrashes {
			return nil, append(r.explain(bad), skip(name, fmt.Sprintf("its other sub-benchmarks are not measured: %d crash the test binary", len(without))))
		}
	}
	skipped = append(r.explain(bad), skipped...)
	cpu := filepath.Join(r.tmp, "cpu.pprof")
	var out []*Measured
	for _, res := range l.results {
		if r.ctx.Err() != nil {
			skipped = append(skipped, skip(res.name, NotRun))
			continue
		}
		show(res.name)
		leaf := &Measured{Package: r.bin.importPath, Name: res.name}
		// A CPU profile of this benchmark alone.
		rs, err := results(r.run(leafPattern(res.name), nil, "-test.benchtime="+benchtime, "-test.cpuprofile="+cpu))
		if err == nil && len(rs) != 1 {
			err = fmt.Errorf("running it alone gives %d results", len(rs))
		}
		if err != nil {
			skipped = append(skipped, skip(res.name, oneLine(err)))
			continue
		}
		leaf.N = rs[0].n
		if leaf.CPU, err = r.rel.read(cpu); err != nil {
			skipped = append(skipped, skip(res.name, oneLine(err)))
			continue
		}
		leaf.Ops = min(max(leaf.N/10, 1), maxHeapOps)
		var heap [2]*profile.Profile
		for i, n := range []int{heapBase, heapBase + leaf.Ops} {
			mem := filepath.Join(r.tmp, fmt.Sprintf("mem%d.pprof", i))
			_, err = results(r.run(leafPattern(res.name), heapEnv, fmt.Sprintf("-test.benchtime=%dx", n), "-test.memprofile="+mem, "-test.memprofilerate=1"))
			if err == nil {
				heap[i], err = readProfile(mem)
			}
			if err == nil {
				r.rel.apply(heap[i])
			}
			if err != nil {
				break
			}
		}
		if err == nil {
			leaf.Heap, err = heapDiff(heap[1], heap[0])
		}
		if err != nil {
			skipped = append(skipped, skip(res.name, oneLine(err)))
			continue
		}
		out = append(out, leaf)
	}
	return out, skipped
}

// leafPattern returns the -bench pattern that matches exactly the
// benchmark with the full name given ("BenchmarkReader/plain").
func leafPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// A benchResult is one result line of a run.
type benchResult struct {
	name string // without the -GOMAXPROCS suffix
	n    int
}

// maxUnfinished bounds the runs that look for the reason of an
// unfinished benchmark.
const maxUnfinished = 3

// explain runs alone each of the benchmarks that did not finish without
// a word of why, to learn why: usually the runtime wins the race that
// unfinished describes. A benchmark keeps errUnfinished's words if it
// lost every run.
func (r *binRun) explain(bad []SkippedBenchmark) []SkippedBenchmark {
	for i, b := range bad {
		for try := 0; try < maxUnfinished && b.Reason == errUnfinished.Error() && r.ctx.Err() == nil; try++ {
			_, err := results(r.run(leafPattern(b.Name), nil, "-test.benchtime=1x"))
			if err != nil && !errors.Is(err, errUnfinished) {
				bad[i].Reason = oneLine(err)
				break
			}
		}
	}
	return bad
}

// run runs the benchmarks of the binary matching pattern once, with the
// extra flags and environment, and returns its output; its test log
// goes to r.reads. A run that fails or exits without PASS is an error
// whose first line says why; so is one the budget stopped, which is
// told to dump its goroutines (SIGQUIT) so that the error can say what
// the benchmark was doing. A cancellation by the user is returned as
// the context's error.
func (r *binRun) run(pattern string, env []string, flags ...string) ([]byte, error) {
	*r.runs++
	log := filepath.Join(r.tmp, "testlog.txt")
	os.Remove(log)
	// As go test does, make os.Exit(0) in a benchmark a failure.
	args := append([]string{"-test.run=^$", "-test.bench=" + pattern, "-test.count=1", "-test.paniconexit0", "-test.testlogfile=" + log}, flags...)
	cmd := exec.CommandContext(r.ctx, r.bin.path, args...)
	cmd.Dir = r.bin.dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	gocmd.InterruptOnCancel(cmd)
	gocmd.QuitOnDeadline(cmd, r.parent)
	err := cmd.Run()
	out := buf.Bytes()
	if err != nil && r.ctx.Err() != nil {
		r.reads.complete = false
		if r.parent.Err() != nil {
			return out, r.parent.Err()
		}
		reason := fmt.Sprintf("still running when the budget of %v was spent", r.budget)
		if s := stuck(string(out), r.rel); s != "" {
			reason += ": " + s
		}
		return out, errors.New(reason)
	}
	// The testing package writes the log when the benchmarks are done,
	// passed or failed: a binary that ended otherwise did not.
	ended := lastLine(out)
	if ended == "PASS" || ended == "FAIL" {
		r.reads.add(log, r.bin.dir)
	} else {
		r.reads.complete = false
	}
	if err != nil {
		return out, fmt.Errorf("failed (%v): %s", err, why(string(out)))
	}
	if ended != "PASS" {
		return out, fmt.Errorf("the test binary exited without PASS (os.Exit in a benchmark?): %s", why(string(out)))
	}
	return out, nil
}

// lastLine returns the last line of a run's output, without the framing
// of -test.v=test2json.
func lastLine(out []byte) string {
	out = bytes.TrimRight(out, "\n")
	return strings.TrimPrefix(string(out[bytes.LastIndexByte(out, '\n')+1:]), "\x16")
}

// results returns the results of a run's output, or the run's error, or
// errUnfinished if a benchmark did not finish.
func results(out []byte, err error) ([]benchResult, error) {
	if err != nil {
		return nil, err
	}
	if len(unfinished(out)) > 0 {
		return nil, errUnfinished
	}
	set, err := parse(bytes.NewReader(out), "")
	if err != nil {
		return nil, err
	}
	var res []benchResult
	for _, r := range set.results {
		res = append(res, benchResult{name: "Benchmark" + trimProcs(string(r.Name)), n: r.Iters})
	}
	return res, nil
}

func readProfile(name string) (*profile.Profile, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return profile.ParseData(data)
}

// A relocation rewrites the file names of profiles from the copy of the
// module to the user's tree.
type relocation struct {
	from []string // the copy's root, as given and with links resolved
	to   string   // the user's
}

func (r *relocation) apply(p *profile.Profile) {
	for _, fn := range p.Function {
		if name, ok := r.user(fn.Filename); ok {
			fn.Filename = name
		}
	}
}

// user returns the file of the user's tree that name, in the copy,
// corresponds to; ok is false if name is outside the copy.
func (r *relocation) user(name string) (string, bool) {
	for _, from := range r.from {
		if name == from {
			return r.to, true
		}
		if rest, ok := strings.CutPrefix(name, from+string(filepath.Separator)); ok {
			return filepath.Join(r.to, rest), true
		}
	}
	return "", false
}

// read reads the profile in the file name, relocates it and returns it
// gzip-compressed.
func (r *relocation) read(name string) ([]byte, error) {
	p, err := readProfile(name)
	if err != nil {
		return nil, err
	}
	r.apply(p)
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// heapDiff returns the heap profile of the allocations of b that a does
// not have, sample by sample (stacks that allocate fewer times in b, by
// the vagaries of the runtime, count as none), gzip-compressed. Only the
// allocations of the benchmark's goroutines and of those it started are
// kept (see underBenchmark): those of the testing package's main
// goroutine and of the runtime's background work vary with the length of
// the run and are not the benchmark's.
func heapDiff(b, a *profile.Profile) ([]byte, error) {
	a = a.Copy()
	a.Scale(-1)
	d, err := profile.Merge([]*profile.Profile{b, a})
	if err != nil {
		return nil, fmt.Errorf("heap profiles: %w", err)
	}
	// The in-use values of a difference mean nothing: they are zeroed.
	alloc := make([]bool, len(d.SampleType))
	for i, t := range d.SampleType {
		alloc[i] = strings.HasPrefix(t.Type, "alloc_")
	}
	kept := d.Sample[:0]
	for _, s := range d.Sample {
		pos := false
		for i, v := range s.Value {
			if v <= 0 || !alloc[i] {
				s.Value[i] = 0
			} else {
				pos = true
			}
		}
		if pos && underBenchmark(s) {
			kept = append(kept, s)
		}
	}
	d.Sample = kept
	var buf bytes.Buffer
	if err := d.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// underBenchmark reports whether the sample allocates in a benchmark's
// code: the first frame of the testing package up its stack, if any, is
// the one that runs a benchmark's function. Allocations of the testing
// package itself, formatting the results of sub-benchmarks, say, vary
// with the number of iterations and are not the benchmark's. A stack with
// no frame of the testing package is a goroutine that the benchmark or its
// set-up started (a server's connection handler, in a benchmark of a
// client and a server in one process): its allocations are the
// benchmark's too, and what its set-up allocated cancels in the
// difference of the two runs. A stack of the runtime alone is its
// background work, which varies with the length of the run.
func underBenchmark(s *profile.Sample) bool {
	outsideRuntime := false
	for _, l := range s.Location {
		for _, ln := range l.Line {
			if ln.Function == nil {
				continue
			}
			name := ln.Function.Name
			if strings.HasPrefix(name, "testing.") {
				return name == "testing.(*B).runN"
			}
			if !strings.HasPrefix(name, "runtime.") && !strings.HasPrefix(name, "internal/runtime/") {
				outsideRuntime = true
			}
		}
	}
	return outsideRuntime
}

// oneLine returns err's message on one line.
func oneLine(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "still running when the budget was spent"
	}
	// A build's error has the compiler's output on the next lines: its
	// first error says why.
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return lines[0] + ": " + l
		}
	}
	return lines[0]
}
