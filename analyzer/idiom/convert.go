package idiom

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/analyzer/kind"
)

// strconvAppend maps strconv's functions that return a string to those
// that append it to a byte slice.
var strconvAppend = map[string]string{
	"FormatInt": "AppendInt", "FormatUint": "AppendUint", "FormatFloat": "AppendFloat", "FormatBool": "AppendBool",
	"Itoa": "AppendInt", "Quote": "AppendQuote", "QuoteRune": "AppendQuoteRune", "QuoteToASCII": "AppendQuoteToASCII",
	"QuoteRuneToASCII": "AppendQuoteRuneToASCII", "QuoteToGraphic": "AppendQuoteToGraphic",
	"QuoteRuneToGraphic": "AppendQuoteRuneToGraphic",
}

// fmtAppend maps fmt's functions that return a string to those that
// append it (Go 1.19).
var fmtAppend = map[string]string{"Sprintf": "Appendf", "Sprint": "Append", "Sprintln": "Appendln"}

// appendCall checks append(b, f(...)...) for a formatting function f
// with an appending counterpart (strconv-append).
func (c *checker) appendCall(cur inspector.Cursor, call *ast.CallExpr) {
	if !call.Ellipsis.IsValid() || len(call.Args) != 2 || !syntax.IsByteSlice(c.info.TypeOf(call.Args[0])) {
		return
	}
	inner, ok := ast.Unparen(call.Args[1]).(*ast.CallExpr)
	if !ok || inner.Ellipsis.IsValid() {
		return
	}
	fn, ok := c.calleeFunc(inner)
	if !ok || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return
	}
	var to string
	switch fn.Pkg().Path() {
	case "strconv":
		to = strconvAppend[fn.Name()]
	case "fmt":
		to = fmtAppend[fn.Name()]
	}
	if to == "" {
		return
	}
	im := c.imports(call.Pos())
	pkg := im.name(fn.Pkg().Path())
	repl := pkg + "." + to + "(" + c.appendArgs(c.text(call.Args[0]), fn.Name(), inner) + ")"
	name := fn.Pkg().Name() + "." + fn.Name()
	fd := finding{
		Fields: kind.Fields{Kind: StrconvAppend, Callee: name,
			Advice: "write " + repl + ", which appends without the intermediate string"},
		What: name + " allocates a string only for append to copy it",
	}
	if fn.Pkg().Path() == "fmt" {
		fd.What = name + " builds a string only for append to copy it"
		if tooOld := syntax.TooOld(c.pass, c.file, "fmt."+to, "go1.19"); tooOld != "" {
			fd.NoFix = tooOld
		}
	}
	if fd.NoFix == "" {
		fd.Fix, fd.NoFix = im.fix("Use "+fn.Pkg().Name()+"."+to, replace(call, repl))
	}
	c.report(call.Pos(), call.End(), fd)
	c.res.own(call.Pos(), call.End(), StrconvAppend)
}

// appendArgs returns the arguments of the Append counterpart of the call
// inner of strconv's or fmt's function name, appending to dst: Itoa's
// int becomes AppendInt's int64 in base 10.
func (c *checker) appendArgs(dst, name string, inner *ast.CallExpr) string {
	args := []string{dst}
	for i, a := range inner.Args {
		text := c.text(a)
		if name == "Itoa" && i == 0 {
			text = "int64(" + text + ")"
		}
		args = append(args, text)
	}
	if name == "Itoa" {
		args = append(args, "10")
	}
	return strings.Join(args, ", ")
}

// appendCombine reports "xs = append(xs, a)" followed by "xs =
// append(xs, b)": one append does both.
func (c *checker) appendCombine(s1, s2 ast.Stmt) {
	a1, v1, ok1 := c.selfAppend(s1)
	a2, v2, ok2 := c.selfAppend(s2)
	if !ok1 || !ok2 || v1 != v2 {
		return
	}
	for _, a := range a2.Args[1:] {
		if c.mentions(a, v1) {
			return
		}
	}
	var more []string
	for _, a := range a2.Args[1:] {
		more = append(more, c.text(a))
	}
	fd := finding{
		Fields: kind.Fields{Kind: AppendCombine,
			Advice: "append both in one call, append(" + v1.Name() + ", ..., " + strings.Join(more, ", ") + "), which checks the capacity once"},
		What: "two consecutive appends to " + v1.Name(),
	}
	fd.Fix = &analysis.SuggestedFix{Message: "Combine the appends", TextEdits: []analysis.TextEdit{
		{Pos: a1.Args[len(a1.Args)-1].End(), End: a1.Args[len(a1.Args)-1].End(), NewText: []byte(", " + strings.Join(more, ", "))},
		{Pos: s1.End(), End: s2.End(), NewText: nil},
	}}
	c.report(s1.Pos(), s2.End(), fd)
}

// selfAppend returns the append of "v = append(v, x, ...)", with no
// spread.
func (c *checker) selfAppend(s ast.Stmt) (*ast.CallExpr, *types.Var, bool) {
	return c.appendOf(s, false)
}

// appendOf returns the append of "v = append(v, ...)": of single values,
// or, if spread, of one spread slice, "v = append(v, xs...)".
func (c *checker) appendOf(s ast.Stmt, spread bool) (*ast.CallExpr, *types.Var, bool) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil, false
	}
	lhs, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, nil, false
	}
	v, ok := c.info.Uses[lhs].(*types.Var)
	if !ok {
		return nil, nil, false
	}
	app, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || !syntax.IsBuiltin(c.info, app.Fun, "append") || app.Ellipsis.IsValid() != spread || len(app.Args) < 2 || spread && len(app.Args) != 2 {
		return nil, nil, false
	}
	first, ok := app.Args[0].(*ast.Ident)
	if !ok || c.info.Uses[first] != v {
		return nil, nil, false
	}
	return app, v, true
}

// poolPut reports pool.Put(x) of a value that is not pointer-shaped.
func (c *checker) poolPut(call *ast.CallExpr) {
	if len(call.Args) != 1 {
		return
	}
	arg := call.Args[0]
	t := c.info.TypeOf(arg)
	if t == nil || c.info.Types[arg].IsNil() {
		return
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			return
		}
	}
	ts := types.TypeString(t, syntax.NameQualifier(c.pass.Pkg))
	fd := finding{
		Fields: kind.Fields{Kind: PoolPointer, Callee: "(*sync.Pool).Put",
			Advice: "put a pointer (*" + ts + ") in the pool instead, and dereference what Get returns"},
		What:  "sync.Pool.Put boxes the " + ts + " into an interface, allocating a copy of it on every Put",
		NoFix: "every Get and Put of the pool changes with it",
	}
	if size := c.pass.TypesSizes.Sizeof(t); size > 0 {
		fd.Size = size
	}
	c.report(call.Pos(), call.End(), fd)
	c.res.own(arg.Pos(), arg.End(), PoolPointer)
}

// stringsCall checks a call of package strings: functions of string(b)
// that package bytes has for b (bytes-lookup), and the comparison of
// lowered or uppered strings (equal-fold).
func (c *checker) stringsCall(call *ast.CallExpr, fn *types.Func) {
	switch fn.Name() {
	case "ToLower", "ToUpper":
		c.equalFold(call, fn)
		return
	case "Index", "Contains", "HasPrefix", "HasSuffix", "Count", "LastIndex", "EqualFold":
	default:
		return
	}
	if len(call.Args) != 2 {
		return
	}
	b := c.conversion(call.Args[0], plainString, syntax.IsByteSlice)
	if b == nil {
		return
	}
	other := call.Args[1]
	im := c.imports(call.Pos())
	var otherText string
	switch o := c.conversion(other, plainString, syntax.IsByteSlice); {
	case o != nil:
		otherText = c.text(o)
	case syntax.IsString(c.info.TypeOf(other)):
		otherText = "[]byte(" + c.text(other) + ")"
	default:
		return
	}
	repl := im.name("bytes") + "." + fn.Name() + "(" + c.text(b) + ", " + otherText + ")"
	fd := finding{
		Fields: kind.Fields{Kind: BytesLookup, Callee: "strings." + fn.Name(),
			Advice: "write " + repl + ", which reads the bytes as they are"},
		What: "string(" + c.text(b) + ") copies the bytes only for strings." + fn.Name() + " to read them",
	}
	fd.Fix, fd.NoFix = im.fix("Use bytes."+fn.Name(), replace(call, repl))
	c.report(call.Pos(), call.End(), fd)
	c.res.own(call.Pos(), call.End(), BytesLookup)
}

// equalFold reports strings.ToLower(a) == strings.ToLower(b) (ToUpper,
// !=) and the forms with one side lowered, from the call on the left of
// the comparison, or on its right when the left is not one.
func (c *checker) equalFold(call *ast.CallExpr, fn *types.Func) {
	cur, ok := c.root.FindNode(call)
	if !ok || len(call.Args) != 1 {
		return
	}
	// Climb parentheses.
	var n ast.Node = call
	p := cur.Parent()
	for {
		if pe, ok := p.Node().(*ast.ParenExpr); ok {
			n, p = pe, p.Parent()
			continue
		}
		break
	}
	bin, ok := p.Node().(*ast.BinaryExpr)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return
	}
	otherSide := bin.X
	if bin.Y != n {
		otherSide = bin.Y
	} else if c.caseCall(bin.X, fn.Name()) != nil {
		return // reported from the left
	}
	a := call.Args[0]
	var b string
	exact := true
	if o := c.caseCall(otherSide, fn.Name()); o != nil {
		b = c.text(o.Args[0])
	} else {
		tv := c.info.Types[otherSide]
		if tv.Type == nil || !syntax.IsString(tv.Type) {
			return
		}
		b = c.text(otherSide)
		if tv.Value != nil {
			s := constant.StringVal(tv.Value)
			if fn.Name() == "ToLower" && strings.ToLower(s) != s || fn.Name() == "ToUpper" && strings.ToUpper(s) != s {
				return // always unequal: a bug, not a cost
			}
		} else {
			exact = false
		}
	}
	im := c.imports(call.Pos())
	repl := im.name("strings") + ".EqualFold(" + c.text(a) + ", " + b + ")"
	if bin.Op == token.NEQ {
		repl = "!" + repl
	}
	fd := finding{
		Fields: kind.Fields{Kind: EqualFold, Callee: "strings." + fn.Name(),
			Behaviour: "EqualFold compares under simple Unicode case folding, which differs from comparing " + fn.Name() +
				" results for a few non-ASCII letters and for invalid UTF-8"},
		What: "strings." + fn.Name() + " builds a new string to compare case-insensitively",
	}
	fd.Advice = "write " + repl + ", which compares without allocating (behaviour change: " + fd.Behaviour + ")"
	if !exact {
		fd.Blocked = b + " is not a constant: EqualFold also accepts it in another case"
		fd.Advice += "; it holds only if " + b + " is always in the case " + fn.Name() + " gives"
		fd.NoFix = fd.Blocked
	} else {
		fd.Fix, fd.NoFix = im.fix("Use strings.EqualFold (changes behaviour: "+fd.Behaviour+")", replace(bin, repl))
	}
	c.report(bin.Pos(), bin.End(), fd)
	c.res.own(bin.Pos(), bin.End(), EqualFold)
}

// caseCall returns e as a call of strings.name with one argument.
func (c *checker) caseCall(e ast.Expr, name string) *ast.CallExpr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	fn, ok := c.calleeFunc(call)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "strings" || fn.Name() != name {
		return nil
	}
	return call
}

// ioWriteString reports io.WriteString(w, string(b)) (write-bytes).
func (c *checker) ioWriteString(call *ast.CallExpr) {
	if len(call.Args) != 2 {
		return
	}
	b := c.conversion(call.Args[1], plainString, syntax.IsByteSlice)
	if b == nil {
		return
	}
	repl := c.operand(call.Args[0]) + ".Write(" + c.text(b) + ")"
	fd := finding{
		Fields: kind.Fields{Kind: WriteBytes, Callee: "io.WriteString",
			Advice: "write " + repl + ", which writes the bytes without copying them"},
		What: "string(" + c.text(b) + ") copies the bytes only to write them",
	}
	fd.Fix = &analysis.SuggestedFix{Message: "Use Write", TextEdits: []analysis.TextEdit{replace(call, repl)}}
	c.report(call.Pos(), call.End(), fd)
	c.res.own(call.Pos(), call.End(), WriteBytes)
}

// methodCall checks calls of writers' methods: w.Write([]byte(s))
// (write-string), w.WriteRune('x') (write-byte), w.WriteString(strconv.X(...))
// on a buffer with AvailableBuffer (strconv-append).
func (c *checker) methodCall(call *ast.CallExpr, fn *types.Func) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 {
		return
	}
	switch fn.Name() {
	case "Write":
		c.writeString(call, sel)
	case "WriteRune":
		c.writeByte(call, sel, fn)
	case "WriteString":
		c.writeAppended(call, sel, fn)
	}
}

// writeString reports w.Write([]byte(s)) where w has WriteString.
func (c *checker) writeString(call *ast.CallExpr, sel *ast.SelectorExpr) {
	s := c.conversion(call.Args[0], syntax.IsByteSlice, syntax.IsString)
	if s == nil {
		return
	}
	x := c.info.TypeOf(sel.X)
	obj, _, _ := types.LookupFieldOrMethod(x, true, c.pass.Pkg, "WriteString")
	ws, ok := obj.(*types.Func)
	if !ok || ws.Signature().Params().Len() != 1 || !types.Identical(ws.Signature().Params().At(0).Type(), types.Typ[types.String]) || !writeSignature(ws) {
		return
	}
	if c.convertsToBytes(ws) {
		// WriteString itself writes []byte(s) (this very call, in a
		// WriteString that wraps Write): calling it copies as much.
		return
	}
	arg := c.text(s)
	if !plainString(c.info.TypeOf(s)) {
		arg = "string(" + arg + ")"
	}
	fd := finding{
		Fields: kind.Fields{Kind: WriteString, Callee: c.text(sel),
			Advice: "call " + c.text(sel.X) + ".WriteString(" + arg + "), which writes the string without copying it"},
		What: c.text(call.Args[0]) + " copies the string into a new byte slice only to write it",
	}
	fd.Fix = &analysis.SuggestedFix{Message: "Use WriteString", TextEdits: []analysis.TextEdit{
		{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("WriteString")},
		replace(call.Args[0], arg),
	}}
	c.report(call.Args[0].Pos(), call.Args[0].End(), fd)
	c.res.own(call.Args[0].Pos(), call.Args[0].End(), WriteString)
}

// writeByte reports w.WriteRune(r) of a constant one-byte rune where w
// has WriteByte(byte) error.
func (c *checker) writeByte(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) {
	v := c.info.Types[call.Args[0]].Value
	if v == nil {
		return
	}
	r, ok := constant.Int64Val(constant.ToInt(v))
	if !ok || r < 0 || r >= utf8.RuneSelf {
		return
	}
	obj, _, _ := types.LookupFieldOrMethod(c.info.TypeOf(sel.X), true, c.pass.Pkg, "WriteByte")
	wb, ok := obj.(*types.Func)
	if !ok || wb.Signature().Params().Len() != 1 || wb.Signature().Results().Len() != 1 {
		return
	}
	if b, ok := wb.Signature().Params().At(0).Type().(*types.Basic); !ok || b.Kind() != types.Byte {
		return
	}
	fd := finding{
		Fields: kind.Fields{Kind: WriteByte, Callee: c.text(sel),
			Advice: "call " + c.text(sel.X) + ".WriteByte(" + c.text(call.Args[0]) + "), which writes the byte without encoding it"},
		What: "WriteRune encodes a rune that is one byte",
	}
	if _, used := c.parentNode(call).(*ast.ExprStmt); used {
		fd.Fix = &analysis.SuggestedFix{Message: "Use WriteByte", TextEdits: []analysis.TextEdit{
			{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("WriteByte")},
		}}
	} else {
		fd.NoFix = "its results are used, and WriteByte returns only an error"
	}
	c.report(call.Pos(), call.End(), fd)
}

// writeAppended reports buf.WriteString(strconv.X(...)) on a bytes.Buffer
// or bufio.Writer: strconv.AppendX into buf.AvailableBuffer() writes in
// place.
func (c *checker) writeAppended(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) {
	if !isMethodOf(fn, "bytes", "Buffer") && !isMethodOf(fn, "bufio", "Writer") {
		return
	}
	inner, ok := ast.Unparen(call.Args[0]).(*ast.CallExpr)
	if !ok {
		return
	}
	sfn, ok := c.calleeFunc(inner)
	if !ok || sfn.Pkg() == nil || sfn.Pkg().Path() != "strconv" || strconvAppend[sfn.Name()] == "" || inner.Ellipsis.IsValid() {
		return
	}
	switch ast.Unparen(sel.X).(type) {
	case *ast.Ident, *ast.SelectorExpr:
	default:
		return // evaluated twice
	}
	if c.hasCall(sel.X) {
		return
	}
	im := c.imports(call.Pos())
	x := c.text(sel.X)
	repl := x + ".Write(" + im.name("strconv") + "." + strconvAppend[sfn.Name()] + "(" + c.appendArgs(x+".AvailableBuffer()", sfn.Name(), inner) + "))"
	fd := finding{
		Fields: kind.Fields{Kind: StrconvAppend, Callee: "strconv." + sfn.Name(),
			Advice: "write " + repl + ", which formats into the buffer's free space"},
		What: "strconv." + sfn.Name() + " allocates a string only for WriteString to copy it",
	}
	if isMethodOf(fn, "bytes", "Buffer") {
		if tooOld := syntax.TooOld(c.pass, c.file, "bytes.Buffer.AvailableBuffer", "go1.21"); tooOld != "" {
			fd.NoFix = tooOld
		}
	}
	if fd.NoFix == "" {
		fd.Fix, fd.NoFix = im.fix("Append into AvailableBuffer", replace(call, repl))
	}
	c.report(call.Pos(), call.End(), fd)
	c.res.own(call.Pos(), call.End(), StrconvAppend)
}

// parentNode returns the node that encloses n.
func (c *checker) parentNode(n ast.Node) ast.Node {
	cur, ok := c.root.FindNode(n)
	if !ok {
		return nil
	}
	return cur.Parent().Node()
}

// stringVar reports "k := string(b)" whose every use reads it where the
// compiler would not copy string(b): a map lookup, == and !=, a switch
// tag (bytes-lookup). k used once, as a lookup in the next statement, the
// compiler substitutes already.
func (c *checker) stringVar(blk *ast.BlockStmt, i int) {
	as, ok := blk.List[i].(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return
	}
	k, ok := c.info.Defs[id].(*types.Var)
	if !ok {
		return
	}
	b := c.conversion(as.Rhs[0], plainString, syntax.IsByteSlice)
	if b == nil {
		return
	}
	bv, ok := c.info.Uses[identOf(b)].(*types.Var)
	if !ok {
		return // b must be a variable, read again at each use
	}
	var uses []*ast.Ident
	last := i
	for j := i + 1; j < len(blk.List); j++ {
		u := c.uses(blk.List[j], k)
		if len(u) > 0 {
			last = j
		}
		uses = append(uses, u...)
	}
	if len(uses) == 0 {
		return
	}
	// b must not change, nor anything be called that may change it,
	// before the last use.
	for _, s := range blk.List[i+1 : last+1] {
		if syntax.Changes(s, func(e ast.Expr) bool {
			x, ok := ast.Unparen(e).(*ast.Ident)
			return ok && c.info.Uses[x] == bv
		}, nil) {
			return
		}
	}
	for _, u := range uses {
		if !c.freeRead(u) {
			return
		}
	}
	if len(uses) == 1 && last == i+1 {
		if _, lookup := c.parentNode(uses[0]).(*ast.IndexExpr); lookup {
			return // the compiler substitutes it
		}
	}
	conv := c.text(as.Rhs[0])
	fd := finding{
		Fields: kind.Fields{Kind: BytesLookup,
			Advice: "use " + conv + " in place of " + k.Name() + " at each use, where the compiler reads the bytes without copying them"},
		What: k.Name() + " := " + conv + " copies the bytes, which " + k.Name() + "'s uses only look up or compare",
	}
	if c.hasCallBetween(blk, i, last) {
		fd.NoFix = "calls between the conversion and a use might change " + c.text(b)
	} else {
		edits := []analysis.TextEdit{syntax.Delete(as.Pos(), blk.List[i+1].Pos())}
		for _, u := range uses {
			edits = append(edits, replace(u, conv))
		}
		fd.Fix = &analysis.SuggestedFix{Message: "Convert at each use", TextEdits: edits}
	}
	c.report(as.Pos(), as.End(), fd)
	c.res.own(as.Rhs[0].Pos(), as.Rhs[0].End(), BytesLookup)
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// freeRead reports whether the use u of a string variable is one where
// string(b) in its place is not copied: a map lookup (not an assignment
// to the map), an operand of == or !=, a switch tag.
func (c *checker) freeRead(u *ast.Ident) bool {
	cur, ok := c.root.FindNode(u)
	if !ok {
		return false
	}
	p := cur.Parent()
	switch n := p.Node().(type) {
	case *ast.IndexExpr:
		if n.Index != u {
			return false
		}
		if _, isMap := c.info.TypeOf(n.X).Underlying().(*types.Map); !isMap {
			return false
		}
		// Not assigned to, nor its address taken.
		switch g := p.Parent().Node().(type) {
		case *ast.AssignStmt:
			for _, l := range g.Lhs {
				if l == n {
					return false
				}
			}
		case *ast.IncDecStmt, *ast.UnaryExpr:
			return false
		}
		return true
	case *ast.BinaryExpr:
		return n.Op == token.EQL || n.Op == token.NEQ
	case *ast.SwitchStmt:
		return n.Tag == u
	}
	return false
}

// hasCallBetween reports whether a statement from blk.List[i+1] to
// blk.List[last] calls a function.
func (c *checker) hasCallBetween(blk *ast.BlockStmt, i, last int) bool {
	for _, s := range blk.List[i+1 : last+1] {
		if c.hasCall(s) {
			return true
		}
	}
	return false
}

// rangeStmt checks a range loop: range []rune(s) (range-runes), a large
// value copied per iteration (range-val-copy), an array copied to be
// ranged over (range-expr-copy).
func (c *checker) rangeStmt(r *ast.RangeStmt) {
	if s := c.conversion(r.X, syntax.IsRuneSlice, syntax.IsString); s != nil {
		c.rangeRunes(r, s)
		return
	}
	t := c.info.TypeOf(r.X)
	if t == nil {
		return
	}
	if a, ok := t.Underlying().(*types.Array); ok {
		c.rangeExprCopy(r, a)
	}
	c.rangeValCopy(r, t)
}

// rangeRunes reports for ... range []rune(s).
func (c *checker) rangeRunes(r *ast.RangeStmt, s ast.Expr) {
	keyUsed := false
	if id, ok := r.Key.(*ast.Ident); ok && id.Name != "_" {
		if obj := c.info.ObjectOf(id); obj != nil && (r.Tok == token.ASSIGN || len(c.uses(r.Body, obj)) > 0) {
			keyUsed = true
		}
	}
	fd := finding{
		Fields: kind.Fields{Kind: RangeRunes,
			Advice: "range over " + c.text(s) + " itself, which decodes each rune in place"},
		What: "[]rune(" + c.text(s) + ") decodes the whole string into a new slice only to walk it",
	}
	if keyUsed {
		fd.Behaviour = "the index becomes the rune's byte offset in the string, not its count"
		fd.Advice += " (behaviour change: " + fd.Behaviour + ")"
		fd.NoFix = "the loop uses the index, which would change meaning"
	} else {
		fd.Fix = &analysis.SuggestedFix{Message: "Range over the string", TextEdits: []analysis.TextEdit{replace(r.X, c.text(s))}}
	}
	c.report(r.X.Pos(), r.X.End(), fd)
	c.res.own(r.X.Pos(), r.X.End(), RangeRunes)
}

// runeIndex reports []rune(s)[0]: utf8.DecodeRuneInString(s).
func (c *checker) runeIndex(cur inspector.Cursor, call *ast.CallExpr) {
	s := c.conversion(call, syntax.IsRuneSlice, syntax.IsString)
	if s == nil {
		return
	}
	ix, ok := cur.Parent().Node().(*ast.IndexExpr)
	if !ok || ix.X != call {
		return
	}
	v := c.info.Types[ix.Index].Value
	if v == nil || constant.Sign(v) != 0 {
		return
	}
	im := c.imports(call.Pos())
	fd := finding{
		Fields: kind.Fields{Kind: RangeRunes, Callee: "",
			Advice: "take the first rune with " + im.name("unicode/utf8") + ".DecodeRuneInString(" + c.text(s) + "), which decodes one rune in place"},
		What:  "[]rune(" + c.text(s) + ") decodes the whole string only to take its first rune",
		NoFix: "DecodeRuneInString returns two values, and does not panic on an empty string",
	}
	c.report(ix.Pos(), ix.End(), fd)
	c.res.own(ix.Pos(), ix.End(), RangeRunes)
}

// Sizes from which gocritic's defaults report a copy, which are those
// used here: a parameter of 80 bytes, a range value of 128, a ranged
// array of 512.
const (
	hugeParamBytes = 80
	rangeValBytes  = 128
	rangeExprBytes = 512
)

// rangeValCopy reports for _, v := range xs with elements of 128 bytes
// or more copied into v.
func (c *checker) rangeValCopy(r *ast.RangeStmt, t types.Type) {
	id, ok := r.Value.(*ast.Ident)
	if !ok || id.Name == "_" || r.Tok != token.DEFINE {
		return
	}
	var elem types.Type
	isMap := false
	switch u := t.Underlying().(type) {
	case *types.Map:
		elem, isMap = u.Elem(), true
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			elem = a.Elem()
		}
	}
	if elem == nil || syntax.HasTypeParam(elem) {
		return
	}
	size := c.pass.TypesSizes.Sizeof(elem)
	if size < rangeValBytes {
		return
	}
	key := "i"
	if k, ok := r.Key.(*ast.Ident); ok && k.Name != "_" {
		key = k.Name
	}
	fd := finding{
		Fields: kind.Fields{Kind: RangeValCopy, Size: size, CostNS: copyNS(size),
			Advice: fmt.Sprintf("range over the indexes and take %s := &%s[%s], which reads the element in place", id.Name, c.text(r.X), key)},
		What:  fmt.Sprintf("each iteration copies a %d-byte element into %s", size, id.Name),
		NoFix: "writes through a pointer change the element, where writes to the copy did not: a person must check the body",
	}
	if isMap {
		ts := types.TypeString(elem, syntax.NameQualifier(c.pass.Pkg))
		fd.Advice = "store *" + ts + " in the map, whose values are then pointers copied in 8 bytes"
		fd.NoFix = "the map's type, and every use of it, changes: a person must judge"
	}
	fd.Blocked = fd.NoFix
	c.report(r.Value.Pos(), r.Value.End(), fd)
}

// rangeExprCopy reports range over an array value of 512 bytes or more.
func (c *checker) rangeExprCopy(r *ast.RangeStmt, a *types.Array) {
	if r.Value == nil || syntax.HasTypeParam(a) {
		return // with only the index, the array is not copied
	}
	if id, ok := r.Value.(*ast.Ident); ok && id.Name == "_" {
		return
	}
	size := c.pass.TypesSizes.Sizeof(a)
	if size < rangeExprBytes {
		return
	}
	fd := finding{
		Fields: kind.Fields{Kind: RangeExprCopy, Size: size, CostNS: copyNS(size),
			Advice: "range over &" + c.text(r.X) + ", which yields the same elements without the copy"},
		What: fmt.Sprintf("the range copies the %d-byte array %s before the loop", size, c.text(r.X)),
	}
	addressable := false
	switch x := ast.Unparen(r.X).(type) {
	case *ast.Ident:
		_, addressable = c.info.Uses[x].(*types.Var)
	case *ast.SelectorExpr:
		if s, ok := c.info.Selections[x]; ok && s.Kind() == types.FieldVal {
			addressable = !c.hasCall(x.X)
		}
	}
	switch {
	case !addressable:
		fd.NoFix = "the array is not addressable: store it in a variable first"
	case syntax.Changes(r.Body, func(e ast.Expr) bool { return sameExpr(e, r.X) }, nil):
		fd.NoFix = "the loop changes the array, and ranging over a pointer would see the changes"
	default:
		fd.Fix = &analysis.SuggestedFix{Message: "Range over a pointer to the array", TextEdits: []analysis.TextEdit{
			{Pos: r.X.Pos(), End: r.X.Pos(), NewText: []byte("&")}}}
	}
	c.report(r.X.Pos(), r.X.End(), fd)
}

// sameExpr reports whether a and b are the same expression, or a is
// rooted in b (b.f, b[i]).
func sameExpr(a, b ast.Expr) bool {
	sa, sb := types.ExprString(ast.Unparen(a)), types.ExprString(ast.Unparen(b))
	return sa == sb || strings.HasPrefix(sa, sb+".") || strings.HasPrefix(sa, sb+"[")
}

// hugeParams reports parameters of 80 bytes or more passed by value.
func (c *checker) hugeParams(recv *ast.FieldList, ft *ast.FuncType, name *ast.Ident) {
	var obj *types.Func
	if name != nil {
		obj, _ = c.info.Defs[name].(*types.Func)
	}
	var fields []*ast.Field
	if recv != nil {
		fields = append(fields, recv.List...)
	}
	if ft.Params != nil {
		fields = append(fields, ft.Params.List...)
	}
	for k, field := range fields {
		isRecv := recv != nil && k < len(recv.List)
		t := c.info.TypeOf(field.Type)
		if t == nil || syntax.HasTypeParam(t) {
			continue
		}
		switch t.Underlying().(type) {
		case *types.Struct, *types.Array:
		default:
			continue
		}
		size := c.pass.TypesSizes.Sizeof(t)
		if size < hugeParamBytes {
			continue
		}
		for _, id := range field.Names {
			ts := types.TypeString(t, syntax.NameQualifier(c.pass.Pkg))
			fd := finding{
				Fields: kind.Fields{Kind: HugeParam, Size: size, CostNS: copyNS(size),
					Advice: "pass *" + ts + " instead, which copies 8 bytes"},
				What:  fmt.Sprintf("%s is a %d-byte %s copied at every call", id.Name, size, ts),
				NoFix: "the signature, every call and what the function may do to the caller's value change with it",
			}
			if isRecv {
				fd.What = fmt.Sprintf("the receiver %s is a %d-byte %s copied at every call", id.Name, size, ts)
				fd.Advice = "give the method a pointer receiver (*" + ts + "), which copies 8 bytes"
				fd.NoFix = "a pointer receiver changes the method sets of " + ts + " and *" + ts + ", and what the method may do to the caller's value"
			}
			// Passing a pointer is a change a person must judge (what
			// the function does to the value); for exported API it
			// also breaks the function's users.
			fd.Blocked = fd.NoFix
			switch {
			case obj != nil && recv != nil && obj.Exported():
				fd.API = true
				fd.NoFix = "the method is exported API (and may satisfy an interface): changing its signature breaks its users"
			case obj != nil && obj.Exported():
				fd.API = true
				fd.NoFix = "the function is exported API: changing its signature breaks its users"
			}
			c.report(id.Pos(), field.Type.End(), fd)
		}
	}
}

// copyNS is the estimated cost, in nanoseconds, of copying size bytes:
// about 32 bytes per nanosecond, the order of memmove's speed for the
// sizes these kinds report.
func copyNS(size int64) float64 {
	return float64(size) / 32
}

// convertsToBytes reports whether fn, declared in the package, converts
// its string parameter to a byte slice: a WriteString written as
// Write([]byte(s)) copies the string as its callers would.
func (c *checker) convertsToBytes(fn *types.Func) bool {
	if fn.Pkg() != c.pass.Pkg {
		return false
	}
	decl := syntax.FuncDeclOf(c.pass.Files, fn)
	if decl == nil || decl.Body == nil {
		return false
	}
	param := fn.Signature().Params().At(0)
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found {
			if x := c.conversion(e, syntax.IsByteSlice, syntax.IsString); x != nil {
				if id, ok := ast.Unparen(x).(*ast.Ident); ok && c.info.Uses[id] == param {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
