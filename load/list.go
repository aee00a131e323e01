package load

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/goadvise/goadvise/internal/gocmd"
)

// A Package is the part of go list's description of a package that
// goadvise's listings use (see [Packages]).
type Package struct {
	ImportPath   string
	Dir          string
	Name         string
	GoFiles      []string
	CgoFiles     []string
	EmbedFiles   []string
	TestGoFiles  []string
	XTestGoFiles []string
	Deps         []string
	ForTest      string
	Standard     bool
	DepOnly      bool
	Module       *Module
	Error        *struct{ Err string }
}

// A Module is the module a package belongs to.
type Module struct {
	Path    string
	Version string
	Main    bool
	Dir     string
	Replace *struct{ Path, Version string }
}

// packageFields are the go list -json fields of a Package.
const packageFields = "ImportPath,Dir,Name,GoFiles,CgoFiles,EmbedFiles,TestGoFiles,XTestGoFiles,Deps,ForTest,Standard,DepOnly,Module,Error"

// ListOptions say how [Packages] runs go list.
type ListOptions struct {
	Dir   string   // directory in which to run the go command ("" for the current one)
	Env   []string // environment of the go command (nil for os.Environ())
	Deps  bool     // also list the dependencies (go list -deps)
	Tests bool     // also list the test variants (go list -test)
}

// A Listing is what one go list printed about the packages matching some
// patterns, in go list's order. It is shared: its users must not modify the
// packages.
type Listing struct {
	Packages []*Package
	Patterns []string // the patterns listed
	Tests    bool     // the listing has the test variants
	Keys     *Keys    // the content keys of the listed packages
}

// Packages runs go list -e -json over the patterns: the one plain listing
// of packages that goadvise runs (the findings cache, the compiler's
// decisions, goadvise diff and bench all start from it). A package that
// does not load has its Error set; Packages fails only if the go command
// fails, with the first line of what it said.
func Packages(ctx context.Context, opts ListOptions, patterns ...string) (*Listing, error) {
	args := []string{"list", "-e", "-json=" + packageFields}
	if opts.Deps {
		args = append(args, "-deps")
	}
	if opts.Tests {
		args = append(args, "-test")
	}
	args = append(args, "--")
	args = append(args, patterns...)
	out, err := gocmd.Output(ctx, opts.Dir, opts.Env, args...)
	if err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		return nil, fmt.Errorf("go list %s: %s", strings.Join(patterns, " "), strings.TrimPrefix(line, "go: "))
	}
	l := &Listing{Patterns: patterns, Tests: opts.Tests}
	byPath := make(map[string]*Package)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(Package)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		l.Packages = append(l.Packages, p)
		byPath[p.ImportPath] = p
	}
	l.Keys = NewKeys(byPath)
	return l, nil
}

// HashFiles writes the name and content hash of every file of the lists
// (names relative to dir) to h. It reports false if a file cannot be read.
func HashFiles(h io.Writer, dir string, lists ...[]string) bool {
	ok := true
	for _, list := range lists {
		for _, f := range list {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				fmt.Fprintf(h, "file %s unreadable\n", f)
				ok = false
				continue
			}
			fmt.Fprintf(h, "file %s %x\n", f, sha256.Sum256(data))
		}
	}
	return ok
}

// Keys identifies the content of listed packages and of their
// dependencies, computing each dependency's once.
type Keys struct {
	mu   sync.Mutex
	pkgs map[string]*Package
	memo map[string]string
}

// NewKeys returns Keys over packages listed by import path.
func NewKeys(pkgs map[string]*Package) *Keys {
	return &Keys{pkgs: pkgs, memo: make(map[string]string)}
}

// Key returns the content key of the package p: the one recipe of
// goadvise's caches. It hashes salt (what besides the package decides the
// cached result), p's import path and directory (cached results may hold
// absolute file names), the content of its files (with tests, of its
// _test.go files too) and the key of each dependency, in p.Deps or in
// extraDeps (the dependencies of its test variants, say): through inlining
// and types, a change in a dependency can change the result. It returns ""
// if a file cannot be read.
func (k *Keys) Key(salt string, p *Package, tests bool, extraDeps ...[]string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\ntests=%v\n", salt, p.ImportPath, p.Dir, tests)
	lists := [][]string{p.GoFiles, p.CgoFiles, p.EmbedFiles}
	if tests {
		lists = append(lists, p.TestGoFiles, p.XTestGoFiles)
	}
	if !HashFiles(h, p.Dir, lists...) {
		return ""
	}
	deps := slices.Clone(p.Deps)
	for _, d := range extraDeps {
		deps = append(deps, d...)
	}
	slices.Sort(deps)
	for _, d := range slices.Compact(deps) {
		key := k.Dep(d)
		if key == "" {
			return ""
		}
		fmt.Fprintf(h, "dep %s %s\n", d, key)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Dep returns the key of the dependency with the given import path:
// "std" for the standard library (which the Go version fixes: callers key
// that separately), "mod PATH@VERSION" for a dependency from a module
// version, and a hash of its files otherwise (the main module, local
// replacements). A test variant "q [p.test]" has the files of q. It
// returns "" if a file cannot be read, and "missing" for an unlisted path.
func (k *Keys) Dep(path string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if key, ok := k.memo[path]; ok {
		return key
	}
	base, _, _ := strings.Cut(path, " [")
	p := k.pkgs[base]
	var key string
	switch {
	case p == nil:
		key = "missing"
	case p.Standard:
		key = "std"
	case p.Module != nil && p.Module.Version != "" && (p.Module.Replace == nil || p.Module.Replace.Version != ""):
		key = "mod " + p.Module.Path + "@" + p.Module.Version
		if r := p.Module.Replace; r != nil {
			key += " => " + r.Path + "@" + r.Version
		}
	default:
		h := sha256.New()
		if HashFiles(h, p.Dir, p.GoFiles, p.CgoFiles, p.EmbedFiles) {
			key = hex.EncodeToString(h.Sum(nil))
		}
	}
	k.memo[path] = key
	return key
}

// CompiledGoFiles returns the Go files the compiler compiles for the
// package with the given import path (go list -compiled): with cgo, the
// files cgo generated, in the build cache. Relative names are made
// absolute.
func CompiledGoFiles(ctx context.Context, opts ListOptions, importPath string) ([]string, error) {
	out, err := gocmd.Output(ctx, opts.Dir, opts.Env, "list", "-e", "-compiled", "-json=Dir,CompiledGoFiles", "--", importPath)
	if err != nil {
		return nil, fmt.Errorf("go list -compiled %s: %v", importPath, err)
	}
	var p struct {
		Dir             string
		CompiledGoFiles []string
	}
	if err := json.Unmarshal(out, &p); err != nil {
		return nil, fmt.Errorf("go list -compiled %s: %w", importPath, err)
	}
	for i, f := range p.CompiledGoFiles {
		if !filepath.IsAbs(f) {
			p.CompiledGoFiles[i] = filepath.Join(p.Dir, f)
		}
	}
	return p.CompiledGoFiles, nil
}

// Stale reports which of the packages with the given import paths the go
// command would compile (go list's Stale field): those whose compile,
// with the build flags of opts' environment, is not in its build cache.
// Computing it costs go list the content hashes of the packages and their
// dependencies, no compile.
func Stale(ctx context.Context, opts ListOptions, paths ...string) (map[string]bool, error) {
	out, err := gocmd.Output(ctx, opts.Dir, opts.Env, append([]string{"list", "-e", "-json=ImportPath,Stale", "--"}, paths...)...)
	if err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		return nil, fmt.Errorf("go list (staleness): %s", strings.TrimPrefix(line, "go: "))
	}
	stale := make(map[string]bool, len(paths))
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Stale      bool
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		stale[p.ImportPath] = p.Stale
	}
	return stale, nil
}
