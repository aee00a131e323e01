package idiom

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
)

// A rewrite is an expression that builds what a fmt call returns without
// fmt.
type rewrite struct {
	expr string
	// exact says that the expression returns what the call returns for
	// every value; behaviour says how it differs otherwise.
	exact     bool
	behaviour string
	// what names what the call does, for the message: "formats one
	// int", "only concatenates".
	what string
	// shared names the constant the format is, when it is not written
	// as a literal.
	shared string
}

// fmtCall checks a call of package fmt: sprintf-strconv, and fprint
// when the string is written out at once.
func (c *checker) fmtCall(cur inspector.Cursor, call *ast.CallExpr, fn *types.Func) {
	switch fn.Name() {
	case "Sprintf", "Sprint", "Errorf", "Sprintln":
	default:
		return
	}
	if c.appendedFmt(cur, call) {
		return // strconv-append's: fmt.Appendf
	}
	im := c.imports(call.Pos())
	rw, ok := c.fmtRewrite(fn.Name(), call, im)
	if !ok {
		c.fprint(cur, call, fn)
		return
	}
	name := "fmt." + fn.Name()
	fd := finding{
		Fields: kind.Fields{Kind: SprintfStrconv, Callee: name, Behaviour: rw.behaviour},
		What:   name + " " + rw.what + " through a format parsed at run time and arguments boxed in interfaces",
	}
	switch {
	case fn.Name() == "Errorf":
		fd.What = "fmt.Errorf " + rw.what + ": it parses the format at run time for nothing"
		fd.Advice = "write " + rw.expr + ", which makes the same error without fmt"
	case strings.Contains(rw.what, "concatenates"):
		fd.Advice = "write " + rw.expr + ", which builds the same string and allocates only the result"
	default:
		fd.Advice = "write " + rw.expr + ", which formats it directly"
	}
	if rw.behaviour != "" {
		fd.Advice += " (behaviour change: " + rw.behaviour + ")"
	}
	switch {
	case rw.shared != "":
		fd.Blocked = "the format is the constant " + rw.shared + ", which other calls may share: the rewrite spells its text out in this one"
		fd.NoFix = fd.Blocked
	case !rw.exact:
		fd.NoFix = "the rewrite is not exact: " + rw.behaviour
	default:
		fd.Fix, fd.NoFix = im.fix("Replace "+name+" with "+rw.expr, replace(call, rw.expr))
	}
	c.report(call.Pos(), call.End(), fd)
	c.res.own(call.Pos(), call.End(), SprintfStrconv)
}

// appendedFmt reports whether call is the spread operand of an append:
// append(b, fmt.Sprintf(...)...).
func (c *checker) appendedFmt(cur inspector.Cursor, call *ast.CallExpr) bool {
	p := cur.Parent().Node()
	a, ok := p.(*ast.CallExpr)
	return ok && a.Ellipsis.IsValid() && len(a.Args) == 2 && a.Args[1] == call && syntax.IsBuiltin(c.info, a.Fun, "append")
}

// fmtRewrite returns the expression that builds what the call of the fmt
// function name returns without fmt, when there is one: the string
// itself, strconv's or hex's function for one value with its default
// verb, a concatenation for literal text and %s, %d and %v of strings
// and integers, errors.New for fmt.Errorf with a constant format and no
// arguments.
func (c *checker) fmtRewrite(name string, call *ast.CallExpr, im *imports) (rewrite, bool) {
	args := call.Args
	if call.Ellipsis.IsValid() || len(args) == 0 {
		return rewrite{}, false
	}
	if name == "Sprintln" {
		return rewrite{}, false
	}
	if name == "Sprint" {
		if len(args) != 1 {
			return rewrite{}, false // Sprint puts spaces between some operands
		}
		return c.oneValue('v', args[0], im)
	}
	format := args[0]
	tv := c.info.Types[format]
	if len(args) == 1 {
		// fmt.Sprintf(s), fmt.Errorf(s): no arguments.
		if t := c.info.TypeOf(format); t == nil || !syntax.IsString(t) {
			return rewrite{}, false
		}
		wrap := func(e string) string {
			if name == "Errorf" {
				return im.name("errors") + ".New(" + e + ")"
			}
			return e
		}
		what := "has no arguments"
		if name == "Errorf" {
			what = "has no arguments"
		}
		if tv.Value == nil {
			return rewrite{expr: wrap(c.text(format)), what: what,
				behaviour: "fmt would treat a % in " + c.text(format) + " as a verb"}, true
		}
		f := constant.StringVal(tv.Value)
		if !literal(format) && strings.Contains(f, "%") {
			return rewrite{}, false // the rewrite would spell out a shared constant
		}
		if strings.Contains(strings.ReplaceAll(f, "%%", ""), "%") {
			return rewrite{}, false // a verb without an argument: vet's business
		}
		text := c.text(format)
		if strings.Contains(f, "%") {
			text = strconv.Quote(strings.ReplaceAll(f, "%%", "%"))
		}
		return rewrite{expr: wrap(text), exact: true, what: "with a constant format and no arguments"}, true
	}
	if name == "Errorf" || tv.Value == nil || tv.Value.Kind() != constant.String {
		return rewrite{}, false
	}
	shared := ""
	if !literal(format) {
		// A format named by a constant may be shared with other
		// calls: the rewrite spells its text out in this one, which
		// a person must judge.
		shared = c.text(format)
	}
	lits, verbs, ok := splitFormat(constant.StringVal(tv.Value))
	if !ok || len(verbs) != len(args)-1 {
		return rewrite{}, false
	}
	if len(verbs) == 1 && lits[0] == "" && lits[1] == "" {
		rw, ok := c.oneValue(verbs[0], args[1], im)
		rw.shared = shared
		return rw, ok
	}
	// Literal text and values: a concatenation.
	var parts []string
	for i, arg := range args[1:] {
		if lits[i] != "" {
			parts = append(parts, strconv.Quote(lits[i]))
		}
		if verbs[i] != 's' && verbs[i] != 'd' && verbs[i] != 'v' && verbs[i] != 'g' && verbs[i] != 'q' {
			return rewrite{}, false
		}
		rw, ok := c.oneValue(verbs[i], arg, im)
		if !ok || !rw.exact {
			return rewrite{}, false
		}
		parts = append(parts, rw.expr)
	}
	if last := lits[len(lits)-1]; last != "" {
		parts = append(parts, strconv.Quote(last))
	}
	return rewrite{expr: strings.Join(parts, " + "), exact: true, what: "only concatenates", shared: shared}, true
}

// literal reports whether e is written as literal text: a string
// literal, or a sum of them.
func literal(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.BinaryExpr:
		return literal(e.X) && literal(e.Y)
	}
	return false
}

// splitFormat splits a format into literal text and verbs: lits has one
// more element than verbs, the text before each verb and after the last.
// It fails for a verb with flags, a width, a precision or an index.
func splitFormat(format string) (lits []string, verbs []byte, ok bool) {
	var lit strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			lit.WriteByte(format[i])
			continue
		}
		if i+1 >= len(format) {
			return nil, nil, false
		}
		i++
		switch v := format[i]; v {
		case '%':
			lit.WriteByte('%')
		case 's', 'd', 'v', 't', 'x', 'g', 'q':
			verbs = append(verbs, v)
			lits = append(lits, lit.String())
			lit.Reset()
		default:
			return nil, nil, false
		}
	}
	return append(lits, lit.String()), verbs, true
}

// oneValue returns the expression that formats arg as fmt does with the
// verb, when a function formats its type directly.
func (c *checker) oneValue(verb byte, arg ast.Expr, im *imports) (rewrite, bool) {
	tv, ok := c.info.Types[arg]
	if !ok || tv.Type == nil || tv.IsNil() {
		return rewrite{}, false
	}
	t := tv.Type
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t)
	}
	text := c.text(arg)
	one := func(expr string) (rewrite, bool) {
		return rewrite{expr: expr, exact: true, what: "formats one " + types.TypeString(t, types.RelativeTo(c.pass.Pkg))}, true
	}
	// fmt calls a Format method first, then Error, then String, for
	// the verbs %v and %s.
	if hasMethod(t, "Format") {
		return rewrite{}, false
	}
	if verb == 's' || verb == 'v' {
		switch {
		case types.Implements(t, errorType) || hasMethod(t, "Error"):
			if !types.Implements(t, errorType) {
				return rewrite{}, false
			}
			rw := rewrite{expr: c.operand(arg) + ".Error()", what: "formats one error", exact: !nilable(t)}
			if !rw.exact {
				rw.behaviour = "fmt prints <nil> for a nil error, the call panics"
			}
			return rw, true
		case hasStringMethod(t):
			rw := rewrite{expr: c.operand(arg) + ".String()", what: "formats one " + types.TypeString(t, types.RelativeTo(c.pass.Pkg)), exact: !nilable(t)}
			if !rw.exact {
				rw.behaviour = "fmt prints <nil> for a nil value, the call panics"
			}
			return rw, true
		}
	}
	if _, isIface := t.Underlying().(*types.Interface); isIface {
		return rewrite{}, false
	}
	if _, named := types.Unalias(t).(*types.Named); named && hasAnyMethod(t) {
		return rewrite{}, false // fmt may call a method we do not know of
	}
	conv := func(to string) string {
		if types.Identical(t, types.Universe.Lookup(to).Type()) {
			return text
		}
		return to + "(" + text + ")"
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0 && (verb == 's' || verb == 'v'):
			return one(conv("string"))
		case u.Info()&types.IsString != 0 && verb == 'q':
			// %q quotes a string as strconv.Quote does.
			return one(im.name("strconv") + ".Quote(" + conv("string") + ")")
		case u.Kind() == types.Bool && (verb == 't' || verb == 'v'):
			return one(im.name("strconv") + ".FormatBool(" + conv("bool") + ")")
		case (u.Kind() == types.Float64 || u.Kind() == types.Float32) && (verb == 'g' || verb == 'v'):
			// %v of a float is %g, the shortest representation that
			// reads back the same value: strconv's 'g' with precision
			// -1, at the float's own size.
			if u.Kind() == types.Float32 {
				return one(im.name("strconv") + ".FormatFloat(float64(" + text + "), 'g', -1, 32)")
			}
			return one(im.name("strconv") + ".FormatFloat(" + conv("float64") + ", 'g', -1, 64)")
		case u.Info()&types.IsInteger != 0 && (verb == 'd' || verb == 'v' || verb == 'x'):
			base := "10"
			if verb == 'x' {
				base = "16"
			}
			sc := im.name("strconv")
			switch {
			case u.Kind() == types.Int && base == "10":
				return one(sc + ".Itoa(" + conv("int") + ")")
			case u.Info()&types.IsUnsigned != 0:
				return one(sc + ".FormatUint(" + conv("uint64") + ", " + base + ")")
			case base == "10" && u.Kind() != types.Int64:
				return one(sc + ".Itoa(int(" + text + "))")
			default:
				return one(sc + ".FormatInt(" + conv("int64") + ", " + base + ")")
			}
		}
	case *types.Slice:
		if !plainBytes(t) {
			return rewrite{}, false
		}
		switch verb {
		case 'x':
			return one(im.name("encoding/hex") + ".EncodeToString(" + text + ")")
		case 's':
			return one("string(" + text + ")")
		}
	case *types.Array:
		if b, ok := u.Elem().(*types.Basic); ok && b.Kind() == types.Byte && verb == 'x' {
			if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
				if _, isVar := c.info.Uses[id].(*types.Var); isVar {
					return one(im.name("encoding/hex") + ".EncodeToString(" + id.Name + "[:])")
				}
			}
		}
	}
	return rewrite{}, false
}

// nilable reports whether values of t may be nil.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Map, *types.Slice, *types.Signature, *types.Chan:
		return true
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// hasMethod reports whether values of t have a method name.
func hasMethod(t types.Type, name string) bool {
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if ms.At(i).Obj().Name() == name {
			return true
		}
	}
	return false
}

// hasStringMethod reports whether values of t have String() string.
func hasStringMethod(t types.Type) bool {
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		m := ms.At(i).Obj()
		if m.Name() != "String" {
			continue
		}
		sig := m.Type().(*types.Signature)
		return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.String])
	}
	return false
}

// hasAnyMethod reports whether t or *t has methods.
func hasAnyMethod(t types.Type) bool {
	return types.NewMethodSet(t).Len() > 0 || types.NewMethodSet(types.NewPointer(t)).Len() > 0
}

// fprint reports a string formatted by fmt only to be written:
// w.Write([]byte(fmt.Sprintf(...))), w.WriteString(fmt.Sprintf(...)),
// io.WriteString(w, fmt.Sprintf(...)).
func (c *checker) fprint(cur inspector.Cursor, call *ast.CallExpr, fn *types.Func) {
	var printer string
	switch fn.Name() {
	case "Sprintf":
		printer = "Fprintf"
	case "Sprint":
		printer = "Fprint"
	case "Sprintln":
		printer = "Fprintln"
	default:
		return
	}
	outer := cur.Parent()
	var conv ast.Node = call
	if pc, ok := outer.Node().(*ast.CallExpr); ok && c.conversion(pc, syntax.IsByteSlice, syntax.IsString) == call {
		conv, outer = pc, outer.Parent()
	}
	w, ok := outer.Node().(*ast.CallExpr)
	if !ok || len(w.Args) == 0 || w.Args[len(w.Args)-1] != conv {
		return
	}
	var writer ast.Expr
	wfn, _ := c.calleeFunc(w)
	switch {
	case wfn == nil:
		return
	case wfn.Pkg() != nil && wfn.Pkg().Path() == "io" && wfn.Name() == "WriteString" && len(w.Args) == 2 && conv == call:
		writer = w.Args[0]
	case wfn.Signature().Recv() != nil && len(w.Args) == 1 && (wfn.Name() == "Write" && conv != ast.Node(call) || wfn.Name() == "WriteString" && conv == ast.Node(call)):
		sel, ok := ast.Unparen(w.Fun).(*ast.SelectorExpr)
		if !ok || !c.isWriter(sel.X) || !writeSignature(wfn) {
			return
		}
		writer = sel.X
	default:
		return
	}
	im := c.imports(w.Pos())
	fmtName := im.name("fmt")
	args := make([]string, 0, len(call.Args)+1)
	args = append(args, c.text(writer))
	for _, a := range call.Args {
		args = append(args, c.text(a))
	}
	repl := fmtName + "." + printer + "(" + strings.Join(args, ", ") + ")"
	fd := finding{
		Fields: kind.Fields{Kind: Fprint, Callee: "fmt." + fn.Name(),
			Advice: "write " + repl + ", which formats into fmt's reused buffer and writes it"},
		What: "fmt." + fn.Name() + " builds a string only for " + c.text(w.Fun) + " to write it",
	}
	fd.Fix, fd.NoFix = im.fix("Replace with fmt."+printer, replace(w, repl))
	c.report(w.Pos(), w.End(), fd)
	c.res.own(w.Pos(), w.End(), Fprint)
}

// calleeFunc returns the function or method a call calls statically.
func (c *checker) calleeFunc(call *ast.CallExpr) (*types.Func, bool) {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, ok := c.info.Uses[f].(*types.Func)
		return fn, ok
	case *ast.SelectorExpr:
		fn, ok := c.info.Uses[f.Sel].(*types.Func)
		return fn, ok
	}
	return nil, false
}

// isWriter reports whether e's type implements io.Writer (has Write([]byte) (int, error)).
func (c *checker) isWriter(e ast.Expr) bool {
	t := c.info.TypeOf(e)
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, c.pass.Pkg, "Write")
	fn, ok := obj.(*types.Func)
	return ok && writeSignature(fn) && fn.Signature().Params().Len() == 1 && syntax.IsByteSlice(fn.Signature().Params().At(0).Type())
}

// writeSignature reports whether fn returns (int, error), as Write,
// WriteString and fmt.Fprintf do.
func writeSignature(fn *types.Func) bool {
	r := fn.Signature().Results()
	return r.Len() == 2 && types.Identical(r.At(0).Type(), types.Typ[types.Int]) && types.Identical(r.At(1).Type(), types.Universe.Lookup("error").Type())
}
