// Package bench compares the benchmarks of two versions of Go code with
// statistics, the way benchstat does, and decides whether the newer version
// regressed.
//
// Run builds each version once into a test binary (go test -c): the base
// revision from a git worktree in a temporary directory, the head from the
// working tree as it is (or from a second worktree). It then runs the two
// binaries alternately, A B then B A, for a number of rounds, so that slow
// drift of the machine (thermal throttling, other load) affects both versions
// equally. The user's working tree, index and stash are never modified, and
// the temporary worktrees are removed even when the context is cancelled.
//
// The samples are compared per benchmark and unit with
// golang.org/x/perf/benchmath under no distributional assumption: the
// summary is the median with its 95% confidence interval and the test is the
// two-sided Mann-Whitney U test. With n samples of each version the smallest
// p-value that test can produce is 2/C(2n, n): 0.1 for n=3, 0.029 for n=4,
// 0.0079 for n=5. When that smallest p-value is above alpha no verdict is
// given ("too few samples"), since no difference could ever be significant.
// The default of 10 rounds lets a difference reach significance at alpha 0.05
// even when a few samples overlap, and gives the median a finite 95%
// confidence interval (which needs at least 6 samples), as benchstat
// recommends.
//
// A row is a regression when the difference is significant, in the worse
// direction for the unit, and larger than the threshold percentage. For
// B/op the threshold is at most BytesThreshold (1%): the bytes allocated
// per operation vary slightly from run to run, so a significant +0.2% is
// noise, not a regression. allocs/op is treated as exact: Go's allocation
// counts are deterministic, so any increase of the median is a regression,
// regardless of threshold, if the samples differ significantly or every
// head sample is above every base sample (which also catches an increase
// measured with too few samples for the U test). The direction of a custom unit comes from its
// "better=higher|lower" metadata, or from its name: sec/... units are better
// lower and .../s units better higher; units of unknown direction are
// reported as "changed" and never count as regressions.
//
// CompareFiles does the same for two files of benchmark output, so that it can
// replace a benchstat step in CI, and Verify applies source edits to a copy of
// a module and measures their effect. BenchmarkCoverage finds, by coverage,
// which benchmarks of a package execute a given line, so that an edit can be
// measured with those benchmarks alone.
package bench
