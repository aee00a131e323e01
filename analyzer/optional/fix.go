package optional

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
)

// fix returns the edits that store the field fv of s as its element type
// elem, with the bool field flag if flag is not empty, or why that is not
// offered.
func (c *checker) fix(s *types.Named, fv *types.Var, elem types.Type, refs []*ref, flag string) ([]analysis.TextEdit, string) {
	for _, r := range refs {
		if r.kind == bad {
			return nil, r.why
		}
	}
	for _, r := range refs {
		if c.generated[c.pass.Fset.File(r.pos)] {
			return nil, fmt.Sprintf("a generated file uses the field at %s", c.where(r.pos))
		}
	}
	amps := make(map[*ast.UnaryExpr]bool)
	for _, r := range refs {
		if r.amp != nil {
			amps[r.amp] = true
		}
	}
	for _, r := range refs {
		if r.kind == storeAmp || r.kind == litAmp {
			if why := c.localWhy(r, amps); why != "" {
				return nil, why
			}
		}
	}
	if why := c.structWhy(s); why != "" {
		return nil, why
	}
	if why := c.exposedWhy(s); why != "" {
		return nil, why
	}
	edits, why := c.declEdits(fv, flag)
	if why != "" {
		return nil, why
	}
	for _, r := range refs {
		e, why := c.refEdits(r, elem, flag)
		if why != "" {
			return nil, why
		}
		edits = append(edits, e...)
	}
	return edits, ""
}

// declEdits changes the declaration of the field from *T to T and adds the
// flag field after it.
func (c *checker) declEdits(fv *types.Var, flag string) ([]analysis.TextEdit, string) {
	path := syntax.Path(c.find, &ast.Ident{NamePos: fv.Pos(), Name: fv.Name()})
	field, ok := syntax.Parent(path, 0).(*ast.Field)
	if !ok {
		return nil, "its declaration was not found"
	}
	if len(field.Names) != 1 {
		return nil, fmt.Sprintf("it is declared with other fields at %s", c.where(field.Pos()))
	}
	star, ok := field.Type.(*ast.StarExpr)
	if !ok {
		return nil, fmt.Sprintf("its type is written in parentheses at %s", c.where(field.Pos()))
	}
	st, ok := syntax.Parent(path, 2).(*ast.StructType)
	if !ok {
		return nil, "its declaration was not found"
	}
	edits := []analysis.TextEdit{syntax.Delete(star.Pos(), star.X.Pos())}
	if flag == "" {
		return edits, ""
	}
	tf := c.pass.Fset.File(field.Pos())
	line := tf.Line(field.End())
	if tf.Line(st.Fields.Closing) > line {
		edits = append(edits, insert(tf.LineStart(line+1), flag+" bool\n"))
	} else {
		edits = append(edits, insert(field.End(), "; "+flag+" bool"))
	}
	return edits, ""
}

// refEdits returns the edits of one use of the field.
func (c *checker) refEdits(r *ref, elem types.Type, flag string) ([]analysis.TextEdit, string) {
	switch r.kind {
	case storeAmp:
		edits := []analysis.TextEdit{syntax.Delete(r.amp.Pos(), r.amp.X.Pos())}
		if flag == "" {
			return edits, ""
		}
		x, why := c.holder(r)
		if why == "" {
			why = c.universal("true", r.amp.Pos())
		}
		if why != "" {
			return nil, why
		}
		return append(edits, insert(r.lhs.End(), ", "+x+"."+flag), insert(r.amp.End(), ", true")), ""
	case storeNil, litNil:
		zero, why := c.zero(elem, r.value.Pos())
		if why != "" {
			return nil, why
		}
		if flag == "" || r.kind == litNil {
			return []analysis.TextEdit{replace(r.value, zero)}, ""
		}
		x, why := c.holder(r)
		if why == "" {
			why = c.universal("false", r.value.Pos())
		}
		if why != "" {
			return nil, why
		}
		return []analysis.TextEdit{insert(r.lhs.End(), ", "+x+"."+flag), replace(r.value, zero+", false")}, ""
	case litAmp:
		edits := []analysis.TextEdit{syntax.Delete(r.amp.Pos(), r.amp.X.Pos())}
		if flag == "" {
			return edits, ""
		}
		if why := c.universal("true", r.amp.Pos()); why != "" {
			return nil, why
		}
		return append(edits, insert(r.amp.End(), ", "+flag+": true")), ""
	case isNil, notNil:
		x, why := c.holder(r)
		if why != "" {
			return nil, why
		}
		text := x + "." + flag
		if r.kind == isNil {
			text = "!" + text
		}
		return []analysis.TextEdit{replace(r.node, text)}, ""
	case deref:
		return syntax.DerefEdits(r.path, r.star), ""
	case through:
		return nil, ""
	}
	return nil, fmt.Sprintf("the field is used at %s", c.where(r.pos))
}

// holder returns the source of the expression that holds the struct in
// the use s.f, which the fix writes a second time: it must have no side
// effect.
func (c *checker) holder(r *ref) (string, string) {
	x := types.ExprString(r.sel.X)
	if !pure(r.sel.X) {
		return "", fmt.Sprintf("the fix would evaluate %s twice at %s", x, c.where(r.pos))
	}
	return x, ""
}

// pure reports whether evaluating e twice has no side effect: e is a chain
// of names, fields, dereferences and indexes by names and literals.
func pure(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return pure(e.X)
	case *ast.ParenExpr:
		return pure(e.X)
	case *ast.StarExpr:
		return pure(e.X)
	case *ast.IndexExpr:
		return pure(e.X) && pure(e.Index)
	}
	return false
}

// universal says why the predeclared name (true, false) cannot be written
// at pos, or returns "".
func (c *checker) universal(name string, pos token.Pos) string {
	if c.lookup(name, pos) != types.Universe.Lookup(name) {
		return fmt.Sprintf("%s is redefined at %s", name, c.where(pos))
	}
	return ""
}

// lookup returns the object that name denotes at pos.
func (c *checker) lookup(name string, pos token.Pos) types.Object {
	scope := c.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return nil
	}
	_, obj := scope.LookupParent(name, pos)
	return obj
}

// zero returns the source of the zero value of t at pos, or why it
// cannot be written there.
func (c *checker) zero(t types.Type, pos token.Pos) (string, string) {
	if b, ok := t.Underlying().(*types.Basic); ok {
		switch {
		case b.Info()&types.IsBoolean != 0:
			return "false", c.universal("false", pos)
		case b.Info()&types.IsString != 0:
			return `""`, ""
		default:
			return "0", ""
		}
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return "", "its zero value has no name"
	}
	obj := n.Obj()
	if obj.Pkg() == c.pass.Pkg {
		if c.lookup(obj.Name(), pos) != obj {
			return "", fmt.Sprintf("%s is redefined at %s", obj.Name(), c.where(pos))
		}
		return obj.Name() + "{}", ""
	}
	if f := c.file(pos); f != nil {
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil || path != obj.Pkg().Path() {
				continue
			}
			name := obj.Pkg().Name()
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if pn, ok := c.lookup(name, pos).(*types.PkgName); ok && pn.Imported() == obj.Pkg() {
				return name + "." + obj.Name() + "{}", ""
			}
		}
	}
	return "", fmt.Sprintf("%s is not imported by name where the field is reset at %s", obj.Pkg().Path(), c.where(pos))
}

func insert(pos token.Pos, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)}
}

func replace(n ast.Node, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: n.Pos(), End: n.End(), NewText: []byte(text)}
}
