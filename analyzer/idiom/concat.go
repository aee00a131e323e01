package idiom

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
)

// concatLoop reports strings built with += in a loop: each concatenation
// copies all that the string holds so far (concat-loop).
func (c *checker) concatLoop(loop ast.Stmt, body *ast.BlockStmt) {
	type grown struct {
		v     *types.Var
		first *ast.AssignStmt
		all   []*ast.AssignStmt
	}
	var order []*types.Var
	byVar := make(map[*types.Var]*grown)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false // a nested loop is reported as its own
		case *ast.AssignStmt:
			v, ok := c.concatenated(n)
			if !ok || v.Pos() >= loop.Pos() && v.Pos() < loop.End() {
				return true
			}
			g := byVar[v]
			if g == nil {
				g = &grown{v: v, first: n}
				byVar[v] = g
				order = append(order, v)
			}
			g.all = append(g.all, n)
		}
		return true
	})
	for _, v := range order {
		g := byVar[v]
		// Every use of v in the loop is one of the concatenations.
		in := make(map[*ast.Ident]bool)
		for _, as := range g.all {
			for _, id := range c.uses(as, v) {
				in[id] = true
			}
		}
		ok := true
		for _, id := range c.uses(body, v) {
			if !in[id] {
				ok = false
			}
		}
		if !ok {
			continue
		}
		name := v.Name()
		fd := finding{
			Fields: kind.Fields{Kind: ConcatLoop,
				Advice: "build it in a strings.Builder declared before the loop (" + name + "Builder.WriteString(...) in the loop, " +
					name + " += " + name + "Builder.String() after it), which copies each piece once"},
			What:  "each iteration concatenates to " + name + ", copying all it holds so far into a new string",
			NoFix: "the builder is declared before the loop and read after it",
		}
		c.report(g.first.Pos(), g.first.End(), fd)
		for _, as := range g.all {
			// The concatenation's own allocation, not those of what
			// it appends: s +=, or the + operators of s = s + x.
			c.res.own(as.Pos(), as.Rhs[0].Pos(), ConcatLoop)
			var ops func(e ast.Expr)
			ops = func(e ast.Expr) {
				if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
					c.res.own(b.OpPos, b.OpPos+1, ConcatLoop)
					ops(b.X)
					ops(b.Y)
				}
			}
			ops(as.Rhs[0])
		}
	}
}

// concatenated returns the string variable that as concatenates to:
// s += x, or s = s + x, where x does not read s.
func (c *checker) concatenated(as *ast.AssignStmt) (*types.Var, bool) {
	if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := c.info.Uses[id].(*types.Var)
	if !ok || !syntax.IsString(v.Type()) {
		return nil, false
	}
	switch as.Tok {
	case token.ADD_ASSIGN:
		return v, !c.mentions(as.Rhs[0], v)
	case token.ASSIGN:
		bin, ok := ast.Unparen(as.Rhs[0]).(*ast.BinaryExpr)
		if !ok || bin.Op != token.ADD {
			return nil, false
		}
		// s = s + a + b parses as (s + a) + b: find s leftmost.
		left := bin
		for {
			inner, ok := ast.Unparen(left.X).(*ast.BinaryExpr)
			if !ok || inner.Op != token.ADD {
				break
			}
			left = inner
		}
		x, ok := ast.Unparen(left.X).(*ast.Ident)
		if !ok || c.info.Uses[x] != v || c.mentions(left.Y, v) {
			return nil, false
		}
		for e := ast.Expr(bin); e != ast.Expr(left); {
			b := ast.Unparen(e).(*ast.BinaryExpr)
			if c.mentions(b.Y, v) {
				return nil, false
			}
			e = b.X
		}
		return v, true
	}
	return nil, false
}
