package verify

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/decisions"
	"github.com/goadvise/goadvise/load"
	"github.com/goadvise/goadvise/report"
)

// A weighed change is a change of the compiler's decisions in another
// package that makes code worse, and whether the fix may be kept with it.
type weighed struct {
	decisions.Regression
	ok  bool   // the measurement can be trusted over it
	why string // why, or why not
}

// weigh decides, for each regression a fix causes outside its package,
// whether the fix's measurement can be trusted over it. The module's copy
// with the fix is in mdir, and the package whose benchmarks (matching
// pattern) measure the fix is in cdir. A new heap escape is accepted when
// those benchmarks execute its line (their allocs/op and sec/op include
// its cost), or when it runs less often than the fixed code by the
// hot-path tiers: a new escape in main outside its loops, or in set-up
// code, against a fix of per-item code. Any other regression (one the
// benchmarks do not run and that is not colder, or a call no longer
// inlined, whose call site the decisions do not locate) is not.
func weigh(ctx context.Context, mdir, cdir, pattern string, f report.Finding, regs []decisions.Regression) ([]weighed, error) {
	out := make([]weighed, len(regs))
	var lines []bench.PackageLine
	var at []int // the index in out of each line
	for i, r := range regs {
		out[i].Regression = r
		if r.Escape == nil {
			out[i].why = "only new heap escapes are weighed against the measurement"
			continue
		}
		lines = append(lines, bench.PackageLine{Package: r.Package, File: inDir(mdir, r.Escape.Pos.File), Line: r.Escape.Pos.Line})
		at = append(at, i)
	}
	if len(lines) == 0 {
		return out, nil
	}
	ran, err := bench.BenchmarksExecute(ctx, cdir, pattern, lines)
	if err != nil {
		return nil, fmt.Errorf("which new escapes the benchmarks run: %w", err)
	}
	var rest []int
	var pkgs []string
	for k, i := range at {
		if ran[k] {
			out[i].ok, out[i].why = true, "the benchmarks run it, so that their measurement includes its cost"
			continue
		}
		rest = append(rest, i)
		if !slices.Contains(pkgs, regs[i].Package) {
			pkgs = append(pkgs, regs[i].Package)
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	var pos []decisions.Pos
	for _, i := range rest {
		p := regs[i].Escape.Pos
		p.File = inDir(mdir, p.File)
		pos = append(pos, p)
	}
	infos, err := tiers(ctx, mdir, pkgs, pos)
	if err != nil {
		return nil, fmt.Errorf("how often the new escapes run: %w", err)
	}
	fixed := fmt.Sprintf("%s (%s)", f.Tier, f.TierReason)
	for k, i := range rest {
		info := infos[k]
		here := fmt.Sprintf("%s (%s)", info.Tier, info.Reason)
		switch {
		case colder(info.Tier, f.Tier):
			out[i].ok, out[i].why = true, fmt.Sprintf("runs less often than the fixed code: %s, against %s", here, fixed)
		case info.Tier == hotpath.Unknown:
			out[i].why = fmt.Sprintf("no benchmark runs it, and how often it runs is not known: %s", info.Reason)
		default:
			out[i].why = fmt.Sprintf("no benchmark runs it, and it runs as often as the fixed code or more: %s, against %s", here, fixed)
		}
	}
	return out, nil
}

// inDir returns file, relative to dir unless absolute, as an absolute
// path.
func inDir(dir, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(dir, file)
}

// colder reports whether code of tier a runs less often than code of the
// tier named b, on evidence: cold below per-item below hot-loop; unknown
// is below or above nothing.
func colder(a hotpath.Tier, b string) bool {
	rank := map[string]int{hotpath.Cold.String(): 0, hotpath.PerItem.String(): 1, hotpath.Loop.String(): 2}
	ra, okA := rank[a.String()]
	rb, okB := rank[b]
	return okA && okB && ra < rb
}

// tiers returns package hotpath's estimate of how often the code at each
// position runs; the positions' files are absolute, in the packages pkgs
// of the module in dir, which are loaded from source.
func tiers(ctx context.Context, dir string, pkgs []string, pos []decisions.Pos) ([]hotpath.Info, error) {
	prog, err := load.List(ctx, load.Config{Dir: dir}, pkgs...)
	if err != nil {
		return nil, err
	}
	load.Check(prog.Roots)
	for _, p := range prog.Roots {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: %s", p.PkgPath, p.Errors[0].Msg)
		}
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{hotpath.Analyzer}, prog.Roots, nil)
	if err != nil {
		return nil, err
	}
	type fileResult struct {
		file *token.File
		res  *hotpath.Result
	}
	byFile := make(map[string]fileResult)
	for _, act := range graph.Roots {
		if act.Analyzer != hotpath.Analyzer {
			continue
		}
		if act.Err != nil {
			return nil, act.Err
		}
		res := act.Result.(*hotpath.Result)
		for _, f := range act.Package.Syntax {
			tf := act.Package.Fset.File(f.FileStart)
			byFile[realPath(tf.Name())] = fileResult{tf, res}
		}
	}
	infos := make([]hotpath.Info, len(pos))
	for i, p := range pos {
		fr, ok := byFile[realPath(p.File)]
		if !ok || p.Line < 1 || p.Line > fr.file.LineCount() {
			infos[i] = hotpath.Info{Tier: hotpath.Unknown, Reason: "not in the code loaded"}
			continue
		}
		tp := fr.file.LineStart(p.Line)
		if col := token.Pos(p.Col - 1); col > 0 && int(tp-token.Pos(fr.file.Base())+col) < fr.file.Size() {
			tp += col
		}
		infos[i] = fr.res.At(tp)
	}
	return infos, nil
}
