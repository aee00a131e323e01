package decisions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/goadvise/goadvise/internal/gocmd"
	"github.com/goadvise/goadvise/load"
	"github.com/goadvise/goadvise/optlog"
)

// pkgInfo is a package as go list describes it.
type pkgInfo = load.Package

func hasTests(p *pkgInfo) bool { return len(p.TestGoFiles)+len(p.XTestGoFiles) > 0 }

// listPackages lists the packages matched by patterns in dir and, with
// deps, their dependencies. A package matched that does not load is an
// error.
func listPackages(ctx context.Context, dir string, env []string, deps bool, patterns []string) ([]*pkgInfo, error) {
	l, err := load.Packages(ctx, load.ListOptions{Dir: dir, Env: env, Deps: deps}, patterns...)
	if err != nil {
		return nil, err
	}
	for _, p := range l.Packages {
		if p.Error != nil && !p.DepOnly {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, firstLine(p.Error.Err))
		}
	}
	if len(l.Packages) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	return l.Packages, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// A target is what a build produces: the named main packages (go build)
// or, for libraries, their test binaries (go test -c).
type targets struct {
	mains []string // import paths of main packages
	tests []string // import paths of library packages with tests
	// libs are packages that are only compiled (go build without -o
	// discards the result).
	libs []string
	// modulePkgs are the packages of the main module that the targets
	// depend on (or are): those whose decisions are collected.
	modulePkgs []string
	files      map[string][]string // Go files of the module's packages, by import path
	// pkgOfDir maps the directory of every package the targets depend on,
	// the standard library's included, to its import path.
	pkgOfDir map[string]string
}

// resolveTargets lists patterns and decides what to build.
func resolveTargets(ctx context.Context, dir string, env []string, patterns []string, needBinary bool) (*targets, error) {
	named, err := listPackages(ctx, dir, env, false, patterns)
	if err != nil {
		return nil, err
	}
	t := &targets{files: make(map[string][]string), pkgOfDir: make(map[string]string)}
	for _, p := range named {
		switch {
		case p.Name == "main":
			t.mains = append(t.mains, p.ImportPath)
		case hasTests(p):
			t.tests = append(t.tests, p.ImportPath)
		}
	}
	if needBinary && len(t.mains) == 0 && len(t.tests) == 0 {
		return nil, fmt.Errorf("%s: no main package and no package with tests to build", strings.Join(patterns, " "))
	}
	all, err := listPackages(ctx, dir, env, true, patterns)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool)
	for _, p := range all {
		if p.Dir != "" && p.ForTest == "" {
			t.pkgOfDir[p.Dir] = p.ImportPath
		}
		if p.Standard || p.Module == nil || !p.Module.Main || seen[p.ImportPath] || len(p.GoFiles) == 0 {
			continue
		}
		seen[p.ImportPath] = true
		t.modulePkgs = append(t.modulePkgs, p.ImportPath)
		for _, f := range append(append(append([]string(nil), p.GoFiles...), p.TestGoFiles...), p.XTestGoFiles...) {
			t.files[p.ImportPath] = append(t.files[p.ImportPath], filepath.Join(p.Dir, f))
		}
	}
	sort.Strings(t.modulePkgs)
	return t, nil
}

// A buildSpec is one build of the targets.
type buildSpec struct {
	dir     string
	env     []string
	pgo     string   // -pgo flag value, "" for the default
	gcflags []string // extra -gcflags arguments (each "pattern=flags")
	out     string   // directory for the binaries ("" to discard them)
	extra   []string // further go command flags (-toolexec, -overlay)

	cpu time.Duration // set by run: CPU time of the go commands and their children
}

// build runs go build for the main packages and go test -c for the
// libraries, and returns the combined output of the go commands.
func (b *buildSpec) run(ctx context.Context, t *targets) ([]byte, error) {
	var all bytes.Buffer
	do := func(verb []string, pkgs []string, compileOnly bool) error {
		if len(pkgs) == 0 {
			return nil
		}
		args := append([]string(nil), verb...)
		if b.out != "" && !compileOnly {
			args = append(args, "-o", b.out+string(filepath.Separator))
		}
		if b.pgo != "" {
			args = append(args, "-pgo="+b.pgo)
		}
		for _, g := range b.gcflags {
			args = append(args, "-gcflags="+g)
		}
		args = append(args, b.extra...)
		args = append(args, pkgs...)
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = b.dir
		cmd.Env = b.env
		cmd.Stdout = &all
		cmd.Stderr = &all
		gocmd.InterruptOnCancel(cmd)
		start := len(all.Bytes())
		err := cmd.Run()
		if cmd.ProcessState != nil {
			b.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("go %s failed: %v\n%s", strings.Join(verb, " "), err, gocmd.Tail(string(all.Bytes()[start:]), 20))
		}
		return nil
	}
	if err := do([]string{"build"}, t.mains, false); err != nil {
		return nil, err
	}
	if err := do([]string{"build"}, t.libs, true); err != nil {
		return nil, err
	}
	if err := do([]string{"test", "-c"}, t.tests, false); err != nil {
		return nil, err
	}
	return all.Bytes(), nil
}

// A remark is one line of the compiler's -m or -d=pgodebug output, as
// [optlog.Remark], with the position as decisions reports it.
type remark struct {
	Pkg    string // package being compiled
	Pos    Pos    // position; for inlined code the outermost call site
	Kind   remarkKind
	Callee string // inlineCall, hotInline, devirtualize: the callee ("(*T).M" or "pkg.F")
	Caller string // hotInline: the caller's linker name
	Name   string // escape remarks: the value
	Cost   int    // hotInline: the callee's cost
	Expr   string // devirtualize: the call expression
	Iface  bool   // devirtualize: an interface call (else a function value)
}

type remarkKind = optlog.RemarkKind

const (
	rkInlineCall = optlog.RemarkInlineCall
	rkCanInline  = optlog.RemarkCanInline
	rkEscapes    = optlog.RemarkEscapes
	rkMoved      = optlog.RemarkMoved
	rkNoEscape   = optlog.RemarkNoEscape
	rkHotInline  = optlog.RemarkHotInline
	rkHotBig     = optlog.RemarkHotBig
	rkDevirt     = optlog.RemarkDevirt
)

// Pos is a source position.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

func (p Pos) String() string {
	if p.Col == 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// rel returns p with its file relative to dir when it is inside dir.
func (p Pos) rel(dir string) Pos {
	if r, err := filepath.Rel(dir, p.File); err == nil && !strings.HasPrefix(r, "..") {
		p.File = r
	}
	return p
}

// callStat is one line of -d=pgodebug=3 output (devirtualize.CallStat).
type callStat = optlog.CallStat

// compilerOutput is the parsed output of a build with -m and
// -d=pgodebug.
type compilerOutput struct {
	remarks []remark
	stats   map[Pos]*callStat
	hotCDF  string // hot-callsite-thres-from-CDF
}

// parseCompilerOutput parses the output of go build with -gcflags=-m and
// -d=pgodebug=1 or 3 with [optlog.ParseRemarks]. Relative file names are
// resolved against dir, the go command's directory. Only packages in keep
// are kept.
func parseCompilerOutput(r io.Reader, dir string, keep map[string]bool) (*compilerOutput, error) {
	log, err := optlog.ParseRemarks(r, dir, keep)
	if err != nil {
		return nil, err
	}
	out := &compilerOutput{stats: make(map[Pos]*callStat, len(log.Stats)), hotCDF: log.HotCDF}
	for p, st := range log.Stats {
		out.stats[fromOptlog(p)] = st
	}
	for _, r := range log.Remarks {
		out.remarks = append(out.remarks, remark{Pkg: r.Pkg, Pos: fromOptlog(r.Pos), Kind: r.Kind, Callee: r.Callee,
			Caller: r.Caller, Name: r.Name, Cost: r.Cost, Expr: r.Expr, Iface: r.Iface})
	}
	return out, nil
}

// fromOptlog converts a compiler position to a Pos.
func fromOptlog(p optlog.Position) Pos { return Pos{File: p.File, Line: p.Line, Col: p.Col} }

// decisionFlags returns the -gcflags arguments that make the compiler
// print its decisions for the packages.
func decisionFlags(pkgs []string, pgoDebug bool) []string {
	flags := "-m"
	if pgoDebug {
		flags += " -d=pgodebug=3"
	}
	var out []string
	for _, p := range pkgs {
		out = append(out, p+"="+flags)
	}
	return out
}

// collectRemarks builds the targets once with the decisions flags and
// parses the compiler's remarks for the module's packages.
func collectRemarks(ctx context.Context, dir string, env []string, t *targets, pgo string) (*compilerOutput, error) {
	tmp, err := os.MkdirTemp("", "goadvise-decisions-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	b := &buildSpec{dir: dir, env: env, pgo: pgo, out: tmp,
		gcflags: decisionFlags(t.modulePkgs, pgo != "" && pgo != "off")}
	out, err := b.run(ctx, t)
	if err != nil {
		return nil, err
	}
	keep := make(map[string]bool)
	for _, p := range t.modulePkgs {
		keep[p] = true
	}
	return parseCompilerOutput(bytes.NewReader(out), dir, keep)
}

var errInterrupted = errors.New("interrupted")
