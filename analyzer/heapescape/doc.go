// Package heapescape defines an Analyzer that reports the heap allocations
// the Go compiler decided on: values that escape to the heap and variables
// moved to the heap.
//
// # Analyzer heapescape
//
// heapescape: report heap allocations decided by the compiler's escape analysis
//
// The findings are the compiler's own decisions, read from its optimization
// log (see package escape); heapescape does not guess. Each finding names
// the value, why it escapes (an interface conversion, a dynamic call, a
// capturing closure, a return or store, its size, append growth, a go or
// defer statement), the compiler's flow in short, and the change that would
// keep the value on the stack where one applies.
//
// Findings are ranked by the hot-path estimate of the hotpath analyzer: the
// tier ("hot-loop", "per-item" or "cold") ends the message in brackets and
// is the diagnostic's category. With -cold=false only hot findings are
// reported.
//
// Allocations in generated files, and positions outside the package (code
// inlined from other packages is reported at the call site in this
// package, as the compiler does), are not reported.
package heapescape
