package hotpath

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// Error paths: code that runs only when something failed is cold,
// whatever its loops say. The detection is syntactic and stops at the
// enclosing function (a function literal that runs elsewhere is a hole in
// any region). These are error paths:
//   - a return statement that returns a non-nil error (see nonNilError);
//   - an if, else or case block whose last statement is such a return, a
//     call that does not return (see Terminal) or one that logs a warning
//     or an error (see logsProblem), or that builds an error value (see
//     buildsError), from the statement after the last one that may leave
//     the block another way (see errorTail);
//   - in a function's body, the statements after a loop that may leave it
//     (a search returning what it finds), or after a switch without a
//     default whose every case leaves (a dispatch on a value; see
//     allLeave), when they end in or build an error (see searchTail);
//   - the block of "if err != nil" for a value of type error;
//   - the arguments of a call that does not return, of t.Error and
//     t.Errorf;
//   - panic recovery: the block of "if r != nil" (or "if recover() != nil")
//     where r holds the result of recover, and the code after
//     "if r == nil { return }" (or the else block of "if r == nil").
//
// The block of an if whose condition is a tracing or debug switch ("if
// trace {", see debugGuard) is cold the same way, for another reason; so
// is the code of an analyzer that builds and reports a diagnostic (see
// reportsDiagnostic, endsInReport and reportTail).

// errorRegions returns the error paths of file as regions.
func errorRegions(info *types.Info, file *ast.File) []region {
	var regs []region
	add := func(pos, end token.Pos) {
		regs = append(regs, region{span: span{pos, end}, kind: errPath, who: "an error path", reason: ErrorPath})
	}
	addDebug := func(pos, end token.Pos) {
		regs = append(regs, region{span: span{pos, end}, kind: errPath, who: debugWho, reason: DebugOnly})
	}
	addReport := func(pos, end token.Pos) {
		regs = append(regs, region{span: span{pos, end}, kind: errPath, who: reportWho, reason: ReportsDiagnostic})
	}
	rec := recovered(info, file)
	var stack []ast.Node // from the file inwards
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		outer := func() []ast.Node { // from n outwards
			path := make([]ast.Node, len(stack))
			for i, m := range stack {
				path[len(stack)-1-i] = m
			}
			return path
		}
		switch n := n.(type) {
		case *ast.ReturnStmt:
			path := outer()
			if returnsError(info, enclosingResults(info, path), n, path) {
				add(n.Pos(), n.End())
			}
		case *ast.IfStmt:
			if debugGuard(info, n.Cond) {
				addDebug(n.Body.Pos(), n.Body.End())
			}
			path := outer()
			results := enclosingResults(info, path)
			if errNotNil(info, n.Cond) || recoverCheck(info, rec, n.Cond, token.NEQ) {
				add(n.Body.Pos(), n.Body.End())
			} else if pos, ok := errorTail(info, results, n.Body.List, append([]ast.Node{n.Body}, path...)); ok {
				add(pos, n.Body.End())
			}
			if endsInReport(info, n.Body.List) {
				addReport(n.Body.Pos(), n.Body.End())
			}
			if els, ok := n.Else.(*ast.BlockStmt); ok {
				if endsInReport(info, els.List) {
					addReport(els.Pos(), els.End())
				}
				if recoverCheck(info, rec, n.Cond, token.EQL) {
					add(els.Pos(), els.End())
				} else if pos, ok := errorTail(info, results, els.List, append([]ast.Node{els}, path...)); ok {
					add(pos, els.End())
				}
			}
			// "if r == nil { return }": the rest of the block runs only
			// when recovering from a panic.
			if n.Else == nil && len(path) > 1 && recoverCheck(info, rec, n.Cond, token.EQL) && endsInReturn(n.Body.List) {
				if b, ok := path[1].(*ast.BlockStmt); ok && n.End() < b.End() {
					add(n.End(), b.End())
				}
			}
		case *ast.ForStmt:
			if first := reportTail(info, n.Body); first != nil {
				addReport(first.Pos(), n.Body.End())
			}
		case *ast.RangeStmt:
			if first := reportTail(info, n.Body); first != nil {
				addReport(first.Pos(), n.Body.End())
			}
		case *ast.CaseClause:
			path := outer()
			if pos, ok := errorTail(info, enclosingResults(info, path), n.Body, path); ok {
				add(pos, n.End())
			} else if endsInReport(info, n.Body) {
				addReport(n.Colon+1, n.End())
			}
		case *ast.CommClause:
			path := outer()
			if pos, ok := errorTail(info, enclosingResults(info, path), n.Body, path); ok {
				add(pos, n.End())
			}
		case *ast.BlockStmt:
			// A function's body that searches in a loop, returning
			// from it when it finds, and then fails.
			if len(stack) > 1 {
				switch stack[len(stack)-2].(type) {
				case *ast.FuncDecl, *ast.FuncLit:
					path := outer()
					if pos, ok := searchTail(info, enclosingResults(info, path), n.List, path); ok {
						add(pos, n.End())
					}
				}
			}
		case *ast.CallExpr:
			// The arguments of a call that ends the program, the
			// goroutine or the test, or reports a test failure.
			if len(n.Args) > 0 && (Terminal(info, n) || failure(info, n)) {
				add(n.Lparen, n.End())
			}
			if len(n.Args) > 0 && reportsDiagnostic(info, n) {
				addReport(n.Lparen, n.End())
			}
		}
		return true
	})
	return regs
}

// ReportsDiagnostic is the reason of the code of an analyzer (a
// golang.org/x/tools/go/analysis one) that builds and reports a
// diagnostic: it runs once per finding, not per node the analyzer visits.
const ReportsDiagnostic = "only when it reports a diagnostic"

// reportWho names the code that reports a diagnostic in the reasons of its
// callees.
const reportWho = "the reporting of a diagnostic"

// analysisPath is the import path of the package of go/analysis.
const analysisPath = "golang.org/x/tools/go/analysis"

// reportsDiagnostic reports whether call reports an analyzer's diagnostic:
// a call of analysis.Pass's Report field or of one of its methods whose
// name begins with Report (Reportf, ReportRangef), a function whose name
// begins with Report or report given the *analysis.Pass (staticcheck's
// report.Report(pass, node, msg)), or a call given an analysis.Diagnostic
// literal (a helper such as emit(pass, analysis.Diagnostic{...})).
func reportsDiagnostic(info *types.Info, call *ast.CallExpr) bool {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		// pass.Report(d): Report is a field of analysis.Pass.
		if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && s.Obj().Name() == "Report" && isAnalysisType(s.Recv(), "Pass") {
			return true
		}
	}
	if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && strings.HasPrefix(strings.ToLower(fn.Name()), "report") {
		if recv := fn.Signature().Recv(); recv != nil {
			if strings.HasPrefix(fn.Name(), "Report") && isAnalysisType(recv.Type(), "Pass") {
				return true
			}
		} else if slices.ContainsFunc(call.Args, func(a ast.Expr) bool { return isAnalysisType(info.TypeOf(a), "Pass") }) {
			return true
		}
	}
	for _, a := range call.Args {
		if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
			a = u.X
		}
		if lit, ok := ast.Unparen(a).(*ast.CompositeLit); ok && isAnalysisType(info.TypeOf(lit), "Diagnostic") {
			return true
		}
	}
	return false
}

// isAnalysisType reports whether t, or what it points to, is the named
// type of package analysis with the given name.
func isAnalysisType(t types.Type, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == analysisPath
}

// endsInReport reports whether the last statement of a block reports a
// diagnostic (see reportsDiagnostic), or the one before a continue, break
// or bare return does, or is an if statement whose branches all end so,
// an else among them ("if async { pass.Reportf(...) } else {
// pass.Reportf(...) }"), or a switch whose clauses, a default among them,
// all do. A block that ends in an if without an else, or a switch without
// a default, runs whether or not it reports.
func endsInReport(info *types.Info, list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	last := list[len(list)-1]
	if len(list) > 1 && skipsOn(last) {
		last = list[len(list)-2]
	}
	switch s := last.(type) {
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		return ok && reportsDiagnostic(info, call)
	case *ast.IfStmt:
		return ifReports(info, s)
	case *ast.SwitchStmt:
		return clausesReport(info, s.Body)
	case *ast.TypeSwitchStmt:
		return clausesReport(info, s.Body)
	}
	return false
}

// clausesReport reports whether a switch body has a default clause and
// every clause ends by reporting a diagnostic.
func clausesReport(info *types.Info, body *ast.BlockStmt) bool {
	def := false
	for _, c := range body.List {
		cc := c.(*ast.CaseClause)
		if !endsInReport(info, cc.Body) {
			return false
		}
		def = def || cc.List == nil
	}
	return def
}

// ifReports reports whether every branch of an if statement (and of the
// ifs of its else chain) ends by reporting a diagnostic, the chain ending
// in an else.
func ifReports(info *types.Info, s *ast.IfStmt) bool {
	if !endsInReport(info, s.Body.List) {
		return false
	}
	switch e := s.Else.(type) {
	case *ast.IfStmt:
		return ifReports(info, e)
	case *ast.BlockStmt:
		return endsInReport(info, e.List)
	}
	return false
}

// reportTail returns the first statement of the tail of a loop body that
// ends by reporting a diagnostic: the statements after the last one that
// can leave the iteration (continue, break, return, goto), which run for
// each diagnostic reported, or nil.
func reportTail(info *types.Info, body *ast.BlockStmt) ast.Stmt {
	list := body.List
	if !endsInReport(info, list) {
		return nil
	}
	end := len(list)
	if end > 1 && skipsOn(list[end-1]) {
		end--
	}
	i := end - 1
	for i > 0 && !leavesIteration(list[i-1]) {
		i--
	}
	return list[i]
}

// leavesIteration reports whether s holds a statement that can leave the
// iteration of the loop around it, outside function literals: a break,
// continue or goto (see hasJump), or a return.
func leavesIteration(s ast.Stmt) bool {
	if hasJump([]ast.Stmt{s}) {
		return true
	}
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// DebugOnly is the reason of code that runs only when tracing or debug
// output is on (see debugGuard).
const DebugOnly = "only when tracing or debugging is on"

// debugWho names debug-guarded code in the reasons of its callees.
const debugWho = "tracing or debug output"

// debugName matches the names of boolean switches of tracing and debug
// output: trace, c.trace, opts.Debug, verbose, traceEnabled, isDebug. It
// names no negation (noTrace, skipDebug), under which the block runs when
// the output is off.
var debugName = regexp.MustCompile(`^(is|do|should|enable|enabled)?(trace|tracing|debug|debugging|verbose)(verbose|enabled|on|mode|log|logs|logging)?$`)

// debugGuard reports whether cond, or one of its && operands, is a
// boolean variable or field named like a tracing or debug switch (see
// debugName): "if trace {", "if err == nil && c.trace {". The block it
// guards writes trace or debug output, off in production, so it is cold
// like an error path: nats-server builds its MQTT trace strings under
// "if trace".
func debugGuard(info *types.Info, cond ast.Expr) bool {
	cond = ast.Unparen(cond)
	if b, ok := cond.(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return debugGuard(info, b.X) || debugGuard(info, b.Y)
	}
	v, ok := syntax.VarOf(info, cond)
	if !ok || !types.Identical(v.Type().Underlying(), types.Typ[types.Bool]) {
		return false
	}
	return debugName.MatchString(strings.ToLower(v.Name()))
}

// endsInReturn reports whether the last statement of a block is a return.
func endsInReturn(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	_, ok := list[len(list)-1].(*ast.ReturnStmt)
	return ok
}

// recovered returns the variables of file assigned the result of recover.
func recovered(info *types.Info, file *ast.File) map[types.Object]bool {
	vars := make(map[types.Object]bool)
	mark := func(lhs []*ast.Ident, rhs []ast.Expr) {
		if len(lhs) != len(rhs) {
			return
		}
		for i, id := range lhs {
			if isRecover(info, rhs[i]) {
				if obj := info.ObjectOf(id); obj != nil {
					vars[obj] = true
				}
			}
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			var ids []*ast.Ident
			for _, e := range n.Lhs {
				id, _ := ast.Unparen(e).(*ast.Ident)
				if id == nil {
					id = ast.NewIdent("_")
				}
				ids = append(ids, id)
			}
			mark(ids, n.Rhs)
		case *ast.ValueSpec:
			mark(n.Names, n.Values)
		}
		return true
	})
	return vars
}

// isRecover reports whether e is a call of the builtin recover.
func isRecover(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	_, builtin := info.Uses[id].(*types.Builtin)
	return builtin && id.Name == "recover"
}

// recoverCheck reports whether cond compares the result of recover (a call
// or a variable that holds it) with nil using op: "r != nil" (also in a
// conjunction) for token.NEQ, "r == nil" for token.EQL.
func recoverCheck(info *types.Info, rec map[types.Object]bool, cond ast.Expr, op token.Token) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if b.Op == token.LAND && op == token.NEQ {
		return recoverCheck(info, rec, b.X, op) || recoverCheck(info, rec, b.Y, op)
	}
	if b.Op != op {
		return false
	}
	x, y := b.X, b.Y
	if info.Types[x].IsNil() {
		x, y = y, x
	}
	if !info.Types[y].IsNil() {
		return false
	}
	if isRecover(info, x) {
		return true
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	return ok && rec[info.Uses[id]]
}

// enclosingResults returns the result types of the innermost function
// enclosing path.
func enclosingResults(info *types.Info, path []ast.Node) *types.Tuple {
	for _, n := range path {
		var t types.Type
		switch n := n.(type) {
		case *ast.FuncDecl:
			if obj := info.Defs[n.Name]; obj != nil {
				t = obj.Type()
			}
		case *ast.FuncLit:
			t = info.TypeOf(n)
		default:
			continue
		}
		if sig, ok := t.(*types.Signature); ok {
			return sig.Results()
		}
		return nil
	}
	return nil
}

// endsInError reports whether the last statement of a block is a return of
// a non-nil error or a call of panic. outer is the path from the block
// outwards, for the conditions guarding it.
func endsInError(info *types.Info, results *types.Tuple, list []ast.Stmt, outer []ast.Node) bool {
	if len(list) == 0 {
		return false
	}
	last := list[len(list)-1]
	if len(list) > 1 && (skipsOn(last) || returnsConstants(info, last)) {
		// log.Warn(...); continue: the block logs a problem and
		// goes on with the next item; iter.ReportError(...); return
		// nil (or true, "already failed"): it records an error and
		// gives up with nothing computed.
		if s, ok := list[len(list)-2].(*ast.ExprStmt); ok {
			if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok && logsProblem(info, call) {
				return true
			}
		}
	}
	switch s := last.(type) {
	case *ast.ReturnStmt:
		return returnsError(info, results, s, outer)
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		return Terminal(info, call) || logsProblem(info, call)
	}
	return false
}

// errorTail reports whether list, a block, handles an error: it ends in
// one (see endsInError) or builds one (see buildsError). It also says
// where the code that runs only to handle it begins: after the last
// statement that may leave the block otherwise (see mayLeave). go/build's
// Import searches for the package in a block that ends by returning
// "cannot find package" and leaves it with a goto when it finds it: only
// the code after the last goto is an error path. The position is that of
// the first statement when nothing leaves before.
func errorTail(info *types.Info, results *types.Tuple, list []ast.Stmt, outer []ast.Node) (token.Pos, bool) {
	if !endsInError(info, results, list, outer) && !buildsError(info, list) {
		return token.NoPos, false
	}
	first := 0
	for i := len(list) - 2; i >= 0; i-- {
		if mayLeave(info, results, list[i], outer) {
			first = i + 1
			break
		}
	}
	return list[first].Pos(), true
}

// searchTail returns where the failure of a search begins in list, a
// function's body: after a loop that may leave the function (returning
// what it found, see mayLeave), the statements that handle an error (see
// errorTail: they end in one or build one) run only when the loop found
// nothing: a decoder's "for n > 0 { if b&0x80 == 0 { return x } ... }"
// followed by "d.setError(fmt.Errorf(...)); return 0". A switch without a
// default whose every case leaves (see allLeave) searches too: what
// follows it runs only when no case matched. A body whose last statement
// that may leave is neither ("if c.closed { return }") is not a search:
// what follows is its work.
func searchTail(info *types.Info, results *types.Tuple, list []ast.Stmt, outer []ast.Node) (token.Pos, bool) {
	for i := len(list) - 2; i >= 0; i-- {
		if !mayLeave(info, results, list[i], outer) {
			continue
		}
		switch s := list[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			// Nothing in the tail leaves before it fails: it handles
			// an error from its first statement, if at all.
			return errorTail(info, results, list[i+1:], outer)
		case *ast.SwitchStmt:
			if allLeave(info, s.Body) {
				return errorTail(info, results, list[i+1:], outer)
			}
		case *ast.TypeSwitchStmt:
			if allLeave(info, s.Body) {
				return errorTail(info, results, list[i+1:], outer)
			}
		}
		return token.NoPos, false
	}
	return token.NoPos, false
}

// allLeave reports whether every case of a switch's body leaves the
// function and the switch has no default: each case ends in a return or
// a call that does not return (see Terminal), and no break ends the
// switch. What follows such a switch runs only when no case matched the
// value, the default the code left out.
func allLeave(info *types.Info, body *ast.BlockStmt) bool {
	for _, s := range body.List {
		cc, ok := s.(*ast.CaseClause)
		if !ok || cc.List == nil || len(cc.Body) == 0 {
			return false
		}
		switch last := cc.Body[len(cc.Body)-1].(type) {
		case *ast.ReturnStmt:
		case *ast.ExprStmt:
			call, ok := ast.Unparen(last.X).(*ast.CallExpr)
			if !ok || !Terminal(info, call) {
				return false
			}
		default:
			return false
		}
		if breaksOut(cc) {
			return false
		}
	}
	return len(body.List) > 0
}

// breaksOut reports whether a case clause holds a break that ends its
// switch: an unlabelled one outside the loops, switches and selects the
// clause holds, or a labelled one (whose label may be the switch's).
func breaksOut(cc *ast.CaseClause) bool {
	found := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, true)
					return false
				}
			case *ast.BranchStmt:
				if m.Tok == token.BREAK && (m.Label != nil || !nested) || m.Tok == token.GOTO {
					found = true
				}
			}
			return !found
		})
	}
	walk(cc, false)
	return found
}

// mayLeave reports whether s may leave the block it is in other than with
// an error: it holds, outside function literals, a goto, a labelled break
// or continue or one not inside a loop, switch or select of s, or a return
// that returns no error.
func mayLeave(info *types.Info, results *types.Tuple, s ast.Stmt, outer []ast.Node) bool {
	found := false
	loops, breakable := 0, 0 // the loops, and the statements break can end, of s around the node
	var stack []ast.Node
	ast.Inspect(s, func(n ast.Node) bool {
		if n == nil {
			switch stack[len(stack)-1].(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				loops--
				breakable--
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				breakable--
			}
			stack = stack[:len(stack)-1]
			return true
		}
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			switch n.Tok {
			case token.GOTO:
				found = true
			case token.BREAK:
				found = n.Label != nil || breakable == 0
			case token.CONTINUE:
				found = n.Label != nil || loops == 0
			}
		case *ast.ReturnStmt:
			found = !returnsError(info, results, n, outer)
		case *ast.ForStmt, *ast.RangeStmt:
			loops++
			breakable++
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			breakable++
		}
		stack = append(stack, n)
		return true
	})
	return found
}

// skipsOn reports whether s is continue, break or a return without results.
func skipsOn(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.BranchStmt:
		return s.Tok == token.CONTINUE || s.Tok == token.BREAK
	case *ast.ReturnStmt:
		return len(s.Results) == 0
	}
	return false
}

// returnsConstants reports whether s is a return whose results are all
// nil or constants (return nil, nil; return true; return -1): nothing
// computed from the input.
func returnsConstants(info *types.Info, s ast.Stmt) bool {
	r, ok := s.(*ast.ReturnStmt)
	return ok && len(r.Results) > 0 && !slices.ContainsFunc(r.Results, func(e ast.Expr) bool {
		return !syntax.IsNil(info, e) && info.Types[e].Value == nil
	})
}

// lastWord returns the last word of a mixedCaps name, with its first
// letter upper case: "Error" for "ReportError" and "error", "Errorf" for
// "logErrorf".
func lastWord(name string) string {
	i := strings.LastIndexFunc(name, unicode.IsUpper)
	if i < 0 {
		i = 0
	}
	w := name[i:]
	if w == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + w[n:]
}

// problemLogs are the names of the functions and methods that log a
// warning or an error (slog, logrus, zap, glog, nats-server's Server, and
// http.Error, which answers with one).
var problemLogs = []string{"Error", "Errorf", "Errorw", "Warn", "Warnf", "Warnw", "Warning", "Warningf", "ErrorContext", "WarnContext"}

// levelLogs are the names of the functions and methods that log at a level
// given as an argument: slog's Log and LogAttrs, zap's Log, franz-go's
// Logger.Log.
var levelLogs = []string{"Log", "Logf", "Logw", "LogAttrs"}

// logsProblem reports whether call logs a warning or an error: a function
// or method named as in problemLogs, or whose name's last word is
// (json-iterator's iter.ReportError, a parser's p.addError, a logger's
// logWarnf), or one named as in levelLogs given a
// level of warning or worse (see problemLevel), that returns nothing (so
// neither err.Error() nor fmt.Errorf). A block that ends by logging one
// has met a problem: nats-server warns that it detected an unsupported
// consumer, franz-go logs at LogLevelError that a broker answered a
// request it did not send.
func logsProblem(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Signature().Results().Len() != 0 {
		return false
	}
	if slices.Contains(problemLogs, fn.Name()) || slices.Contains(problemLogs, lastWord(fn.Name())) {
		return true
	}
	return slices.Contains(levelLogs, fn.Name()) && slices.ContainsFunc(call.Args, func(e ast.Expr) bool { return problemLevel(info, e) })
}

// problemLevel reports whether e names a constant log level of warning or
// worse: a constant whose type's name has Level, Lvl or Severity in it and
// whose own name has Warn, Error, Crit, Alert, Emerg, Fatal or Panic in it
// (slog.LevelError, zapcore.WarnLevel, kgo.LogLevelError, hclog.Error).
func problemLevel(info *types.Info, e ast.Expr) bool {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return false
	}
	c, ok := info.Uses[id].(*types.Const)
	if !ok {
		return false
	}
	named, ok := types.Unalias(c.Type()).(*types.Named)
	if !ok {
		return false
	}
	tn := named.Obj().Name()
	if !strings.Contains(tn, "Level") && !strings.Contains(tn, "Lvl") && !strings.Contains(tn, "Severity") {
		return false
	}
	for _, w := range []string{"Warn", "Error", "Crit", "Alert", "Emerg", "Fatal", "Panic"} {
		if strings.Contains(c.Name(), w) {
			return true
		}
	}
	return false
}

// buildsError reports whether a statement of list (not of a block nested
// in it) builds an error value: a composite literal of a type that
// implements error, itself or through a pointer, a conversion to such a
// type, or a call that builds one (see buildsErrorValue). Such a block
// handles a failure even when it does not return: nats-server's
// configuration parser appends &configErr{tk, fmt.Sprintf(...)} to its
// errors and goes on.
func buildsError(info *types.Info, list []ast.Stmt) bool {
	iface := errorType.Underlying().(*types.Interface)
	isError := func(t types.Type) bool {
		return t != nil && !types.IsInterface(t) &&
			(types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface))
	}
	found := false
	for _, s := range list {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BlockStmt, *ast.FuncLit, *ast.CaseClause, *ast.CommClause:
				return false
			case *ast.CompositeLit:
				found = found || isError(info.TypeOf(n))
			case *ast.CallExpr:
				if tv, ok := info.Types[n.Fun]; ok && tv.IsType() {
					// A conversion to an error type:
					// sarama's ConfigurationError(fmt.Sprintf(...)).
					found = found || isError(tv.Type)
					break
				}
				found = found || buildsErrorValue(info, n)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// Terminal reports whether call does not return normally: panic,
// log.Fatal* and log.Panic* (also as *log.Logger methods), os.Exit,
// runtime.Goexit, and the testing methods Fatal, Fatalf, FailNow, Skip,
// Skipf and SkipNow.
func Terminal(info *types.Info, call *ast.CallExpr) bool {
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, builtin := info.Uses[id].(*types.Builtin); builtin {
			return id.Name == "panic"
		}
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	name := fn.Name()
	switch fn.Pkg().Path() {
	case "log":
		return strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")
	case "os":
		return name == "Exit"
	case "runtime":
		return name == "Goexit"
	case "testing":
		switch name {
		case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
			return true
		}
	}
	return false
}

// failure reports whether call reports a test failure (t.Error, t.Errorf).
func failure(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "testing" && (fn.Name() == "Error" || fn.Name() == "Errorf")
}

var errorType = types.Universe.Lookup("error").Type()

// returnsError reports whether ret returns a non-nil value in a result of
// type error. outer is the path from ret (or its block) outwards.
func returnsError(info *types.Info, results *types.Tuple, ret *ast.ReturnStmt, outer []ast.Node) bool {
	if results == nil || len(ret.Results) != results.Len() {
		return false
	}
	for i, e := range ret.Results {
		if types.Identical(results.At(i).Type(), errorType) && nonNilError(info, e, outer) {
			return true
		}
	}
	return false
}

// newError reports whether fn is fmt.Errorf or errors.New, whose error is
// never nil.
func newError(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "fmt.Errorf", "errors.New":
		return true
	}
	return false
}

// errorBuilders are the names of the functions that build an error from
// their arguments when they return one (pkg/errors' Wrap and WithMessage,
// grpc's status.Error and Errorf, xerrors.Errorf). They are not counted
// where a non-nil error must be sure: errors.Wrap(nil, ...) is nil.
var errorBuilders = []string{"New", "Newf", "Error", "Errorf", "Wrap", "Wrapf", "WithMessage", "WithMessagef", "WithStack", "Join"}

// buildsErrorValue reports whether call builds an error value: fmt.Errorf
// and errors.New; a function named as in errorBuilders whose one result
// is an error; or grpc's status.New and Newf given a code other than OK,
// whose Status is an error's content (grpc-gateway answers a nil response
// with errorChunk(status.New(codes.Internal, "empty response"))).
func buildsErrorValue(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	if newError(fn) {
		return true
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "google.golang.org/grpc/status.New", "google.golang.org/grpc/status.Newf":
		if len(call.Args) > 0 {
			tv := info.Types[call.Args[0]]
			return tv.Value != nil && tv.Value.String() != "0" // codes.OK is 0
		}
	}
	res := fn.Signature().Results()
	return res.Len() == 1 && types.Identical(res.At(0).Type(), errorType) && slices.Contains(errorBuilders, fn.Name())
}

// nonNilError reports whether e, returned as an error, is surely not nil:
// a call of fmt.Errorf or errors.New, a call or composite literal of a
// concrete error type, a package-level variable (a sentinel error such as
// io.EOF), or a variable that an enclosing if statement's condition has
// compared with "!= nil".
func nonNilError(info *types.Info, e ast.Expr, outer []ast.Node) bool {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		return x.Op == token.AND
	case *ast.CallExpr:
		if fn, ok := typeutil.Callee(info, x).(*types.Func); ok && newError(fn) {
			return true
		}
		t := info.TypeOf(x)
		return t != nil && !types.IsInterface(t) && types.Implements(t, errorType.Underlying().(*types.Interface))
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := x.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = x.(*ast.Ident)
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok {
			return false
		}
		if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return true
		}
		if _, ok := x.(*ast.Ident); !ok {
			return false
		}
		for _, n := range outer {
			switch n := n.(type) {
			case *ast.IfStmt:
				if comparesNotNil(info, n.Cond, v) {
					return true
				}
			case *ast.BlockStmt:
				if definedNonNil(info, n.List, v) {
					return true
				}
			case *ast.FuncLit, *ast.FuncDecl:
				return false
			}
		}
	}
	return false
}

// definedNonNil reports whether one of the statements defines v with
// "v := x" where x is surely a non-nil error (not itself a variable).
func definedNonNil(info *types.Info, list []ast.Stmt, v *types.Var) bool {
	for _, st := range list {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
			continue
		}
		for i, lhs := range as.Lhs {
			if id, ok := lhs.(*ast.Ident); ok && info.Defs[id] == v {
				switch ast.Unparen(as.Rhs[i]).(type) {
				case *ast.Ident, *ast.SelectorExpr:
					return false
				}
				return nonNilError(info, as.Rhs[i], nil)
			}
		}
	}
	return false
}

// comparesNotNil reports whether cond is, or is a conjunction containing,
// "v != nil".
func comparesNotNil(info *types.Info, cond ast.Expr, v *types.Var) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case token.LAND:
		return comparesNotNil(info, b.X, v) || comparesNotNil(info, b.Y, v)
	case token.NEQ:
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			id, ok := ast.Unparen(pair[0]).(*ast.Ident)
			nilID, ok2 := ast.Unparen(pair[1]).(*ast.Ident)
			if ok && ok2 && info.Uses[id] == v && nilID.Name == "nil" {
				if _, isNil := info.Uses[nilID].(*types.Nil); isNil {
					return true
				}
			}
		}
	}
	return false
}

// errNotNil reports whether cond is "x != nil" (or "nil != x") for a value x
// of type error.
func errNotNil(info *types.Info, cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	x, y := b.X, b.Y
	if info.Types[x].IsNil() {
		x, y = y, x
	}
	return info.Types[y].IsNil() && types.Identical(info.TypeOf(x), errorType)
}
