package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/analyzer/kind"
)

// A Related is another place of a finding's one cost: a diagnostic that
// Merge folded into the finding, shown with it instead of on its own.
type Related struct {
	Analyzer string  `json:"analyzer"`
	Kind     kind.ID `json:"kind,omitempty"`
	File     string  `json:"file"` // absolute path
	Line     int     `json:"line"`
	Column   int     `json:"column"`
	Message  string  `json:"message"`
	// What and Advice are the folded finding's message without its tier:
	// what it reports, and what it advises ("" if nothing of its own),
	// so that the same advice is said once (see RelatedText).
	What       string `json:"what,omitempty"`
	Advice     string `json:"advice,omitempty"`
	Tier       string `json:"tier,omitempty"`
	TierReason string `json:"tier_reason,omitempty"`
}

// Merge makes one finding of the findings that describe one cost, so that
// one problem is reported once:
//
//   - an allocation the compiler reports (a finding with a Cause that is
//     not an owner) inside the source range of a finding whose kind owns
//     the allocations there (kind.Kind.Owns: the escapes of DeepEqual's
//     arguments go away with the deepequal fix; smallalloc names the same
//     make as the compiler's escape; byvalue and optional name the
//     variable the compiler moves to the heap) belongs to it;
//   - allocations on one line of one function with the same kind, cause
//     and sink are one finding, at the first of them; so are those
//     of one function in one Group (the arguments of one call written over
//     several lines, whatever the compiler says of each argument's
//     escape).
//
// The folded findings become the survivor's Related locations. The order
// of the survivors is kept. An allocation folded into an owner that
// advises a rewrite keeps the compiler's reason in its Related message,
// not its own advice.
func Merge(fs []Finding) []Finding {
	folded := make([]bool, len(fs))
	// Owners first, innermost (shortest) range first, so that an escape
	// goes to the narrowest finding that contains it.
	var own []int
	for i, f := range fs {
		if f.Owns {
			own = append(own, i)
		}
	}
	slices.SortStableFunc(own, func(a, b int) int { return cmp.Compare(extent(fs[a]), extent(fs[b])) })
	isAlloc := func(f *Finding) bool { return f.Cause != "" && !f.Owns }
	// The owners that may contain a position, by file and line, in that
	// order: going through all of them for each escape took time
	// quadratic in the findings of a large package.
	type fileLine struct {
		file string
		line int
	}
	covering := make(map[fileLine][]int)
	for _, o := range own {
		last, _ := end(fs[o])
		for l := fs[o].Line; l <= last; l++ {
			k := fileLine{fs[o].File, l}
			covering[k] = append(covering[k], o)
		}
	}
	for i := range fs {
		h := &fs[i]
		if !isAlloc(h) {
			continue
		}
		for _, o := range covering[fileLine{h.File, h.Line}] {
			if contains(&fs[o], h) {
				r := related(*h)
				if !h.Rewrite && fs[o].Rewrite {
					// The owner says the allocation can go; the
					// compiler's reason for it still helps, the
					// judgement that nothing removes it does not.
					r.Message, r.Advice = kind.Message(h.What(), h.Tier, h.TierReason), ""
				}
				fs[o].Related = append(fs[o].Related, r)
				folded[i] = true
				break
			}
		}
	}
	// Allocations of one cost on one line, or in one group.
	type lineKey struct {
		file, fn, cost string
		line           int
	}
	first := make(map[lineKey]int)
	for i := range fs {
		h := fs[i]
		if folded[i] || !isAlloc(&h) {
			continue
		}
		k := lineKey{h.File, h.Function, sameCost(h), h.Line}
		if h.Group != "" {
			k.cost, k.line = string(h.Kind)+"\x00"+h.Group, 0
		}
		j, seen := first[k]
		if !seen {
			first[k] = i
			continue
		}
		if h.Line < fs[j].Line || h.Line == fs[j].Line && h.Column < fs[j].Column {
			// The first is the finding; the other is folded.
			fs[i], fs[j] = fs[j], fs[i]
			fs[j].Related, fs[i].Related = fs[i].Related, nil
		}
		fs[j].Related = append(fs[j].Related, related(fs[i]))
		folded[i] = true
	}
	out := fs[:0]
	for i, f := range fs {
		if !folded[i] {
			slices.SortFunc(f.Related, func(a, b Related) int {
				return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
			})
			out = append(out, f)
		}
	}
	return out
}

// sameCost returns what allocation findings on one line share when they
// are one cost: the allocations of one inlined call at one column, or else
// the kind, and the compiler's cause and sink.
func sameCost(h Finding) string {
	if h.Inlined {
		return fmt.Sprintf("%s@%d", h.Callee, h.Column)
	}
	return strings.Join([]string{string(h.Kind), h.Cause, h.Sink, h.Callee}, "\x00")
}

func related(f Finding) Related {
	return Related{Analyzer: f.Analyzer, Kind: f.Kind, File: f.File, Line: f.Line, Column: f.Column, Message: f.Message,
		What: f.What(), Advice: f.Advice, Tier: f.Tier, TierReason: f.TierReason}
}

// end returns the end of f's range as a line and column; a finding without
// one covers its start only.
func end(f Finding) (line, col int) {
	if f.EndLine == 0 {
		return f.Line, f.Column
	}
	return f.EndLine, f.EndColumn
}

// extent orders ranges by size: lines first, then columns.
func extent(f Finding) int {
	l, c := end(f)
	return (l-f.Line)<<16 + c - f.Column
}

// contains reports whether h's position lies in o's range.
func contains(o, h *Finding) bool {
	if o.File != h.File {
		return false
	}
	el, ec := end(*o)
	after := h.Line > o.Line || h.Line == o.Line && h.Column >= o.Column
	before := h.Line < el || h.Line == el && h.Column <= ec
	return after && before
}
