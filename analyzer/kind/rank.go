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
	case f.Class == "inherent":
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
