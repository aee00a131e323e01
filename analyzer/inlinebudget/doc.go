// Package inlinebudget defines an Analyzer that reports hot functions whose
// inlining cost is a little over the compiler's budget, says what makes
// them expensive, and how to bring them under it.
//
// # Analyzer inlinebudget
//
// inlinebudget: find hot functions just over the inlining budget
//
// The gc compiler inlines a function only if its cost, roughly one unit per
// syntax node, is at most 80 (the budget). A small function that is called
// per item and costs 95 is not inlined anywhere: every call pays for the
// call itself, arguments that could have stayed on the caller's stack may
// escape, and the caller's optimizations stop at the call. PGO raises the
// budget only for calls a profile happened to catch.
//
// The cost is read from the compiler's own log (the escape analyzer's
// "cannot inline F: function too complex: cost 95 exceeds budget 80"
// records), never estimated. A function is reported when it is hot (the
// hotpath analyzer rates it per-item or called from a loop), its cost
// exceeds the budget by at most -margin (default 60, a little more than the 57 the
// inliner charges for one call it does not inline), and the analyzer can
// name what to remove to get under the budget. The charges it names are the
// ones the compiler's inliner (cmd/compile/internal/inline) applies:
//
//   - a call that is not inlined (an interface method call, a call of a
//     function value, or a call of a function the compiler reports as not
//     inlinable, such as fmt.Sprintf or fmt.Errorf) costs 57 on top of its
//     arguments;
//   - a call that is inlined costs the callee's own inlining cost;
//   - a function literal costs 15 on top of its capture.
//
// Panics are cheap (one unit), so a panic with a constant message costs
// almost nothing, while panic(fmt.Sprintf(...)) costs more than half the
// budget. Only calls on a cold path, a branch that ends in a panic or in a
// return of an error, are proposed for removal:
//
//   - with one such call that only builds the panic value or the returned
//     error, the fix is a constant panic message or a package-level error
//     variable (moving a single call into a helper saves nothing, since the
//     call of the helper costs 57 again);
//   - with several, the fix is to move the cold path into one function
//     marked //go:noinline, so that one call replaces them.
//
// Function literals are proposed for replacement by named functions when
// they alone account for the excess. Functions that cannot be inlined for
// other reasons (defer, go, recover, go:noinline) have no cost in the log
// and are not reported. Generated files and test files are skipped.
//
// The message ends with the hot-path tier of the function, and the
// diagnostic's Category is that tier.
package inlinebudget
