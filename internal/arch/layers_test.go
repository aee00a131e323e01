package arch

import (
	"bufio"
	"go/ast"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// modulePath is the path of goadvise's module.
const modulePath = "github.com/goadvise/goadvise"

// TestLayers checks every import of a goadvise package by another against
// the layers docs/architecture.md lists, top first: a package imports
// only packages of lower layers, or of its own family ("analyzer/...").
// A package the list does not place is an error too.
func TestLayers(t *testing.T) {
	root := repoRoot(t)
	layers := readLayers(t, filepath.Join(root, "docs", "architecture.md"))
	imports := make(map[string]map[string]bool) // package -> goadvise packages it imports
	forEachGoFile(t, root, func(rel string, f *ast.File, _ *token.FileSet) {
		pkg := path.Dir(rel)
		if imports[pkg] == nil {
			imports[pkg] = make(map[string]bool)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(p, modulePath+"/"); ok {
				imports[pkg][dep] = true
			}
		}
	})
	if len(imports) < 20 {
		t.Fatalf("found %d packages: is the repository's root %s?", len(imports), root)
	}
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		from, ok := layers.find(pkg)
		if !ok {
			t.Errorf("%s is in no layer of docs/architecture.md", pkg)
			continue
		}
		for _, dep := range slices.Sorted(maps.Keys(imports[pkg])) {
			to, ok := layers.find(dep)
			switch {
			case !ok:
				t.Errorf("%s imports %s, which is in no layer of docs/architecture.md", pkg, dep)
			case to.level < from.level:
			case to == from && strings.HasSuffix(from.pattern, "/..."):
			default:
				t.Errorf("%s (layer %q) imports %s (layer %q): not a lower layer", pkg, from.pattern, dep, to.pattern)
			}
		}
	}
}

// An entry is one package, or family of packages ("dir/..."), of a layer.
type entry struct {
	pattern string
	level   int // 0 for the lowest layer
}

type layerList []*entry

// find returns the entry of pkg: its own, or the longest family that
// holds it.
func (l layerList) find(pkg string) (*entry, bool) {
	var best *entry
	for _, e := range l {
		dir, family := strings.CutSuffix(e.pattern, "/...")
		switch {
		case e.pattern == pkg:
			return e, true
		case family && (pkg == dir || strings.HasPrefix(pkg, dir+"/")):
			if best == nil || len(e.pattern) > len(best.pattern) {
				best = e
			}
		}
	}
	return best, best != nil
}

// readLayers reads the first code block after the "## Layers" heading of
// the file: a layer a line, the highest first.
func readLayers(t *testing.T, name string) layerList {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]string
	section, block := false, false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			section = line == "## Layers"
		case section && strings.HasPrefix(line, "```"):
			if block {
				section = false
			}
			block = !block
		case section && block && strings.TrimSpace(line) != "":
			lines = append(lines, strings.Fields(line))
		}
	}
	if len(lines) == 0 {
		t.Fatalf("%s: no layers under ## Layers", name)
	}
	var l layerList
	for i, fields := range lines {
		for _, p := range fields {
			l = append(l, &entry{pattern: p, level: len(lines) - 1 - i})
		}
	}
	return l
}
