package report

import "github.com/goadvise/goadvise/analyzer/kind"

// EstimateNS returns the estimated cost of one execution of the code f
// names, in nanoseconds: its kind's estimate and the size of what it
// allocates (Fields.CostNS, see kind.Cost). The figures are orders of
// magnitude, not measurements: they put a reflective comparison or a
// regular expression compiled per call before a boxed integer, and a 4 KiB
// buffer before a 16-byte one. docs/ranking.md describes them.
func EstimateNS(f Finding) float64 {
	if f.CostNS > 0 {
		return f.CostNS
	}
	return 10
}

// Weight returns the estimated saving of fixing f, without a profile,
// relative to other findings: its cost times how often its tier runs,
// times the odds that its advice removes the cost (see kind.Weight), and
// lower in a command's code than in a library's (see IsProgram), and in a
// copy of another project's code (Copied), which its maintainers change
// upstream, not here.
func Weight(f *Finding) float64 {
	return kind.Weight(&f.Fields) * elsewhere(f)
}

// Spend returns what f adds to its function's spend (kind.Spend), less
// in a command's code than in a library's (see IsProgram), and in a copy
// of another project's code (Copied).
func Spend(f *Finding) float64 {
	return kind.Spend(&f.Fields) * elsewhere(f)
}

// elsewhere scales what a finding weighs when its code's cost matters
// less or its change is made elsewhere: a command's code, a copy of
// another project's, a file another project's tool generated
// (kind.ProgramWeight), 1 for the rest.
func elsewhere(f *Finding) float64 {
	if f.Program || f.Copied != "" || f.GeneratedElsewhere {
		return kind.ProgramWeight
	}
	return 1
}
