package pgo

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/load"
)

// A SourceFunc is a function of the current source code as the profile
// names it.
type SourceFunc struct {
	Name      string // "example.com/pkg.(*T).M", "example.com/pkg.F.func1"
	File      string
	StartLine int // line of the func keyword, as Function.start_line
	EndLine   int // line of the closing brace

	// callLines are the lines that can hold a call site of this function
	// (not of the function literals in it): calls, range statements, and
	// if the function defers, its returns and its closing brace.
	callLines map[int]bool
}

// SourceFuncs returns the functions of pkgs (loaded with syntax and types)
// under their runtime names. Closures are named as the compiler names them
// when they are not inlined: F.func1, F.func2 in source order, F.func1.1
// for a closure in F.func1. Closures created by inlining (named after the
// inlined function) and range-over-func bodies are not found.
func SourceFuncs(pkgs []*packages.Package) map[string]SourceFunc {
	out := map[string]SourceFunc{}
	for _, pkg := range pkgs {
		for _, file := range pkg.Syntax {
			for _, decl := range file.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				prefixes := []string{pkg.PkgPath}
				if pkg.Name == "main" {
					// A program names its functions main.F; a test of
					// the package names them by import path.
					prefixes = append(prefixes, "main")
				}
				for _, prefix := range prefixes {
					name := prefix + "." + funcname.Decl(fd)
					addFunc(out, pkg.Fset, name, fd.Pos(), fd.End(), fd.Body)
					closures(out, pkg.Fset, name, ".func", fd.Body)
				}
			}
		}
	}
	return out
}

// bodiless returns the functions of pkgs declared without a body, under
// the names of [SourceFuncs]: those written in assembly (or linked by
// go:linkname), which have no Go source for a profile to go stale against.
func bodiless(pkgs []*packages.Package) map[string]bool {
	out := map[string]bool{}
	for _, pkg := range pkgs {
		for _, file := range pkg.Syntax {
			for _, decl := range file.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body == nil {
					out[pkg.PkgPath+"."+funcname.Decl(fd)] = true
					if pkg.Name == "main" {
						out["main."+funcname.Decl(fd)] = true
					}
				}
			}
		}
	}
	return out
}

func addFunc(out map[string]SourceFunc, fset *token.FileSet, name string, pos, end token.Pos, body *ast.BlockStmt) {
	p, e := fset.Position(pos), fset.Position(end)
	f := SourceFunc{Name: name, File: p.Filename, StartLine: p.Line, EndLine: e.Line, callLines: map[int]bool{}}
	line := func(pos token.Pos) int { return fset.Position(pos).Line }
	defers := false
	var returns []int
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			for l := line(n.Fun.End()); l <= line(n.Rparen); l++ {
				f.callLines[l] = true
			}
		case *ast.RangeStmt:
			f.callLines[line(n.For)] = true
			f.callLines[line(n.X.End())] = true
		case *ast.DeferStmt:
			defers = true
		case *ast.ReturnStmt:
			returns = append(returns, line(n.Pos()))
		}
		return true
	})
	if defers {
		for _, l := range returns {
			f.callLines[l] = true
		}
		f.callLines[e.Line] = true
	}
	out[name] = f
}

// closures adds the function literals directly in body (not in nested
// literals) as outer+sep+N, and recurses into them.
func closures(out map[string]SourceFunc, fset *token.FileSet, outer, sep string, body ast.Node) {
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		lit, ok := x.(*ast.FuncLit)
		if !ok {
			return true
		}
		n++
		name := outer + sep + strconv.Itoa(n)
		addFunc(out, fset, name, lit.Pos(), lit.End(), lit.Body)
		closures(out, fset, name, ".", lit.Body)
		return false
	})
}

// CheckReport is the result of [Check].
type CheckReport struct {
	Profile  string
	Warnings []string // validity warnings
	// Preprofile is the verdict of go tool preprofile: "ok" or its error.
	Preprofile string

	Total    int64 // call-edge weight of the profile
	Checked  int64 // weight of the edges whose caller is in the loaded packages
	Matching int64 // of Checked, the weight whose caller line still exists
	Packages []PackageMatch
	Stale    []StaleFunc // hottest first

	HotCDF        float64
	HotEdges      []Edge // the compiler's hot call edges, hottest first
	HotThreshold  float64
	HotEdgesTotal int
}

// PackageMatch is the staleness of one package.
type PackageMatch struct {
	Path              string
	Checked, Matching int64
}

// A StaleFunc is a function whose profile samples do not match the
// current source.
type StaleFunc struct {
	Name   string
	Weight int64  // call-edge weight that no longer matches
	Reason string // "not found (renamed or removed)", "line offset 12 beyond its body (lines 0-9)"
}

// Share returns the matching share of the checked weight, from 0 to 1.
func (r *CheckReport) Share() float64 {
	if r.Checked == 0 {
		return 0
	}
	return float64(r.Matching) / float64(r.Checked)
}

// CheckOptions control [Check].
type CheckOptions struct {
	Open   OpenOptions
	Dir    string  // directory to load packages in
	HotCDF float64 // DefaultHotCDF if zero
	Top    int     // how many stale functions and hot edges to list; 10 if zero
	// Preprofile runs go tool preprofile on the profile.
	Preprofile bool
}

// Check reports whether the profile at source fits the packages matched by
// patterns: whether it is valid, whether go tool preprofile accepts it,
// how much of its call-edge weight still matches the source (the compiler
// matches samples by function name and line offset from the function's
// start), and which call edges the compiler will treat as hot. Without a
// source, it checks the default.pgo of the first main package (see
// DefaultProfile).
func Check(ctx context.Context, source string, patterns []string, opts CheckOptions) (*CheckReport, error) {
	if source == "" {
		var err error
		if source, err = DefaultProfile(ctx, opts.Dir, patterns); err != nil {
			return nil, err
		}
	}
	if opts.Top <= 0 {
		opts.Top = 10
	}
	if opts.HotCDF == 0 {
		opts.HotCDF = DefaultHotCDF
	}
	p, err := Read(ctx, source, opts.Open)
	if err != nil {
		return nil, err
	}
	ws, err := CheckPGO(p.Profile)
	if err == nil && Inspect(p.Profile).Samples == 0 {
		err = ErrNoSamples
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", source, err)
	}
	rep := &CheckReport{Profile: source, Warnings: ws, HotCDF: opts.HotCDF}
	if opts.Preprofile {
		rep.Preprofile = preprofile(ctx, source)
	}
	// The syntax alone: staleness compares the profile's functions and
	// call lines with the source. Types would make go list compile every
	// dependency and test variant (check -profile took twice as long on
	// golang.org/x/tools for it).
	pkgs, err := load.Source(ctx, load.SourceConfig{
		Dir:        opts.Dir,
		Tests:      true, // profiles of benchmarks name test functions
		SyntaxOnly: true,
	}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %v", oneLine(err))
	}
	var errs []string
	packages.Visit(pkgs, nil, func(pkg *packages.Package) {
		for _, e := range pkg.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading packages: %s", oneLine(fmt.Errorf("%s", errs[0])))
	}
	staleness(rep, p.Profile, pkgs, opts.Top)
	edges := CallEdges(p.Profile)
	hot, thr := edges.Hot(opts.HotCDF)
	rep.HotEdgesTotal = len(hot)
	rep.HotThreshold = thr
	rep.HotEdges = hot[:min(len(hot), opts.Top)]
	return rep, nil
}

func staleness(rep *CheckReport, p *profile.Profile, pkgs []*packages.Package, top int) {
	funcs := SourceFuncs(pkgs)
	loaded, mainPaths := packageNames(pkgs)
	warnedMain := map[string]bool{}
	generated := map[string]bool{}
	noBody := bodiless(pkgs)
	for _, f := range p.Function {
		switch {
		case f.Filename == "<autogenerated>" || f.Filename == "":
			generated[f.Name] = true
		case strings.HasSuffix(f.Filename, ".s"):
			noBody[f.Name] = true
		}
	}
	// known reports whether name is found, and unsure whether it is a
	// compiler-made name that goadvise may not reproduce (closures,
	// wrappers) although its enclosing function exists.
	known := func(name string) (found, unsure bool) {
		if _, ok := funcs[name]; ok || noBody[name] {
			return true, false
		}
		if strings.Contains(name, "[") {
			// Generic code: names of instantiations vary.
			return false, true
		}
		outer, made := funcname.Outer(name)
		if !made {
			return false, false
		}
		_, ok := funcs[outer]
		return false, ok
	}
	byPkg := map[string]*PackageMatch{}
	stale := map[string]*StaleFunc{}
	for _, e := range CallEdges(p).Edges {
		rep.Total += e.Weight
		// The package from the profile's name, then the source's names:
		// a package path's dots are escaped in the profile's
		// (funcname.FromProfile).
		pkg, calleePkg := funcname.Package(e.Caller), funcname.Package(e.Callee)
		e.Caller, e.Callee = funcname.FromProfile(e.Caller), funcname.FromProfile(e.Callee)
		if !loaded[pkg] || generated[e.Caller] || noBody[e.Caller] {
			// PGO does not change assembly: its samples cannot be stale.
			continue
		}
		if mainPaths[pkg] && !warnedMain[pkg] {
			warnedMain[pkg] = true
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("functions of main package %s are named by import path, as in a test or benchmark profile; a build of the program names them main.*, so PGO will not apply to them", pkg))
		}
		reason := ""
		found, unsure := known(e.Caller)
		f := funcs[e.Caller]
		userCallee := loaded[calleePkg] && !generated[e.Callee]
		switch {
		case unsure:
			continue // not checked
		case !found:
			reason = "not found in the source (renamed or removed)"
		case e.Offset < 0 || e.Offset > f.EndLine-f.StartLine:
			reason = fmt.Sprintf("call at line offset %d is outside its body (offsets 0-%d)", e.Offset, f.EndLine-f.StartLine)
		case userCallee && !f.callLines[f.StartLine+e.Offset]:
			reason = fmt.Sprintf("no call at line offset %d (line %d) any more; lines moved", e.Offset, f.StartLine+e.Offset)
		case userCallee:
			if found, unsure := known(e.Callee); !found && !unsure {
				reason = fmt.Sprintf("callee %s not found in the source", e.Callee)
			}
		}
		pm := byPkg[pkg]
		if pm == nil {
			pm = &PackageMatch{Path: pkg}
			byPkg[pkg] = pm
		}
		pm.Checked += e.Weight
		rep.Checked += e.Weight
		if reason == "" {
			pm.Matching += e.Weight
			rep.Matching += e.Weight
			continue
		}
		sf := stale[e.Caller]
		if sf == nil {
			sf = &StaleFunc{Name: e.Caller, Reason: reason}
			stale[e.Caller] = sf
		}
		sf.Weight += e.Weight
	}
	for _, pm := range byPkg {
		rep.Packages = append(rep.Packages, *pm)
	}
	sort.Slice(rep.Packages, func(i, j int) bool { return rep.Packages[i].Path < rep.Packages[j].Path })
	for _, sf := range stale {
		rep.Stale = append(rep.Stale, *sf)
	}
	sort.Slice(rep.Stale, func(i, j int) bool {
		if rep.Stale[i].Weight != rep.Stale[j].Weight {
			return rep.Stale[i].Weight > rep.Stale[j].Weight
		}
		return rep.Stale[i].Name < rep.Stale[j].Name
	})
	if len(rep.Stale) > top {
		rep.Stale = rep.Stale[:top]
	}
}

// packageNames returns the packages under the names profiles give their
// functions: their paths, and "main" if one is a main package (a program
// names its functions main.F); and the paths of the main packages.
func packageNames(pkgs []*packages.Package) (loaded, mainPaths map[string]bool) {
	loaded, mainPaths = map[string]bool{}, map[string]bool{}
	for _, pkg := range pkgs {
		loaded[pkg.PkgPath] = true
		if pkg.Name == "main" && !strings.HasSuffix(pkg.PkgPath, ".test") {
			loaded["main"] = true
			mainPaths[pkg.PkgPath] = true
		}
	}
	return loaded, mainPaths
}

// ListedNames returns, as packageNames does for loaded packages, the
// names under which a profile names the functions of the packages a go
// list listing matched: their import paths, those of their external test
// packages and test binaries, and "main" if one is a main package.
func ListedNames(l *load.Listing) map[string]bool {
	names := make(map[string]bool)
	for _, p := range l.Packages {
		if p.DepOnly || p.ForTest != "" {
			continue
		}
		names[p.ImportPath] = true
		if p.Name == "main" {
			names["main"] = true
		}
		if len(p.TestGoFiles) > 0 || len(p.XTestGoFiles) > 0 {
			names[p.ImportPath+".test"] = true
		}
		if len(p.XTestGoFiles) > 0 {
			names[p.ImportPath+"_test"] = true
		}
	}
	return names
}

// preprofile runs go tool preprofile on the profile at source (a file; a
// URL is fetched again) and returns "ok" or its error output on one line.
func preprofile(ctx context.Context, source string) string {
	if isURL(source) {
		return "not run for a URL"
	}
	tmp, err := os.MkdirTemp("", "goadvise-preprofile")
	if err != nil {
		return "not run: " + err.Error()
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "go", "tool", "preprofile", "-i", source, "-o", filepath.Join(tmp, "out"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.Join(strings.Fields(out.String()), " ")
		if msg == "" {
			msg = err.Error()
		}
		return "rejected: " + msg
	}
	return "ok"
}

// Format writes a human-readable report.
func (r *CheckReport) Format() string {
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s\n", r.Profile)
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "  warning: %s\n", w)
	}
	if r.Preprofile != "" {
		fmt.Fprintf(&b, "go tool preprofile: %s\n", r.Preprofile)
	}
	if r.Checked == 0 {
		fmt.Fprintf(&b, "staleness: no call-edge weight falls in the loaded packages (%d total)\n", r.Total)
	} else {
		fmt.Fprintf(&b, "staleness: %.1f%% of the call-edge weight in the loaded packages matches the current source (%.1f%% of the profile is in them)\n",
			100*r.Share(), percent(r.Checked, r.Total))
		for _, pm := range r.Packages {
			fmt.Fprintf(&b, "  %-50s %5.1f%% matching of %.1f%% of the profile\n", pm.Path, percent(pm.Matching, pm.Checked), percent(pm.Checked, r.Total))
		}
	}
	if len(r.Stale) > 0 {
		fmt.Fprintf(&b, "hottest stale functions (refresh the profile, or PGO will not optimize them):\n")
		for _, s := range r.Stale {
			fmt.Fprintf(&b, "  %5.1f%%  %s: %s\n", percent(s.Weight, r.Total), s.Name, s.Reason)
		}
	}
	fmt.Fprintf(&b, "hot call edges at %g%% CDF: %d (threshold %.3f%% of the weight per edge)\n", r.HotCDF, r.HotEdgesTotal, r.HotThreshold)
	for _, e := range r.HotEdges {
		fmt.Fprintf(&b, "  %5.1f%%  %s:+%d -> %s\n", percent(e.Weight, r.Total), e.Caller, e.Offset, e.Callee)
	}
	return b.String()
}

// DefaultProfile returns the default.pgo file of the first main package
// matched by patterns in dir that has one, the profile go build -pgo=auto
// uses.
func DefaultProfile(ctx context.Context, dir string, patterns []string) (string, error) {
	l, err := load.Packages(ctx, load.ListOptions{Dir: dir}, patterns...)
	if err != nil {
		return "", fmt.Errorf("loading packages: %v", oneLine(err))
	}
	for _, pkg := range l.Packages {
		if pkg.Name != "main" || len(pkg.GoFiles)+len(pkg.CgoFiles) == 0 {
			continue
		}
		f := filepath.Join(pkg.Dir, "default.pgo")
		if _, err := os.Stat(f); err == nil {
			return f, nil
		}
	}
	return "", fmt.Errorf("no main package in %s has a default.pgo; name the profile with -profile", strings.Join(patterns, " "))
}
