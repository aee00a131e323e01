package kind

import (
	"cmp"
	"math"
	"slices"
)

// Without a profile, findings are ranked by an estimate of what fixing
// each saves: the cost of one execution of the code it names (CostNS)
// times how often that code runs (its tier), times how likely the
// finding's advice is to remove the cost. The factors are orders of
// magnitude, not measurements; a profile or a benchmark replaces them
// with what was measured (see package report).

// TierWeight returns the relative number of executions of code of a
// tier per unit of work of the program: code in a loop runs many times
// per item, per-item code once per item, code of unknown frequency (an
// exported function nothing in the package calls) somewhere below that,
// and cold code (error paths, set-up) almost never.
func TierWeight(tier string) float64 {
	switch tier {
	case "hot-loop":
		return 30
	case "per-item":
		return 10
	case "unknown":
		return 3
	}
	return 0.1
}

// Odds of the advice removing the cost: a rewrite the analyzer checked
// applies; a rewrite with something in its way that a person must judge
// (Fields.Blocked); a rewrite that changes the package's exported API
// (Fields.API); no known rewrite (the finding shows the compiler's flow, for a
// person to judge); a cost proven inherent (a function's purpose is the
// value it returns and callers keep it, or it is kept in a container
// that outlives the call).
const (
	oddsRewrite  = 1
	oddsBlocked  = 0.5
	oddsAPI      = 0.1
	oddsUnknown  = 0.02
	oddsInherent = 0.005
)

// Weight returns the estimated saving of fixing a finding with fields f
// in code of a library, relative to other findings: CostNS times
// TierWeight times the odds that the advice removes the cost.
func Weight(f *Fields) float64 {
	return math.Max(f.CostNS, 1) * TierWeight(f.Tier) * Odds(f)
}

// Odds returns the odds that the advice of a finding with fields f
// removes its cost: 1 for a checked rewrite, less for one a person must
// judge, less still for a finding that names no change or a cost proven
// inherent. A profile's measure of what a finding costs, times its odds,
// is what fixing it is expected to save.
func Odds(f *Fields) float64 {
	switch {
	case f.Class == "inherent", f.Amortized && !f.Rewrite:
		// An amortized cost with no change named is one the code
		// already keeps to when it is needed.
		return oddsInherent
	case !f.Rewrite:
		return oddsUnknown
	case f.API:
		return oddsAPI
	case f.Blocked != "":
		return oddsBlocked
	}
	return oddsRewrite
}

// Spend returns what a finding with fields f adds to its function's
// spend, the measure by which Interleave ranks functions: one, whatever
// its cost, tier or odds. The number of the costs the analyzers find in a
// function (allocations the compiler reports, reflective compares, ...)
// says where a function's cost is more robustly than the static
// estimates of each: on the development release pairs
// (scripts/recall, their -all output re-ranked), weighing them by cost
// and tier found 62 of 215 functions that maintainers changed, counting
// them 75. An amortized finding (Fields.Amortized) counts for nothing:
// it is not a cost of each run of its function.
func Spend(f *Fields) float64 {
	if f.Amortized {
		return 0
	}
	return 1
}

// Interleave returns the order in which the default output takes n
// findings, given in the order of their estimated saving (Weight, highest
// first), for its budget. Two questions share the budget, in turns. What
// to change: the next finding by estimated saving. Where the cost is: the
// functions (group) by the sum of spend over their findings (see Spend),
// highest first, whether or not a known change removes it, each giving
// its highest ranked finding before any gives a second. A finding taken
// for one question is skipped by the other. Saving alone fills the
// budget with the changes that analyzers know how to make, and misses
// the functions that allocate most and the changes nobody has taught
// them; spend alone lists costs with nothing to change.
func Interleave[K comparable](n int, group func(i int) K, spend func(i int) float64) []int {
	sums := make(map[K]float64)
	members := make(map[K][]int)
	var groups []K
	for i := range n {
		g := group(i)
		if _, ok := members[g]; !ok {
			groups = append(groups, g)
		}
		sums[g] += spend(i)
		members[g] = append(members[g], i)
	}
	// Stable: groups of equal spend keep the order of their best finding.
	slices.SortStableFunc(groups, func(a, b K) int { return cmp.Compare(sums[b], sums[a]) })
	var byCost []int
	for level := 0; len(byCost) < n; level++ {
		for _, g := range groups {
			if level < len(members[g]) {
				byCost = append(byCost, members[g][level])
			}
		}
	}
	out := make([]int, 0, n)
	taken := make([]bool, n)
	for s, c := 0, 0; len(out) < n; {
		// Saving: the next finding, in the order given, not taken.
		for s < n && taken[s] {
			s++
		}
		if s < n {
			taken[s] = true
			out = append(out, s)
		}
		// Cost: the next of byCost not taken.
		for c < n && taken[byCost[c]] {
			c++
		}
		if c < n {
			taken[byCost[c]] = true
			out = append(out, byCost[c])
		}
	}
	return out
}

// ProgramWeight scales the weight of a finding in a command's code (see
// report.IsProgram): its loops often run once per invocation, where a
// library's code runs in every program that imports it.
const ProgramWeight = 0.05

// PerKLOC is the density of the default output: at most this many
// findings per 1,000 lines analysed, the highest weights first. The
// rest are counted and shown on request.
const PerKLOC = 3

// Budget returns how many findings the default output shows for lines
// of code analysed: PerKLOC per 1,000, rounded down, at least one.
func Budget(lines int) int {
	return max(1, PerKLOC*lines/1000)
}

// Apportion divides budget among groups (packages) in proportion to their
// sizes (lines), by largest remainders, so that each group's share of the
// default output matches its share of the code: findings are ranked
// within a package by estimates that are comparable there, and a small
// package keeps its place beside a large one.
func Apportion(budget int, sizes []int) []int {
	out := make([]int, len(sizes))
	total := 0
	for _, s := range sizes {
		total += s
	}
	if total == 0 || budget <= 0 {
		return out
	}
	type rem struct {
		i int
		r float64
	}
	rems := make([]rem, len(sizes))
	given := 0
	for i, s := range sizes {
		exact := float64(budget) * float64(s) / float64(total)
		out[i] = int(exact)
		given += out[i]
		rems[i] = rem{i, exact - float64(out[i])}
	}
	slices.SortStableFunc(rems, func(a, b rem) int { return cmp.Compare(b.r, a.r) })
	for k := 0; given < budget; k++ {
		out[rems[k%len(rems)].i]++
		given++
	}
	return out
}
