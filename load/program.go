package load

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"sort"

	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/internal/gocmd"
)

// Export compiles the given packages (listed by [List] with
// Config.NoExport) and sets their ExportFile, with one go command. A
// package that does not compile gets its error added to Errors. Package
// unsafe has no export data.
func Export(ctx context.Context, cfg Config, pkgs []*packages.Package) error {
	if len(pkgs) == 0 {
		return nil
	}
	byID := make(map[string]*packages.Package)
	args := []string{"list", "-e", "-json=ImportPath,Export,Error", "-pgo=off", "-export=true", "-find=false", "-buildvcs=false"}
	args = append(args, cfg.BuildFlags...)
	args = append(args, "--")
	for _, p := range pkgs {
		byID[p.ID] = p
		args = append(args, p.ID)
	}
	out, err := gocmd.Output(ctx, cfg.Dir, cfg.Env, args...)
	if err != nil {
		return fmt.Errorf("go list -export: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var lp struct {
			ImportPath, Export string
			Error              *struct{ Pos, Err string }
		}
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("go list output: %w", err)
		}
		p := byID[lp.ImportPath]
		if p == nil {
			continue
		}
		p.ExportFile = lp.Export
		if lp.Error != nil {
			p.Errors = append(p.Errors, packages.Error{Pos: lp.Error.Pos, Msg: lp.Error.Err, Kind: packages.ListError})
		}
	}
	return nil
}

// CheckProgram type-checks a program for whole-program analysis: the
// packages among roots and their dependencies for which fromSource
// reports true are parsed (without comments) and type-checked from
// source, one at a time in dependency order, and every package they
// import for which it reports false is read from its export data, once.
// Unlike [Check], the whole program shares one FileSet (fset) and one
// types.Package per package, and a package checked from source imports
// the source-checked types of the packages it imports, as one go/ssa
// program needs. No package read from export data may import one checked
// from source: fromSource must hold for every package that imports one
// for which it holds.
//
// After checking each package, CheckProgram calls each with it (Fset,
// Syntax, Types, TypesInfo and IllTyped set, parse and type errors added
// to Errors) and with the packages read from export data for it that no
// earlier package imported, which are complete. When each returns, the
// package's Syntax and TypesInfo are dropped, so that memory holds the
// syntax and type annotations of one package at a time (whatever each
// built from them excepted); [Release] drops the rest. CheckProgram
// stops at the first error each returns, and when ctx is done.
func CheckProgram(ctx context.Context, fset *token.FileSet, roots []*packages.Package, fromSource func(*packages.Package) bool, each func(p *packages.Package, imported []*types.Package) error) error {
	b := &batch{fset: fset, types: make(map[string]*types.Package), done: make(map[string]error)}
	// The packages to check, dependencies first.
	var order []*packages.Package
	seen := make(map[*packages.Package]bool)
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, path := range sortedKeys(p.Imports) {
			visit(p.Imports[path])
		}
		if fromSource(p) {
			order = append(order, p)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	source := make(map[string]bool)
	for _, p := range order {
		source[p.ID] = true
	}
	for _, p := range order {
		if err := ctx.Err(); err != nil {
			return err
		}
		var imported []*types.Package
		for _, path := range sortedKeys(p.Imports) {
			dep := p.Imports[path]
			if source[dep.ID] {
				continue
			}
			if _, read := b.done[dep.ID]; read {
				continue
			}
			if dep.PkgPath == "unsafe" {
				b.done[dep.ID] = nil
				imported = append(imported, types.Unsafe)
				continue
			}
			if t, err := b.read(dep); err == nil {
				imported = append(imported, t)
			}
		}
		b.checkWith(p, parseNoComments, func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			dep := p.Imports[path]
			switch {
			case dep == nil:
				return nil, fmt.Errorf("%s imports %q, which go list did not resolve", p.ID, path)
			case source[dep.ID]:
				if dep.Types == nil {
					return nil, fmt.Errorf("%s imports %s, which did not load", p.ID, dep.ID)
				}
				return dep.Types, nil
			}
			return b.read(dep) // read above; the error is the import's
		})
		err := each(p, imported)
		p.Syntax, p.TypesInfo = nil, nil
		if err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys(m map[string]*packages.Package) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
