// Package byvalue defines an Analyzer that finds small structs returned by
// pointer only to be read, and proposes returning them by value.
//
// # Analyzer byvalue
//
// byvalue: return small structs by value when every caller only reads them
//
// A function that ends in return &T{...} or return &v, for a small struct
// T, makes the compiler allocate T on the heap on every call, because the
// pointer outlives the function. When the callers only read the struct
// through the pointer, a value result costs a copy of at most 64 bytes
// instead of an allocation and the garbage it leaves.
//
// A finding is made only where the compiler says the struct escapes (the
// escape analyzer supplies its decisions: "&T{...} escapes to heap" or
// "moved to heap: v", also where the function is inlined) and its escape
// flow ends at the return, and the message names that escape. When the
// flow shows another way out (a closure or a go statement capturing the
// variable, a function it is passed to that keeps it, a caller of an
// inlined copy that stores it), a value result would leave the struct on
// the heap: no finding. The fix, offered when it is safe by construction,
// changes the result type from *T to T, drops the & of every return, and
// rewrites every call site: *f() becomes f(); p := f() followed by reads
// of p.x or *p stays valid for a value (*p becomes p). It is offered only
// when:
//
//   - the function or method is unexported, has one unnamed result, and
//     is never used as a value (every use is a call), and no interface of
//     the package has a method of that name;
//   - T is a struct of at most 64 bytes (by the build's type sizes) that
//     holds no lock, no noCopy marker and no sync/atomic value;
//   - every return is &v of a local v which no closure captures, or
//     &T{...}; when v's address is also taken (passed to a function,
//     fillNode(&v)) or a pointer method is called on it, whether v stays
//     on the stack once returned by value is the compiler's to say: the
//     package is compiled with the change, and the fix is offered only if
//     v is no longer moved to the heap and the functions the change edits
//     make fewer heap allocations than before;
//   - every caller is in the package and only reads the struct: the
//     result is discarded, dereferenced, has a field read, or is assigned
//     to a new local that is itself only read (never reassigned, compared
//     with nil, passed on, stored, captured by a closure or mutated
//     through), or whose pointer methods are called, which the compiler
//     must confirm as above (the local then holds its own copy, as the
//     pointer held a fresh value no one else had);
//   - a caller that returns the pointer it got (return p, or return f()
//     beside other results) passes the change up: when it is itself an
//     unexported function of the package with an unnamed result of the
//     same pointer type, that result becomes a value too, and its callers
//     are checked in turn, up to three functions.
//
// When the shape matches and the compiler's escape is real but a condition
// fails, the finding is still reported, without a fix, with the change it
// advises and, in Blocked and in one clause of the message, what stands in
// the way ("that needs an API change: exported result type", "a caller
// compares it with nil at f.go:12", "exported T.Get returns the pointer
// at f.go:30: an API change"): it ranks below the findings whose change
// is checked. Not when every caller stores the pointer (in a field, an
// element, a map, a package-level variable, a composite literal, a
// channel or an append, directly or through a local) or converts it to an
// interface (returns it as one, passes it as an argument or assigns it to
// a variable of interface type, where a value would be boxed and
// allocated instead): each needs the struct on the heap whatever the
// function returns, a value result would only move the allocation into
// it, and the allocation is heapescape's to report. The kind of every finding is byvalue/return-by-value.
// Cold code, generated
// files (unless the driver analyses them, as goadvise check does) and
// test files are not reported. In-package test files count as
// callers: when they are not type-checked (goadvise check without -tests)
// and use the function other than in a call whose result is discarded,
// the finding has no fix and says that tests use it; with -tests the use
// is judged like any other.
package byvalue
