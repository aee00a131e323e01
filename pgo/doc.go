// Package pgo reads, checks and merges pprof CPU profiles for Go's
// profile-guided optimization (PGO), and turns CPU and heap profiles into
// per-function and per-line hotness for goadvise's analyzers.
//
// Profiles are read from files (gzip-compressed or not), from directories of
// such files and from the net/http/pprof endpoints of running services
// (http:// and https:// URLs), always with a limit on the decompressed size.
// See [Open] and [Read].
//
// [Merge] folds any number of CPU profiles into one profile that the Go
// compiler accepts for -pgo, one input at a time, so that merging hundreds
// of profiles needs memory for the merged result only. It keeps
// Function.start_line, which the compiler needs to match samples to source
// lines.
//
// [HotEdges] reproduces the compiler's rule for hot call sites, and [Check]
// reports how much of a profile still matches the current source code.
//
// [LoadHotness] builds a [Hotness] from CPU and heap profiles: the share of
// CPU time and of allocations per function and per source line.
package pgo
