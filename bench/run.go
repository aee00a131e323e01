package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/goadvise/goadvise/worktree"

	"github.com/goadvise/goadvise/internal/gocmd"
	"github.com/goadvise/goadvise/load"
)

// DefaultCount is the default number of rounds: see the package
// documentation for why.
const DefaultCount = 10

// Options configures Run.
type Options struct {
	// Dir is the directory the packages are resolved in, inside a git
	// repository unless both versions are the working tree; "" means ".".
	Dir string

	// Packages are package patterns, as for go test; nil means ".".
	Packages []string

	// Base is the base revision; "" means HEAD.
	Base string

	// Head is the head revision; "" means the working tree as it is,
	// uncommitted and untracked files included.
	Head string

	// PGO, if set to a profile file, compares the head code built with
	// -pgo=off (as base) against the same code built with -pgo=PGO. Base,
	// BasePGO and HeadPGO must then be empty. If set to "off", both
	// versions are built with -pgo=off.
	PGO string

	// BasePGO and HeadPGO are the -pgo build flags of each version
	// ("off", "auto" or a profile file); "" leaves the go command's
	// default.
	BasePGO, HeadPGO string

	// Bench is the benchmark regular expression; "" means ".".
	Bench string

	// Count is the number of rounds; 0 means DefaultCount.
	Count int

	// Benchtime and CPU are passed to the test binaries as
	// -test.benchtime and -test.cpu when set.
	Benchtime string
	CPU       string

	// Alpha is the significance level; 0 means DefaultAlpha.
	Alpha float64

	// Threshold is the regression threshold in percent.
	Threshold float64

	// Progress, if not nil, receives a progress line that is rewritten
	// in place (round, benchmark, estimated time left). It should be a
	// terminal.
	Progress io.Writer
}

// A version is one side of a comparison: a source tree and build flags.
type version struct {
	label string
	rev   string // resolved commit; "" for the working tree
	pgo   string // -pgo flag value; "" for the default
	dir   string // directory corresponding to Options.Dir in this tree
	pkgs  map[string]*testBinary
}

// A testBinary is a built test binary of one package.
type testBinary struct {
	importPath string
	dir        string // the package directory, where the binary runs
	path       string // the binary
	hasTests   bool
}

// Run compares the benchmarks of the base and head versions described by
// opts and returns the comparison. The context's cancellation stops the
// builds and benchmarks; temporary worktrees and files are removed before
// Run returns, whatever happens.
func Run(ctx context.Context, opts Options) (cmp *Comparison, err error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if len(opts.Packages) == 0 {
		opts.Packages = []string{"."}
	}
	if opts.Count == 0 {
		opts.Count = DefaultCount
	}
	if opts.Count < 0 {
		return nil, fmt.Errorf("count must be positive, not %d", opts.Count)
	}
	if opts.Bench == "" {
		opts.Bench = "."
	}

	base := &version{pgo: opts.BasePGO}
	head := &version{pgo: opts.HeadPGO}
	baseRev, headRev := opts.Base, opts.Head
	switch {
	case opts.PGO == "off":
		base.pgo, head.pgo = "off", "off"
		if opts.BasePGO != "" || opts.HeadPGO != "" {
			return nil, errors.New("-pgo cannot be combined with -base-pgo or -head-pgo")
		}
	case opts.PGO != "":
		if opts.Base != "" || opts.BasePGO != "" || opts.HeadPGO != "" {
			return nil, errors.New("-pgo=FILE compares one version with and without the profile; it cannot be combined with -base, -base-pgo or -head-pgo")
		}
		base.pgo = "off"
		head.pgo = opts.PGO
		baseRev = headRev // the same code on both sides
	default:
		if baseRev == "" {
			baseRev = "HEAD"
		}
	}
	for _, v := range []*version{base, head} {
		if v.pgo != "" && v.pgo != "off" && v.pgo != "auto" {
			p, err := filepath.Abs(v.pgo)
			if err != nil {
				return nil, err
			}
			if _, err := os.Stat(p); err != nil {
				return nil, fmt.Errorf("PGO profile: %w", err)
			}
			v.pgo = p
		}
	}

	tmp, err := os.MkdirTemp("", "goadvise-bench-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if rerr := os.RemoveAll(tmp); rerr != nil && err == nil {
			err = rerr
		}
	}()

	// Check out the revisions.
	var repo *worktree.Repo
	for _, spec := range []struct {
		v   *version
		rev string
	}{{base, baseRev}, {head, headRev}} {
		v := spec.v
		if spec.rev == "" {
			v.dir = dir
			v.label = "working tree"
		} else {
			if repo == nil {
				if repo, err = worktree.Open(ctx, dir); err != nil {
					return nil, fmt.Errorf("%w (needed to check out %s)", err, spec.rev)
				}
			}
			sha, err := repo.Resolve(ctx, spec.rev)
			if err != nil {
				return nil, err
			}
			v.rev = sha
			v.label = worktree.Label(spec.rev, sha)
			tree, err := repo.Add(ctx, sha)
			if err != nil {
				return nil, err
			}
			defer tree.Remove()
			v.dir = tree.Dir()
		}
		switch v.pgo {
		case "":
		case "off", "auto":
			v.label += " (pgo=" + v.pgo + ")"
		default:
			v.label += " (pgo=" + filepath.Base(v.pgo) + ")"
		}
	}
	if base.label == head.label {
		base.label, head.label = "base: "+base.label, "head: "+head.label
	}

	// Build the test binaries.
	for i, v := range []*version{base, head} {
		pkgs, err := listTestPackages(ctx, v.dir, opts.Packages)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.label, err)
		}
		v.pkgs = make(map[string]*testBinary)
		for j, p := range pkgs {
			p.path = filepath.Join(tmp, fmt.Sprintf("bin%d", i), fmt.Sprintf("%d.test", j))
			if opts.Progress != nil {
				fmt.Fprintf(opts.Progress, "\r\033[Kbuilding %s: %s", v.label, p.importPath)
			}
			if err := buildTest(ctx, v.dir, p, v.pgo); err != nil {
				return nil, fmt.Errorf("%s: %w", v.label, err)
			}
			v.pkgs[p.importPath] = p
		}
	}
	var common, warnings []string
	for _, p := range sortedKeys(head.pkgs) {
		if base.pkgs[p] != nil {
			common = append(common, p)
		} else {
			warnings = append(warnings, fmt.Sprintf("package %s has tests only in %s; not compared", p, head.label))
		}
	}
	for _, p := range sortedKeys(base.pkgs) {
		if head.pkgs[p] == nil {
			warnings = append(warnings, fmt.Sprintf("package %s has tests only in %s; not compared", p, base.label))
		}
	}
	if len(common) == 0 {
		return nil, fmt.Errorf("no package matching %s has tests in both %s and %s", strings.Join(opts.Packages, " "), base.label, head.label)
	}

	ro := roundOptions{
		bench: opts.Bench, count: opts.Count, benchtime: opts.Benchtime, cpu: opts.CPU,
		progress: opts.Progress,
	}
	bset, hset, err := runRounds(ctx, base, head, common, ro)
	if err != nil {
		return nil, err
	}
	cmp = compare(bset, hset, opts.Alpha, opts.Threshold)
	cmp.BaseLabel, cmp.HeadLabel = base.label, head.label
	cmp.Warnings = append(warnings, cmp.Warnings...)
	return cmp, nil
}

func sortedKeys(m map[string]*testBinary) []string {
	return slices.Sorted(maps.Keys(m))
}

// errNoBenchmarks reports that no benchmark matched.
var errNoBenchmarks = errors.New("no benchmark matches")

// roundOptions configures runRounds.
type roundOptions struct {
	bench, benchtime, cpu string
	count                 int
	progress              io.Writer
}

// runRounds runs the benchmarks of the packages in both versions for
// ro.count rounds. In each round every package is run once in each version;
// even rounds run base first and odd rounds head first, so that both
// versions see the same machine conditions on average.
func runRounds(ctx context.Context, base, head *version, pkgs []string, ro roundOptions) (bset, hset *resultSet, err error) {
	bset, hset = &resultSet{}, &resultSet{}
	prog := &progress{w: ro.progress, total: ro.count * len(pkgs) * 2, start: time.Now()}
	defer prog.clear()
	// Packages none of whose benchmarks match are dropped after the
	// first round.
	active := append([]string(nil), pkgs...)
	for round := 0; round < ro.count; round++ {
		order := []*version{base, head}
		sets := []*resultSet{bset, hset}
		if round%2 == 1 {
			order[0], order[1] = order[1], order[0]
			sets[0], sets[1] = sets[1], sets[0]
		}
		var next []string
		for _, p := range active {
			found := false
			for i, v := range order {
				prog.set(round+1, ro.count, p, v.label)
				set, err := runBinary(ctx, v.pkgs[p], ro, prog, fmt.Sprintf("%s round %d", v.label, round+1))
				if err != nil {
					return nil, nil, fmt.Errorf("%s: %w", v.label, err)
				}
				prog.done++
				found = found || len(set.results) > 0
				sets[i].add(set)
			}
			if found || round > 0 {
				next = append(next, p)
			} else {
				prog.total -= 2 * (ro.count - 1)
			}
		}
		active = next
		if len(active) == 0 {
			return nil, nil, fmt.Errorf("%w -bench=%s", errNoBenchmarks, ro.bench)
		}
	}
	return bset, hset, nil
}

// runBinary runs the benchmarks of one test binary once and parses them.
func runBinary(ctx context.Context, b *testBinary, ro roundOptions, prog *progress, name string) (*resultSet, error) {
	// As go test does, make os.Exit(0) in a benchmark a failure.
	args := []string{"-test.run=^$", "-test.bench=" + ro.bench, "-test.benchmem", "-test.count=1", "-test.paniconexit0"}
	if ro.benchtime != "" {
		args = append(args, "-test.benchtime="+ro.benchtime)
	}
	if ro.cpu != "" {
		args = append(args, "-test.cpu="+ro.cpu)
	}
	cmd := exec.CommandContext(ctx, b.path, args...)
	cmd.Dir = b.dir
	var out, stderr bytes.Buffer
	cmd.Stdout = io.MultiWriter(&out, &benchWatcher{prog: prog})
	cmd.Stderr = &stderr
	gocmd.InterruptOnCancel(cmd)
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("benchmarks of %s failed: %v\n%s", b.importPath, err, gocmd.Tail(out.String()+stderr.String(), 20))
	}
	// A binary that exits 0 without the final PASS stopped early: its
	// missing benchmarks must not read as a comparison.
	if !bytes.HasSuffix(out.Bytes(), []byte("\nPASS\n")) && !bytes.Equal(out.Bytes(), []byte("PASS\n")) {
		return nil, fmt.Errorf("benchmarks of %s failed: the test binary exited without PASS (os.Exit in a benchmark?)\n%s", b.importPath, gocmd.Tail(out.String()+stderr.String(), 20))
	}
	return parse(&out, name)
}

// listTestPackages lists the packages matching patterns in dir that have
// test files.
func listTestPackages(ctx context.Context, dir string, patterns []string) ([]*testBinary, error) {
	all, err := listPackages(ctx, dir, patterns)
	if err != nil {
		return nil, err
	}
	var pkgs []*testBinary
	for _, p := range all {
		if p.hasTests {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, nil
}

// listPackages lists the packages matching patterns in dir. A package
// that does not load is an error.
func listPackages(ctx context.Context, dir string, patterns []string) ([]*testBinary, error) {
	l, err := load.Packages(ctx, load.ListOptions{Dir: dir}, patterns...)
	if err != nil {
		return nil, err
	}
	var pkgs []*testBinary
	for _, p := range l.Packages {
		if p.Error != nil {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, &testBinary{importPath: p.ImportPath, dir: p.Dir, hasTests: len(p.TestGoFiles)+len(p.XTestGoFiles) > 0})
	}
	return pkgs, nil
}

// buildTest builds the test binary of b with go test -c.
func buildTest(ctx context.Context, dir string, b *testBinary, pgo string) error {
	if err := os.MkdirAll(filepath.Dir(b.path), 0o777); err != nil {
		return err
	}
	args := []string{"test", "-c", "-o", b.path}
	if pgo != "" {
		args = append(args, "-pgo="+pgo)
	}
	args = append(args, b.importPath)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	gocmd.InterruptOnCancel(cmd)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("building test binary of %s: %v\n%s", b.importPath, err, gocmd.Tail(string(out), 20))
	}
	return nil
}

// progress maintains a one-line progress display.
type progress struct {
	w            io.Writer
	done, total  int
	round, count int
	pkg, label   string
	bench        string
	start        time.Time
}

func (p *progress) set(round, count int, pkg, label string) {
	p.round, p.count, p.pkg, p.label, p.bench = round, count, pkg, label, ""
	p.draw()
}

func (p *progress) setBench(name string) {
	if name != p.bench {
		p.bench = name
		p.draw()
	}
}

func (p *progress) draw() {
	if p.w == nil {
		return
	}
	eta := "?"
	if p.done > 0 {
		left := time.Duration(float64(time.Since(p.start)) / float64(p.done) * float64(p.total-p.done))
		eta = left.Round(time.Second).String()
	}
	what := p.pkg
	if p.bench != "" {
		what = p.bench
	}
	fmt.Fprintf(p.w, "\r\033[Kround %d/%d  %s  %s  ETA %s", p.round, p.count, p.label, what, eta)
}

func (p *progress) clear() {
	if p.w != nil {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// benchWatcher watches benchmark output as it is written and reports the
// name of the benchmark being run, which the testing package prints before
// running it.
type benchWatcher struct {
	prog *progress
	line []byte
}

func (w *benchWatcher) Write(b []byte) (int, error) {
	if w.prog.w == nil {
		return len(b), nil
	}
	w.line = append(w.line, b...)
	if i := bytes.LastIndexByte(w.line, '\n'); i >= 0 {
		w.line = append(w.line[:0], w.line[i+1:]...)
	}
	if bytes.HasPrefix(w.line, []byte("Benchmark")) {
		if f := bytes.Fields(w.line); len(f) > 0 && len(f[0]) < len(w.line) {
			w.prog.setBench(string(f[0]))
		}
	}
	return len(b), nil
}
