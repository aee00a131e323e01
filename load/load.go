// Package load lists packages with one go command and type-checks them
// from source in batches, importing their dependencies from export data.
//
// golang.org/x/tools/go/packages does the same in one call, but a driver
// that analyses a large tree in batches (to hold the syntax and types of
// one batch at a time) would run go list once per batch, and on
// golang.org/x/tools that costs about a second each even when every
// package is compiled already. List runs it once, itself: go/packages
// also runs go commands to learn the Go version and the target's type
// sizes, which took it 1.7 s more on golang.org/x/tools. Check
// type-checks a batch. CheckProgram type-checks a whole program for
// go/ssa instead: some packages from source, in dependency order and in
// one type universe, the others from export data.
//
// Test variants are not supported: a test variant whose dependencies
// import it back needs its dependencies' export data to share its own
// types, which go/packages arranges. Load tests with go/packages.
package load

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/internal/gocmd"
)

// Config says how List runs the go command.
type Config struct {
	Dir        string   // directory in which to run the go command ("" for the current one)
	BuildFlags []string // flags for the go command, such as -tags or -gcflags
	Env        []string // environment of the go command (nil for os.Environ())
	// NoExport makes List list without compiling: ExportFile stays empty
	// until [Export] compiles the packages that need it.
	NoExport bool
}

// A Program is the outcome of List: metadata for the packages matched by
// the patterns and for all their dependencies, with export data compiled.
type Program struct {
	// Roots are the packages matched by the patterns, in go list's
	// order. Until Check, only their metadata is set: ID, Name, PkgPath,
	// Errors, GoFiles, CompiledGoFiles, OtherFiles, IgnoredFiles, Imports,
	// Module, TypesSizes and ExportFile.
	Roots []*packages.Package
}

// List runs go list once on the patterns, compiling every package for its
// export data.
func List(ctx context.Context, cfg Config, patterns ...string) (*Program, error) {
	// The sizes of types depend on the target architecture, which only
	// the go command knows for sure (GOARCH may be set in go env -w).
	archc := make(chan string, 1)
	go func() {
		var arch string
		if e, err := ReadEnv(ctx, cfg.Dir, cfg.Env); err == nil {
			arch = e.GOARCH
		}
		archc <- arch
	}()
	args := append([]string{"list", "-json=" + ListFields, "-pgo=off"}, ListFlags...)
	if cfg.NoExport {
		args = slices.DeleteFunc(args, func(a string) bool { return a == "-export=true" })
	}
	args = append(args, cfg.BuildFlags...)
	args = append(args, "--")
	args = append(args, patterns...)
	out, err := gocmd.Output(ctx, cfg.Dir, cfg.Env, args...)
	arch := <-archc
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	return Decode(bytes.NewReader(out), arch)
}

// ListFlags are the flags, besides -json=ListFields, with which List runs
// go list. A driver that runs go list itself with them (to compile and
// list in one command) gives its output to Decode.
var ListFlags = []string{"-e", "-compiled=true", "-export=true", "-deps=true", "-find=false", "-buildvcs=false"}

// Decode builds a Program from the output of go list run with ListFlags
// and -json=ListFields (or more fields), for a target of architecture
// goarch ("" for the one goadvise runs on).
func Decode(r io.Reader, goarch string) (*Program, error) {
	if goarch == "" {
		goarch = runtime.GOARCH
	}
	return decode(r, types.SizesFor("gc", goarch))
}

// ListFields are the fields of go list -json that List uses.
const ListFields = "ImportPath,Name,Dir,Export,GoFiles,CgoFiles,CompiledGoFiles,IgnoredGoFiles,IgnoredOtherFiles," +
	"CFiles,CXXFiles,MFiles,HFiles,FFiles,SFiles,SwigFiles,SwigCXXFiles,SysoFiles,Imports,ImportMap,DepOnly,Module,Error,DepsErrors"

// listedPackage is a package as go list -json describes it.
type listedPackage struct {
	ImportPath, Name, Dir, Export                                                        string
	GoFiles, CgoFiles, CompiledGoFiles, IgnoredGoFiles, IgnoredOtherFiles                []string
	CFiles, CXXFiles, MFiles, HFiles, FFiles, SFiles, SwigFiles, SwigCXXFiles, SysoFiles []string
	Imports                                                                              []string
	ImportMap                                                                            map[string]string
	DepOnly                                                                              bool
	Module                                                                               *packages.Module
	Error                                                                                *struct{ Pos, Err string }
	DepsErrors                                                                           []*struct{ Pos, Err string }
}

// decode builds the package graph from go list's output, as go/packages
// does: IDs are import paths, imports are keyed by the path the source
// writes (ImportMap resolves vendoring), file names are absolute.
func decode(r io.Reader, sizes types.Sizes) (*Program, error) {
	byID := make(map[string]*packages.Package)
	var order []*packages.Package
	var roots []*packages.Package
	imports := make(map[*packages.Package]map[string]string) // import path -> ID
	dec := json.NewDecoder(r)
	for {
		var lp listedPackage
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		abs := func(lists ...[]string) []string {
			var out []string
			for _, l := range lists {
				for _, f := range l {
					if !filepath.IsAbs(f) {
						f = filepath.Join(lp.Dir, f)
					}
					out = append(out, f)
				}
			}
			return out
		}
		p := &packages.Package{
			ID:              lp.ImportPath,
			Name:            lp.Name,
			PkgPath:         lp.ImportPath,
			Dir:             lp.Dir,
			GoFiles:         abs(lp.GoFiles, lp.CgoFiles),
			CompiledGoFiles: abs(lp.CompiledGoFiles),
			OtherFiles:      abs(lp.CFiles, lp.CXXFiles, lp.MFiles, lp.HFiles, lp.FFiles, lp.SFiles, lp.SwigFiles, lp.SwigCXXFiles, lp.SysoFiles),
			IgnoredFiles:    abs(lp.IgnoredGoFiles, lp.IgnoredOtherFiles),
			ExportFile:      lp.Export,
			Module:          lp.Module,
			TypesSizes:      sizes,
			Imports:         make(map[string]*packages.Package),
		}
		if lp.Error != nil {
			p.Errors = append(p.Errors, packages.Error{Pos: lp.Error.Pos, Msg: lp.Error.Err, Kind: packages.ListError})
		} else if !lp.DepOnly && len(lp.DepsErrors) > 0 {
			// A dependency that does not load (a replace directive
			// naming a directory that is not there, a missing
			// module): go list neither compiles the package nor lists
			// its compiled files, so it cannot be analysed. Without
			// this error it would be type-checked as an empty package
			// and reported as having no findings.
			// Each missing module once, at the first import of it.
			seen := make(map[string]bool)
			for _, e := range lp.DepsErrors {
				if !seen[e.Err] {
					seen[e.Err] = true
					p.Errors = append(p.Errors, packages.Error{Pos: e.Pos, Msg: e.Err, Kind: packages.ListError})
				}
			}
		}
		m := make(map[string]string)
		for _, id := range lp.Imports {
			if id != "C" {
				m[id] = id
			}
		}
		for path, id := range lp.ImportMap {
			if path != "C" {
				delete(m, id)
				m[path] = id
			}
		}
		imports[p] = m
		byID[p.ID] = p
		order = append(order, p)
		if !lp.DepOnly {
			roots = append(roots, p)
		}
	}
	for _, p := range order {
		for path, id := range imports[p] {
			if dep := byID[id]; dep != nil {
				p.Imports[path] = dep
			}
		}
	}
	return &Program{Roots: roots}, nil
}

// Check parses and type-checks the given roots from source, concurrently,
// importing their dependencies from export data, and sets their Fset,
// Syntax, Types, TypesInfo, TypesSizes, TypeErrors and IllTyped; parse and
// type errors are added to Errors. The roots of one call share a FileSet
// and the imported packages: call it once per batch, and [Release] the
// batch afterwards.
func Check(roots []*packages.Package) {
	b := &batch{fset: token.NewFileSet(), types: make(map[string]*types.Package), done: make(map[string]error)}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, r := range roots {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			b.check(r)
		}()
	}
	wg.Wait()
}

// Release drops what Check set, so that memory holds one batch at a time.
func Release(roots []*packages.Package) {
	for _, r := range roots {
		r.Fset, r.Syntax, r.Types, r.TypesInfo, r.TypeErrors = nil, nil, nil, nil, nil
	}
}

// A batch is the state Check shares between the roots it checks.
type batch struct {
	fset *token.FileSet

	mu    sync.Mutex                // guards types and done, and serializes export data reads
	types map[string]*types.Package // by package ID: one object per package of the batch
	done  map[string]error          // package IDs whose export data was read, with the error
}

func (b *batch) check(r *packages.Package) {
	b.checkWith(r, parseWithComments, func(path string) (*types.Package, error) { return b.importFrom(r, path) })
}

// The parser modes of Check and CheckProgram: the analyzers read comments
// (directives, generated-file markers), go/ssa does not.
const (
	parseWithComments = parser.AllErrors | parser.ParseComments | parser.SkipObjectResolution
	parseNoComments   = parser.AllErrors | parser.SkipObjectResolution
)

// checkWith parses r's files with the given mode and type-checks them,
// importing with imp.
func (b *batch) checkWith(r *packages.Package, mode parser.Mode, imp importerFunc) {
	r.Fset = b.fset
	var files []*ast.File
	for _, name := range r.CompiledGoFiles {
		f, err := parser.ParseFile(b.fset, name, nil, mode)
		if f != nil {
			files = append(files, f)
		}
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				r.Errors = append(r.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		} else if err != nil {
			r.Errors = append(r.Errors, packages.Error{Pos: name, Msg: err.Error(), Kind: packages.ParseError})
		}
	}
	r.Syntax = files
	r.TypesInfo = &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	conf := types.Config{
		Importer: imp,
		Sizes:    r.TypesSizes,
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok {
				r.Errors = append(r.Errors, packages.Error{Msg: err.Error(), Kind: packages.TypeError})
				return
			}
			r.TypeErrors = append(r.TypeErrors, te)
			r.Errors = append(r.Errors, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
		},
	}
	if r.Module != nil && r.Module.GoVersion != "" {
		conf.GoVersion = "go" + r.Module.GoVersion
	}
	r.Types, _ = conf.Check(r.PkgPath, b.fset, files, r.TypesInfo)
	r.IllTyped = len(r.Errors) > 0
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// importFrom imports the package that r imports as path, from its export
// data.
func (b *batch) importFrom(r *packages.Package, path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	dep := r.Imports[path]
	if dep == nil {
		return nil, fmt.Errorf("%s imports %q, which go list did not resolve", r.ID, path)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.read(dep)
}

// read returns dep's package, reading its export data if no root of the
// batch has imported it yet. b.mu is held.
func (b *batch) read(dep *packages.Package) (*types.Package, error) {
	pkg := b.pkg(dep)
	if err, ok := b.done[dep.ID]; ok {
		return pkg, err
	}
	err := b.readExport(dep, pkg)
	b.done[dep.ID] = err
	return pkg, err
}

// pkg returns the one types.Package of the batch for p, complete or not.
func (b *batch) pkg(p *packages.Package) *types.Package {
	t := b.types[p.ID]
	if t == nil {
		t = types.NewPackage(p.PkgPath, p.Name)
		b.types[p.ID] = t
	}
	return t
}

// readExport reads dep's export data into pkg. The export data refers to
// the packages dep depends on by path: they are given, by path, the
// batch's objects for dep's dependencies (test variants of a package have
// the path of the package, so the view depends on dep).
func (b *batch) readExport(dep *packages.Package, pkg *types.Package) error {
	if dep.ExportFile == "" {
		if len(dep.Errors) > 0 {
			return fmt.Errorf("no export data for %s: %s", dep.PkgPath, dep.Errors[0].Msg)
		}
		return fmt.Errorf("no export data for %s", dep.PkgPath)
	}
	view := map[string]*types.Package{dep.PkgPath: pkg}
	seen := make(map[string]bool)
	// The directories of the packages whose file names the export data
	// may hold (see restoreRenamed).
	dirs := map[string]bool{packageDir(dep): true}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		for _, d := range p.Imports {
			if !seen[d.ID] {
				seen[d.ID] = true
				view[d.PkgPath] = b.pkg(d)
				dirs[packageDir(d)] = true
				visit(d)
			}
		}
	}
	visit(dep)
	f, err := os.Open(dep.ExportFile)
	if err != nil {
		return fmt.Errorf("reading export data of %s: %w", dep.PkgPath, err)
	}
	defer f.Close()
	rd, err := gcexportdata.NewReader(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("reading export data of %s: %w", dep.PkgPath, err)
	}
	data, err := io.ReadAll(rd)
	if err != nil {
		return fmt.Errorf("reading export data of %s: %w", dep.PkgPath, err)
	}
	restoreRenamed(data, dirs)
	// Read fills pkg and may add to incomplete packages of the view, but
	// creates none.
	if _, err := gcexportdata.Read(bytes.NewReader(data), b.fset, view, dep.PkgPath); err != nil {
		return fmt.Errorf("reading export data of %s: %w", dep.PkgPath, err)
	}
	return nil
}
