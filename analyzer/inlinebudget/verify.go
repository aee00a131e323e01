package inlinebudget

import (
	"context"
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/optlog"
)

// maxCompiles bounds the compiles of the edited package that verify runs
// for one package.
const maxCompiles = 4

// verify compiles the package with the edits of the proposals applied,
// reads the new cost of each function from what the compiler says, and
// reports those that the edits bring under the budget, with the measured
// cost. Proposals whose functions do not call each other are compiled
// together (the cost of one cannot then depend on the edit of another);
// if such a compile fails, each proposal is compiled on its own, within
// maxCompiles in all.
func verify(pass *analysis.Pass, props []*proposal) {
	if len(props) == 0 {
		return
	}
	var groups [][]*proposal
	for _, p := range props {
		placed := false
		for i, g := range groups {
			if !interacts(pass, p, g) {
				groups[i] = append(g, p)
				placed = true
				break
			}
		}
		if !placed {
			groups = append(groups, []*proposal{p})
		}
	}
	compiles := 0
	var try func(g []*proposal)
	try = func(g []*proposal) {
		if compiles >= maxCompiles {
			return
		}
		compiles++
		recs, err := compileEdited(pass, g)
		if err != nil {
			if len(g) > 1 {
				for _, p := range g {
					try([]*proposal{p})
				}
			}
			return
		}
		ix := make(recordIndex)
		for _, r := range recs {
			ix.add(r.Pos.File, r.Pos.Line, r.Pos.Col, r)
		}
		for _, p := range g {
			var edits []edit
			for _, q := range g {
				if q.file == p.file {
					edits = append(edits, q.edits...)
				}
			}
			report(pass, p, ix[editedLine(pass, p, edits)][filepath.Base(p.file)])
		}
	}
	for _, g := range groups {
		try(g)
	}
}

// interacts reports whether the function of p calls one of the functions
// of g, or one of them calls it.
func interacts(pass *analysis.Pass, p *proposal, g []*proposal) bool {
	for _, q := range g {
		if calls(pass, p.fd, q.obj) || calls(pass, q.fd, p.obj) {
			return true
		}
	}
	return false
}

func calls(pass *analysis.Pass, fd *ast.FuncDecl, fn *types.Func) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && typeutil.StaticCallee(pass.TypesInfo, call) == fn {
			found = true
		}
		return !found
	})
	return found
}

// compileEdited compiles the package with the edits of the proposals of
// g, and returns the records keyed by file and line, where the lines are
// those of the edited files.
func compileEdited(pass *analysis.Pass, g []*proposal) ([]optlog.Record, error) {
	byFile := make(map[string][]*proposal)
	for _, p := range g {
		byFile[p.file] = append(byFile[p.file], p)
	}
	replace := make(map[string][]byte)
	for file, ps := range byFile {
		var edits []edit
		var decls []string
		for _, p := range ps {
			edits = append(edits, p.edits...)
			decls = append(decls, p.decls...)
		}
		replace[file] = applyEdits(ps[0].src, edits, decls)
	}
	// Only the proposals' functions are measured: the functions they do
	// not reach need not be compiled as they are, and the compile stops
	// once their inlining is decided.
	keep := make([]*types.Func, 0, len(g))
	want := make([]optlog.Position, 0, len(g))
	for _, p := range g {
		keep = append(keep, p.obj)
		var edits []edit
		for _, q := range byFile[p.file] {
			edits = append(edits, q.edits...)
		}
		want = append(want, optlog.Position{File: p.file, Line: editedLine(pass, p, edits)})
	}
	return optlog.InliningEdited(context.Background(), pass, replace, keep, want)
}

// applyEdits applies the edits, which must not overlap, to src and
// appends the declarations.
func applyEdits(src []byte, edits []edit, decls []string) []byte {
	edits = append([]edit(nil), edits...)
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		b.Write(src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(src[at:])
	for _, d := range decls {
		b.WriteString("\n")
		b.WriteString(d)
	}
	return []byte(b.String())
}

// editedLine returns the line of the name of p's function in the edited
// file: the edits of the functions before it shift it.
func editedLine(pass *analysis.Pass, p *proposal, all []edit) int {
	pos := pass.Fset.Position(p.fd.Name.Pos())
	line := pos.Line
	for _, e := range all {
		if e.end <= pos.Offset {
			line += strings.Count(e.text, "\n") - strings.Count(string(p.src[e.start:e.end]), "\n")
		}
	}
	return line
}

// report reports p if now, the record of its function in the edited
// package, says that it can now be inlined.
func report(pass *analysis.Pass, p *proposal, now optlog.Record) {
	if now.Kind != optlog.CanInline || now.Cost <= 0 {
		return // not measured, or still too costly
	}
	over := p.rec.Cost - p.rec.Budget
	fn := funcname.InPackage(p.obj)
	text := fmt.Sprintf("%s costs %d to inline, %d over the budget of %d: %s; %s: cost %d -> %d, measured by compiling the change, so that %s can be inlined where it is called, saving a call each time and letting its arguments stay on the caller's stack; no automatic fix: the code moved out needs a name and a comment its maintainer should write",
		fn, p.rec.Cost, over, p.rec.Budget, strings.Join(p.parts, "; "), strings.Join(p.fixes, " and "), p.rec.Cost, now.Cost, p.obj.Name())
	kind.Report(pass, analysis.Diagnostic{Pos: p.fd.Name.Pos(), End: p.fd.Name.End()},
		kind.Fields{Kind: OverBudget, Tier: p.info.Tier.String(), TierReason: p.info.Reason, Text: text})
}
