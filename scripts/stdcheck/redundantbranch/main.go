// Command redundantbranch runs the redundantbranch analyzer over a set of
// packages (by default the standard library), prints every finding and a
// summary of counts by kind and hot-path tier, and checks that each
// suggested fix, applied alone, leaves the package gofmt-clean and
// type-correct.
//
// Usage:
//
//	go run ./scripts/stdcheck/redundantbranch [-nofixcheck] [packages]
//
// It exits with status 1 if the analyzer fails on a package or a fix
// breaks the build, and 0 otherwise.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/goadvise/goadvise/analyzer/redundantbranch"
	"github.com/goadvise/goadvise/load"
)

func main() {
	noFixCheck := flag.Bool("nofixcheck", false, "do not apply and type-check the suggested fixes")
	showEdits := flag.Bool("edits", false, "print each fix's edits (replaced text, then new text)")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"std"}
	}
	start := time.Now()
	pkgs, err := load.Source(context.Background(), load.SourceConfig{Deps: true}, patterns...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "redundantbranch: loading %s: %v\n", strings.Join(patterns, " "), err)
		os.Exit(1)
	}
	loaded := time.Since(start)
	// Baseline: the analyzers redundantbranch requires, alone.
	t0 := time.Now()
	if _, err := checker.Analyze(redundantbranch.Analyzer.Requires, pkgs, nil); err != nil {
		fmt.Fprintf(os.Stderr, "redundantbranch: %v\n", err)
		os.Exit(1)
	}
	baseline := time.Since(t0)
	t0 = time.Now()
	graph, err := checker.Analyze([]*analysis.Analyzer{redundantbranch.Analyzer}, pkgs, nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "redundantbranch: %v\n", err)
		os.Exit(1)
	}
	analyzed := time.Since(t0)

	failed := false
	kinds := make(map[string]int)
	var lines []string
	total, withFix, fixOK := 0, 0, 0
	npkgs, skipped := 0, 0
	for _, act := range graph.Roots {
		npkgs++
		if act.Err != nil && strings.Contains(act.Err.Error(), "analysis skipped due to errors") {
			// The package or a dependency does not load (it needs a
			// module outside the module graph, for example): the
			// analyzer never ran on it.
			fmt.Fprintf(os.Stderr, "%s: skipped: %v\n", act.Package.PkgPath, act.Err)
			skipped++
			continue
		}
		if act.Err != nil {
			fmt.Fprintf(os.Stderr, "%s: analyzer error: %v\n", act.Package.PkgPath, act.Err)
			failed = true
			continue
		}
		for _, d := range act.Diagnostics {
			total++
			kinds[d.Category]++ // the finding's kind
			pos := act.Package.Fset.Position(d.Pos)
			fix := "no fix"
			if len(d.SuggestedFixes) > 0 {
				withFix++
				fix = "fix ok"
				if !*noFixCheck {
					if err := checkFix(act.Package, d.SuggestedFixes[0]); err != nil {
						fix = "FIX BROKEN: " + err.Error()
						failed = true
					} else {
						fixOK++
					}
				}
			}
			line := fmt.Sprintf("%s:%d: %s (%s)", trimRoot(pos.Filename), pos.Line, d.Message, fix)
			if *showEdits && len(d.SuggestedFixes) > 0 {
				for _, e := range d.SuggestedFixes[0].TextEdits {
					line += "\n\t--- replaced:\n" + indent(source(act.Package.Fset, e.Pos, e.End)) +
						"\n\t+++ with:\n" + indent(string(e.NewText))
				}
			}
			lines = append(lines, line)
		}
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Printf("\npackages analyzed: %d, skipped because they do not load: %d\n", npkgs-skipped, skipped)
	fmt.Printf("time: load %.1fs; inspect+hotpath alone %.2fs; with redundantbranch %.2fs (%.1fx)\n",
		loaded.Seconds(), baseline.Seconds(), analyzed.Seconds(), analyzed.Seconds()/baseline.Seconds())
	fmt.Printf("findings: %d (with fix: %d", total, withFix)
	if !*noFixCheck {
		fmt.Printf(", fixes that apply, stay gofmt-clean and type-check: %d", fixOK)
	}
	fmt.Println(")")
	for _, m := range []map[string]int{kinds} {
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Printf("  %-12s %d\n", k, m[k])
		}
	}
	if failed {
		os.Exit(1)
	}
}

// source returns the text of [pos, end).
func source(fset *token.FileSet, pos, end token.Pos) string {
	f := fset.File(pos)
	src, err := os.ReadFile(f.Name())
	if err != nil {
		return err.Error()
	}
	return string(src[f.Offset(pos):f.Offset(end)])
}

func indent(s string) string {
	return "\t| " + strings.ReplaceAll(s, "\n", "\n\t| ")
}

func trimRoot(name string) string {
	root := strings.TrimSuffix(os.Getenv("GOROOT"), "/")
	if root == "" {
		root = "/usr/local/go"
	}
	return strings.TrimPrefix(name, root+"/src/")
}

// checkFix applies fix to the files of pkg and type-checks the result.
func checkFix(pkg *packages.Package, fix analysis.SuggestedFix) error {
	byFile := make(map[string][]analysis.TextEdit)
	for _, e := range fix.TextEdits {
		name := pkg.Fset.File(e.Pos).Name()
		byFile[name] = append(byFile[name], e)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, f := range pkg.Syntax {
		name := pkg.Fset.File(f.FileStart).Name()
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if edits := byFile[name]; len(edits) > 0 {
			sort.Slice(edits, func(i, j int) bool { return edits[i].Pos > edits[j].Pos })
			tf := pkg.Fset.File(edits[0].Pos)
			for _, e := range edits {
				s, t := tf.Offset(e.Pos), tf.Offset(e.End)
				src = append(append(append([]byte(nil), src[:s]...), e.NewText...), src[t:]...)
			}
			if formatted, err := format.Source(src); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			} else if !bytes.Equal(formatted, src) {
				return fmt.Errorf("%s: not gofmt-clean after the fix", name)
			}
		}
		af, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, af)
	}
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if p, ok := pkg.Imports[path]; ok && p.Types != nil {
				return p.Types, nil
			}
			return nil, fmt.Errorf("no import %s", path)
		}),
		GoVersion: pkg.TypesInfo.FileVersions[pkg.Syntax[0]],
		Sizes:     pkg.TypesSizes,
	}
	if _, err := conf.Check(pkg.PkgPath, fset, files, nil); err != nil {
		return err
	}
	return nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
