// Package memo caches the findings of each package between runs of
// goadvise check, so that a re-run on an unchanged tree costs little more
// than listing its packages, and a change to one file recomputes only the
// packages it can affect.
//
// A package's key covers everything its findings depend on: the goadvise
// executable, the Go toolchain and target, the analyzers and all their
// flag values, any profile given to them, the package's own files (by
// content), and the keys of all its dependencies (standard library
// packages by Go version, module dependencies by module version, other
// packages by their files). A dependency matters because inlining carries
// compiler decisions across packages and because type information flows
// from dependencies.
package memo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sort"
	"strings"

	"github.com/goadvise/goadvise/golist"
	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/internal/gocmd"
	"github.com/goadvise/goadvise/report"
)

// A Package is one package of the run, as go list describes it, with its
// cache key.
type Package struct {
	golist.Package
	key string
}

// Key returns the package's cache key ("" if it has none, for example
// because a file could not be read).
func (p *Package) Key() string { return p.key }

// Files returns the number of Go files of the package that check analyses.
func (p *Package) Files(tests bool) int {
	n := len(p.GoFiles) + len(p.CgoFiles)
	if tests {
		n += len(p.TestGoFiles) + len(p.XTestGoFiles)
	}
	return n
}

// Entry is what the cache holds for one package.
type Entry struct {
	Findings   []report.Finding
	Suppressed int
}

// A Run lists the packages of one check run and computes their keys.
type Run struct {
	Roots []*Package // the packages the patterns matched, in go list order
	dir   string
	pkgs  map[string]*golist.Package
	deps  *golist.Keys
	salt  string
	tests bool
}

// Options describe a run: where, what, and everything besides the
// packages' content that determines findings.
type Options struct {
	Dir      string
	Patterns []string
	Tests    bool
	Salt     string // the executable, analyzers, flags and profiles, already hashed or spelled out
}

// List runs go list over the patterns (with dependencies) and computes the
// cache key of every matched package.
func List(ctx context.Context, opts Options) (*Run, error) {
	args := []string{"list", "-e", "-deps", "-json=ImportPath,Dir,Name,GoFiles,CgoFiles,EmbedFiles,TestGoFiles,XTestGoFiles,Deps,Standard,DepOnly,ForTest,Module,Error"}
	if opts.Tests {
		// Also list the test variants, whose dependencies include what
		// the test files import.
		args = append(args, "-test")
	}
	args = append(args, "--")
	args = append(args, opts.Patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	gocmd.InterruptOnCancel(cmd) // so that it removes its work directory
	cmd.Dir = opts.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("%s: %s", opts.Dir, strings.TrimPrefix(firstLine(msg), "go: "))
	}
	env, err := goEnv(ctx, opts.Dir)
	if err != nil {
		return nil, err
	}
	r := &Run{
		dir:   opts.Dir,
		pkgs:  make(map[string]*golist.Package),
		salt:  opts.Salt + "\n" + env,
		tests: opts.Tests,
	}
	testDeps := make(map[string][]string)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(Package)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		switch {
		case p.ForTest != "":
			// "p [p.test]" or "p_test [p.test]": its dependencies count
			// for the root p.
			testDeps[p.ForTest] = append(testDeps[p.ForTest], p.Deps...)
			continue
		case strings.HasSuffix(p.ImportPath, ".test") && p.Name == "main":
			continue // the generated test main
		}
		r.pkgs[p.ImportPath] = &p.Package
		if !p.DepOnly {
			r.Roots = append(r.Roots, p)
		}
	}
	for path, deps := range testDeps {
		if p := r.pkgs[path]; p != nil {
			p.Deps = append(p.Deps, deps...)
		}
	}
	r.deps = golist.NewKeys(r.pkgs)
	for _, p := range r.Roots {
		if p.Error == nil {
			p.key = r.packageKey(p)
		}
	}
	return r, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// goEnv returns the go command's settings that change what it builds.
func goEnv(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH", "GOAMD64", "GOARM64", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED", "GOWORK", "GOMOD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	return string(out), nil
}

func (r *Run) packageKey(p *Package) string {
	h := sha256.New()
	fmt.Fprintf(h, "goadvise-memo-v1\n%s\n%s\n%s\ntests=%v\n", r.salt, p.ImportPath, p.Dir, r.tests)
	lists := [][]string{p.GoFiles, p.CgoFiles, p.EmbedFiles}
	if r.tests {
		lists = append(lists, p.TestGoFiles, p.XTestGoFiles)
	}
	if !golist.HashFiles(h, p.Dir, lists...) {
		return ""
	}
	deps := append([]string(nil), p.Deps...)
	sort.Strings(deps)
	deps = slices.Compact(deps)
	for _, d := range deps {
		k := r.deps.Dep(d)
		if k == "" {
			return ""
		}
		fmt.Fprintf(h, "dep %s %s\n", d, k)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// findings is the cache of findings, by package key.
var findings = cache.New("findings")

// Get returns the cached entry for a key. A missing or damaged entry is a
// miss.
func Get(key string) (*Entry, bool) {
	if key == "" {
		return nil, false
	}
	data, ok := findings.Get(key)
	if !ok {
		return nil, false
	}
	e := new(Entry)
	if err := json.Unmarshal(data, e); err != nil {
		return nil, false
	}
	return e, true
}

// Put stores an entry under a key, atomically. Failures are ignored: the
// cache only saves time.
func Put(key string, e *Entry) {
	if key == "" {
		return
	}
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	findings.Put(key, data)
}
