package escape

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

var errNoResult = errors.New("no escape result")

func itoa(i int) string { return strconv.Itoa(i) }

func run(pass *analysis.Pass) (any, error) {
	if off {
		return &Result{err: errors.New("compiler decisions not collected (-escape.off)")}, nil
	}
	if len(pass.Files) == 0 {
		return &Result{}, nil
	}
	test := false
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			test = true
			break
		}
	}
	path := pass.Pkg.Path()
	pr := lookup(path, test)
	if pr == nil && vetConfig != nil {
		pr = vetResult(pass)
	}
	if pr == nil {
		pr = fallback(pass, path, test)
	}
	if pr.Err != "" {
		return &Result{err: fmt.Errorf("%s: %s", path, pr.Err)}, nil
	}
	return newResult(pass, pr.Records), nil
}

// fallback collects the package on its own, by running go build for it in
// the directory of its files (the cache applies). Packages laid out
// GOPATH-style (dir ends in /src/<import path>, as in analysistest's
// testdata) are built in GOPATH mode.
func fallback(pass *analysis.Pass, path string, test bool) *PackageResult {
	dir := filepath.Dir(pass.Fset.File(pass.Files[0].FileStart).Name())
	opts := LoadOptions{Dir: dir, Patterns: []string{"."}, Tests: test}
	base := strings.TrimSuffix(path, "_test")
	suffix := string(filepath.Separator) + "src" + string(filepath.Separator) + filepath.FromSlash(base)
	if strings.HasSuffix(dir, suffix) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			gopath := strings.TrimSuffix(dir, suffix)
			opts.Env = append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOWORK=off", "GOFLAGS=")
			opts.Patterns = []string{base}
		}
	}
	res, err := Collect(context.Background(), opts)
	if err != nil {
		return &PackageResult{ImportPath: path, Test: test, Err: err.Error()}
	}
	store(res)
	for _, r := range res {
		if r.ImportPath == path && r.Test == test {
			return r
		}
	}
	return &PackageResult{ImportPath: path, Test: test, Err: "go list did not report the package"}
}

// newResult resolves the records' positions in the pass's file set and
// completes what only the syntax and types can tell: the enclosing
// function and whether a call is dynamic.
func newResult(pass *analysis.Pass, recs []Record) *Result {
	files := make(map[string]*ast.File)
	tfiles := make(map[string]*token.File)
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		files[tf.Name()] = f
		tfiles[tf.Name()] = tf
	}
	r := &Result{records: make([]Record, len(recs)), byPos: make(map[token.Pos][]int)}
	copy(r.records, recs)
	for i := range r.records {
		rec := &r.records[i]
		rec.TokPos = resolve(tfiles[rec.Pos.File], rec.Pos)
		if !rec.TokPos.IsValid() {
			continue
		}
		r.byPos[rec.TokPos] = append(r.byPos[rec.TokPos], i)
		f := files[rec.Pos.File]
		rec.Func = enclosingFunc(f, rec.TokPos)
		if rec.Kind.IsHeap() && len(rec.Flow) > 0 {
			refine(pass, tfiles, files, rec)
		}
	}
	return r
}

// resolve converts a compiler position to a token.Pos of tf.
func resolve(tf *token.File, p Position) token.Pos {
	if tf == nil || p.Line < 1 || p.Line > tf.LineCount() || p.Col < 1 {
		return token.NoPos
	}
	start := tf.LineStart(p.Line)
	off := tf.Offset(start) + p.Col - 1
	if off > tf.Size() {
		return token.NoPos
	}
	return tf.Pos(off)
}

// enclosingFunc names the function declaration containing pos as the
// compiler does: "F", "T.M" or "(*T).M"; function literals are not
// distinguished from their enclosing declaration.
func enclosingFunc(f *ast.File, pos token.Pos) string {
	if f == nil {
		return ""
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || pos < fd.Pos() || pos >= fd.End() {
			continue
		}
		if fd.Recv == nil || len(fd.Recv.List) == 0 {
			return fd.Name.Name
		}
		t := fd.Recv.List[0].Type
		if ix, ok := t.(*ast.IndexExpr); ok {
			t = ix.X
		}
		if ix, ok := t.(*ast.IndexListExpr); ok {
			t = ix.X
		}
		if st, ok := t.(*ast.StarExpr); ok {
			x := st.X
			if ix, ok := x.(*ast.IndexExpr); ok {
				x = ix.X
			}
			if ix, ok := x.(*ast.IndexListExpr); ok {
				x = ix.X
			}
			if id, ok := x.(*ast.Ident); ok {
				return "(*" + id.Name + ")." + fd.Name.Name
			}
		}
		if id, ok := t.(*ast.Ident); ok {
			return id.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
	return ""
}

// refine uses types to make a heap record's cause and explanation precise:
// a value passed to a call escapes because of an interface method call or
// a call of a function value only if the call is dynamic.
func refine(pass *analysis.Pass, tfiles map[string]*token.File, files map[string]*ast.File, rec *Record) {
	for _, s := range rec.Flow {
		expr, reason, ok := stepReason(s.Text)
		if !ok || reason != "call parameter" || isGoDefer(expr) {
			continue
		}
		f := files[s.Pos.File]
		pos := resolve(tfiles[s.Pos.File], s.Pos)
		if f == nil || !pos.IsValid() {
			continue
		}
		call := callAt(f, pos)
		if call == nil {
			continue
		}
		desc, dynamic := describeCall(pass.TypesInfo, call)
		if dynamic {
			if rec.Cause == CauseInterfaceMethodCall || rec.Cause == CauseUnknown {
				rec.Cause = CauseInterfaceMethodCall
			}
			rec.Explanation = rec.Name + " escapes: passed to " + desc
		} else if rec.Cause == CauseInterfaceMethodCall {
			// A static callee that leaks its parameter: the value is
			// stored or returned by the callee.
			rec.Cause = CauseReturnedOrStored
			rec.Explanation = rec.Name + " escapes: passed to " + desc + ", which keeps it"
		}
		return
	}
}

// callAt returns the call expression whose opening parenthesis is at pos
// (where the compiler places calls).
func callAt(f *ast.File, pos token.Pos) *ast.CallExpr {
	path, _ := astutil.PathEnclosingInterval(f, pos, pos+1)
	for _, n := range path {
		if c, ok := n.(*ast.CallExpr); ok && c.Lparen == pos {
			return c
		}
	}
	return nil
}

// describeCall describes the callee of call and reports whether the call is
// dynamic (an interface method or a function value).
func describeCall(info *types.Info, call *ast.CallExpr) (string, bool) {
	fun := ast.Unparen(call.Fun)
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil {
			if m, ok := s.Obj().(*types.Func); ok {
				if types.IsInterface(s.Recv()) {
					return types.TypeString(s.Recv(), nil) + "." + m.Name() + " (interface method call)", true
				}
				return m.FullName(), false
			}
		}
	}
	var id *ast.Ident
	switch fun := fun.(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	}
	if id != nil {
		switch obj := info.Uses[id].(type) {
		case *types.Func:
			return obj.FullName(), false
		case *types.Builtin:
			return obj.Name(), false
		case *types.Var:
			return obj.Name() + " (call of a function value)", true
		}
	}
	return "a function value (dynamic call)", true
}
