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
	"context"
	"encoding/json"
	"strings"

	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/load"
)

// A Package is one package of the run, as go list describes it, with its
// cache key.
type Package struct {
	*load.Package
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

// A Run lists the packages of one check run and computes their keys.
type Run struct {
	Roots []*Package // the packages the patterns matched, in go list order
}

// Options describe a run: where, what, and everything besides the
// packages' content that determines findings.
type Options struct {
	Dir      string
	Patterns []string
	Tests    bool
	Salt     string // the executable, analyzers, flags and profiles, already hashed or spelled out

	// Listing, if set, is the go list -deps listing of Patterns (with
	// the test variants if Tests) to key, instead of listing again.
	Listing *load.Listing
}

// List computes the cache key of every package the patterns matched. It
// lists them (with dependencies, and with their test variants if
// opts.Tests) unless opts.Listing holds such a listing already.
func List(ctx context.Context, opts Options) (*Run, error) {
	l := opts.Listing
	if l == nil {
		var err error
		l, err = load.Packages(ctx, load.ListOptions{Dir: opts.Dir, Deps: true, Tests: opts.Tests}, opts.Patterns...)
		if err != nil {
			return nil, err
		}
	}
	env, err := goEnv(ctx, opts.Dir)
	if err != nil {
		return nil, err
	}
	r := &Run{}
	// "p [p.test]" and "p_test [p.test]": their dependencies count for
	// the root p.
	testDeps := make(map[string][]string)
	for _, p := range l.Packages {
		switch {
		case p.ForTest != "":
			testDeps[p.ForTest] = append(testDeps[p.ForTest], p.Deps...)
		case strings.HasSuffix(p.ImportPath, ".test") && p.Name == "main":
			// the generated test main
		case !p.DepOnly:
			r.Roots = append(r.Roots, &Package{Package: p})
		}
	}
	salt := "goadvise-memo-v3\n" + opts.Salt + "\n" + env
	for _, p := range r.Roots {
		if p.Error == nil {
			p.key = l.Keys.Key(salt, p.Package, opts.Tests, testDeps[p.ImportPath])
		}
	}
	return r, nil
}

// goEnv returns the go command's settings that change what it builds,
// one a line.
func goEnv(ctx context.Context, dir string) (string, error) {
	e, err := load.ReadEnv(ctx, dir, nil)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, v := range []string{e.GOVERSION, e.GOOS, e.GOARCH, e.GOAMD64, e.GOARM64, e.GOFLAGS, e.GOEXPERIMENT, e.CGO_ENABLED, e.GOWORK, e.GOMOD} {
		b.WriteString(v + "\n")
	}
	return b.String(), nil
}

// findings is the cache of findings, by package key.
var findings = cache.New("findings")

// Get reads the entry cached under key into e, a pointer to what [Put]
// stored (the caller's record of a package's findings), and reports
// whether there was one. A missing or damaged entry is a miss.
func Get(key string, e any) bool {
	if key == "" {
		return false
	}
	data, ok := findings.Get(key)
	if !ok {
		return false
	}
	return json.Unmarshal(data, e) == nil
}

// Put stores e, the entry of a package, as JSON under key, atomically.
// Failures are ignored: the cache only saves time.
func Put(key string, e any) {
	if key == "" {
		return
	}
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	findings.Put(key, data)
}
