package redundantbranch

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// A term is the canonical form of an expression: two expressions with equal
// keys compute the same value at the same program point.
type term struct {
	key  string
	pure bool  // no side effects, no possible panic, deterministic
	poly *poly // for pure integer expressions
	val  constant.Value
}

// A poly is a polynomial with integer coefficients over opaque pure leaves,
// all of one integer type. Ring identities hold under wrap-around, so two
// equal polynomials denote equal values of the type.
type poly struct {
	typ   string
	terms map[string]*big.Int // monomial (sorted leaf keys joined by "*", "" for the constant) -> coefficient
}

func newPoly(typ string) *poly { return &poly{typ: typ, terms: make(map[string]*big.Int)} }

func (p *poly) add(q *poly, sign int) *poly {
	r := newPoly(p.typ)
	for k, v := range p.terms {
		r.terms[k] = new(big.Int).Set(v)
	}
	for k, v := range q.terms {
		w := new(big.Int).Set(v)
		if sign < 0 {
			w.Neg(w)
		}
		if old, ok := r.terms[k]; ok {
			w.Add(w, old)
		}
		r.terms[k] = w
	}
	r.clean()
	return r
}

func (p *poly) mul(q *poly) *poly {
	r := newPoly(p.typ)
	for k1, v1 := range p.terms {
		for k2, v2 := range q.terms {
			var leaves []string
			if k1 != "" {
				leaves = append(leaves, strings.Split(k1, "\x00")...)
			}
			if k2 != "" {
				leaves = append(leaves, strings.Split(k2, "\x00")...)
			}
			sort.Strings(leaves)
			k := strings.Join(leaves, "\x00")
			w := new(big.Int).Mul(v1, v2)
			if old, ok := r.terms[k]; ok {
				w.Add(w, old)
			}
			r.terms[k] = w
		}
	}
	r.clean()
	return r
}

func (p *poly) clean() {
	for k, v := range p.terms {
		if v.Sign() == 0 {
			delete(p.terms, k)
		}
	}
}

// constant returns the value of a constant polynomial.
func (p *poly) constant() (*big.Int, bool) {
	switch len(p.terms) {
	case 0:
		return new(big.Int), true
	case 1:
		v, ok := p.terms[""]
		return v, ok
	}
	return nil, false
}

func (p *poly) String() string {
	if v, ok := p.constant(); ok {
		return "c:" + p.typ + ":" + v.String()
	}
	if len(p.terms) == 1 {
		for k, v := range p.terms {
			if v.Cmp(big.NewInt(1)) == 0 && !strings.Contains(k, "\x00") {
				return k // a single leaf is its own key
			}
		}
	}
	keys := make([]string, 0, len(p.terms))
	for k := range p.terms {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("P[" + p.typ + "](")
	for _, k := range keys {
		b.WriteString(p.terms[k].String() + "*" + strings.ReplaceAll(k, "\x00", "*") + ";")
	}
	b.WriteString(")")
	return b.String()
}

// A canon computes canonical forms of the statements of one arm.
type canon struct {
	c      *checker
	fi     *funcInfo
	subst  map[string]string // atom key -> representative key (see facts)
	consts map[string]constant.Value
	local  map[types.Object]string // objects declared in the arm
	inLit  int                     // depth of function literals: no substitution inside
	notes  *[]string               // "d is 0" for inlined definitions that fold
}

func (c *canon) objKey(obj types.Object) string {
	if k, ok := c.local[obj]; ok {
		return k
	}
	return c.c.objKey(obj)
}

func typeKey(t types.Type) string {
	return types.TypeString(types.Default(t), func(p *types.Package) string { return p.Path() })
}

func isInteger(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := types.Default(t).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func isString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := types.Default(t).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// leaf makes the term of an opaque subexpression with the given key,
// applying the substitution of the condition's equalities.
func (c *canon) leaf(key string, t types.Type, pure bool) term {
	if pure && c.inLit == 0 {
		if rep, ok := c.subst[key]; ok {
			if rep == nilKey {
				return term{key: rep, pure: true}
			}
			if v, ok := c.consts[rep]; ok {
				return c.constTerm(v, t)
			}
			key = rep
		}
	}
	tm := term{key: key, pure: pure}
	if pure && isInteger(t) {
		p := newPoly(typeKey(t))
		p.terms[key] = big.NewInt(1)
		tm.poly = p
		tm.key = p.String()
	}
	return tm
}

func (c *canon) constTerm(v constant.Value, t types.Type) term {
	if isInteger(t) {
		if i, ok := constant.Val(constant.ToInt(v)).(int64); ok && constant.ToInt(v).Kind() == constant.Int {
			p := newPoly(typeKey(t))
			p.terms[""] = big.NewInt(i)
			p.clean()
			return term{key: p.String(), pure: true, poly: p, val: v}
		}
		if b, ok := constant.Val(constant.ToInt(v)).(*big.Int); ok {
			p := newPoly(typeKey(t))
			p.terms[""] = new(big.Int).Set(b)
			p.clean()
			return term{key: p.String(), pure: true, poly: p, val: v}
		}
	}
	return term{key: "c:" + typeKey(t) + ":" + v.ExactString(), pure: true, val: v}
}

func polyTerm(p *poly) term {
	t := term{key: p.String(), pure: true, poly: p}
	if v, ok := p.constant(); ok {
		t.val = constant.Make(v)
	}
	return t
}

func (c *canon) info() *types.Info { return c.c.pass.TypesInfo }

// expr returns the canonical term of e.
func (c *canon) expr(e ast.Expr) term {
	if e == nil {
		return term{key: "nil", pure: true}
	}
	e = ast.Unparen(e)
	info := c.info()
	tv, hasTV := info.Types[e]
	if hasTV && tv.Value != nil {
		// Constants compare by identity, not by value: two named
		// constants equal today may differ tomorrow, so only literals
		// (and expressions of literals alone) fold to their value.
		if obj := namedConst(info, e); obj != nil {
			return c.leaf(constKeyPrefix+c.objKey(obj), tv.Type, true)
		}
		if literalConst(info, e) {
			return c.constTerm(tv.Value, tv.Type)
		}
		// A constant expression over named constants, such as A+1, is
		// canonicalised structurally below.
	}
	if hasTV && tv.IsType() {
		return term{key: "T:" + typeKey(tv.Type), pure: true}
	}
	if hasTV && tv.IsNil() {
		return term{key: "nil:" + typeKey(tv.Type), pure: true}
	}
	switch e := e.(type) {
	case *ast.Ident:
		obj := info.Uses[e]
		if obj == nil {
			obj = info.Defs[e]
			if obj != nil && c.local != nil {
				if _, ok := c.local[obj]; !ok {
					c.local[obj] = "L" + strconv.Itoa(len(c.local))
				}
			}
		}
		if obj == nil {
			return term{key: "id:" + e.Name, pure: true}
		}
		if v, ok := obj.(*types.Var); ok {
			if _, isLocal := c.local[v]; !isLocal && c.inLit == 0 {
				if d := c.fi.inlinable(v); d != nil {
					t := c.expr(d.rhs)
					if t.val != nil && c.notes != nil {
						n := v.Name() + " is " + t.val.ExactString()
						if !containsString(*c.notes, n) {
							*c.notes = append(*c.notes, n)
						}
					}
					return t
				}
			}
			return c.leaf(c.objKey(v), v.Type(), true)
		}
		return term{key: c.objKey(obj), pure: true}

	case *ast.BinaryExpr:
		l, r := c.expr(e.X), c.expr(e.Y)
		if isInteger(tv.Type) && l.poly != nil && r.poly != nil && l.poly.typ == r.poly.typ {
			switch e.Op {
			case token.ADD:
				return polyTerm(l.poly.add(r.poly, 1))
			case token.SUB:
				return polyTerm(l.poly.add(r.poly, -1))
			case token.MUL:
				return polyTerm(l.poly.mul(r.poly))
			}
		}
		pure := l.pure && r.pure
		switch e.Op {
		case token.QUO, token.REM:
			// Division by zero panics unless the divisor is a non-zero
			// constant; floats do not panic.
			if yv := info.Types[ast.Unparen(e.Y)].Value; isInteger(tv.Type) && (yv == nil || constant.Sign(yv) == 0) {
				pure = false
			}
		case token.SHL, token.SHR:
			if ty := info.TypeOf(e.Y); info.Types[ast.Unparen(e.Y)].Value == nil && ty != nil {
				if b, ok := ty.Underlying().(*types.Basic); !ok || b.Info()&types.IsUnsigned == 0 {
					pure = false // a negative count panics
				}
			}
		case token.ARROW:
			pure = false
		}
		return c.leaf("("+l.key+" "+e.Op.String()+" "+r.key+")", tv.Type, pure)

	case *ast.UnaryExpr:
		x := c.expr(e.X)
		switch e.Op {
		case token.SUB:
			if x.poly != nil {
				return polyTerm(newPoly(x.poly.typ).add(x.poly, -1))
			}
		case token.ADD:
			return x
		case token.ARROW:
			return term{key: "(<-" + x.key + ")"}
		case token.AND:
			return term{key: "(&" + x.key + ")", pure: false}
		}
		return c.leaf("("+e.Op.String()+x.key+")", tv.Type, x.pure)

	case *ast.CallExpr:
		return c.call(e, tv.Type)

	case *ast.SliceExpr:
		return c.slice(e, tv.Type)

	case *ast.IndexExpr:
		x, i := c.expr(e.X), c.expr(e.Index)
		pure := false
		if xt := info.TypeOf(e.X); xt != nil {
			if _, ok := xt.Underlying().(*types.Map); ok {
				pure = x.pure && i.pure // reading a map never panics
			}
		}
		return c.leaf("idx("+x.key+","+i.key+")", tv.Type, pure)

	case *ast.SelectorExpr:
		if sel, ok := info.Selections[e]; ok {
			x := c.expr(e.X)
			pure := x.pure && !sel.Indirect()
			if sel.Kind() != types.FieldVal {
				pure = false
			}
			return c.leaf(x.key+"."+c.objKey(sel.Obj()), tv.Type, pure)
		}
		// A qualified identifier.
		return c.expr(e.Sel)

	case *ast.StarExpr:
		x := c.expr(e.X)
		return term{key: "(*" + x.key + ")"}

	case *ast.TypeAssertExpr:
		x := c.expr(e.X)
		return term{key: "assert(" + x.key + "," + c.expr(e.Type).key + ")"}

	case *ast.CompositeLit:
		var b strings.Builder
		b.WriteString("lit(" + typeKey(tv.Type) + "){")
		pure := true
		for _, elt := range e.Elts {
			var t term
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				k := c.expr(kv.Key)
				v := c.expr(kv.Value)
				t = term{key: k.key + ":" + v.key, pure: k.pure && v.pure}
			} else {
				t = c.expr(elt)
			}
			pure = pure && t.pure
			b.WriteString(t.key + ",")
		}
		b.WriteString("}")
		return term{key: b.String(), pure: pure}

	case *ast.FuncLit:
		c.inLit++
		k := "func(" + typeKey(tv.Type) + ")" + c.node(e.Body)
		c.inLit--
		return term{key: k}

	case *ast.KeyValueExpr:
		return term{key: c.expr(e.Key).key + ":" + c.expr(e.Value).key}
	}
	return term{key: c.generic(e)}
}

// constKeyPrefix starts the key of a named constant.
const constKeyPrefix = "k:"

// namedConst returns the constant that e names, if e is an identifier or a
// qualified identifier denoting a constant declared in a package or a
// function (not true, false or iota).
func namedConst(info *types.Info, e ast.Expr) *types.Const {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		if _, ok := info.Selections[e]; ok {
			return nil
		}
		id = e.Sel
	default:
		return nil
	}
	k, ok := info.Uses[id].(*types.Const)
	if !ok || k.Parent() == types.Universe {
		return nil
	}
	return k
}

// literalConst reports whether the constant expression e is made of
// literals alone (and true, false, conversions and operators), so that its
// value is what the code says and cannot change with a declaration
// elsewhere.
func literalConst(info *types.Info, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			switch obj := info.Uses[n].(type) {
			case *types.Const:
				if obj.Parent() != types.Universe {
					ok = false
				}
			case *types.TypeName, *types.Builtin, *types.Nil:
			default:
				ok = false
			}
		case *ast.SelectorExpr:
			// A qualified constant or a field: not a literal. A
			// qualified type name (int64 of another package's type)
			// is fine.
			if tv, isType := info.Types[n]; !isType || !tv.IsType() {
				ok = false
			}
			return false
		case *ast.CallExpr:
			// Conversions and builtins such as len("abc"); unsafe.Sizeof
			// depends on a type and is not a literal.
			if _, isSel := ast.Unparen(n.Fun).(*ast.SelectorExpr); isSel {
				if tv := info.Types[ast.Unparen(n.Fun)]; !tv.IsType() {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *canon) call(e *ast.CallExpr, t types.Type) term {
	info := c.info()
	if ftv, ok := info.Types[ast.Unparen(e.Fun)]; ok && ftv.IsType() && len(e.Args) == 1 {
		// A conversion.
		x := c.expr(e.Args[0])
		at := info.TypeOf(e.Args[0])
		if at != nil && types.Identical(types.Default(at), t) {
			return x
		}
		if x.val != nil && isInteger(t) && isInteger(at) && x.val.Kind() == constant.Int {
			sizes := c.c.pass.TypesSizes
			if representable(x.val, at, sizes) && representable(x.val, t, sizes) {
				return c.constTerm(x.val, t)
			}
		}
		pure := x.pure
		if isString(t) || isString(at) {
			pure = pure && (isString(t) || isInteger(t)) // string <-> []byte copies; keep them opaque but pure
		}
		return c.leaf("conv("+typeKey(t)+","+x.key+")", t, pure)
	}
	if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") && len(e.Args) == 1 {
			x := c.expr(e.Args[0])
			at := info.TypeOf(e.Args[0])
			if x.val != nil && x.val.Kind() == constant.String && b.Name() == "len" {
				return c.constTerm(constant.MakeInt64(int64(len(constant.StringVal(x.val)))), t)
			}
			pure := x.pure
			if at != nil {
				if _, ok := at.Underlying().(*types.Chan); ok {
					pure = false // the length of a channel changes under our feet
				}
			}
			return c.leaf(b.Name()+"("+x.key+")", t, pure)
		}
	}
	var b strings.Builder
	b.WriteString("call(" + c.expr(e.Fun).key)
	for _, a := range e.Args {
		b.WriteString("," + c.expr(a).key)
	}
	if e.Ellipsis.IsValid() {
		b.WriteString("...")
	}
	b.WriteString(")")
	return term{key: b.String()}
}

// representable reports whether the integer constant v is a value of type t.
func representable(v constant.Value, t types.Type, sizes types.Sizes) bool {
	b, ok := types.Default(t).Underlying().(*types.Basic)
	if !ok || sizes == nil {
		return false
	}
	bits := 8 * sizes.Sizeof(b)
	i, ok := new(big.Int).SetString(v.ExactString(), 10)
	if !ok {
		return false
	}
	var lo, hi *big.Int
	if b.Info()&types.IsUnsigned != 0 {
		lo, hi = new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
	} else {
		hi = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)), big.NewInt(1))
		lo = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)))
	}
	return i.Cmp(lo) >= 0 && i.Cmp(hi) <= 0
}

// slice canonicalizes a slice expression: a zero low bound, a high bound of
// len(x) and a max of cap(x) are dropped, and x[:] is x for slices and
// strings.
func (c *canon) slice(e *ast.SliceExpr, t types.Type) term {
	info := c.info()
	x := c.expr(e.X)
	xt := info.TypeOf(e.X)
	sliceOrString := false
	if xt != nil {
		switch u := xt.Underlying().(type) {
		case *types.Slice:
			sliceOrString = true
		case *types.Basic:
			sliceOrString = u.Info()&types.IsString != 0
		}
	}
	intT := types.Typ[types.Int]
	lo, hi, max := c.expr(e.Low), c.expr(e.High), c.expr(e.Max)
	if e.Low != nil && lo.val != nil && constant.Sign(lo.val) == 0 {
		lo = c.expr(nil)
		e = &ast.SliceExpr{X: e.X, High: e.High, Max: e.Max, Slice3: e.Slice3}
	}
	if sliceOrString && x.pure {
		if e.Max != nil && max.key == c.leaf("cap("+x.key+")", intT, true).key {
			e = &ast.SliceExpr{X: e.X, Low: e.Low, High: e.High}
			max = c.expr(nil)
		}
		if e.High != nil && e.Max == nil && hi.key == c.leaf("len("+x.key+")", intT, true).key {
			e = &ast.SliceExpr{X: e.X, Low: e.Low}
			hi = c.expr(nil)
		}
		if e.Low == nil && e.High == nil && e.Max == nil {
			return x
		}
	}
	pure := false // slicing may panic
	return c.leaf("slice("+x.key+","+key(e.Low, lo)+","+key(e.High, hi)+","+key(e.Max, max)+")", t, pure)
}

func key(e ast.Expr, t term) string {
	if e == nil {
		return ""
	}
	return t.key
}

// stmts returns the canonical form of a statement list, leaving out
// definitions whose every use is inlined.
func (c *canon) stmts(list []ast.Stmt) string {
	var b strings.Builder
	for _, s := range list {
		if _, ok := s.(*ast.EmptyStmt); ok {
			continue
		}
		if c.inLit == 0 && c.fi.droppable(s) {
			continue
		}
		b.WriteString(c.node(s))
		b.WriteString(";")
	}
	return b.String()
}

// node returns the canonical form of any syntax node.
func (c *canon) node(n ast.Node) string {
	switch n := n.(type) {
	case nil:
		return "nil"
	case ast.Expr:
		return c.expr(n).key
	case *ast.BlockStmt:
		if n == nil {
			return "nil"
		}
		return "{" + c.stmts(n.List) + "}"
	case *ast.CaseClause:
		var b strings.Builder
		b.WriteString("case(")
		for _, e := range n.List {
			b.WriteString(c.expr(e).key + ",")
		}
		if obj := c.info().Implicits[n]; obj != nil {
			c.local[obj] = "L" + strconv.Itoa(len(c.local))
		}
		b.WriteString("):" + c.stmts(n.Body))
		return b.String()
	case *ast.CommClause:
		return "comm(" + c.node(n.Comm) + "):" + c.stmts(n.Body)
	}
	return c.generic(n)
}

var (
	posType     = reflect.TypeFor[token.Pos]()
	commentType = reflect.TypeFor[*ast.CommentGroup]()
	objectType  = reflect.TypeFor[*ast.Object]()
	scopeType   = reflect.TypeFor[*ast.Scope]()
	nodeType    = reflect.TypeFor[ast.Node]()
)

// generic serializes a node field by field, canonicalizing its children.
func (c *canon) generic(n ast.Node) string {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return "nil"
	}
	v = v.Elem()
	var b strings.Builder
	b.WriteString(v.Type().Name() + "(")
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Type() {
		case posType, commentType, objectType, scopeType:
			continue
		}
		b.WriteString(c.value(f))
		b.WriteString(",")
	}
	b.WriteString(")")
	return b.String()
}

func (c *canon) value(f reflect.Value) string {
	if f.Type().Implements(nodeType) {
		if (f.Kind() == reflect.Pointer || f.Kind() == reflect.Interface) && f.IsNil() {
			return "nil"
		}
		n := f.Interface().(ast.Node)
		return c.node(n)
	}
	switch f.Kind() {
	case reflect.Slice:
		if f.Type().Elem() == reflect.TypeFor[ast.Stmt]() {
			return "[" + c.stmts(f.Interface().([]ast.Stmt)) + "]"
		}
		var parts []string
		for j := 0; j < f.Len(); j++ {
			parts = append(parts, c.value(f.Index(j)))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case reflect.String:
		return strconv.Quote(f.String())
	case reflect.Bool:
		return strconv.FormatBool(f.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(f.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(f.Uint(), 10)
	}
	return "?" + f.Type().String()
}
