package idiom

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/internal/loops"
	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/optlog"
)

// block checks the statements of a block: slices declared empty and
// grown in a loop that follows (presize), variables that only hold a
// conversion of bytes to a string (bytes-lookup), consecutive appends
// (append-combine).
func (c *checker) block(b *ast.BlockStmt) {
	for i, s := range b.List {
		for _, d := range c.emptySlices(s) {
			c.presize(b, i, d)
		}
		c.extended(b, i)
		c.stringVar(b, i)
		if i+1 < len(b.List) {
			c.appendCombine(s, b.List[i+1])
		}
	}
}

// emptyDecl is a slice variable declared empty by a statement.
type emptyDecl struct {
	v     *types.Var
	stmt  ast.Stmt
	value ast.Expr // the empty value; nil for var v []T
	spec  *ast.ValueSpec
}

// emptySlices returns the slice variables s declares empty: var v []T,
// var v = []T{}, v := []T{}, v := make([]T, 0), v := []T(nil).
func (c *checker) emptySlices(s ast.Stmt) []emptyDecl {
	var out []emptyDecl
	add := func(id *ast.Ident, value ast.Expr, spec *ast.ValueSpec) {
		v, ok := c.info.Defs[id].(*types.Var)
		if !ok || id.Name == "_" {
			return
		}
		if _, ok := v.Type().Underlying().(*types.Slice); !ok {
			return
		}
		if value != nil && !c.isEmptySlice(value) {
			return
		}
		if value != nil && c.info.Types[ast.Unparen(value)].IsNil() {
			value = nil
		}
		out = append(out, emptyDecl{v: v, stmt: s, value: value, spec: spec})
	}
	switch s := s.(type) {
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			return nil
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			for i, id := range vs.Names {
				switch {
				case len(vs.Values) == 0:
					add(id, nil, vs)
				case len(vs.Values) == len(vs.Names):
					add(id, vs.Values[i], vs)
				}
			}
		}
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE || len(s.Lhs) != len(s.Rhs) {
			return nil
		}
		for i, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				add(id, s.Rhs[i], nil)
			}
		}
	}
	return out
}

// isEmptySlice reports whether e is an empty slice: nil, T{}, make(T, 0).
func (c *checker) isEmptySlice(e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := c.info.Types[e]; ok && tv.IsNil() {
		return true
	}
	if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 {
		if tv, ok := c.info.Types[conv.Fun]; ok && tv.IsType() {
			return c.info.Types[conv.Args[0]].IsNil()
		}
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		return len(lit.Elts) == 0
	}
	if m, ok := e.(*ast.CallExpr); ok && syntax.IsBuiltin(c.info, m.Fun, "make") && len(m.Args) == 2 {
		v := c.info.Types[m.Args[1]].Value
		return v != nil && constant.Sign(v) == 0
	}
	return false
}

// presize reports the slice d declares in b.List[i] when the first
// statement after it that uses the slice is a loop of known trip count
// that appends to it.
func (c *checker) presize(b *ast.BlockStmt, i int, d emptyDecl) {
	// Appends of single elements in the block before and after the loop
	// add to its bound.
	var loop ast.Stmt
	var straight []*ast.CallExpr
	extra := 0
	j := i + 1
	for ; j < len(b.List); j++ {
		if !c.mentions(b.List[j], d.v) {
			continue
		}
		if app, v, ok := c.selfAppend(b.List[j]); ok && v == d.v && !c.argsMention(app, v) {
			straight = append(straight, app)
			extra += len(app.Args) - 1
			continue
		}
		loop = b.List[j]
		break
	}
	if loop == nil {
		return
	}
	bound, appends, cond, ok := loops.Bound(c.info, loop, d.v, c.terminal)
	if x := c.rangedCall(loop); ok && x != nil {
		// for k, v := range c.Headers(): the length is that of a call's
		// result, which must be called once.
		name := resultName(d.v.Name())
		c.reportPresize(d, bound, strings.ReplaceAll(bound, types.ExprString(x), name), appends, cond, false,
			"the loop ranges over the result of a call: store "+types.ExprString(x)+" in a variable "+name+" before "+d.v.Name()+
				" is declared, and range over "+name)
		return
	}
	if !ok || !c.validBefore(b, i, j, loop) {
		if ok {
			// The bound is known only after the declaration.
			c.reportPresize(d, bound, bound, appends, cond, false,
				"the length is known only after "+d.v.Name()+" is declared: declare it just before the loop")
		}
		return
	}
	// What follows the loop: more appends, single or in loops of known
	// trip count, add to the bound; any other use ends the count.
	partial := false
	for k := j + 1; k < len(b.List); k++ {
		s := b.List[k]
		if !c.mentions(s, d.v) {
			continue
		}
		if app, v, ok := c.selfAppend(s); ok && v == d.v && !c.argsMention(app, v) {
			straight = append(straight, app)
			extra += len(app.Args) - 1
			continue
		}
		if more, apps, moreCond, ok := loops.Bound(c.info, s, d.v, c.terminal); ok && c.rangedCall(s) == nil && c.validBefore(b, i, k, s) {
			bound += "+" + more
			appends = append(appends, apps...)
			cond = cond || moreCond
			continue
		}
		partial = c.appendsTo(s, d.v)
		break
	}
	if extra > 0 {
		bound = fmt.Sprintf("%s+%d", bound, extra)
	}
	c.reportPresize(d, bound, bound, append(appends, straight...), cond, partial, "")
}

// resultName returns a name for the variable that holds the ranged result
// from which the slice name is built: "src" for any name, unless that is
// the slice's own.
func resultName(slice string) string {
	if slice == "src" {
		return "from"
	}
	return "src"
}

// rangedCall returns the ranged expression of a range loop when it calls
// a function (range c.Headers()), or nil.
func (c *checker) rangedCall(loop ast.Stmt) ast.Expr {
	if l, isLabeled := loop.(*ast.LabeledStmt); isLabeled {
		loop = l.Stmt
	}
	if r, ok := loop.(*ast.RangeStmt); ok && c.hasCall(r.X) {
		return r.X
	}
	return nil
}

// appendsTo reports whether s assigns v an append to it.
func (c *checker) appendsTo(s ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok && c.info.Uses[id] == v {
				if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && syntax.IsBuiltin(c.info, call.Fun, "append") {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// reportPresize reports the slice d, appended to bound elements at most
// (exactly, unless cond) by appends, which the make of the advice writes
// makeBound; partial says that later code appends more, invalid why the
// bound cannot be computed where d is declared ("" if it can).
func (c *checker) reportPresize(d emptyDecl, bound, makeBound string, appends []*ast.CallExpr, cond, partial bool, invalid string) {
	qual, bad := syntax.Qualifier(c.pass, d.stmt.Pos())
	typ := types.TypeString(d.v.Type(), qual)
	mk := fmt.Sprintf("make(%s, 0, %s)", typ, makeBound)

	fd := finding{Fields: kind.Fields{Kind: Presize}}
	name := d.v.Name()
	switch {
	case partial:
		fd.What = fmt.Sprintf("%s starts empty and the loop appends %s elements to it, growing it by reallocation, and later code more", name, bound)
		fd.Advice = fmt.Sprintf("declare it with a capacity of at least %s, %s, which saves the reallocations up to there", bound, mk)
		fd.CostNS = allocNS * 2
		fd.NoFix = "later appends may need more: the capacity is a judgement"
	case cond:
		fd.What = fmt.Sprintf("%s starts empty and the loop appends to it at most %s times, growing it by reallocation", name, bound)
		fd.Advice = fmt.Sprintf("declare it with %s, which allocates once; it may hold fewer elements than that", mk)
		fd.CostNS = allocNS * 1.5
		fd.NoFix = "the loop appends to it only on some iterations: whether to allocate for all of them is a judgement"
	default:
		fd.What = fmt.Sprintf("%s starts empty and the loop appends exactly %s elements to it, growing it by reallocation", name, bound)
		fd.Advice = fmt.Sprintf("declare it with %s, which allocates once", mk)
	}
	switch {
	case d.value == nil:
		fd.Behaviour = name + " is no longer nil when the loop does not run"
		fd.Advice += " (behaviour change: " + fd.Behaviour + ")"
		if fd.NoFix == "" {
			fd.NoFix = orDefault(invalid, "make gives a non-nil slice where the code has nil when the loop does not run")
		}
	case bad():
		fd.NoFix = "the element type cannot be written in this file"
	case invalid != "":
		fd.NoFix = invalid
	case fd.NoFix == "":
		fd.Fix = &analysis.SuggestedFix{Message: "Presize " + name, TextEdits: []analysis.TextEdit{replace(d.value, mk)}}
	}
	c.report(d.stmt.Pos(), d.stmt.End(), fd)
	for _, a := range appends {
		c.res.own(a.Pos(), a.Lparen+1, Presize, optlog.CauseAppend)
	}
}

// argsMention reports whether the values app appends mention v.
func (c *checker) argsMention(app *ast.CallExpr, v *types.Var) bool {
	for _, a := range app.Args[1:] {
		if c.mentions(a, v) {
			return true
		}
	}
	return false
}

// validBefore reports whether the loop's trip count can be computed at
// the declaration b.List[i]: what the loop header reads is declared
// before it and not assigned by the statements between it and the loop,
// b.List[j].
func (c *checker) validBefore(b *ast.BlockStmt, i, j int, loop ast.Stmt) bool {
	if l, ok := loop.(*ast.LabeledStmt); ok {
		loop = l.Stmt
	}
	var header ast.Node
	switch l := loop.(type) {
	case *ast.RangeStmt:
		header = l.X
	case *ast.ForStmt:
		header = l.Cond
	}
	return c.readableAt(b, i, j, header)
}

// readableAt reports whether e, evaluated before b.List[j], has the same
// value at b.List[i]: what it reads is declared before b.List[i] and not
// assigned by the statements between.
func (c *checker) readableAt(b *ast.BlockStmt, i, j int, header ast.Node) bool {
	if header == nil {
		return true
	}
	valid := true
	ast.Inspect(header, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj, isVar := c.info.Uses[id].(*types.Var)
		if !isVar || obj.Parent() == nil {
			return true // a field, or not a local
		}
		if obj.Pos() >= b.List[i].Pos() && obj.Pos() < b.List[j].Pos() {
			valid = false
		}
		for _, s := range b.List[i+1 : j] {
			if syntax.Changes(s, func(e ast.Expr) bool {
				x, ok := ast.Unparen(e).(*ast.Ident)
				return ok && c.info.Uses[x] == obj
			}, nil) {
				valid = false
			}
		}
		return true
	})
	return valid
}

// extended reports a slice made with its elements (a literal, or
// make([]T, n)), or empty, that the statements after it extend with
// appends of known lengths before any other use: each append that
// outgrows the capacity reallocates, where a capacity for all of them
// from the start allocates once. An empty slice extended once allocates
// once either way: not reported.
func (c *checker) extended(b *ast.BlockStmt, i int) {
	as, ok := b.List[i].(*ast.AssignStmt)
	var id *ast.Ident
	var value ast.Expr
	switch {
	case ok && as.Tok == token.DEFINE && len(as.Lhs) == 1 && len(as.Rhs) == 1:
		id, _ = as.Lhs[0].(*ast.Ident)
		value = as.Rhs[0]
	default:
		return
	}
	if id == nil {
		return
	}
	v, ok := c.info.Defs[id].(*types.Var)
	if !ok {
		return
	}
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return
	}
	// The length it starts with, which is its capacity.
	start := ""
	var mk *ast.CallExpr
	switch e := ast.Unparen(value).(type) {
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			if _, keyed := el.(*ast.KeyValueExpr); keyed {
				return
			}
		}
		start = fmt.Sprint(len(e.Elts))
	case *ast.CallExpr:
		if !syntax.IsBuiltin(c.info, e.Fun, "make") || len(e.Args) != 2 || c.hasCall(e.Args[1]) {
			return
		}
		mk, start = e, c.text(e.Args[1])
	default:
		return
	}
	var appends []*ast.CallExpr
	var terms []string
	n := 0
	late := "" // a length known only after the slice is made
	for j := i + 1; j < len(b.List); j++ {
		s := b.List[j]
		if !c.mentions(s, v) {
			continue
		}
		if app, av, ok := c.selfAppend(s); ok && av == v && !c.argsMention(app, v) {
			appends = append(appends, app)
			n += len(app.Args) - 1
			continue
		}
		if app, av, ok := c.appendOf(s, true); ok && av == v {
			// append(v, xs...), with xs readable at the start.
			xs := app.Args[1]
			if c.hasCall(xs) || c.mentions(xs, v) {
				return
			}
			if !c.readableAt(b, i, j, xs) {
				late = c.text(xs)
			}
			appends = append(appends, app)
			terms = append(terms, "len("+c.text(xs)+")")
			continue
		}
		if c.appendsTo(s, v) {
			return // grown further: presize's, or unknown
		}
		if len(appends) == 0 && c.onlyFills(s, v) {
			continue
		}
		break
	}
	grows := len(appends)
	if grows == 0 || start == "0" && grows < 2 {
		return
	}
	bound := start
	if n > 0 {
		bound = fmt.Sprintf("%s+%d", bound, n)
	}
	for _, t := range terms {
		bound += "+" + t
	}
	if c, err := strconv.Atoi(start); err == nil && n > 0 && len(terms) == 0 {
		bound = fmt.Sprint(c + n)
	}
	qual, bad := syntax.Qualifier(c.pass, b.List[i].Pos())
	typ := types.TypeString(v.Type(), qual)
	name := v.Name()
	fd := finding{Fields: kind.Fields{Kind: Presize, CostNS: float64(allocNS * grows)}}
	fd.What = fmt.Sprintf("%s starts with a capacity of %s and the appends after it grow it to %s elements, reallocating each time it outgrows it", name, start, bound)
	if mk != nil {
		repl := fmt.Sprintf("make(%s, %s, %s)", typ, start, bound)
		fd.Advice = fmt.Sprintf("make it with %s, which allocates once", repl)
		switch {
		case late != "":
			fd.Advice = fmt.Sprintf("make it with %s once %s is known, which allocates once", repl, late)
			fd.NoFix = "len(" + late + ") is known only after " + name + " is made: the make moves"
		case bad():
			fd.NoFix = "the element type cannot be written in this file"
		default:
			fd.Fix = &analysis.SuggestedFix{Message: "Presize " + name, TextEdits: []analysis.TextEdit{replace(mk, repl)}}
		}
	} else {
		fd.Advice = fmt.Sprintf("start it with room for all of them, append(make(%s, 0, %s), ...the literal's elements), which allocates once", typ, bound)
		fd.NoFix = "the literal's elements move into an append: a matter of style"
		if late != "" {
			fd.Advice += ", once " + late + " is known"
		}
	}
	c.report(b.List[i].Pos(), b.List[i].End(), fd)
	for _, a := range appends {
		c.res.own(a.Pos(), a.Lparen+1, Presize, optlog.CauseAppend)
	}
}

// onlyFills reports whether s uses v only to read or write its elements:
// v[i], or v[a:b] passed to copy or to encoding/binary's functions, which
// neither keep it nor append to it.
func (c *checker) onlyFills(s ast.Stmt, v *types.Var) bool {
	for _, id := range c.uses(s, v) {
		cur, ok := c.root.FindNode(id)
		if !ok {
			return false
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.IndexExpr:
			if p.X != id {
				return false
			}
		case *ast.SliceExpr:
			call, ok := cur.Parent().Parent().Node().(*ast.CallExpr)
			if !ok || p.Slice3 {
				return false
			}
			fn, _ := c.calleeFunc(call)
			if !syntax.IsBuiltin(c.info, call.Fun, "copy") && (fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "encoding/binary") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// terminal reports whether call ends the iteration or the function
// (hotpath.Terminal): panic, os.Exit, log.Fatal, t.Fatal.
func (c *checker) terminal(call *ast.CallExpr) bool { return hotpath.Terminal(c.info, call) }
