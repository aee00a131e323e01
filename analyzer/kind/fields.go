package kind

import (
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Tiers are the hot-path tiers a finding can have (its Fields.Tier), from
// the hottest: hotpath's estimate of how often its code runs.
var Tiers = []string{"hot-loop", "per-item", "unknown", "cold"}

// Fields are a finding's facts, as data: what drivers rank, merge, hide
// and print by. An analyzer fills them in for each diagnostic it reports
// (see Report); nothing reads them back from the message.
type Fields struct {
	Kind ID `json:"kind"`

	// Tier is the hot-path tier ("hot-loop", "per-item", "unknown",
	// "cold") and TierReason why ("called in a loop in kv.Get").
	Tier       string `json:"tier"`
	TierReason string `json:"tier_reason,omitempty"`

	// Class qualifies a finding whose cost cannot be removed by a change
	// of the code it names, when that is proven: "inherent" for the
	// value a function exists to return and its callers keep, or data
	// stored in a container that outlives the call. Such findings rank
	// low; nothing is hidden for its class.
	Class string `json:"class,omitempty"`

	// Cause is the compiler's reason for an allocation ("interface
	// conversion", "append growth"); Sink is where its escape flow ends
	// ("return", "dynamic-call", "closure", "field", ...: see package
	// optlog's Sink), and Flow the compiler's explanation of that flow.
	Cause string `json:"cause,omitempty"`
	Sink  string `json:"sink,omitempty"`
	Flow  string `json:"flow,omitempty"`

	// Callee is the function whose call the finding is about: the
	// function inlined at the line that allocates (Inlined), or the one
	// whose cost the fix removes (reflect.DeepEqual).
	Callee  string `json:"callee,omitempty"`
	Inlined bool   `json:"inlined,omitempty"`

	// Size is the size in bytes of what is allocated, when known.
	Size int64 `json:"size,omitempty"`

	// Text is the message without its tier: what, why, and what to
	// change. Advice is the part that says what to change, so that two
	// findings with the same advice can say so.
	Text   string `json:"text"`
	Advice string `json:"advice,omitempty"`

	// Blocked says what stands in the way of the advised change, when
	// the analyzer found something that may (a person must judge): the
	// finding still advises the change, with lower odds (see Weight).
	Blocked string `json:"blocked,omitempty"`

	// Group, when set, names the one change that several findings of a
	// function share whatever their lines (the arguments of one fmt call
	// written over several lines): they are one finding.
	Group string `json:"group,omitempty"`

	// API says that the change alters the package's exported API (a
	// result type, a field of an exported struct): maintainers of a
	// library seldom make such a change for speed alone.
	API bool `json:"api,omitempty"`

	// Behaviour says how the change alters what the code does, when it
	// does ("a nil and an empty slice compare equal").
	Behaviour string `json:"behaviour,omitempty"`

	// Owns says that the change removes the compiler's heap allocations
	// within the finding's source range, which are then part of it.
	Owns bool `json:"owns,omitempty"`

	// Amortized says that the code runs only when its own condition finds
	// what it fills missing or too small ("if d.buf == nil", "if cap(b)
	// < n"): once per owner, or per growth, not on every run of its
	// function. It adds nothing to its function's spend (see Spend).
	Amortized bool `json:"amortized,omitempty"`

	// Scoring, Rewrite and Owns are copied from the kind by Report, and CostNS
	// too (see Cost) unless the analyzer knows better (a branch whose
	// condition makes a call saves more than one that compares).
	Scoring Scoring `json:"scoring,omitempty"`
	CostNS  float64 `json:"cost_ns,omitempty"`
	Rewrite bool    `json:"rewrite,omitempty"`
}

// What returns the finding's text without its advice: what allocates or
// costs, and why.
func (f *Fields) What() string {
	if f.Advice != "" {
		if w, ok := strings.CutSuffix(f.Text, "; "+f.Advice); ok {
			return w
		}
	}
	return f.Text
}

// Message returns the diagnostic message of a finding with these fields:
// its text, then its tier and the tier's reason in brackets, as every
// driver prints it.
func (f *Fields) Message() string {
	return Message(f.Text, f.Tier, f.TierReason)
}

// Message returns text followed by the tier and its reason in brackets:
// "...; hoist it [hot-loop: inside a loop]".
func Message(text, tier, reason string) string {
	if tier == "" {
		return text
	}
	if reason == "" {
		return text + " [" + tier + "]"
	}
	return text + " [" + tier + ": " + reason + "]"
}

// A Collector holds the fields of the diagnostics reported on one package,
// by every analyzer that reports through Report. It is the result of
// Analyzer; drivers read it (see Lookup) beside the diagnostics.
type Collector struct {
	mu     sync.Mutex
	fields map[key]Fields
}

// key identifies a diagnostic of a package: no two findings of one kind
// start and end at the same place with the same text.
type key struct {
	category string
	pos, end int
	message  string
}

func keyOf(d *analysis.Diagnostic) key {
	return key{d.Category, int(d.Pos), int(d.End), d.Message}
}

// Lookup returns the fields recorded for d, a diagnostic reported through
// Report on the collector's package.
func (c *Collector) Lookup(d analysis.Diagnostic) (Fields, bool) {
	if c == nil {
		return Fields{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.fields[keyOf(&d)]
	return f, ok
}

func (c *Collector) add(d *analysis.Diagnostic, f Fields) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fields[keyOf(d)] = f
}

// Analyzer reports nothing; its result, a *Collector, holds the fields of
// the findings that the other analyzers report on a package. Every
// analyzer that reports through Report requires it.
var Analyzer = &analysis.Analyzer{
	Name:       "kinds",
	Doc:        "collect the fields of goadvise's findings (used by the other goadvise analyzers)",
	URL:        "https://pkg.go.dev/github.com/goadvise/goadvise/analyzer/kind",
	Run:        func(*analysis.Pass) (any, error) { return &Collector{fields: make(map[key]Fields)}, nil },
	ResultType: reflect.TypeFor[*Collector](),
}

// Report reports d, a finding with the fields f, on pass: the category
// becomes the kind's ID, the message f's text with its tier, and f (with
// the kind's scoring, cost and rewrite) is recorded in the pass's
// Collector when the analyzer requires Analyzer. It panics if f's kind is
// not registered: kinds are declared in code.
func Report(pass *analysis.Pass, d analysis.Diagnostic, f Fields) {
	Complete(&f)
	d.Category = string(f.Kind)
	d.Message = f.Message()
	if c, ok := pass.ResultOf[Analyzer].(*Collector); ok {
		c.add(&d, f)
	}
	pass.Report(d)
}

// Complete copies into f what its kind says of every finding of the
// kind: how a profile scores it, whether it advises a rewrite, and, unless
// f has one already, its estimated cost (see Cost). It panics if f's kind
// is not registered: kinds are declared in code.
func Complete(f *Fields) {
	k, ok := Lookup(f.Kind)
	if !ok {
		panic("kind: a finding of the unregistered kind " + string(f.Kind))
	}
	f.Scoring, f.Rewrite, f.Owns = k.Scoring, k.Rewrite, k.Owns
	if f.CostNS == 0 {
		size := f.Size
		if f.Amortized {
			// Paid once per growth of what it fills, not on each run:
			// a run costs the kind's base at most, however large.
			size = 0
		}
		f.CostNS = Cost(k, size)
	}
}

// Cost returns the estimated cost of one execution of the code a finding
// of kind k names, for an allocation of size bytes (0 if unknown or not
// an allocation): the kind's cost, plus a nanosecond per 16 bytes of an
// allocation, since the allocator zeroes the memory and the collector's
// work grows with the bytes allocated.
func Cost(k Kind, size int64) float64 {
	ns := k.CostNS
	if k.Scoring == ScoreAlloc && size > 0 {
		ns += float64(size) / 16
	}
	return ns
}

// Of returns the fields recorded for d, a diagnostic reported through
// Report on pass's package by an analyzer that requires Analyzer (for
// tests, which see the diagnostics of analysistest's passes).
func Of(pass *analysis.Pass, d analysis.Diagnostic) (Fields, bool) {
	c, _ := pass.ResultOf[Analyzer].(*Collector)
	return c.Lookup(d)
}
