package driver

// The analyzers' results, turned into findings: the one place where the
// checker's graph, its packages and their syntax become plain records
// (positions, functions, fields) for package report.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/internal/generated"
	"github.com/goadvise/goadvise/report"
)

// collect gathers the diagnostics of the root actions of g into findings,
// with the fields their analyzers recorded (see kind.Report): kind.Analyzer
// must be among the roots of g, or its results are not kept.
// Findings that several actions report (a file analysed both as part of a
// package and of its test variant) are kept once.
func collect(g *checker.Graph, gen generatedFiles) ([]report.Finding, []string) {
	var out []report.Finding
	var errs []string
	seen := make(map[string]int) // finding key -> index in out
	type placed struct {
		index int
		pkg   *packages.Package // the package whose pass reported it
	}
	variant := make(map[string]placed) // kind, file, offset -> first finding there
	funcs := make(map[*token.File][]funcRange)
	copied := make(map[string]string) // package directory -> Copied
	mains := make(map[string]bool)
	// The fields of each package's findings: kind.Analyzer's result,
	// which the checker keeps for root actions (a driver lists it among
	// the roots for that).
	collectors := make(map[*packages.Package]*kind.Collector)
	for _, act := range g.Roots {
		if act.Package.Name == "main" {
			mains[act.Package.PkgPath] = true
		}
		if c, ok := act.Result.(*kind.Collector); ok && act.Analyzer == kind.Analyzer {
			collectors[act.Package] = c
		}
	}
	for _, act := range g.Roots {
		if act.Err != nil {
			errs = append(errs, act.String()+": "+act.Err.Error())
			continue
		}
		pkg := act.Package
		col := collectors[act.Package]
		if col == nil {
			col = collector(act)
		}
		for _, d := range act.Diagnostics {
			f := makeFinding(pkg, act.Analyzer, d, funcs)
			fields, ok := col.Lookup(d)
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: %s: a diagnostic reported without its fields (internal error): %s", act.String(), f.Analyzer, d.Message))
				continue
			}
			f.Fields = fields
			f.Message = fields.Message()
			f.Program = f.Program || commandInternal(pkg.PkgPath, mains)
			if c, ok := copied[pkg.Dir]; ok {
				f.Copied = c
			} else {
				f.Copied = copiedDir(pkg)
				copied[pkg.Dir] = f.Copied
			}
			// Generated code is analysed as the rest, but no fix
			// edits it: the change belongs in its generator, which
			// may be another project's.
			var mod, root string
			if pkg.Module != nil {
				mod, root = pkg.Module.Path, pkg.Module.Dir
			}
			gf := gen.of(f.File, nil, mod, root)
			f.Generated, f.GeneratedElsewhere = gf.generated, gf.elsewhere
			f.Fixes = slices.DeleteFunc(f.Fixes, func(x report.Fix) bool {
				return slices.ContainsFunc(x.Edits, func(e report.Edit) bool { return gen.of(e.File, nil, mod, root).generated })
			})
			// A file analysed both in its package and in the package's
			// test variant gives its findings twice: the same ones, or,
			// where the tests' uses change what an analyzer can say, the
			// test variant's, which sees them.
			key := fmt.Sprint(f.Kind, "\x00", f.File, "\x00", f.Offset, "\x00", f.Text)
			if _, dup := seen[key]; dup {
				continue
			}
			seen[key] = len(out)
			place := fmt.Sprint(f.Kind, "\x00", f.File, "\x00", f.Offset)
			if o, ok := variant[place]; ok && o.pkg != pkg && rootPath(o.pkg) == rootPath(pkg) {
				if strings.Contains(pkg.ID, " [") {
					out[o.index] = f
				}
				continue
			}
			variant[place] = placed{len(out), pkg}
			out = append(out, f)
		}
	}
	sort.Strings(errs)
	return out, errs
}

func makeFinding(pkg *packages.Package, a *analysis.Analyzer, d analysis.Diagnostic, funcs map[*token.File][]funcRange) report.Finding {
	fset := pkg.Fset
	pos := fset.Position(d.Pos)
	f := report.Finding{
		Analyzer: a.Name,
		File:     pos.Filename,
		Line:     pos.Line,
		Column:   pos.Column,
		Package:  pkg.PkgPath,
		Program:  report.IsProgram(pkg.Name, pkg.PkgPath),
		Message:  d.Message,
		Fixes:    []report.Fix{},
		Offset:   pos.Offset,
	}
	if d.End.IsValid() {
		end := fset.Position(d.End)
		f.EndLine, f.EndColumn = end.Line, end.Column
	}
	if tf := fset.File(d.Pos); tf != nil {
		ranges, ok := funcs[tf]
		if !ok {
			ranges = funcRanges(pkg, tf)
			funcs[tf] = ranges
		}
		// The ranges are in source order and apart: search by halves
		// (a file of thousands of functions has thousands of findings).
		i := sort.Search(len(ranges), func(i int) bool { return ranges[i].end > d.Pos })
		if i < len(ranges) && ranges[i].pos <= d.Pos {
			f.Function = ranges[i].name
		}
	}
fixes:
	for _, sf := range d.SuggestedFixes {
		fix := report.Fix{Message: sf.Message, Edits: []report.Edit{}}
		for _, e := range sf.TextEdits {
			end := e.End
			if !end.IsValid() {
				end = e.Pos
			}
			// Offsets are in the file as parsed; in a file that cgo
			// rewrote, they do not apply to the user's file: drop the fix.
			p, q := fset.PositionFor(e.Pos, false), fset.PositionFor(end, false)
			if p.Filename != fset.Position(e.Pos).Filename {
				continue fixes
			}
			fix.Edits = append(fix.Edits, report.Edit{File: p.Filename, Start: p.Offset, End: q.Offset, New: string(e.NewText)})
		}
		f.Fixes = append(f.Fixes, fix)
	}
	return f
}

type funcRange struct {
	pos, end token.Pos
	name     string
}

// funcRanges lists the function declarations of the syntax file tf of pkg
// with their goadvise names, in source order.
func funcRanges(pkg *packages.Package, tf *token.File) []funcRange {
	var file *ast.File
	for _, f := range pkg.Syntax {
		if pkg.Fset.File(f.FileStart) == tf {
			file = f
		}
	}
	if file == nil {
		return nil
	}
	var out []funcRange
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if pkg.TypesInfo != nil {
			if fn, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				name = funcname.InPackage(fn)
			}
		}
		out = append(out, funcRange{fd.Pos(), fd.End(), pkg.PkgPath + "." + name})
	}
	return out
}

// collector returns the fields collected on the package of act by the
// analyzers it ran (see kind.Report): the result of kind.Analyzer among
// its dependencies, when the checker kept it.
func collector(act *checker.Action) *kind.Collector {
	for _, dep := range act.Deps {
		if dep.Analyzer == kind.Analyzer {
			c, _ := dep.Result.(*kind.Collector)
			return c
		}
	}
	return nil
}

// copiedDir returns the directory, relative to its module's, of the
// copy of another project's code that holds pkg, or "": a directory from
// pkg's up to, not including, the module's root that has a license file
// of its own (LICENSE, LICENCE, COPYING, with any extension, in any case).
// A license travels with the code it covers: a package copied from
// another module (fiber's internal/gopsutil, kafka-go's
// compress/snappy/go-xerial-snappy) keeps its project's, and its changes
// are that project's to make.
func copiedDir(pkg *packages.Package) string {
	if pkg.Module == nil || pkg.Module.Dir == "" || pkg.Dir == "" {
		return ""
	}
	root := filepath.Clean(pkg.Module.Dir)
	for dir := filepath.Clean(pkg.Dir); dir != root && strings.HasPrefix(dir, root+string(filepath.Separator)); dir = filepath.Dir(dir) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return ""
		}
		for _, e := range entries {
			if !e.IsDir() && isLicense(e.Name()) {
				rel, _ := filepath.Rel(root, dir)
				return filepath.ToSlash(rel)
			}
		}
	}
	return ""
}

// isLicense reports whether a file named name holds a license.
func isLicense(name string) bool {
	base := strings.ToUpper(strings.TrimSuffix(name, filepath.Ext(name)))
	return base == "LICENSE" || base == "LICENCE" || base == "COPYING"
}

// commandInternal reports whether the package at path is internal to a
// command of mains (the import paths of the package main analysed): only
// the command can import it (a tool's tool/internal/render).
func commandInternal(path string, mains map[string]bool) bool {
	elems := strings.Split(path, "/")
	for i, elem := range elems {
		if elem == "internal" && mains[strings.Join(elems[:i], "/")] {
			return true
		}
	}
	return false
}

// generatedFiles remembers, by absolute path, whether each file is
// generated (generated.Marker) and by another project's tool
// (generated.OwnTool): the lines that give a package its share of the
// default and the findings' marks come from one reading of each file.
type generatedFiles map[string]genFile

type genFile struct{ generated, elsewhere bool }

// of returns what g knows of the file name, reading it (src, or the file
// when src is nil) the first time, for the module at path module in
// directory root. A file that cannot be read or parsed is not generated.
func (g generatedFiles) of(name string, src []byte, module, root string) genFile {
	gf, ok := g[name]
	if ok {
		return gf
	}
	if src == nil {
		src, _ = os.ReadFile(name)
	}
	// Every marker says DO NOT EDIT (generated.Marker): a file that does
	// not is read no further.
	if src != nil && bytes.Contains(src, []byte("DO NOT EDIT")) {
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err == nil {
			if m := generated.Marker(f); m != "" {
				gf = genFile{generated: true, elsewhere: !generated.OwnTool(m, module, root, filepath.Dir(name))}
			}
		}
	}
	g[name] = gf
	return gf
}
