package hotpath

import (
	"go/types"
	"strings"

	"github.com/goadvise/goadvise/internal/funcname"
)

// A Summary is what one package's estimate tells a driver that sees the
// whole module (goadvise check): the static tier of each of its functions
// and the calls it makes that do not run rarely, so that hotness can cross
// packages. Under go vet, which analyses one package per process and has
// no facts, it is not used.
type Summary struct {
	Package string        `json:"package"`
	Funcs   []FuncSummary `json:"funcs"`
	Calls   []Call        `json:"calls"`
}

// A FuncSummary is the static estimate of one function of the package.
type FuncSummary struct {
	Name   string `json:"name"` // full name, as funcname.Of gives it
	Tier   Tier   `json:"tier"` // as FuncTier says: Cold only on evidence
	Reason string `json:"reason,omitempty"`
	// Result is the full name of the named type the function returns
	// (or a pointer to which it returns), "pkg/path.T", when it is one
	// of the package's: a benchmark's x := NewT() has that type.
	Result string `json:"result,omitempty"`
}

// A Call is a call of a function of another package, or of the package
// itself, from code that does not run rarely (not on an error path, at
// start-up or only in tests).
type Call struct {
	From string `json:"from,omitempty"` // the caller's full name; empty for a benchmark loop
	To   string `json:"to"`             // the callee's full name
	Loop bool   `json:"loop,omitempty"` // the call is inside a loop of the caller
	// Why says what makes the call hot when From is empty: "called in
	// BenchmarkRead's loop".
	Why string `json:"why,omitempty"`
}

// Summary returns the package's summary. Calls of standard-library
// functions are left out: their hotness is not the module's to change.
func (r *Result) Summary() *Summary {
	s := &Summary{Package: r.pkg, Calls: r.xcalls}
	for i := range r.funcs {
		f := &r.funcs[i]
		if f.obj == nil {
			continue
		}
		info := r.FuncTier(f.obj)
		fs := FuncSummary{Name: funcname.Of(f.obj), Tier: info.Tier, Reason: info.Reason}
		if res := f.obj.Type().(*types.Signature).Results(); res.Len() > 0 {
			t := res.At(0).Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == f.obj.Pkg() {
				fs.Result = r.pkg + "." + n.Obj().Name()
			}
		}
		s.Funcs = append(s.Funcs, fs)
	}
	return s
}

// standard reports whether the import path is of the standard library:
// its first element has no dot.
func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// httpHandler reports whether a function of signature sig serves HTTP
// requests: func(http.ResponseWriter, *http.Request).
func httpHandler(sig *types.Signature) bool {
	if sig.Params().Len() != 2 || sig.Results().Len() != 0 {
		return false
	}
	named := func(t types.Type, name string) bool {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == name
	}
	_, isPtr := sig.Params().At(1).Type().(*types.Pointer)
	return named(sig.Params().At(0).Type(), "ResponseWriter") && isPtr && named(sig.Params().At(1).Type(), "Request")
}

// recordCall records a call from the code at call of the enclosing
// function caller (nil at package level) for the package's summary.
func (r *Result) recordCall(caller *funcSpan, callee *types.Func, loop bool) {
	if callee.Pkg() == nil || standard(callee.Pkg().Path()) {
		return
	}
	c := Call{To: funcname.Of(callee), Loop: loop}
	if caller != nil && caller.obj != nil {
		c.From = funcname.Of(caller.obj)
	} else if !loop {
		return // a package-level call runs at start-up
	}
	r.xcalls = append(r.xcalls, c)
}

// Propagate follows calls across the packages of a module: a function
// called in a loop, from a benchmark's loop, or from a function that runs
// per item, is per item too, transitively, in whichever package it is.
// sums are the summaries of the module's packages and extra more calls
// (BenchmarkCalls'). It returns, for each function of the summaries whose
// own estimate is Unknown and that the calls make per item, why; a
// function whose estimate is Cold (on evidence) or already per item is
// left out.
func Propagate(sums []*Summary, extra []Call) map[string]string {
	funcs := make(map[string]*FuncSummary)
	from := make(map[string][]Call)
	var all []Call
	for _, s := range sums {
		for i := range s.Funcs {
			funcs[s.Funcs[i].Name] = &s.Funcs[i]
		}
		all = append(all, s.Calls...)
	}
	all = append(all, extra...)
	hot := make(map[string]string) // per item, by evidence of this function
	var queue []string
	mark := func(name, why string) {
		f := funcs[name]
		if f == nil || f.Tier == Cold {
			return
		}
		if _, ok := hot[name]; ok {
			return
		}
		hot[name] = why
		queue = append(queue, name)
	}
	for _, s := range sums {
		for _, f := range s.Funcs {
			if f.Tier >= PerItem {
				mark(f.Name, f.Reason)
			}
		}
	}
	for _, c := range all {
		switch {
		case c.From == "":
			mark(c.To, c.Why)
		case c.Loop:
			mark(c.To, "called in a loop in "+funcname.Short(c.From))
		default:
			from[c.From] = append(from[c.From], c)
		}
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		for _, c := range from[name] {
			mark(c.To, "called from "+funcname.Short(name)+", which runs per item")
		}
	}
	out := make(map[string]string)
	for name, why := range hot {
		if funcs[name].Tier == Unknown {
			out[name] = why
		}
	}
	return out
}
