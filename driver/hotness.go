package driver

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/report"
)

// crossPackage gives the findings whose code has no estimate of its own
// (tier unknown: an exported function, say) the tier the whole module's
// calls give it: a function called in a loop, from per-item code or from
// a benchmark's loop, in any package of the module, runs per item (see
// hotpath.Propagate). The analyzers, which see one package at a time,
// cannot know it.
func crossPackage(findings []report.Finding, ar *analysisResult) {
	if len(ar.hot) == 0 {
		return
	}
	hot := hotpath.Propagate(ar.hot, benchmarkCalls(ar))
	for i := range findings {
		f := &findings[i]
		if f.Tier != "unknown" {
			continue
		}
		if why, ok := hot[f.Function]; ok {
			report.Retier(f, "per-item", why)
		}
	}
}

// benchmarkCalls reads the benchmarks of the packages analysed (their
// _test.go files that declare a Benchmark function, parsed but not
// type-checked) and returns the module's functions their loops call.
func benchmarkCalls(ar *analysisResult) []hotpath.Call {
	byPath := make(map[string]*hotpath.Summary, len(ar.hot))
	for _, s := range ar.hot {
		byPath[s.Package] = s
	}
	lookup := func(path string) *hotpath.Summary { return byPath[path] }
	var calls []hotpath.Call
	fset := token.NewFileSet()
	for _, path := range ar.roots {
		var files []*ast.File
		for _, name := range ar.testFiles[path] {
			src, err := os.ReadFile(name)
			if err != nil || !bytes.Contains(src, []byte("func Benchmark")) {
				continue
			}
			f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
			if err != nil {
				continue // a test file that does not parse says nothing
			}
			files = append(files, f)
		}
		if len(files) > 0 {
			calls = append(calls, hotpath.BenchmarkCalls(fset, files, path, lookup)...)
		}
	}
	return calls
}
