// Package decisions collects the compiler's per-function decisions of a
// build and compares two builds.
//
// It never re-derives a decision: it runs the compiler and parses what it
// says; package optlog reads all of it. Inlining, escapes and bounds checks
// come from the optimization log (-json=0,DIR) and from the -m remarks (the
// log has no record of inlined call sites); PGO decisions come from
// -d=pgodebug: the "hot-budget check allows inlining" lines, the
// "PGO devirtualizing interface call" remarks, and the per-call-site JSON
// statistics of -d=pgodebug=3, which carry the edge weights.
//
// [Explain] builds main packages (test binaries for libraries) with
// -pgo=off and with a profile and reports what PGO changes: hot-budget
// inlining, devirtualized calls, the values that stay on the stack only
// because of PGO inlining, the build cost of each variant ([CostTable]),
// and, with benchmarks, the runtime gain measured by package bench, all
// weighed in one verdict line.
//
// [Diff] compiles two versions of the code (the base in a temporary git
// worktree, the head from the working tree or a second worktree) and
// reports per function what the compiler decides differently, flagging
// the functions the diff did not touch: their decisions changed through
// inlining or a dependency.
//
// The cost measurement runs go build with -toolexec pointing to a program
// that serves as goadvise's wrapper (internal/toolexec); command goadvise
// does so itself. Source changes for rebuilds are made with -overlay: the
// source tree is never written.
package decisions
