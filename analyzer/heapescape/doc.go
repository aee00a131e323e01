// Package heapescape defines an Analyzer that reports the heap allocations
// the Go compiler decided on: values that escape to the heap and variables
// moved to the heap.
//
// # Analyzer heapescape
//
// heapescape: report heap allocations decided by the compiler's escape analysis, with cause and advice
//
// The findings are the compiler's own decisions, read from its optimization
// log (see package escape); heapescape does not guess which values escape.
// Each finding is one sentence: what allocates and why, then what to do,
// then the hot-path tier in brackets, for example
//
//	make([]byte, 5) escapes to heap because io.ReadFull passes it to an interface method (io.Reader.Read) the compiler cannot see through; keep a fixed-size array in the receiver (a field reused across calls) and pass a slice of it, or let the caller provide the buffer [per-item: method Next runs per item]
//
// The cause comes from the compiler's escape flow: an interface conversion,
// a dynamic call (interface method or function value), a return or a store,
// the size, append growth, a capturing closure, a go or defer statement.
// When a value is passed to a statically known function that lets it
// escape, heapescape reads that function's source (and, up to three levels
// deep, the functions it calls with the value) to say whether it passes the
// value to an interface method or a function value, calls the value's
// methods through an interface, or takes it as an interface; otherwise the
// message says only that the callee lets it escape.
//
// The advice fits the type and the code:
//
//   - Returning or storing by value instead of by pointer is suggested only
//     for structs of at most 64 bytes (by the types.Sizes of the build)
//     that hold no lock, no noCopy marker and no sync or sync/atomic value,
//     and never when the pointer is stored in an interface.
//   - A constructor, a function whose result type is *T returning the
//     allocated T (with "return &T{...}" or a variable), allocates on
//     purpose: in cold code it is not reported, nor are the values it
//     builds into the returned literal. When it runs per item or in a loop
//     the finding suggests letting the caller provide the value.
//   - An allocation inlined from another package is reported at the call,
//     as the compiler reports it, and phrased "calling bufio.NewWriter
//     allocates (inlined): ..."; the advice is about the call, since the
//     callee's code cannot be changed. Constructors of other packages
//     (a New... function with a pointer result) in cold code are not
//     reported.
//   - A value boxed only to be passed to reflect.DeepEqual says "(goes away
//     with the deepequal fix)".
//   - "Hoist the allocation out of the loop" is said only when the value
//     provably stays in the iteration: passed to calls that do not keep it
//     (dynamic calls, builtins, callees the compiler or their source show
//     do not keep it) or bound to a variable of the loop body that is not
//     stored, appended, returned, sent, captured or passed to go or defer.
//     In a loop, an inlined call of another package is advised to be reset
//     (a result type with a Reset method, such as bytes.NewReader) or
//     hoisted (arguments that do not change in the loop); a call without a
//     result, or whose result is kept, is not reported.
//   - Nothing is reported for what the code keeps and must be fresh: a
//     value stored in a field, a global, a map or an interface (unless it
//     is small and the pointer is not shared: then by-value advice), a value
//     that escapes with a container reported on its own, the growth of a
//     field by x.f = append(x.f, ...) or inside a callee that keeps the
//     slice, an append to a slice made with a capacity, a variable whose
//     address a constructor returns (var w T; ...; return &w), a callee that
//     keeps its ... arguments, and another package's constructor that has
//     no Reset method. Nor for allocation that is already lazy or
//     grow-on-demand: if x == nil { x = make(...) }, if cap(b) < n { b =
//     make(...) }.
//   - Conversions that do not allocate are not reported, although the
//     compiler says the value escapes: constants, composite literals of
//     constants, zero-size values, bools and one-byte integers (and structs
//     or arrays of one such), and make of a slice with length and capacity
//     0. TestNonAllocating measures each shape with testing.AllocsPerRun.
//
// Findings are ranked by the hot-path estimate of the hotpath analyzer: the
// tier ("hot-loop", "per-item" or "cold") ends the message in brackets and
// is the diagnostic's category. Allocations on an error path are "cold"
// with the reason "on an error path", wherever they are: inside a return
// statement that returns a non-nil error (fmt.Errorf, errors.New, a
// concrete error type, a package-level error variable, or a variable the
// enclosing if statement compared with "!= nil", or defined in the block
// from such a value), inside the block of "if err != nil" for a value of
// type error, inside an if, else or case block whose last
// statement is such a return or a call that does not return (panic,
// log.Fatal*, log.Panic*, os.Exit, runtime.Goexit, t.Fatal*, t.Skip*,
// t.FailNow), or passed as an argument to such a call, to t.Error or
// t.Errorf, or to panic in inlined code. The detection is syntactic. With
// -cold=false only per-item and hot-loop findings are reported.
//
// Allocations in generated files, in _test.go files (tests and benchmarks
// are not the program whose CPU the advice is about), and at positions
// outside the package are not reported.
package heapescape
