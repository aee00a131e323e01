package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/cover"

	"github.com/goadvise/goadvise/load"
	"github.com/goadvise/goadvise/worktree"

	"github.com/goadvise/goadvise/internal/gocmd"
)

// A FileEdit replaces the bytes [Start, End) of File with New.
type FileEdit struct {
	// File is the path of the file in the user's tree, absolute or
	// relative to VerifyOptions.Dir.
	File       string
	Start, End int
	New        string
}

// VerifyOptions configures Verify.
type VerifyOptions struct {
	// Dir is a directory of the user's module; "" means ".".
	Dir string

	// Package is a pattern naming the one package whose tests and
	// benchmarks are run, resolved in Dir; "" means ".".
	Package string

	// Tests are more packages (import paths) whose tests must pass with
	// the edits: those of the edited code, when Package is another
	// package whose benchmarks measure it.
	Tests []string

	// Edits are the changes to verify. Edits to the same file must not
	// overlap.
	Edits []FileEdit

	// CoverLines are lines of the package's files, before the edits
	// (File as in Edits), that the package's tests should execute:
	// VerifyResult.Uncovered lists those they do not. An edit that
	// changes behaviour is trusted only where a test runs it.
	CoverLines []FileLine

	// Snapshot, if set, is called with the copy's directory of ModuleDir
	// before the edits are applied (edited false), and after the tests
	// pass with them (edited true): the caller records there what the
	// compiler decides for the whole module, which the package's own
	// benchmarks do not see. An error it returns is Verify's.
	Snapshot func(ctx context.Context, moduleDir string, edited bool) error

	// ModuleDir is the directory of the user's module whose copy
	// Snapshot is given; "" means Dir.
	ModuleDir string

	// Workspace, if set, is the copy to edit and measure in, instead of
	// a new one; Verify restores the files it edits before it returns.
	Workspace *Workspace

	// Bench, Count, Benchtime, CPU, Alpha, Threshold and Progress are as
	// in Options.
	Bench            string
	Count            int
	Benchtime, CPU   string
	Alpha, Threshold float64
	Progress         io.Writer
}

// A FileLine is a line of a file.
type FileLine struct {
	File string // absolute or relative to VerifyOptions.Dir
	Line int
}

// A VerifyResult reports the effect of a set of edits.
type VerifyResult struct {
	// TestsPassed reports whether the package builds and its tests pass
	// with the edits applied.
	TestsPassed bool

	// TestsFailedBefore reports, when the tests fail with the edits,
	// whether they also failed without them.
	TestsFailedBefore bool

	// TestOutput is the tail of the go test output when the tests fail.
	TestOutput string

	// NoBenchmarks reports that the package has no benchmark matching
	// the Bench pattern, so nothing was measured.
	NoBenchmarks bool

	// Comparison compares the benchmarks before (base) and after (head)
	// the edits; nil if the tests failed or there are no benchmarks.
	Comparison *Comparison

	// Uncovered are the VerifyOptions.CoverLines that no test of the
	// package executes.
	Uncovered []FileLine
}

// Regressed reports whether the edits broke the tests or made a benchmark
// regress (see Comparison.Regressed).
func (r *VerifyResult) Regressed() bool {
	return !r.TestsPassed || r.Comparison != nil && r.Comparison.Regressed()
}

// Summary describes the result in one line, for example
// "tests pass; sec/op -12.30% faster, allocs/op 2 → 1 better".
func (r *VerifyResult) Summary() string {
	if !r.TestsPassed {
		if r.TestsFailedBefore {
			return "tests fail (they also fail without the change)"
		}
		return "tests fail"
	}
	if r.NoBenchmarks || r.Comparison == nil {
		return "tests pass; no benchmarks to measure"
	}
	// Summarize each unit over all benchmarks: the worst verdict wins.
	type agg struct {
		verdict Verdict
		row     *Row
	}
	var units []string
	byUnit := make(map[string]*agg)
	rank := map[Verdict]int{OnlyBase: 0, OnlyHead: 0, NoChange: 1, TooFewSamples: 2, Changed: 3, Faster: 4, Better: 4, Slower: 5, Worse: 5}
	for _, row := range r.Comparison.Rows {
		a := byUnit[row.Unit]
		if a == nil {
			a = &agg{}
			byUnit[row.Unit] = a
			units = append(units, row.Unit)
		}
		if a.row == nil || rank[row.Verdict] > rank[a.verdict] {
			a.verdict, a.row = row.Verdict, row
		}
	}
	var parts []string
	for _, u := range units {
		a := byUnit[u]
		s := u + " " + string(a.verdict)
		if a.row.Significant || a.row.Regression {
			s = u + " " + describeChange(a.row) + " " + string(a.verdict)
		}
		parts = append(parts, s)
	}
	return "tests pass; " + strings.Join(parts, ", ")
}

// Verify copies the module containing opts.Dir into a temporary directory,
// applies opts.Edits to the copy, runs the package's tests and compares its
// benchmarks before and after the edits, alternating as Run does. The
// user's files are only read. The copy holds the files of the working tree
// as they are (for a git repository: tracked and untracked files that are
// not ignored), so uncommitted changes are included.
func Verify(ctx context.Context, opts VerifyOptions) (res *VerifyResult, err error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	if opts.Package == "" {
		opts.Package = "."
	}
	if opts.Count == 0 {
		opts.Count = DefaultCount
	}
	if opts.Bench == "" {
		opts.Bench = "."
	}
	w := opts.Workspace
	if w == nil {
		if w, err = NewWorkspace(ctx, dir); err != nil {
			return nil, err
		}
		defer func() {
			if rerr := w.Close(); rerr != nil && err == nil {
				err = rerr
			}
		}()
	}
	// What this call writes besides the copy's files: test binaries, a
	// coverage profile.
	tmp, err := os.MkdirTemp(w.tmp, "run-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if rerr := os.RemoveAll(tmp); rerr != nil && err == nil {
			err = rerr
		}
	}()
	root, cdir, err := w.dir(dir)
	if err != nil {
		return nil, err
	}

	// Resolve the edits before changing anything.
	type fileEdits struct {
		path  string // in the copy
		edits []FileEdit
		orig  []byte
	}
	var files []*fileEdits
	byFile := make(map[string]*fileEdits)
	for _, e := range opts.Edits {
		name := e.File
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		r, err := filepath.Rel(root, realPath(name))
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("verify: %s is outside the module copied from %s", e.File, root)
		}
		fe := byFile[r]
		if fe == nil {
			fe = &fileEdits{path: filepath.Join(w.src, r)}
			byFile[r] = fe
			files = append(files, fe)
		}
		fe.edits = append(fe.edits, e)
	}
	for _, fe := range files {
		if fe.orig, err = os.ReadFile(fe.path); err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
		if _, err := applyEdits(fe.orig, fe.edits); err != nil {
			return nil, fmt.Errorf("verify: %s: %w", fe.edits[0].File, err)
		}
	}

	pkg, err := w.measured(ctx, cdir, opts.Package)
	if err != nil {
		return nil, err
	}

	before := &version{label: "before", dir: cdir, pkgs: map[string]*testBinary{}}
	after := &version{label: "after", dir: cdir, pkgs: map[string]*testBinary{}}
	if pkg.hasTests {
		b, err := w.beforeBinary(ctx, cdir, pkg)
		if err != nil {
			return nil, fmt.Errorf("verify: without the edits: %w", err)
		}
		before.pkgs[pkg.importPath] = b
	}

	if len(opts.CoverLines) > 0 {
		if res, err = uncovered(ctx, cdir, pkg, dir, opts.CoverLines, filepath.Join(tmp, "tests.cover")); err != nil {
			return nil, err
		}
	} else {
		res = &VerifyResult{}
	}
	cmod := cdir
	if opts.Snapshot != nil {
		if opts.ModuleDir != "" {
			m, err := filepath.Abs(opts.ModuleDir)
			if err != nil {
				return nil, err
			}
			r, err := filepath.Rel(root, realPath(m))
			if err != nil || strings.HasPrefix(r, "..") {
				return nil, fmt.Errorf("verify: the module %s is outside the tree copied from %s", opts.ModuleDir, root)
			}
			cmod = filepath.Join(w.src, r)
		}
		if err := opts.Snapshot(ctx, cmod, false); err != nil {
			return nil, err
		}
	}

	write := func(edited bool) error {
		for _, fe := range files {
			data := fe.orig
			if edited {
				data, _ = applyEdits(fe.orig, fe.edits)
			}
			if err := os.WriteFile(fe.path, data, 0o666); err != nil {
				return fmt.Errorf("verify: %w", err)
			}
		}
		return nil
	}
	// The copy may be measured again (a Workspace): leave it as it was.
	defer func() {
		if rerr := write(false); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if err := write(true); err != nil {
		return nil, err
	}
	var others []string
	for _, t := range opts.Tests {
		if t != pkg.importPath && !slices.Contains(others, t) {
			others = append(others, t)
		}
	}
	var a *testBinary
	if pkg.hasTests {
		a = &testBinary{importPath: pkg.importPath, dir: pkg.dir, hasTests: true, path: filepath.Join(tmp, "bin", "after.test")}
	}
	out, err := runTests(ctx, cdir, pkg.importPath, a, true, others)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res.TestOutput = gocmd.Tail(out, 50)
		if err := write(false); err != nil {
			return nil, err
		}
		if _, err := runTests(ctx, cdir, pkg.importPath, before.pkgs[pkg.importPath], false, others); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			res.TestsFailedBefore = true
		}
		return res, nil
	}
	res.TestsPassed = true
	if opts.Snapshot != nil {
		if err := opts.Snapshot(ctx, cmod, true); err != nil {
			return nil, err
		}
	}
	if a == nil {
		res.NoBenchmarks = true
		return res, nil
	}
	after.pkgs[pkg.importPath] = a

	ro := roundOptions{bench: opts.Bench, count: opts.Count, benchtime: opts.Benchtime, cpu: opts.CPU, progress: opts.Progress}
	bset, hset, err := runRounds(ctx, before, after, []string{pkg.importPath}, ro)
	if errors.Is(err, errNoBenchmarks) {
		res.NoBenchmarks = true
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	res.Comparison = compare(bset, hset, opts.Alpha, opts.Threshold)
	res.Comparison.BaseLabel, res.Comparison.HeadLabel = before.label, after.label
	return res, nil
}

// uncovered runs the tests of pkg in cdir with coverage, into profile,
// and returns a result whose Uncovered are the lines they do not execute.
// Files of lines are resolved in dir.
func uncovered(ctx context.Context, cdir string, pkg *testBinary, dir string, lines []FileLine, profile string) (*VerifyResult, error) {
	res := &VerifyResult{}
	ran := make(map[string][]cover.ProfileBlock) // by file base name
	if pkg.hasTests {
		cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-covermode=set", "-coverprofile="+profile, pkg.importPath)
		cmd.Dir = cdir
		var buf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		gocmd.InterruptOnCancel(cmd)
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("verify: measuring the coverage of the tests of %s: %v\n%s", pkg.importPath, err, gocmd.Tail(buf.String(), 20))
		}
		ps, err := cover.ParseProfiles(profile)
		if err != nil {
			return nil, fmt.Errorf("verify: coverage of the tests of %s: %w", pkg.importPath, err)
		}
		for _, p := range ps {
			ran[path.Base(p.FileName)] = append(ran[path.Base(p.FileName)], p.Blocks...)
		}
	}
	for _, l := range lines {
		covered := false
		for _, b := range ran[filepath.Base(l.File)] {
			if b.Count > 0 && b.StartLine <= l.Line && l.Line <= b.EndLine {
				covered = true
				break
			}
		}
		if !covered {
			res.Uncovered = append(res.Uncovered, l)
		}
	}
	return res, nil
}

// runTests builds the package pkg and the others and runs their tests.
// The tests of pkg run from bin, its test binary (built here with go test
// -c when build is set; nil when pkg has no tests), in its directory as go
// test runs them: the binary the benchmarks then measure, not a second
// link of the same code. The others' tests run with go test. It returns
// the combined output.
func runTests(ctx context.Context, dir, pkg string, bin *testBinary, build bool, others []string) (string, error) {
	var buf bytes.Buffer
	run := func(cmd *exec.Cmd) error {
		cmd.Stdout, cmd.Stderr = &buf, &buf
		gocmd.InterruptOnCancel(cmd)
		return cmd.Run()
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"build", pkg}, others...)...)
	cmd.Dir = dir
	if err := run(cmd); err != nil {
		return buf.String(), err
	}
	if bin != nil {
		if build {
			if err := buildTest(ctx, dir, bin, ""); err != nil {
				return err.Error(), err
			}
		}
		cmd := exec.CommandContext(ctx, bin.path, "-test.paniconexit0", "-test.timeout=10m0s")
		cmd.Dir = bin.dir
		if err := run(cmd); err != nil {
			return buf.String(), fmt.Errorf("tests of %s: %w", pkg, err)
		}
	}
	if len(others) > 0 {
		cmd := exec.CommandContext(ctx, "go", append([]string{"test"}, others...)...)
		cmd.Dir = dir
		if err := run(cmd); err != nil {
			return buf.String(), err
		}
	}
	return buf.String(), nil
}

// applyEdits returns src with the edits applied.
func applyEdits(src []byte, edits []FileEdit) ([]byte, error) {
	es := append([]FileEdit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	var out []byte
	pos := 0
	for _, e := range es {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edit [%d,%d) out of range for a file of %d bytes", e.Start, e.End, len(src))
		}
		if e.Start < pos {
			return nil, fmt.Errorf("overlapping edits at offset %d", e.Start)
		}
		out = append(out, src[pos:e.Start]...)
		out = append(out, e.New...)
		pos = e.End
	}
	return append(out, src[pos:]...), nil
}

// realPath returns path with symbolic links resolved, or path itself if it
// cannot be resolved.
func realPath(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		return p
	}
	return path
}

// A Workspace is a copy of the tree holding a directory of the user's
// module (see [Verify]), made once and edited and measured by successive
// calls of Verify, which restore what they edit. The go command keys its
// build cache by each package's directory: in one copy, only what a call
// edits is compiled again, where a new copy per call compiles the whole
// module each time.
type Workspace struct {
	tmp  string // the temporary directory holding it all
	src  string // the copy of the tree, in tmp
	root string // the root of the tree copied (symbolic links resolved)
	// before holds the test binaries built from the unedited copy, by
	// import path: the same for every call that measures the package.
	before map[string]*testBinary
	// listed holds the package each pattern measured names, by
	// directory and pattern: edits change no package's files or name.
	listed map[[2]string]*testBinary
}

// measured returns the one package that pattern names in cdir.
func (w *Workspace) measured(ctx context.Context, cdir, pattern string) (*testBinary, error) {
	key := [2]string{cdir, pattern}
	if p, ok := w.listed[key]; ok {
		return p, nil
	}
	pkgs, err := listPackages(ctx, cdir, []string{pattern})
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("verify: pattern %q matches %d packages, want one", pattern, len(pkgs))
	}
	if w.listed == nil {
		w.listed = make(map[[2]string]*testBinary)
	}
	w.listed[key] = pkgs[0]
	return pkgs[0], nil
}

// NewWorkspace copies the tree containing dir (see copyTree) into a new
// temporary directory. Close removes it.
func NewWorkspace(ctx context.Context, dir string) (*Workspace, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "goadvise-verify-")
	if err != nil {
		return nil, err
	}
	w := &Workspace{tmp: tmp, src: filepath.Join(tmp, "src")}
	if w.root, err = copyTree(ctx, dir, w.src); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return w, nil
}

// dir returns the root of the tree copied and the copy of dir, a
// directory of the user's tree.
func (w *Workspace) dir(dir string) (root, cdir string, err error) {
	rel, err := filepath.Rel(w.root, realPath(dir))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "", fmt.Errorf("verify: %s is outside the tree copied from %s", dir, w.root)
	}
	return w.root, filepath.Join(w.src, rel), nil
}

// beforeBinary returns the test binary of pkg, in the copy's directory
// cdir, built without edits: once per workspace, since every call
// restores what it edits.
func (w *Workspace) beforeBinary(ctx context.Context, cdir string, pkg *testBinary) (*testBinary, error) {
	if b, ok := w.before[pkg.importPath]; ok {
		return b, nil
	}
	b := *pkg
	b.path = filepath.Join(w.tmp, "before", strconv.Itoa(len(w.before)), "pkg.test")
	if err := buildTest(ctx, cdir, &b, ""); err != nil {
		return nil, err
	}
	if w.before == nil {
		w.before = make(map[string]*testBinary)
	}
	w.before[pkg.importPath] = &b
	return &b, nil
}

// Close removes the copy.
func (w *Workspace) Close() error {
	return os.RemoveAll(w.tmp)
}

// copyPackage copies the tree containing the package directory dir to dst
// (see copyTree) and returns the root of the tree copied and the
// package's directory in the copy.
func copyPackage(ctx context.Context, dir, dst string) (root, cdir string, err error) {
	if root, err = copyTree(ctx, dir, dst); err != nil {
		return "", "", err
	}
	rel, err := filepath.Rel(root, realPath(dir))
	if err != nil {
		return "", "", err
	}
	return root, filepath.Join(dst, rel), nil
}

// copyTree copies the tree containing dir to dst and returns the root of
// the copied tree (with symbolic links resolved). In a git repository the
// root is the repository's top directory and the files copied are the
// tracked and untracked, not ignored files, so that replace directives
// pointing within the repository keep working; otherwise the root is the
// main module's directory and all its files but .git are copied.
func copyTree(ctx context.Context, dir, dst string) (string, error) {
	if repo, err := worktree.Open(ctx, dir); err == nil {
		top := repo.Top()
		list, err := repo.Git(ctx, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
		if err != nil {
			return "", err
		}
		seen := make(map[string]bool)
		for _, name := range strings.Split(list, "\x00") {
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			if err := copyPath(filepath.Join(top, name), filepath.Join(dst, name)); err != nil {
				return "", fmt.Errorf("verify: copying the working tree: %w", err)
			}
		}
		return top, nil
	}
	module, _ := load.Roots(dir)
	if module == "" {
		return "", fmt.Errorf("verify: %s is not in a Go module", dir)
	}
	root := realPath(module)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		r, _ := filepath.Rel(root, path)
		return copyPath(path, filepath.Join(dst, r))
	})
	if err != nil {
		return "", fmt.Errorf("verify: copying the module: %w", err)
	}
	return root, nil
}

// copyPath copies the file, symbolic link or directory (recursively) src to
// dst. A file that no longer exists (deleted but still in git's index) is
// skipped.
func copyPath(src, dst string) error {
	fi, err := os.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	case fi.IsDir():
		// A git submodule or nested repository.
		return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			r, _ := filepath.Rel(src, path)
			return copyPath(path, filepath.Join(dst, r))
		})
	case fi.Mode().IsRegular():
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, fi.Mode().Perm()|0o200)
	}
	return nil // sockets, devices: not source
}
