// Package report turns analyzer diagnostics into goadvise findings: it
// names the enclosing function of each, ranks them, writes them as text,
// JSON or SARIF, and applies their suggested fixes.
//
// The JSON form is a contract with users' CI scripts: fields are only ever
// added, never renamed or removed.
package report

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/analyzer/kind"
)

// A Finding is one diagnostic of one analyzer, located and ranked.
type Finding struct {
	Rank      int    `json:"rank"` // 1-based position in the printed order
	Analyzer  string `json:"analyzer"`
	File      string `json:"file"` // absolute path
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
	Function  string `json:"function"`            // "pkg/path.Func" or "pkg/path.(*T).Method"; empty at package level
	Package   string `json:"package"`             // import path
	Program   bool   `json:"program,omitempty"`   // in a command's code (see IsProgram), not a library's
	Copied    string `json:"copied,omitempty"`    // in a copy of another project's code: the directory, below the module's, with its own license
	Generated bool   `json:"generated,omitempty"` // in a generated file: the change belongs in its generator
	// GeneratedElsewhere marks a generated file made by another
	// project's tool (protoc-gen-go, stringer, msgp): the change is that
	// tool's, or how the module invokes it, and it weighs less.
	GeneratedElsewhere bool   `json:"generated_elsewhere,omitempty"`
	Message            string `json:"message"` // Text, then the tier and its reason in brackets
	Fixes              []Fix  `json:"fixes"`

	// Fields are the finding's facts as data: its kind, tier, class,
	// the compiler's cause and sink, callee, size, estimated cost. Ranking,
	// merging and scoring read them, never the message.
	kind.Fields

	// Related are other diagnostics of the same cost, folded into this
	// finding by Merge: the escapes of a DeepEqual call's arguments, the
	// compiler's escape of the make a smallalloc finding names, more
	// escapes with the same cause on the same line.
	Related []Related `json:"related,omitempty"`

	// Set when a profile weighs the findings (see Score).
	Score   float64  `json:"score"`             // estimated % of CPU that fixing it saves; 0 without a profile
	Samples int64    `json:"samples"`           // profile samples behind Score; below MinSamples it is not a measurement
	Floor   float64  `json:"floor,omitempty"`   // the score MinSamples samples would give: the bound shown for a score below it
	Callers []Caller `json:"callers,omitempty"` // where the line's allocations are charged, when not all to it
	Hot     *Hot     `json:"hot,omitempty"`     // measured weight of the finding's line
	Cost    string   `json:"cost,omitempty"`    // Score as a human figure: "~2.1% of CPU in reflect.DeepEqual"
	Sampled bool     `json:"-"`                 // the profile saw the finding's function or line run
	Free    bool     `json:"free,omitempty"`    // the benchmarks ran its function and allocated nothing at its line (see MeasuredFree)

	// Set by check -bench: what the line costs per operation in the
	// benchmarks that ran it, most allocations first.
	Benchmarks []BenchCost `json:"benchmarks,omitempty"`

	// Set by check -verify for the findings whose fix was tried.
	Verify *Verification `json:"verify,omitempty"`

	// Saving is the estimated saving of fixing it without a profile,
	// relative to the other findings (see Rank); 0 with a profile.
	Saving float64 `json:"saving,omitempty"`

	Offset int `json:"offset"` // byte offset of the start in File
}

// A BenchCost is what a finding's line costs per operation of one
// benchmark, measured by check -bench.
type BenchCost struct {
	Benchmark   string  `json:"benchmark"`     // "BenchmarkReader/plain"
	Package     string  `json:"package"`       // import path of the benchmark's package
	AllocsPerOp float64 `json:"allocs_per_op"` // allocations made at the line per operation (exact)
	BytesPerOp  float64 `json:"bytes_per_op"`  // bytes allocated at the line per operation
	CPU         float64 `json:"cpu"`           // % of the benchmark's CPU samples with the line on the stack
	Text        string  `json:"text"`          // "BenchmarkReader/plain: 2 allocs/op, 16 B/op (3.1% of its CPU) here"
}

// A Verification is the outcome of trying a finding's fix in a copy of
// the module: the package's tests, and its benchmarks before and after.
type Verification struct {
	TestsPassed bool   `json:"tests_passed"`
	Regressed   bool   `json:"regressed"` // tests fail or a benchmark got significantly worse
	Summary     string `json:"summary"`   // "tests pass; allocs/op 2 → 1 (-50.00%) better"
}

// A Fix is one suggested fix: a message and the edits that make it.
type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

// An Edit replaces the bytes [Start, End) of File with New.
type Edit struct {
	File  string `json:"file"` // absolute path
	Start int    `json:"start"`
	End   int    `json:"end"`
	New   string `json:"new"`
}

// Stats summarises a run.
type Stats struct {
	Packages   int            `json:"packages"`         // packages analysed
	Failed     int            `json:"failed,omitempty"` // packages that failed to load (see Errors), not analysed
	Files      int            `json:"files"`
	Cached     int            `json:"cached"`               // packages whose findings came from the findings cache
	Findings   int            `json:"findings"`             // reported (after -top)
	Total      int            `json:"total"`                // found, before -top
	ByAnalyzer map[string]int `json:"by_analyzer"`          // reported findings per analyzer
	Ranking    string         `json:"ranking"`              // "static" (hot-path tiers) or "profile"
	DurationMS int64          `json:"duration_ms"`          // wall time of the run
	Errors     []string       `json:"errors,omitempty"`     // analyzer or load errors that did not stop the run
	Suppressed int            `json:"suppressed,omitempty"` // findings silenced by directives
	Hidden     int            `json:"hidden,omitempty"`     // findings in code the profile never saw run (shown with -all)
	Profile    *ProfileStats  `json:"profile,omitempty"`    // the profile that weighed the findings

	// Findings not shown by check by default, besides Hidden: in cold
	// code (shown with -cold), and ranked below the density of the
	// default output (BelowCut, shown with -all). Total, Hidden and
	// these add up to the findings found, before -min-score.
	HiddenCold int `json:"hidden_cold,omitempty"`
	BelowCut   int `json:"below_cut,omitempty"`
	// HiddenInherent and HiddenNegligible are never set: findings are
	// not hidden for their class. They keep the JSON contract.
	HiddenInherent   int `json:"hidden_inherent,omitempty"`
	HiddenNegligible int `json:"hidden_negligible,omitempty"`

	// Lines is the number of lines of the packages analysed, without
	// tests and generated files: what the default output's density is
	// measured against.
	Lines int `json:"lines,omitempty"`

	// With check -new-from-rev: the findings on lines not changed since
	// the revision NewFromRev, not shown.
	Unchanged  int    `json:"unchanged,omitempty"`
	NewFromRev string `json:"new_from_rev,omitempty"`

	// Excluded counts the findings in files the configuration file's
	// exclude globs name, dropped, that no other reason hides: each
	// finding not shown is counted once, exclusion last.
	Excluded int `json:"excluded,omitempty"`
}

// ProfileStats describes the profile behind a ranking.
type ProfileStats struct {
	Sources   []string  `json:"sources"`
	Samples   int64     `json:"samples"`
	DurationS float64   `json:"duration_s"`
	GCFactor  float64   `json:"gc_factor"`         // see GCFactor
	TopCover  float64   `json:"top_cover"`         // % of CPU the reported findings' scores add up to
	Match     *float64  `json:"match,omitempty"`   // % of the profile's call-edge weight that still matches the source (see pgo check)
	Stale     []string  `json:"stale,omitempty"`   // hottest functions of the profile that no longer match
	Outside   []HotSpot `json:"outside,omitempty"` // hottest functions outside the module
	Inside    []HotSpot `json:"inside,omitempty"`  // hottest functions of the module, with or without findings

	// Benchmarks is the number of benchmarks whose profiles check
	// -bench measured (Sources is then the -bench flag).
	Benchmarks int `json:"benchmarks,omitempty"`
}

// A HotSpot is a function and its share of CPU, in percent.
type HotSpot struct {
	Function string  `json:"function"`
	Flat     float64 `json:"flat"`
	Cum      float64 `json:"cum"`
	// Findings is the number of findings shown in the function (for the
	// module's functions).
	Findings int `json:"findings,omitempty"`
}

// Report is the whole result of a check: the JSON document.
type Report struct {
	Findings []Finding `json:"findings"`
	Stats    Stats     `json:"stats"`
}

// tierRank orders tiers from hottest to coldest.
func tierRank(t string) int {
	switch t {
	case "hot-loop":
		return 0
	case "per-item":
		return 1
	case "unknown":
		return 2
	}
	return 3
}

// Retier gives the finding another tier, for the reason given; the
// message, which ends with the tier, follows.
func Retier(f *Finding, tier, reason string) {
	f.Tier, f.TierReason = tier, reason
	f.Message = f.Fields.Message()
}

// Rank orders findings without a profile for the default's cut
// (kind.Interleave) and numbers them. Each finding's estimated saving
// (Weight: the cost of one execution of its code, how often its tier
// runs, the odds that its advice removes the cost, lower in a command's
// code) is set as Saving; a finding of a kind that the same file has
// higher in the list counts for less, in proportion: the k-th of a kind
// in a file weighs 1/k of its saving, so that a pattern repeated through
// one file (a logger's fmt calls) shows its first cases beside other
// kinds, not all of them before any other. The order then takes turns
// between the next finding by saving and the best finding of the next
// function by spend (kind.Spend: the number of its findings, whatever
// their cost, tier or odds), within each package, since each package has
// its share of the default's budget. Ties are broken by tier, file,
// position and kind so that the order is deterministic. BySaving orders
// what is shown.
func Rank(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(Weight(&b), Weight(&a)),
			cmp.Compare(tierRank(a.Tier), tierRank(b.Tier)),
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Offset, b.Offset),
			cmp.Compare(a.Kind, b.Kind),
		)
	})
	type fileKind struct {
		file string
		kind kind.ID
	}
	seen := make(map[fileKind]int)
	for i := range fs {
		k := fileKind{fs[i].File, fs[i].Kind}
		seen[k]++
		fs[i].Saving = Weight(&fs[i]) / float64(seen[k])
	}
	// Stable: findings of equal saving keep the order above.
	slices.SortStableFunc(fs, func(a, b Finding) int { return cmp.Compare(b.Saving, a.Saving) })
	// The turns are taken within each package, whose share of the
	// default's budget is its own (see kind.Apportion): a package's
	// findings come in its own turns, and the packages' k-th turns
	// before any (k+1)-th, by saving.
	byPkg := make(map[string][]int)
	var pkgs []string
	for i := range fs {
		p := fs[i].Package
		if _, ok := byPkg[p]; !ok {
			pkgs = append(pkgs, p)
		}
		byPkg[p] = append(byPkg[p], i)
	}
	type place struct{ file, function string }
	turn := make([]int, len(fs))
	for _, p := range pkgs {
		idx := byPkg[p]
		order := kind.Interleave(len(idx), func(k int) place {
			f := &fs[idx[k]]
			if f.Function == "" {
				return place{file: f.File} // package level: one group per file
			}
			return place{function: f.Function}
		}, func(k int) float64 { return Spend(&fs[idx[k]]) })
		for t, k := range order {
			turn[idx[k]] = t
		}
	}
	type turned struct {
		turn int
		f    Finding
	}
	ts := make([]turned, len(fs))
	for i := range fs {
		ts[i] = turned{turn[i], fs[i]}
	}
	// Stable: within a turn, by saving.
	slices.SortStableFunc(ts, func(a, b turned) int { return cmp.Compare(a.turn, b.turn) })
	for i := range ts {
		fs[i] = ts[i].f
	}
	Number(fs)
}

// BySaving orders findings ranked without a profile (Rank) by their
// estimated saving, highest first, keeping the order of equal ones, and
// numbers them: the order in which they are printed, whichever question
// of Rank's took each for the default.
func BySaving(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int { return cmp.Compare(b.Saving, a.Saving) })
	Number(fs)
}

// Number numbers findings in their order, from 1: what the default's cut
// kept of a profile's ranking is numbered again so, as BySaving numbers
// the static one's.
func Number(fs []Finding) {
	for i := range fs {
		fs[i].Rank = i + 1
	}
}

// IsProgram reports whether the package named name at path is a
// command's code: a package main, or a package below a cmd directory of
// its module, where Go keeps commands and the packages only they use
// (golang.org/x/tools/cmd/signature-fuzzer/internal/fuzz-generator), or
// below a protoc plugin's directory, protoc-gen-* by protoc's convention
// (grpc-gateway's protoc-gen-openapiv2/internal/genopenapi).
func IsProgram(name, path string) bool {
	if name == "main" {
		return true
	}
	first, rest, _ := strings.Cut(path, "/")
	if !strings.Contains(first, ".") {
		return false // std: its cmd directory is the toolchain's
	}
	for elem := range strings.SplitSeq(rest, "/") {
		if elem == "cmd" || strings.HasPrefix(elem, "protoc-gen-") {
			return true
		}
	}
	return false
}

// relPath returns path relative to dir when it lies below it.
func relPath(dir, path string) string {
	if dir == "" {
		return path
	}
	if r, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}
