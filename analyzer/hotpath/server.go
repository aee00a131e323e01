package hotpath

import (
	"go/ast"
	"go/types"
)

// serverReason is the cold reason of the code of a function that ends by
// handing a listener to a call.
const serverReason = "runs once per listener: the function ends by handing its listener to the server that serves it"

// serverWho names that code in the reasons of its callees.
const serverWho = "a function that starts a server on a listener"

// serverRegions returns the bodies of the functions of file that end by
// handing a listener to a call ("return app.server.Serve(ln)",
// "srv.Serve(l)"): a value with an Accept method that returns a net.Conn,
// as net.Listener's does. A server is started on a listener once, and its
// Serve returns when it stops: what the function does before, opening the
// listener, printing a banner, preparing routes, runs once per server,
// loops included. The connections are served elsewhere, in the function
// the listener is handed to, which takes it as a parameter (see
// takesListener).
func serverRegions(info *types.Info, file *ast.File) []region {
	var regs []region
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || len(fd.Body.List) == 0 {
			continue
		}
		var call *ast.CallExpr
		switch s := fd.Body.List[len(fd.Body.List)-1].(type) {
		case *ast.ReturnStmt:
			if len(s.Results) == 1 {
				call, _ = ast.Unparen(s.Results[0]).(*ast.CallExpr)
			}
		case *ast.ExprStmt:
			call, _ = ast.Unparen(s.X).(*ast.CallExpr)
		}
		if call == nil {
			continue
		}
		for _, arg := range call.Args {
			if isListener(info.TypeOf(arg)) {
				regs = append(regs, region{span: span{fd.Body.Pos(), fd.Body.End()}, kind: startup, who: serverWho, reason: serverReason})
				break
			}
		}
	}
	return regs
}

// takesListener reports whether fn has a parameter that is a listener (see
// isListener): it serves the connections the listener accepts, however
// often it is called.
func takesListener(fn *types.Func) bool {
	params := fn.Type().(*types.Signature).Params()
	for i := range params.Len() {
		if isListener(params.At(i).Type()) {
			return true
		}
	}
	return false
}

// isListener reports whether a value of type t is a listener: it has a
// method Accept whose first result is net.Conn.
func isListener(t types.Type) bool {
	if t == nil {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Accept")
	m, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	res := m.Type().(*types.Signature).Results()
	if res.Len() == 0 {
		return false
	}
	n, ok := res.At(0).Type().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net" && n.Obj().Name() == "Conn"
}
