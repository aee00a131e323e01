package decisions

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/goadvise/goadvise/internal/funcname"
)

// A funcSpan is a function of a source file and the lines it spans.
type funcSpan struct {
	name        string // as the compiler names it: "F", "(*T).M", "F.func1", "F.func1.1"
	start, end  token.Position
	lit         bool // a function literal
	goroutine   bool // started by a go statement in its package (for literals: the literal itself)
	startOffset int  // byte offset of the start, for innermost lookup
	endOffset   int
}

// fileFuncs holds the functions of one file.
type fileFuncs struct {
	pkgName string
	funcs   []funcSpan // sorted by start offset
	lines   []string   // source lines, for bounds-check keys
	goNames []string   // names of functions or methods started with "go name(...)" or "go x.name(...)"
}

// funcIndex finds the function enclosing a position, parsing each file once.
type funcIndex struct {
	mu    sync.Mutex
	files map[string]*fileFuncs
}

func newFuncIndex() *funcIndex { return &funcIndex{files: make(map[string]*fileFuncs)} }

// file returns the functions of the named file, or nil if it cannot be
// parsed.
func (x *funcIndex) file(name string) *fileFuncs {
	x.mu.Lock()
	defer x.mu.Unlock()
	if ff, ok := x.files[name]; ok {
		return ff
	}
	ff := parseFuncs(name)
	x.files[name] = ff
	return ff
}

// enclosing returns the name of the innermost function containing the
// position, or "" if there is none (a package-level declaration).
func (x *funcIndex) enclosing(file string, line, col int) string {
	if sp := x.span(file, line, col); sp != nil {
		return sp.name
	}
	return ""
}

func (x *funcIndex) span(file string, line, col int) *funcSpan {
	ff := x.file(file)
	if ff == nil {
		return nil
	}
	var best *funcSpan
	for i := range ff.funcs {
		sp := &ff.funcs[i]
		if before(line, col, sp.start) || !before(line, col, sp.end) {
			continue
		}
		if best == nil || sp.startOffset >= best.startOffset {
			best = sp
		}
	}
	return best
}

// before reports whether line:col comes before p.
func before(line, col int, p token.Position) bool {
	return line < p.Line || (line == p.Line && col < p.Column)
}

// lineText returns the trimmed text of a source line, or "".
func (x *funcIndex) lineText(file string, line int) string {
	ff := x.file(file)
	if ff == nil || line < 1 || line > len(ff.lines) {
		return ""
	}
	return strings.TrimSpace(ff.lines[line-1])
}

func parseFuncs(name string) *fileFuncs {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	_ = err // a partial syntax tree still locates most functions
	ff := &fileFuncs{pkgName: f.Name.Name, lines: strings.Split(string(src), "\n")}
	add := func(name string, n ast.Node, lit bool) {
		ff.funcs = append(ff.funcs, funcSpan{
			name: name, start: fset.Position(n.Pos()), end: fset.Position(n.End()), lit: lit,
			startOffset: fset.Position(n.Pos()).Offset, endOffset: fset.Position(n.End()).Offset,
		})
	}
	// The compiler names function literals outer.func1, outer.func2, ...
	// in source order, and literals nested in a literal outer.funcN.1, ...;
	// literals in package-level initializers are init.func1, ...
	var lits func(outer string, nested bool, body ast.Node)
	lits = func(outer string, nested bool, body ast.Node) {
		n := 0
		ast.Inspect(body, func(node ast.Node) bool {
			switch node := node.(type) {
			case *ast.GoStmt:
				switch fun := node.Call.Fun.(type) {
				case *ast.Ident:
					ff.goNames = append(ff.goNames, fun.Name)
				case *ast.SelectorExpr:
					ff.goNames = append(ff.goNames, fun.Sel.Name)
				}
			case *ast.FuncLit:
				n++
				var name string
				if nested {
					name = fmt.Sprintf("%s.%d", outer, n)
				} else {
					name = fmt.Sprintf("%s.func%d", outer, n)
				}
				add(name, node, true)
				lits(name, true, node.Body)
				return false
			}
			return true
		})
	}
	glob := 0
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := funcname.NoTypeArgs(funcname.Decl(d))
			add(name, d, false)
			if d.Body != nil {
				lits(name, false, d.Body)
			}
		case *ast.GenDecl:
			// Package-level literals share one counter per package in
			// the compiler; per file is the best a single file can do.
			ast.Inspect(d, func(node ast.Node) bool {
				if fl, ok := node.(*ast.FuncLit); ok {
					glob++
					name := fmt.Sprintf("init.func%d", glob)
					add(name, fl, true)
					lits(name, true, fl.Body)
					return false
				}
				return true
			})
		}
	}
	// Mark the functions started by go statements: literals directly,
	// named functions and methods by name.
	ast.Inspect(f, func(node ast.Node) bool {
		if g, ok := node.(*ast.GoStmt); ok {
			if fl, ok := g.Call.Fun.(*ast.FuncLit); ok {
				p := fset.Position(fl.Pos())
				for i := range ff.funcs {
					if ff.funcs[i].startOffset == p.Offset {
						ff.funcs[i].goroutine = true
					}
				}
			}
		}
		return true
	})
	sort.Slice(ff.funcs, func(i, j int) bool { return ff.funcs[i].startOffset < ff.funcs[j].startOffset })
	return ff
}
