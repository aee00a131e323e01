// Package kind holds what goadvise knows about each kind of finding, and
// carries a finding's facts from the analyzer that reports it to the
// drivers that rank and print it.
//
// A kind is a stable ID ("heapescape/field-buffer") with its metadata:
// the principle it rests on, how a profile weighs it, what one execution
// of the code it names costs, whether it advises a change and whether a
// suggested fix makes that change. Each analyzer declares its kinds beside
// its code (its Kinds variable) and registers them.
//
// A finding's facts (its kind, tier, the compiler's cause and the sink of
// its escape flow, the callee and size where they apply, its estimated
// cost) travel as Fields, recorded by Report beside the diagnostic. The
// diagnostic's Category is the kind's ID, as go vet prints it; its message
// is for people and nothing reads it back.
package kind

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// An ID names a kind of finding: the analyzer's name, a slash, and a
// short name of the kind ("heapescape/field-buffer"). IDs are stable: JSON
// and SARIF output carry them, and configurations and CI scripts may
// name them.
type ID string

// Analyzer returns the name of the analyzer that reports findings of the
// kind.
func (id ID) Analyzer() string {
	a, _, _ := strings.Cut(string(id), "/")
	return a
}

// Scoring says how a profile weighs a finding: what share of the CPU
// fixing it can save.
type Scoring string

const (
	ScoreAlloc Scoring = "alloc" // the allocation work charged to the line, plus its share of GC
	ScoreUnder Scoring = "under" // the CPU under the callee (Fields.Callee) called from the line
	ScoreCum   Scoring = "cum"   // everything the line's calls cost
	ScoreFlat  Scoring = "flat"  // the CPU spent on the line itself
	ScoreFunc  Scoring = "func"  // the enclosing function's own CPU
)

// A Kind describes one kind of finding.
type Kind struct {
	ID    ID
	Title string // a short phrase: "a per-call buffer passed to a method that must not keep it"
	// Doc states the principle the kind rests on: when it applies, and
	// why the change it advises holds. It is the SARIF rule's help.
	Doc string

	Scoring Scoring
	// CostNS is the estimated cost of one execution of the code a
	// finding names, in nanoseconds on a current amd64 machine: an order
	// of magnitude, for ranking without a profile. Allocations add their
	// size (see Fields.Cost).
	CostNS float64

	// Rewrite says whether findings of the kind advise a change that
	// removes their cost. A kind without one explains a cost the code
	// has (the compiler's flow) and names no change.
	Rewrite bool
	// Mechanical says whether the analyzer offers a suggested fix that
	// makes the change, where the code allows it.
	Mechanical bool
	// Owns says that the change removes the compiler's heap allocations
	// within a finding's source range (the boxing of a DeepEqual call's
	// arguments, the make a buffer finding names): those are part of
	// the finding, not findings of their own.
	Owns bool
	// ChangesBehaviour says whether the change may change what the code
	// does (a finding says how, in Fields.Behaviour).
	ChangesBehaviour bool
}

var (
	mu       sync.RWMutex
	registry = make(map[ID]Kind)
)

// Register adds kinds to the registry. It panics on an ID registered
// twice or malformed, or a kind without a title or scoring: kinds are
// declared in code, and such a mistake is a bug.
func Register(kinds ...Kind) {
	mu.Lock()
	defer mu.Unlock()
	for _, k := range kinds {
		a, name, ok := strings.Cut(string(k.ID), "/")
		if !ok || a == "" || name == "" || strings.ContainsAny(name, "/ ") {
			panic(fmt.Sprintf("kind: malformed ID %q", k.ID))
		}
		if _, dup := registry[k.ID]; dup {
			panic(fmt.Sprintf("kind: %s registered twice", k.ID))
		}
		if k.Title == "" || k.Doc == "" || k.Scoring == "" {
			panic(fmt.Sprintf("kind: %s needs a title, a doc and a scoring", k.ID))
		}
		registry[k.ID] = k
	}
}

// Lookup returns the kind registered with id.
func Lookup(id ID) (Kind, bool) {
	mu.RLock()
	defer mu.RUnlock()
	k, ok := registry[id]
	return k, ok
}

// All returns the registered kinds, sorted by ID.
func All() []Kind {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]Kind, 0, len(registry))
	for _, k := range registry {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Kind) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return out
}
