package bench

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/cover"

	"github.com/goadvise/goadvise/internal/gocmd"
)

// CoverBenchtime is the -benchtime of each benchmark's coverage run in
// BenchmarkCoverage: a fixed number of iterations, never a duration, so
// that what a benchmark executes does not depend on the machine's speed.
// More than one iteration reaches the code a benchmark runs only once
// its first iteration has warmed something up.
const CoverBenchtime = "10x"

// A Coverage records which lines of a package each of its benchmarks
// executes: see BenchmarkCoverage.
type Coverage struct {
	// ImportPath is the package's import path.
	ImportPath string

	// Benchmarks are the package's top-level benchmarks, in the order
	// the test binary lists them.
	Benchmarks []string

	// Unreadable are the benchmarks whose results cannot be read (a
	// benchmark that prints to its output while it runs breaks its own
	// result line): they are never chosen, since a fix they measured
	// would be judged without them.
	Unreadable []string

	dir    string                          // the package directory, symbolic links resolved
	blocks map[string][]cover.ProfileBlock // by file base name: the package's code blocks
	ran    map[string]map[string][]bool    // by benchmark and file base name: whether it executes each block
}

// BenchmarkCoverage runs each benchmark of the package in dir once, for
// CoverBenchtime iterations, in a test binary built with coverage, and
// records the code blocks that the benchmark executes more often than a
// run of the binary without any benchmark (which executes the package's
// initialization and TestMain). Sub-benchmarks count for the top-level
// benchmark that runs them. The module is copied to a temporary directory
// as Verify does, so that benchmarks that write files do not write them
// in the user's tree; the user's files are only read. A package without
// test files has no benchmarks.
func BenchmarkCoverage(ctx context.Context, dir string) (c *Coverage, err error) {
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "goadvise-cover-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if rerr := os.RemoveAll(tmp); rerr != nil && err == nil {
			err = rerr
		}
	}()
	_, cdir, err := copyPackage(ctx, dir, filepath.Join(tmp, "src"))
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(tmp, "cover.test")
	pkg, err := coverBinary(ctx, cdir, dir, bin, "-cover")
	if err != nil {
		return nil, err
	}
	c = &Coverage{ImportPath: pkg.importPath, dir: realPath(dir), blocks: map[string][]cover.ProfileBlock{}, ran: map[string]map[string][]bool{}}
	if !pkg.hasTests {
		return c, nil
	}
	list := exec.CommandContext(ctx, bin, "-test.list", "^Benchmark")
	list.Dir = pkg.dir
	gocmd.InterruptOnCancel(list)
	out, err := list.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("listing the benchmarks of %s: %v", pkg.importPath, err)
	}
	for _, name := range strings.Fields(string(out)) {
		if strings.HasPrefix(name, "Benchmark") {
			c.Benchmarks = append(c.Benchmarks, name)
		}
	}
	if len(c.Benchmarks) == 0 {
		return c, nil
	}

	var runOut []byte // the last run's output
	run := func(bench, name string) (map[string]cover.Profile, error) {
		ps, out, err := coverRun(ctx, bin, pkg, bench, name, filepath.Join(tmp, "cover.out"))
		if err != nil {
			return nil, err
		}
		runOut = out
		m := make(map[string]cover.Profile)
		for _, p := range ps {
			m[path.Base(p.FileName)] = *p
		}
		return m, nil
	}
	base, err := run("^$", "the test binary")
	if err != nil {
		return nil, err
	}
	for file, p := range base {
		c.blocks[file] = p.Blocks
	}
	for _, name := range c.Benchmarks {
		got, err := run("^"+regexp.QuoteMeta(name)+"$", name)
		if err != nil {
			return nil, err
		}
		if !readable(runOut, name) {
			c.Unreadable = append(c.Unreadable, name)
			continue
		}
		c.ran[name] = make(map[string][]bool)
		for file, p := range got {
			b := c.blocks[file]
			if len(b) != len(p.Blocks) {
				return nil, fmt.Errorf("coverage of %s: %s has %d blocks, %d without benchmarks", name, file, len(p.Blocks), len(b))
			}
			ran := make([]bool, len(b))
			for i, blk := range p.Blocks {
				ran[i] = blk.Count > b[i].Count
			}
			c.ran[name][file] = ran
		}
	}
	return c, nil
}

// coverBinary lists the one package in dir (named in errors as name)
// and, if it has test files, builds its test binary into bin with
// -covermode=atomic and the coverage flag given.
func coverBinary(ctx context.Context, dir, name, bin, flag string) (*testBinary, error) {
	pkgs, err := listPackages(ctx, dir, []string{"."})
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("benchmark coverage: %s holds %d packages, want one", name, len(pkgs))
	}
	pkg := pkgs[0]
	if !pkg.hasTests {
		return pkg, nil
	}
	build := exec.CommandContext(ctx, "go", "test", "-c", flag, "-covermode=atomic", "-o", bin, pkg.importPath)
	build.Dir = dir
	gocmd.InterruptOnCancel(build)
	if out, err := build.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("building the coverage test binary of %s: %v\n%s", pkg.importPath, err, gocmd.Tail(string(out), 20))
	}
	return pkg, nil
}

// coverRun runs the benchmarks matching bench of the coverage test binary
// bin of pkg, for CoverBenchtime iterations, and returns the coverage
// profile they write to prof and their output. name names the benchmarks
// in an error.
func coverRun(ctx context.Context, bin string, pkg *testBinary, bench, name, prof string) ([]*cover.Profile, []byte, error) {
	args := []string{"-test.run=^$", "-test.bench=" + bench, "-test.benchtime=" + CoverBenchtime,
		"-test.count=1", "-test.paniconexit0", "-test.coverprofile=" + prof}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = pkg.dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	gocmd.InterruptOnCancel(cmd)
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, fmt.Errorf("%s of %s failed with -benchtime=%s: %v\n%s", name, pkg.importPath, CoverBenchtime, err, gocmd.Tail(buf.String(), 20))
	}
	ps, err := cover.ParseProfiles(prof)
	if err != nil {
		return nil, nil, fmt.Errorf("coverage of %s: %w", name, err)
	}
	return ps, buf.Bytes(), nil
}

// A PackageLine is a line of a file of a package.
type PackageLine struct {
	Package string // import path
	File    string // absolute path
	Line    int
}

// BenchmarksExecute reports, for each of lines, whether the benchmarks
// matching pattern of the package in dir execute it: whether, run once
// for CoverBenchtime iterations in a test binary built with coverage of
// the lines' packages, they execute a code block spanning the line more
// often than a run of the binary without benchmarks does. A line in no
// block counts when its function runs, as in Covering. A line of a
// package that the test binary does not link is not executed. The
// benchmarks run in dir as it is: give it a copy of the module, as
// Verify's Snapshot gets, when they may write files.
func BenchmarksExecute(ctx context.Context, dir, pattern string, lines []PackageLine) (ran []bool, err error) {
	tmp, err := os.MkdirTemp("", "goadvise-cover-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if rerr := os.RemoveAll(tmp); rerr != nil && err == nil {
			err = rerr
		}
	}()
	var coverPkgs []string
	for _, l := range lines {
		if !slices.Contains(coverPkgs, l.Package) {
			coverPkgs = append(coverPkgs, l.Package)
		}
	}
	bin := filepath.Join(tmp, "cover.test")
	pkg, err := coverBinary(ctx, dir, dir, bin, "-coverpkg="+strings.Join(coverPkgs, ","))
	if err != nil {
		return nil, err
	}
	ran = make([]bool, len(lines))
	if !pkg.hasTests {
		return ran, nil
	}
	profiles := func(bench, name string) (map[string]*cover.Profile, error) {
		ps, _, err := coverRun(ctx, bin, pkg, bench, name, filepath.Join(tmp, "cover.out"))
		m := make(map[string]*cover.Profile)
		for _, p := range ps {
			m[p.FileName] = p
		}
		return m, err
	}
	base, err := profiles("^$", "the test binary")
	if err != nil {
		return nil, err
	}
	with, err := profiles(pattern, "the benchmarks matching "+pattern)
	if err != nil {
		return nil, err
	}
	for i, l := range lines {
		name := l.Package + "/" + filepath.Base(l.File)
		b, w := base[name], with[name]
		if b == nil || w == nil || len(b.Blocks) != len(w.Blocks) {
			continue
		}
		lo, hi := l.Line, l.Line
		if !slices.ContainsFunc(w.Blocks, func(b cover.ProfileBlock) bool { return b.StartLine <= l.Line && l.Line <= b.EndLine }) {
			var ok bool
			if lo, hi, ok = enclosingFunc(l.File, l.Line); !ok {
				continue
			}
		}
		for k, blk := range w.Blocks {
			if blk.StartLine <= hi && lo <= blk.EndLine && blk.Count > b.Blocks[k].Count {
				ran[i] = true
				break
			}
		}
	}
	return ran, nil
}

// Covering returns the benchmarks that execute line of file, a file of
// the package. A line belongs to the code blocks that span it; a line in
// no block (a function's signature spread over several lines, say) counts
// as executed when any block of the innermost function around it is.
func (c *Coverage) Covering(file string, line int) []string {
	if filepath.Dir(realPath(file)) != c.dir {
		return nil
	}
	base := filepath.Base(file)
	blocks := c.blocks[base]
	lo, hi := line, line
	if !slices.ContainsFunc(blocks, func(b cover.ProfileBlock) bool { return b.StartLine <= line && line <= b.EndLine }) {
		var ok bool
		if lo, hi, ok = enclosingFunc(file, line); !ok {
			return nil
		}
	}
	return c.ranLines(base, lo, hi)
}

// CoveringFunc returns the benchmarks that execute any code of the
// innermost function around line of file: for a change that is not on one
// line (a case merged into another, whose body no benchmark runs although
// its switch does), the benchmarks that run the function measure it.
func (c *Coverage) CoveringFunc(file string, line int) []string {
	if filepath.Dir(realPath(file)) != c.dir {
		return nil
	}
	lo, hi, ok := enclosingFunc(file, line)
	if !ok {
		return nil
	}
	return c.ranLines(filepath.Base(file), lo, hi)
}

// ranLines returns the benchmarks that executed a block of the file with
// the given base name that overlaps lines lo to hi.
func (c *Coverage) ranLines(base string, lo, hi int) []string {
	var names []string
	for _, name := range c.Benchmarks {
		ran := c.ran[name][base]
		for i, b := range c.blocks[base] {
			if i < len(ran) && ran[i] && b.StartLine <= hi && lo <= b.EndLine {
				names = append(names, name)
				break
			}
		}
	}
	return names
}

// enclosingFunc returns the lines of the innermost function declaration
// or literal of file around line.
func enclosingFunc(file string, line int) (lo, hi int, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return 0, 0, false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
		default:
			return n != nil
		}
		l, h := fset.Position(n.Pos()).Line, fset.Position(n.End()).Line
		if l <= line && line <= h {
			lo, hi, ok = l, h, true // inner functions come later
		}
		return true
	})
	return lo, hi, ok
}

// readable reports whether the output of a run of the benchmark name has
// a result of it that the benchmark statistics can read.
func readable(out []byte, name string) bool {
	set, err := parse(bytes.NewReader(out), name)
	if err != nil {
		return false
	}
	for _, r := range set.results {
		top, _, _ := strings.Cut(string(r.Name.Base()), "/")
		if "Benchmark"+top == name {
			return true
		}
	}
	return false
}
