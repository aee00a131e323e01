package redundantbranch

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/docs"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
)

//go:embed doc.go
var doc string

// Analyzer reports branches whose arms compute the same thing.
var Analyzer = &analysis.Analyzer{
	Name:     "redundantbranch",
	Doc:      docs.Section(doc, "redundantbranch"),
	URL:      "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/redundantbranch",
	Requires: []*analysis.Analyzer{inspect.Analyzer, hotpath.Analyzer, kind.Analyzer},
	Run:      run,
}

// Flags of Analyzer.
var (
	nilFacts   bool
	mergeCases bool
	reportAll  bool
)

func init() {
	Analyzer.Flags.BoolVar(&nilFacts, "nilfacts", false,
		"use x == nil for interface variables (reports if err != nil { return err }; return nil; off by default)")
	Analyzer.Flags.BoolVar(&mergeCases, "mergecases", true,
		"report adjacent switch cases with the same body")
	Analyzer.Flags.BoolVar(&reportAll, "all", false,
		"report every finding, not only the highest ranked of each package (the same as -hotpath.all)")
}

// A checker holds the state of one pass.
type checker struct {
	pass *analysis.Pass
	hot  *hotpath.Result
	keys map[types.Object]string

	// Per file.
	file    *ast.File
	src     []byte
	pkgUses map[*types.PkgName][]token.Pos

	// Per function.
	fi *funcInfo
}

func (c *checker) objKey(obj types.Object) string {
	k, ok := c.keys[obj]
	if !ok {
		k = "o" + strconv.Itoa(len(c.keys))
		c.keys[obj] = k
	}
	return k
}

func constant0(v constant.Value) bool {
	switch v.Kind() {
	case constant.Int, constant.Float, constant.Complex:
		return constant.Sign(v) == 0
	}
	return false
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass: pass,
		hot:  pass.ResultOf[hotpath.Analyzer].(*hotpath.Result),
		keys: make(map[types.Object]string),
	}
	for _, f := range pass.Files {
		if hotpath.Skip(pass, f) {
			continue
		}
		name := pass.Fset.File(f.FileStart).Name()
		read := pass.ReadFile
		if read == nil {
			read = os.ReadFile
		}
		src, err := read(name)
		if err != nil {
			continue // no fixes without the source; findings need it too for messages
		}
		c.file, c.src = f, src
		c.pkgUses = make(map[*types.PkgName][]token.Pos)
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if pn, ok := pass.TypesInfo.Uses[id].(*types.PkgName); ok {
					c.pkgUses[pn] = append(c.pkgUses[pn], id.Pos())
				}
			}
			return true
		})
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			c.fi = newFuncInfo(pass.TypesInfo, fd)
			c.checkFunc(fd)
		}
	}
	return nil, nil
}

func (c *checker) checkFunc(fd *ast.FuncDecl) {
	var stack []ast.Node
	ast.Inspect(fd, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.IfStmt:
			c.checkIf(stack, n)
		case *ast.SwitchStmt:
			if mergeCases {
				c.checkSwitch(n.Body, n.Tag != nil, false)
			}
		case *ast.TypeSwitchStmt:
			if mergeCases {
				c.checkSwitch(n.Body, true, true)
			}
		}
		return true
	})
}

// A span is a range of source positions.
type span struct{ pos, end token.Pos }

func (s span) contains(p token.Pos) bool { return s.pos <= p && p < s.end }

// A fact is an equality the branch condition establishes.
type fact struct{ x, y ast.Expr }

// outcome is the result of comparing two arms.
type outcome int

const (
	different outcome = iota
	identical         // the arms are the same
	keepElse          // under the condition, the else arm computes the same as the if arm
	keepThen          // under the negated condition, the if arm computes the same as the else arm
)

// compareArms decides whether the arms then (run when cond holds) and els
// (run otherwise) make the branch redundant. region is the code in which
// the condition's equalities must hold.
func (c *checker) compareArms(cond ast.Expr, then, els []ast.Stmt, region span) (outcome, []fact, []string) {
	if c.effectiveLen(then) != c.effectiveLen(els) {
		return different, nil, nil // cheap test first: canonical forms have a line per statement
	}
	if c.canonStmts(then, nil, nil) == c.canonStmts(els, nil, nil) {
		return identical, nil, nil
	}
	for _, positive := range []bool{true, false} {
		var facts []fact
		c.collectFacts(cond, positive, &facts)
		subst, consts, used := c.substitution(facts, region)
		if len(subst) == 0 {
			continue
		}
		var notes []string
		a := c.canonStmts(then, &canon{subst: subst, consts: consts}, &notes)
		b := c.canonStmts(els, &canon{subst: subst, consts: consts}, &notes)
		if a == b {
			if positive {
				return keepElse, used, notes
			}
			return keepThen, used, notes
		}
	}
	return different, nil, nil
}

// effectiveLen returns the number of statements of list that appear in its
// canonical form.
func (c *checker) effectiveLen(list []ast.Stmt) int {
	n := 0
	for _, s := range list {
		if _, ok := s.(*ast.EmptyStmt); !ok && !c.fi.droppable(s) {
			n++
		}
	}
	return n
}

func (c *checker) canonStmts(list []ast.Stmt, cn *canon, notes *[]string) string {
	if cn == nil {
		cn = &canon{}
	}
	cn.c, cn.fi, cn.notes = c, c.fi, notes
	cn.local = make(map[types.Object]string)
	return cn.stmts(list)
}

// collectFacts adds to facts the equalities that hold when cond evaluates
// to positive.
func (c *checker) collectFacts(cond ast.Expr, positive bool, facts *[]fact) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			c.collectFacts(e.X, !positive, facts)
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			if positive {
				c.collectFacts(e.X, true, facts)
				c.collectFacts(e.Y, true, facts)
			}
		case token.LOR:
			if !positive {
				c.collectFacts(e.X, false, facts)
				c.collectFacts(e.Y, false, facts)
			}
		case token.EQL:
			if positive {
				*facts = append(*facts, fact{e.X, e.Y})
			}
		case token.NEQ:
			if !positive {
				*facts = append(*facts, fact{e.X, e.Y})
			}
		}
	}
}

// atom returns the substitution key of an operand of an equality, if it is
// a constant, a stable local variable not assigned in region, or len or cap
// of one.
func (c *checker) atom(e ast.Expr, region span) (key string, val constant.Value, ok bool) {
	e = ast.Unparen(e)
	info := c.pass.TypesInfo
	tv, ok := info.Types[e]
	if !ok {
		return "", nil, false
	}
	if tv.Value != nil {
		// A named constant stands for itself (see canon.expr); a
		// constant expression of named constants is not an atom.
		if k := namedConst(info, e); k != nil {
			return constKeyPrefix + c.objKey(k), nil, true
		}
		if !literalConst(info, e) {
			return "", nil, false
		}
		t := (&canon{c: c}).constTerm(tv.Value, tv.Type)
		return t.key, tv.Value, true
	}
	if tv.IsNil() && nilFacts {
		return nilKey, nil, true
	}
	if !isInteger(tv.Type) && !isString(tv.Type) && !isInterface(tv.Type) {
		return "", nil, false // not floats (0 == -0, NaN), not pointers
	}
	varOK := func(e ast.Expr) (*types.Var, bool) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil, false
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || !c.fi.stable(v) || c.fi.assignedIn(v, region.pos, region.end) {
			return nil, false
		}
		if fn := c.fi.innermost(region.pos); fn != c.fi.decl && v.Pos() < fn.Pos() {
			// Captured from an enclosing function: that function may
			// assign it while this literal runs (in another goroutine).
			return nil, false
		}
		return v, true
	}
	switch e := e.(type) {
	case *ast.Ident:
		if v, ok := varOK(e); ok {
			return c.objKey(v), nil, true
		}
	case *ast.CallExpr:
		id, ok := ast.Unparen(e.Fun).(*ast.Ident)
		if !ok || len(e.Args) != 1 {
			break
		}
		b, ok := info.Uses[id].(*types.Builtin)
		if !ok || (b.Name() != "len" && b.Name() != "cap") {
			break
		}
		switch info.TypeOf(e.Args[0]).Underlying().(type) {
		case *types.Slice, *types.Basic:
			if v, ok := varOK(e.Args[0]); ok {
				return b.Name() + "(" + c.objKey(v) + ")", nil, true
			}
		}
	}
	return "", nil, false
}

// substitution turns facts into a map from atom keys to the representative
// of their equivalence class (a constant if the class has one). It returns
// the facts it used.
func (c *checker) substitution(facts []fact, region span) (map[string]string, map[string]constant.Value, []fact) {
	parent := make(map[string]string)
	var find func(string) string
	find = func(k string) string {
		p, ok := parent[k]
		if !ok || p == k {
			parent[k] = k
			return k
		}
		r := find(p)
		parent[k] = r
		return r
	}
	consts := make(map[string]constant.Value)
	var used []fact
	for _, f := range facts {
		kx, vx, okx := c.atom(f.x, region)
		ky, vy, oky := c.atom(f.y, region)
		if !okx || !oky || (isConstKey(kx, vx) && isConstKey(ky, vy)) {
			continue
		}
		// An interface equals only nil exactly: two interfaces may be ==
		// and yet hold 0 and -0.
		if (isInterface(c.pass.TypesInfo.TypeOf(f.x)) || isInterface(c.pass.TypesInfo.TypeOf(f.y))) && kx != nilKey && ky != nilKey {
			continue
		}
		if vx != nil {
			consts[kx] = vx
		}
		if vy != nil {
			consts[ky] = vy
		}
		rx, ry := find(kx), find(ky)
		if rx != ry {
			parent[rx] = ry
		}
		used = append(used, f)
		// len(s) == 0 for a string s means s == "".
		for _, side := range [][2]ast.Expr{{f.x, f.y}, {f.y, f.x}} {
			s, ok := c.emptyString(side[0], side[1], region)
			if !ok {
				continue
			}
			t := (&canon{c: c}).constTerm(constant.MakeString(""), s.Type())
			consts[t.key] = t.val
			if rs, rt := find(c.objKey(s)), find(t.key); rs != rt {
				parent[rs] = rt
			}
		}
	}
	classes := make(map[string][]string)
	for k := range parent {
		r := find(k)
		classes[r] = append(classes[r], k)
	}
	subst := make(map[string]string)
	for _, members := range classes {
		sort.Strings(members)
		rep := members[0]
		nconst := 0
		for _, m := range members {
			if isConstKey(m, consts[m]) {
				rep = m
				nconst++
			}
		}
		if nconst > 1 {
			return nil, nil, nil // contradictory or redundant constants: give up
		}
		for _, m := range members {
			if m != rep {
				subst[m] = rep
			}
		}
	}
	return subst, consts, used
}

// emptyString returns s if l is len(s) for a string variable s that is an
// atom and r is the constant 0.
func (c *checker) emptyString(l, r ast.Expr, region span) (*types.Var, bool) {
	rv := c.pass.TypesInfo.Types[ast.Unparen(r)].Value
	if rv == nil || !constant0(rv) || !literalConst(c.pass.TypesInfo, r) {
		return nil, false
	}
	call, ok := ast.Unparen(l).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, false
	}
	if key, _, ok := c.atom(call, region); !ok || !strings.HasPrefix(key, "len(") {
		return nil, false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !isString(v.Type()) {
		return nil, false
	}
	return v, true
}

// nilKey is the canonical key of the predeclared nil.
const nilKey = "nil:untyped nil"

func isConstKey(key string, val constant.Value) bool {
	return val != nil || key == nilKey || strings.HasPrefix(key, constKeyPrefix)
}

// isInterface reports whether t is an interface type (not a type
// parameter, whose values need not be interfaces).
func isInterface(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := t.(*types.TypeParam); ok {
		return false
	}
	return types.IsInterface(t)
}

func (c *checker) checkIf(stack []ast.Node, ifs *ast.IfStmt) {
	if len(stack) < 2 {
		return
	}
	parent := stack[len(stack)-2]
	if _, ok := parent.(*ast.LabeledStmt); ok {
		return
	}
	elsePos := false
	if p, ok := parent.(*ast.IfStmt); ok && p.Else == ifs {
		elsePos = true
	}

	// if c1 { A } else if c2 { A }: join the conditions.
	if _, ok := ifs.Else.(*ast.IfStmt); ok {
		if p, ok := parent.(*ast.IfStmt); ok && elsePos && c.joins(p) != nil {
			return // reported with the head of the chain
		}
		var links []*ast.IfStmt // the ifs joined to the one before
		for cur := ifs; ; {
			inner := c.joins(cur)
			if inner == nil {
				break
			}
			links = append(links, inner)
			cur = inner
		}
		if len(links) == 0 {
			return
		}
		var edits []analysis.TextEdit
		var removed []span
		prev := ifs
		for _, in := range links {
			removed = append(removed, span{prev.Body.Lbrace, in.Cond.Pos()})
			prev = in
		}
		noFix := ""
		if last := links[len(links)-1]; c.explainsApart(removed, span{last.Body.Lbrace, last.Body.Rbrace}) {
			noFix = commentsNoFix
		} else if c.removalOK(removed) {
			prev = ifs
			for _, in := range links {
				edits = append(edits, analysis.TextEdit{Pos: prev.Cond.End(), End: in.Cond.Pos(), NewText: []byte(" || ")})
				prev = in
			}
		}
		what := "the else if after it"
		if len(links) > 1 {
			what = fmt.Sprintf("the %d else ifs after it", len(links))
		}
		c.report(ifs.Pos(), SameBodyIfs, "this if and "+what+" have the same body: join their conditions with || so the function is smaller and cheaper to inline"+noFix, edits, "Join the conditions with ||", false)
		return
	}

	if els, ok := ifs.Else.(*ast.BlockStmt); ok {
		out, facts, notes := c.compareArms(ifs.Cond, ifs.Body.List, els.List, span{ifs.Pos(), ifs.End()})
		if out == different {
			return
		}
		keep, drop := els, ifs.Body
		var msg string
		cost := c.conditionCost(ifs.Cond)
		switch out {
		case identical:
			msg = "both branches of this if do the same thing, so " + cost + ": replace the if with one branch"
		case keepElse:
			msg = fmt.Sprintf("under %s, the if branch computes the same as the else branch, so %s: drop it and keep the else branch", because(facts, notes), cost)
		case keepThen:
			keep, drop = ifs.Body, els
			msg = fmt.Sprintf("under %s, the else branch computes the same as the if branch, so %s: drop it and keep the if branch", because(facts, notes), cost)
		}
		if c.explainsApart([]span{{drop.Lbrace, drop.Rbrace}}, span{keep.Lbrace, keep.Rbrace}) {
			return // each branch says why it is there
		}
		edits := c.flattenIf(ifs, keep, drop, elsePos, stack)
		c.report(ifs.Pos(), EqualArms, msg+c.keptEffect(ifs.Cond), edits, "Remove the redundant branch", c.savesWork(ifs.Cond))
		return
	}

	// if c { ...; return X }; ...; return X
	if ifs.Else != nil || elsePos || len(ifs.Body.List) == 0 {
		return
	}
	list := syntax.StmtList(parent)
	i := slices.Index(list, ast.Stmt(ifs))
	if i < 0 || i+1 >= len(list) {
		return
	}
	rest := list[i+1:]
	if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
		return
	}
	if _, ok := rest[len(rest)-1].(*ast.ReturnStmt); !ok {
		return
	}
	last := rest[len(rest)-1]
	out, facts, notes := c.compareArms(ifs.Cond, ifs.Body.List, rest, span{ifs.Pos(), last.End()})
	if ifs.Init != nil && out != keepThen {
		// The statements after the if cannot see the variables of the
		// init statement, so the init would be left with unused
		// variables; such code is rare enough not to handle.
		return
	}
	if out == different {
		return
	}
	// The if body and the code after it: what the fix drops and keeps.
	dropped, kept := span{ifs.Pos(), ifs.End()}, span{rest[0].Pos(), last.End()}
	if out == keepThen {
		dropped, kept = span{rest[0].Pos(), last.End()}, span{ifs.Body.Lbrace, ifs.Body.Rbrace}
	}
	if c.explainsApart([]span{dropped}, kept) {
		return // the code dropped says why it is there
	}
	var msg string
	var edits []analysis.TextEdit
	cost := c.conditionCost(ifs.Cond)
	switch out {
	case identical:
		msg = "this if does the same as the code after it, so " + cost + ": delete the if"
		edits = c.deleteIf(ifs)
	case keepElse:
		msg = fmt.Sprintf("under %s, the if body computes the same as the code after the if, so %s: delete the if", because(facts, notes), cost)
		edits = c.deleteIf(ifs)
	case keepThen:
		msg = fmt.Sprintf("under %s, the code after the if computes the same as the if body, so %s: keep only the if body", because(facts, notes), cost)
		edits = c.keepIfBody(ifs, rest, stack)
	}
	c.report(ifs.Pos(), UnderCondition, msg+c.keptEffect(ifs.Cond), edits, "Remove the redundant branch", c.savesWork(ifs.Cond))
}

// joins returns the if of ifs's else when the two have the same body and
// their conditions can be joined with ||, or nil.
func (c *checker) joins(ifs *ast.IfStmt) *ast.IfStmt {
	inner, ok := ifs.Else.(*ast.IfStmt)
	if !ok || inner.Init != nil || len(ifs.Body.List) == 0 || tooSmallToShare(ifs.Body.List) {
		return nil
	}
	body := c.canonStmts(ifs.Body.List, nil, nil)
	if els, ok := inner.Else.(*ast.BlockStmt); ok && c.canonStmts(els.List, nil, nil) == body {
		// if c1 { A } else if c2 { A } else { A }: the inner if is
		// reported as identical; once fixed, so is this one.
		return nil
	}
	if body != c.canonStmts(inner.Body.List, nil, nil) {
		return nil
	}
	return inner
}

// because explains the facts behind an equivalence: "lo == hi, d is 0".
func because(facts []fact, notes []string) string {
	var parts []string
	for _, f := range facts {
		parts = append(parts, types.ExprString(f.x)+" == "+types.ExprString(f.y))
	}
	s := strings.Join(parts, " and ")
	if len(notes) > 0 {
		s += ", " + strings.Join(notes, " and ")
	}
	return s
}

// checkSwitch reports runs of adjacent cases with the same body, once per
// run, and the cases that do the same as the default case. tagged says
// whether the switch compares a value (or a type) with its cases, and
// typeSwitch whether it is a type switch.
func (c *checker) checkSwitch(body *ast.BlockStmt, tagged, typeSwitch bool) {
	mergeable := func(i int) bool {
		a, ok1 := body.List[i].(*ast.CaseClause)
		b, ok2 := body.List[i+1].(*ast.CaseClause)
		if !ok1 || !ok2 || len(a.List) == 0 || len(b.List) == 0 || len(a.Body) == 0 {
			return false
		}
		if fallsThrough(a.Body) || fallsThrough(b.Body) || tooSmallToShare(a.Body) {
			return false
		}
		return c.canonStmts(a.Body, nil, nil) == c.canonStmts(b.Body, nil, nil)
	}
	asDefault := c.sameAsDefault(body, tagged, typeSwitch)
	for i := 0; i+1 < len(body.List); i++ {
		if asDefault[i] {
			continue
		}
		j := i
		for j+1 < len(body.List) && !asDefault[j+1] && mergeable(j) {
			j++
		}
		if j == i {
			continue
		}
		var edits []analysis.TextEdit
		var removed []span
		var names []string
		for k := i; k <= j; k++ {
			cc := body.List[k].(*ast.CaseClause)
			names = append(names, c.caseName(cc))
			if k < j {
				removed = append(removed, span{cc.Colon, body.List[k+1].(*ast.CaseClause).Case})
			}
		}
		noFix := ""
		if last := body.List[j].(*ast.CaseClause); c.explainsApart(removed, span{last.Colon, last.End()}) {
			noFix = commentsNoFix
		} else if c.removalOK(removed) {
			for k := i; k < j; k++ {
				a, b := body.List[k].(*ast.CaseClause), body.List[k+1].(*ast.CaseClause)
				edits = append(edits, analysis.TextEdit{Pos: a.List[len(a.List)-1].End(), End: b.List[0].Pos(), NewText: []byte(", ")})
			}
		}
		list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
		msg := fmt.Sprintf("cases %s have the same body: list them in one case so the body is compiled once and the function is smaller and cheaper to inline", list) + noFix
		c.report(body.List[i].Pos(), SameBodyCases, msg, edits, "Merge the cases", false)
		i = j
	}
}

// sameAsDefault reports the cases that do the same as the default case and
// that no later case could take over from once deleted: the cases after
// the last case whose body differs from the default's, and, in a switch
// with a tag, any case whose values are constants distinct from those of
// every later case (concrete types in a type switch whose later cases are
// all concrete types). It returns them by index in body.List.
func (c *checker) sameAsDefault(body *ast.BlockStmt, tagged, typeSwitch bool) map[int]bool {
	dflt := -1
	for i, s := range body.List {
		if cc, ok := s.(*ast.CaseClause); ok && cc.List == nil {
			dflt = i
		}
	}
	if dflt < 0 {
		return nil
	}
	dc := body.List[dflt].(*ast.CaseClause)
	if len(dc.Body) == 0 || fallsThrough(dc.Body) {
		return nil
	}
	want := c.canonStmts(dc.Body, nil, nil)
	run := make(map[int]bool)
	for i := len(body.List) - 1; i >= 0; i-- {
		if i == dflt {
			continue
		}
		cc := body.List[i].(*ast.CaseClause)
		if fallsThrough(cc.Body) || c.effectiveLen(cc.Body) != c.effectiveLen(dc.Body) {
			break
		}
		if i > 0 && fallsThrough(body.List[i-1].(*ast.CaseClause).Body) {
			break // deleting the case would change where the previous one falls
		}
		pure := true
		for _, e := range cc.List {
			if c.hasSideEffects(e) {
				pure = false
			}
		}
		if !pure || c.canonStmts(cc.Body, nil, nil) != want {
			break
		}
		run[i] = true
	}
	if tagged {
		for i := range body.List {
			if i == dflt || run[i] {
				continue
			}
			cc := body.List[i].(*ast.CaseClause)
			if fallsThrough(cc.Body) || (i > 0 && fallsThrough(body.List[i-1].(*ast.CaseClause).Body)) {
				continue
			}
			if c.effectiveLen(cc.Body) != c.effectiveLen(dc.Body) || !c.disjointFromLater(body, i, dflt, typeSwitch) {
				continue
			}
			if c.canonStmts(cc.Body, nil, nil) == want {
				run[i] = true
			}
		}
	}
	if len(run) == 0 {
		return nil
	}
	var idx []int
	var names []string
	var removed []span
	for i := range body.List {
		if run[i] {
			idx = append(idx, i)
			cc := body.List[i].(*ast.CaseClause)
			names = append(names, c.caseName(cc))
			removed = append(removed, span{c.withDoc(cc), cc.End()})
		}
	}
	if c.explainsApart(removed, span{dc.Colon, dc.End()}) {
		// The cases say why they are there (Prometheus' checkpoint
		// drops a record type it knows, and says why it may): kept.
		return run
	}
	var edits []analysis.TextEdit
	if c.removalOK(removed) {
		for _, r := range removed {
			edits = append(edits, c.deleteLines(r.pos, r.end))
		}
	}
	var msg string
	if len(names) == 1 {
		msg = fmt.Sprintf("case %s does the same as the default case, so testing it only costs a compare and a jump: delete the case", names[0])
	} else {
		msg = fmt.Sprintf("cases %s and %s do the same as the default case, so testing them only costs compares and jumps: delete the cases", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	}
	var values []ast.Expr
	for _, i := range idx {
		values = append(values, body.List[i].(*ast.CaseClause).List...)
	}
	c.report(body.List[idx[0]].Pos(), DefaultCases, msg, edits, "Delete the cases", c.savesWork(values...))
	return run
}

// disjointFromLater reports whether no case after body.List[i] could match
// a value that case i matches, so that deleting case i sends its values
// to the default case. In an expression switch the cases must be
// constants (which have no side effects) with distinct values; in a type
// switch, case i and the later cases must be concrete types or nil.
func (c *checker) disjointFromLater(body *ast.BlockStmt, i, dflt int, typeSwitch bool) bool {
	info := c.pass.TypesInfo
	concrete := func(e ast.Expr) bool {
		tv := info.Types[e]
		if tv.IsNil() {
			return true
		}
		if !tv.IsType() {
			return false
		}
		if _, ok := tv.Type.(*types.TypeParam); ok {
			return false
		}
		return !types.IsInterface(tv.Type)
	}
	mine := body.List[i].(*ast.CaseClause).List
	for _, e := range mine {
		if typeSwitch {
			if !concrete(e) || info.Types[e].IsNil() {
				return false
			}
		} else if info.Types[e].Value == nil {
			return false
		}
	}
	for j := i + 1; j < len(body.List); j++ {
		if j == dflt {
			continue
		}
		for _, e := range body.List[j].(*ast.CaseClause).List {
			if typeSwitch {
				if !concrete(e) {
					return false
				}
				continue
			}
			w := info.Types[e].Value
			if w == nil {
				return false
			}
			for _, m := range mine {
				if sameConstant(info.Types[m].Value, w) {
					return false
				}
			}
		}
	}
	return true
}

// sameConstant reports whether two case values may be equal: equal values
// of comparable kinds (an integer and a float are compared by value).
func sameConstant(a, b constant.Value) bool {
	numeric := func(v constant.Value) bool {
		switch v.Kind() {
		case constant.Int, constant.Float, constant.Complex:
			return true
		}
		return false
	}
	if a.Kind() != b.Kind() && !(numeric(a) && numeric(b)) {
		return false // a string and a number in an interface switch
	}
	if a.Kind() == constant.Unknown || b.Kind() == constant.Unknown {
		return true
	}
	return constant.Compare(a, token.EQL, b)
}

// caseName shortens the expression list of a case for a message.
func (c *checker) caseName(cc *ast.CaseClause) string {
	s := types.ExprString(cc.List[0])
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	if len(cc.List) > 1 {
		s += ", ..."
	}
	return s
}

// tooSmallToShare reports whether list, the body that adjacent arms or
// cases repeat, is one statement too small for sharing it to pay: a jump
// (break, continue, goto), or a return or assignment whose operands are
// all names, literals or qualified names, with no call, index or composite
// literal. Merging such arms keeps every compare and saves a few bytes at
// most: for two arms of continue the compiler emits the same jumps for
// c1 || c2 (a loop of that shape compiled to 102 bytes instead of 98), and
// for return 4 or n = 4 the inlining cost falls by 1 to 3 of its budget of
// 80.
func tooSmallToShare(list []ast.Stmt) bool {
	var stmts []ast.Stmt
	for _, s := range list {
		if _, ok := s.(*ast.EmptyStmt); !ok {
			stmts = append(stmts, s)
		}
	}
	if len(stmts) != 1 {
		return false
	}
	switch s := stmts[0].(type) {
	case *ast.BranchStmt:
		return s.Tok != token.FALLTHROUGH
	case *ast.ReturnStmt:
		return all(s.Results, plainOperand)
	case *ast.AssignStmt:
		return s.Tok == token.ASSIGN && all(s.Lhs, plainOperand) && all(s.Rhs, plainOperand)
	case *ast.IncDecStmt:
		return plainOperand(s.X)
	}
	return false
}

// plainOperand reports whether e is a name, a literal, a qualified name
// (pkg.Name or x.f), or one of those negated or in parentheses: an operand
// that is at most a load or a constant.
func plainOperand(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		_, ok := e.X.(*ast.Ident)
		return ok
	case *ast.ParenExpr:
		return plainOperand(e.X)
	case *ast.UnaryExpr:
		return (e.Op == token.SUB || e.Op == token.NOT) && plainOperand(e.X)
	}
	return false
}

// all reports whether f holds for every element of list.
func all(list []ast.Expr, f func(ast.Expr) bool) bool {
	for _, e := range list {
		if !f(e) {
			return false
		}
	}
	return true
}

func fallsThrough(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	b, ok := list[len(list)-1].(*ast.BranchStmt)
	return ok && b.Tok == token.FALLTHROUGH
}

// commentsNoFix says why a merge of arms that carry comments of their own
// comes without a fix.
const commentsNoFix = "; no automatic fix: the arms carry comments of their own, which the merged one should keep"

// report reports the branch at pos, a finding of kind id, with msg, and
// the fix made of edits (none if empty) described by fixMsg. saves says
// whether the change saves work at run time beyond compares and jumps
// (see savesWork): a change that saves only those, or only code size,
// costs a nanosecond, since the branch predictor makes such a compare
// almost free, and ranks accordingly; one that saves a call or a map
// lookup costs what that work does.
func (c *checker) report(pos token.Pos, id kind.ID, msg string, edits []analysis.TextEdit, fixMsg string, saves bool) {
	info := c.hot.At(pos)
	if len(edits) == 0 && !strings.Contains(msg, "; no automatic fix: ") {
		msg += "; no automatic fix: the edit would leave a variable, an import or a label unused, or re-indent a multi-line raw string"
	}
	f := kind.Fields{Kind: id, Tier: info.Tier.String(), TierReason: info.Reason, Text: msg}
	if saves {
		f.CostNS = savedWorkNS
	} else {
		f.Class = "negligible"
	}
	d := analysis.Diagnostic{Pos: pos}
	if len(edits) > 0 {
		d.SuggestedFixes = []analysis.SuggestedFix{{Message: fixMsg, TextEdits: edits}}
	}
	kind.Report(c.pass, d, f)
}

// The kinds of this analyzer's findings.
const (
	EqualArms      kind.ID = "redundantbranch/equal-arms"
	UnderCondition kind.ID = "redundantbranch/under-condition"
	SameBodyIfs    kind.ID = "redundantbranch/same-body-ifs"
	SameBodyCases  kind.ID = "redundantbranch/same-body-cases"
	DefaultCases   kind.ID = "redundantbranch/default-cases"
)

// savedWorkNS is the cost of a condition that calls a function or indexes
// a map, which removing the branch saves (see savesWork).
const savedWorkNS = 20

func init() {
	reg := func(id kind.ID, title, doc string) {
		kind.Register(kind.Kind{ID: id, Title: title, Doc: doc, Scoring: kind.ScoreFlat, CostNS: 1, Rewrite: true, Mechanical: true})
	}
	reg(EqualArms, "an if whose two branches compute the same",
		"When both branches of an if, or one of them under the facts its condition establishes, compute the same "+
			"values and effects, the condition decides nothing: keeping one branch removes its evaluation and a "+
			"jump, and a call or a map lookup when the condition makes one.")
	reg(UnderCondition, "an if whose body computes what the code after it computes",
		"When, under the facts its condition establishes, an if body computes the same as the code after the if "+
			"(an alignment shift that is 0 when the address is aligned), the condition decides nothing: one "+
			"expression without the if does the same work, saving the compare and the jump, and a call or a map "+
			"lookup when the condition makes one.")
	reg(SameBodyIfs, "consecutive ifs with the same body",
		"Two ifs in a row with the same body that ends the function can be one if whose conditions are joined "+
			"with ||: the function is smaller, and cheaper to inline.")
	reg(SameBodyCases, "switch cases with the same body",
		"Cases of a switch with the same body can be one case listing their values: the code is smaller, and "+
			"the compiler can build one jump table or search for them.")
	reg(DefaultCases, "switch cases that do what the default does",
		"A case whose body is the default's does nothing the default would not: deleting it removes its "+
			"comparisons, and a call or a map lookup when its values make one.")
}
