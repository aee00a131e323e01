// Package smallalloc defines an Analyzer that reports small heap
// allocations made on every call of hot code, and proposes how to avoid
// them.
//
// # Analyzer smallalloc
//
// smallalloc: find small per-call heap allocations and propose a reusable buffer
//
// A reader that does buf := make([]byte, 4) on every Message call
// allocates once per message for the life of the service. The usual fix is
// a small fixed-size array field in the receiver, used as r.field[:], or,
// inside a loop, a buffer declared once before the loop.
//
// Candidates are make([]T, n) and make([]T, n, m) with a constant size of
// at most -threshold bytes (default 64), new(T) and &T{...} of small types,
// and small slice literals, in code that the hotpath analyzer rates as
// per-item or inside a loop. Cold code, generated files (unless
// the driver analyses them, as goadvise check does) and test files are
// skipped.
//
// Only allocations that really reach the heap are reported: the escape
// analyzer supplies the compiler's own decisions, and an allocation the
// compiler keeps on the stack is not a finding. When compiler data is
// unavailable (escape's -off flag, or the compile failed), the analyzer
// falls back to a heuristic, stated in the message: a buffer is assumed to
// escape when it is passed to an interface method such as io.Reader.Read.
//
// A finding is made only when reuse is safe: the value must not outlive
// one call (or one loop iteration). It must not be returned, stored in a
// field, global, map, slice or other variable, sent on a channel, captured
// by a closure, have its address taken, or be passed to a function that
// may retain it. Calls known not to retain their buffer are accepted: the
// io.Reader, io.Writer, io.ReaderAt and io.WriterAt methods (their
// contracts forbid retaining the slice), io.ReadFull, io.ReadAtLeast,
// encoding/binary byte orders, non-retaining bytes and unicode/utf8
// functions, the builtins, and functions of the same package whose
// parameter the compiler reports as not leaking, or, failing that, whose
// body passes the same checks.
//
// The fix depends on where the allocation is:
//
//   - Directly in a loop body: declare the buffer once before the loop and
//     reset it in each iteration (a SuggestedFix; saves one allocation per
//     iteration, all but the first).
//   - In a method with a pointer receiver whose struct type is declared in
//     the package (not generic): add a fixed-size array field to the struct and use
//     r.<field>[:] (a SuggestedFix; saves one allocation per call). The field
//     is named after the method and the variable: buf in Message becomes
//     messageBuf. This makes the method unsafe for concurrent calls on the
//     same receiver, so the fix is not offered (and nothing is reported) when
//     the method looks concurrency-safe: the struct holds a sync.Mutex,
//     sync.RWMutex or sync/atomic value, the method does not call Lock on
//     it and writes no state reachable from the receiver (a field, an
//     element under one) outside function literals, or the method is
//     started with a go statement in the package. A method that writes
//     its receiver's state without a lock is unsafe for concurrent calls
//     already (a reader that keeps its position beside an atomic
//     reference count), and a scratch field changes nothing.
//
// A variable that first holds a small constant-size make and is later
// assigned another allocation that is kept (buf = make([]byte, n); d.last
// = buf) makes the compiler move both to the heap, since its escape
// analysis follows the variable. Such a make is judged by its value, in
// the function's SSA form: if that value (through phis, slices and calls)
// is not kept, the make is reported and fixed like any other; the later
// allocation is left alone.
//
// Otherwise (a plain function, a value receiver) no fix is safe for a small
// buffer and nothing is reported: a sync.Pool costs more than a small
// allocation.
//
// Both fixes keep the zeroing that make provides: a clear(buf) call is
// added after the reused buffer is taken, unless the first use of the
// buffer is an io.ReadFull whose error is checked or a
// binary.ByteOrder.PutUintN that covers the whole buffer. A fix is
// withheld (the message stays) when it would need clear in a file older
// than Go 1.21, would change what a name refers to (the size or element
// type is declared in the loop, or the name is taken), would change a line
// whose trailing comment gofmt aligns with its neighbours', or would add a
// field to a struct that the package builds with an unkeyed literal, that
// is declared on one line, or whose file may not import the package that
// the element type names. Nothing is reported for a method that can call
// itself through the package (a nested call would overwrite the field in
// use) or whose struct is declared in a generated file. new(T), &T{...}
// and slice literals get the same analysis but a message-only suggestion.
// A finding without a fix says why at the end of its message, before the
// tier: "...; no automatic fix: the package builds Pair with an unkeyed
// literal, which a new field would break [per-item: ...]".
//
// Not reported: string(b) conversions (when they escape the string is
// usually kept), closures (those passed to the standard library's sort,
// slices and strings functions already stay on the stack; the ones that
// escape are stored), and allocations inside function literals.
//
// Every message names the change, the reason (the compiler's escape flow
// when it has one), the allocations saved, and ends with the hot-path tier
// in brackets; the diagnostic's Category is the tier ("hot-loop",
// "per-item").
package smallalloc
