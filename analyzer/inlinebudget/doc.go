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
// records), never estimated. A function is considered when it is hot (the
// hotpath analyzer rates it per-item or called from a loop) and its cost
// exceeds the budget by at most -margin (default 60, a little more than the
// 57 the inliner charges for one call it does not inline). The analyzer
// then looks for what makes it expensive, in the code the compiler keeps:
// branches of if statements with a constant condition that are not taken,
// and statements after a return or panic, are dropped by the compiler
// before it costs the function, and are not charged. Only calls on a cold
// path, a branch that ends in a panic or in a return of an error, and
// function literals are proposed for removal, each as a source edit:
//
//   - a panic value or returned error built by one fmt call (Sprintf,
//     Sprint, Sprintln, or Errorf without %w) of values of basic types
//     without methods becomes a pointer to a struct literal holding the
//     values, whose Error method formats them as the call did (the values
//     are copied, so the text is the same; a panic value becomes an error
//     rather than a string, which a recover that expects a string would
//     notice); if all its arguments are constants, the value is built once,
//     into a package-level variable; a single call of another function, or of values
//     that could change before they are formatted, is not proposed
//     (moving one call into a helper saves nothing, since the call of the
//     helper costs 57 again);
//   - a cold path with several costly calls (not inlined, or inlined at a
//     cost of 10 or more) moves, with the building of its panic value or
//     error, into one function marked //go:noinline that returns the value
//     and gets the local variables it uses as parameters; paths that assign
//     those variables, take their address, return or branch out early, or
//     defer are not proposed;
//   - a function literal that uses no local variables becomes a function
//     declared at package level.
//
// Every proposal is verified by the compiler: the package is compiled again
// with the edited files (with go list -export -overlay, or under go vet
// -vettool with the unit's own compile command and go vet's export data),
// and a function is reported only if the compiler then inlines it. The
// message gives the compiler's cost before and after the change ("cost 93
// -> 33, measured by compiling the change"); no number in it is estimated.
// The proposals of a package are compiled together, except that functions
// that call one another are compiled apart (the cost of one would depend on
// the edit of the other); a package takes at most 4 such compiles, and
// proposals beyond them, or that do not compile, are not reported. The
// functions the proposals do not reach are compiled with empty bodies, the
// dependencies come from the run's own build, and the compiler is stopped
// as soon as it has printed (with -m=2) its inlining decisions about the
// proposals' functions, before escape analysis and code generation: goadvise
// watches the compile as the go command's -toolexec wrapper, or directly
// under go vet. On nats-server, whose server package has 7 proposals, the
// compile adds about 1 s to a first run of goadvise check (3.4 s when it
// ran to its end), against 12 s of CPU for the package's own; a re-run
// takes its findings from the findings cache. Under go vet, each unit with
// proposals is compiled twice; in other drivers (golangci-lint), which
// cannot serve as the wrapper, the edited package is compiled whole.
// Methods that encoding packages and database/sql call through an
// interface (MarshalJSON, UnmarshalJSON, MarshalText, Scan, Value and the
// like) are never inlined there, and are not reported; nor is a method
// of an unexported type that the package never calls directly and that
// no other package can hold a value of (nothing embeds the type and the
// exported API does not name it: pgx's encode plans, called through an
// interface), nor an unexported function the package never calls. The
// edited package is compiled without a PGO profile. Functions that cannot
// be inlined for other reasons (defer, go, recover, go:noinline) have no
// cost in the log and are not reported. Generated files (unless the
// driver analyses them, as goadvise check does) and test files are
// skipped.
//
// The message ends with the hot-path tier of the function, and the
// diagnostic's Category is that tier.
package inlinebudget
