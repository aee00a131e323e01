package smallalloc

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/goadvise/goadvise/analyzer/internal/syntax"
	"github.com/goadvise/goadvise/optlog"
)

// flow summarizes where a value goes during one call.
type flow struct {
	// retained is non-empty when the value may outlive the call (or the
	// loop iteration): why, in a few words.
	retained string
	// iface names the interface method (or io function) the value is
	// passed to, if any: the usual reason a small buffer escapes.
	iface string
}

func (f *flow) merge(g flow) {
	if f.retained == "" {
		f.retained = g.retained
	}
	if f.iface == "" {
		f.iface = g.iface
	}
}

// maxDepth bounds how deep checkVar follows the value into functions of
// the package.
const maxDepth = 3

// checkVar follows every use of v in fd.
func (c *checker) checkVar(v *types.Var, fd *ast.FuncDecl, par parents, depth int, seen map[*types.Var]bool) flow {
	var fl flow
	if seen[v] {
		return fl
	}
	seen[v] = true
	info := c.pass.TypesInfo
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if fl.retained != "" {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok || info.Uses[id] != v {
			return true
		}
		for p := par[id]; p != nil && p != fd; p = par[p] {
			if _, ok := p.(*ast.FuncLit); ok {
				fl.retained = "captured by a closure"
				return false
			}
		}
		fl.merge(c.checkExpr(id, v, fd, par, depth, seen))
		return true
	})
	return fl
}

// checkExpr follows one use e of the value of self.
func (c *checker) checkExpr(e ast.Expr, self *types.Var, fd *ast.FuncDecl, par parents, depth int, seen map[*types.Var]bool) flow {
	info := c.pass.TypesInfo
	for {
		// A part of the value (a field, an array element, the pointee)
		// of array or struct type is copied when used as a value; only
		// taking its address or slicing it keeps a reference.
		if _, ok := e.(*ast.Ident); !ok && isValue(info.TypeOf(e)) {
			switch par[e].(type) {
			case *ast.ParenExpr, *ast.SliceExpr, *ast.UnaryExpr, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
			default:
				return flow{}
			}
		}
		switch p := par[e].(type) {
		case *ast.ParenExpr:
			e = p
			continue
		case *ast.SliceExpr:
			if p.X == e {
				e = p // a slice of the value shares its memory
				continue
			}
			return flow{}
		case *ast.IndexExpr:
			if p.X == e && isValue(info.TypeOf(p)) {
				e = p // an element that is itself an array or struct
				continue
			}
			if p.X == e && addressTaken(par, p) {
				// &s[0]: a pointer into the value, which can be kept
				// (the runtime's maps keep a new directory this way).
				return flow{retained: "its address is taken"}
			}
			return flow{} // an element, or an index
		case *ast.StarExpr:
			e = p // the pointee
			continue
		case *ast.SelectorExpr:
			sel, ok := info.Selections[p]
			if !ok {
				return flow{retained: "used in an unsupported way"}
			}
			switch sel.Kind() {
			case types.FieldVal:
				if isValue(sel.Type()) {
					e = p // a field stored inside the value
					continue
				}
				if addressTaken(par, p) {
					return flow{retained: "its address is taken"}
				}
				return flow{} // a pointer, slice or scalar field: read or written
			case types.MethodVal:
				call, ok := par[p].(*ast.CallExpr)
				if !ok || call.Fun != p {
					return flow{retained: "used as a method value"}
				}
				return c.checkCallee(call, -1, self, depth, seen)
			}
			return flow{retained: "used in an unsupported way"}
		case *ast.CallExpr:
			if p.Fun == e {
				return flow{retained: "called"}
			}
			for i, a := range p.Args {
				if a == e {
					return c.checkArg(p, i, e, self, fd, par, depth, seen)
				}
			}
			return flow{retained: "used in an unsupported way"}
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if l == e {
					return flow{} // v = ...: a new value
				}
			}
			if len(p.Lhs) != len(p.Rhs) {
				return flow{retained: "assigned"}
			}
			for i, r := range p.Rhs {
				if r != e {
					continue
				}
				id, ok := p.Lhs[i].(*ast.Ident)
				if !ok {
					return flow{retained: "stored"}
				}
				if id.Name == "_" {
					return flow{}
				}
				w, _ := info.ObjectOf(id).(*types.Var)
				if w == self {
					return flow{}
				}
				if w != nil && w.Pos() >= fd.Body.Pos() && w.Pos() < fd.Body.End() {
					return c.checkVar(w, fd, par, depth, seen) // a local alias
				}
				return flow{retained: "stored"}
			}
			return flow{retained: "stored"}
		case *ast.ValueSpec:
			for i, val := range p.Values {
				if val == e && len(p.Names) == len(p.Values) {
					if w, ok := info.Defs[p.Names[i]].(*types.Var); ok {
						return c.checkVar(w, fd, par, depth, seen)
					}
				}
			}
			return flow{retained: "stored"}
		case *ast.RangeStmt:
			if p.X == e {
				return flow{}
			}
			return flow{retained: "used in an unsupported way"}
		case *ast.BinaryExpr:
			return flow{} // a comparison
		case *ast.ReturnStmt:
			return flow{retained: "returned"}
		case *ast.SendStmt:
			return flow{retained: "sent on a channel"}
		case *ast.CompositeLit, *ast.KeyValueExpr:
			return flow{retained: "stored in a composite literal"}
		case *ast.UnaryExpr:
			if p.Op == token.AND {
				return flow{retained: "its address is taken"}
			}
			return flow{retained: "used in an unsupported way"}
		default:
			return flow{retained: "used in an unsupported way"}
		}
	}
}

// checkArg follows the value passed as argument i of call.
func (c *checker) checkArg(call *ast.CallExpr, i int, e ast.Expr, self *types.Var, fd *ast.FuncDecl, par parents, depth int, seen map[*types.Var]bool) flow {
	info := c.pass.TypesInfo
	switch par[call].(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return flow{retained: "used by a go or defer statement"}
	}
	fun := ast.Unparen(call.Fun)
	if tv, ok := info.Types[fun]; ok && tv.IsType() {
		if t, ok := tv.Type.Underlying().(*types.Basic); ok && t.Info()&types.IsString != 0 {
			return flow{} // string(b) copies
		}
		return c.checkExpr(call, self, fd, par, depth, seen) // a conversion shares memory
	}
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "clear", "copy", "print", "println":
				return flow{}
			case "append":
				if i == 0 {
					return c.checkExpr(call, self, fd, par, depth, seen)
				}
				if call.Ellipsis.IsValid() && i == len(call.Args)-1 {
					return flow{} // the elements are copied
				}
				return flow{retained: "appended"}
			}
			return flow{retained: "passed to " + b.Name()}
		}
	}
	return c.checkCallee(call, i, self, depth, seen)
}

// checkCallee decides whether the callee of call retains argument i (-1:
// the receiver).
func (c *checker) checkCallee(call *ast.CallExpr, i int, self *types.Var, depth int, seen map[*types.Var]bool) flow {
	info := c.pass.TypesInfo
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal && types.IsInterface(s.Recv()) {
			m := s.Obj().(*types.Func)
			if i == 0 && ioMethod(m) {
				return flow{iface: ifaceName(c.pass.Pkg, s.Recv(), m)}
			}
			if byteOrder(m) {
				return flow{}
			}
			return flow{retained: "passed to interface method " + m.Name()}
		}
	}
	fn := staticCallee(info, call)
	if fn == nil {
		return flow{retained: "passed to a function value"}
	}
	if fn.Pkg() != c.pass.Pkg {
		if name, ok := nonRetaining(fn, i); ok {
			return flow{iface: name}
		}
		return flow{retained: "passed to " + fn.FullName() + ", which may retain it"}
	}

	// A function of this package: ask the compiler, then look.
	decl := c.decls[fn]
	if decl == nil || decl.Body == nil || depth >= maxDepth {
		return flow{retained: "passed to " + fn.Name()}
	}
	sig := fn.Type().(*types.Signature)
	var param *types.Var
	switch {
	case i < 0:
		param = sig.Recv()
	case sig.Variadic() && i >= sig.Params().Len()-1 && !call.Ellipsis.IsValid():
		return flow{retained: "passed as a variadic argument"}
	case i < sig.Params().Len():
		param = sig.Params().At(i)
	}
	if param == nil || param.Name() == "" || param.Name() == "_" {
		return flow{}
	}
	if c.esc.Available() {
		for _, r := range c.esc.At(param.Pos()) {
			if r.Kind == optlog.DoesNotEscape {
				return flow{}
			}
		}
	}
	fl := c.checkVar(param, decl, parentMap(decl), depth+1, seen)
	if fl.iface != "" {
		fl.iface = fn.Name() + ", which passes it to " + fl.iface
	}
	return fl
}

// ioMethod reports whether m has the signature of io.Reader.Read,
// io.Writer.Write, io.ReaderAt.ReadAt or io.WriterAt.WriteAt, whose
// contracts forbid retaining the buffer.
func ioMethod(m *types.Func) bool {
	sig := m.Type().(*types.Signature)
	p, r := sig.Params(), sig.Results()
	if r.Len() != 2 || !isInt(r.At(0).Type()) || !isError(r.At(1).Type()) || p.Len() == 0 || !syntax.IsByteSlice(p.At(0).Type()) {
		return false
	}
	switch m.Name() {
	case "Read", "Write":
		return p.Len() == 1
	case "ReadAt", "WriteAt":
		return p.Len() == 2 && types.Identical(p.At(1).Type(), types.Typ[types.Int64])
	}
	return false
}

// byteOrder reports whether m is a method of encoding/binary.ByteOrder.
func byteOrder(m *types.Func) bool {
	return m.Pkg() != nil && m.Pkg().Path() == "encoding/binary" &&
		(strings.HasPrefix(m.Name(), "PutUint") || strings.HasPrefix(m.Name(), "Uint"))
}

// nonRetaining reports whether fn, of another package, is known not to
// retain its argument i, and names it when it is the usual reason for an
// escape (an io call).
func nonRetaining(fn *types.Func, i int) (string, bool) {
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil {
		if i == 0 && ioMethod(fn) {
			return fn.FullName(), true // a concrete io.Reader or io.Writer
		}
		switch fn.FullName() {
		case "(*encoding/base64.Encoding).Encode", "(*encoding/base64.Encoding).Decode",
			"(*encoding/base64.Encoding).EncodeToString",
			"(*encoding/base32.Encoding).Encode", "(*encoding/base32.Encoding).Decode",
			"(*encoding/base32.Encoding).EncodeToString":
			return "", true
		}
		return "", byteOrder(fn)
	}
	if fn.Pkg() == nil {
		return "", false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "io.ReadFull", "io.ReadAtLeast":
		return "io." + fn.Name() + ", which calls io.Reader.Read", true
	case "bytes.Equal", "bytes.Compare", "bytes.HasPrefix", "bytes.HasSuffix",
		"bytes.Index", "bytes.IndexByte", "bytes.IndexAny", "bytes.IndexRune",
		"bytes.LastIndex", "bytes.LastIndexByte", "bytes.Contains", "bytes.ContainsAny",
		"bytes.ContainsRune", "bytes.Count", "bytes.EqualFold",
		"unicode/utf8.DecodeRune", "unicode/utf8.DecodeLastRune", "unicode/utf8.EncodeRune",
		"unicode/utf8.RuneCount", "unicode/utf8.Valid", "unicode/utf8.FullRune",
		"encoding/hex.Encode", "encoding/hex.Decode", "encoding/hex.EncodeToString",
		"encoding/binary.Uvarint", "encoding/binary.Varint",
		"encoding/binary.PutUvarint", "encoding/binary.PutVarint",
		"hash/crc32.ChecksumIEEE", "hash/crc32.Checksum", "hash/crc32.Update",
		"crypto/rand.Read":
		return "", true
	}
	return "", false
}

// ifaceName formats an interface method: "io.Reader.Read".
func ifaceName(pkg *types.Package, recv types.Type, m *types.Func) string {
	if n, ok := types.Unalias(recv).(*types.Named); ok {
		return typeString(pkg, n) + "." + m.Name()
	}
	return "interface method " + m.Name()
}

// isValue reports whether t is an array or struct type, whose values
// are copied by assignment.
func isValue(t types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Array, *types.Struct:
		return true
	}
	return false
}

func isInt(t types.Type) bool { return types.Identical(t, types.Typ[types.Int]) }

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

// addressTaken reports whether e is the operand of &, through parentheses.
func addressTaken(par parents, e ast.Expr) bool {
	for {
		switch p := par[e].(type) {
		case *ast.ParenExpr:
			e = p
		case *ast.UnaryExpr:
			return p.Op == token.AND
		default:
			return false
		}
	}
}
