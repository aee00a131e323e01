package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// A Related is another place of a finding's one cost: a diagnostic that
// Merge folded into the finding, shown with it instead of on its own.
type Related struct {
	Analyzer string `json:"analyzer"`
	File     string `json:"file"` // absolute path
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
}

// owners are the analyzers whose findings name an allocation or a call
// whose heap escapes are part of what the finding is about: the boxing of
// reflect.DeepEqual's arguments, the make a smallalloc, percall or
// loopalloc fix removes, the struct a byvalue fix returns by value, the
// local whose address an optional fix no longer stores.
var owners = map[string]bool{"deepequal": true, "smallalloc": true, "percall": true, "loopalloc": true, "byvalue": true, "optional": true}

// Merge makes one finding of the findings that describe one cost, so that
// one problem is reported once:
//
//   - a heapescape finding inside the source range of a deepequal,
//     smallalloc, percall, loopalloc, byvalue or optional finding belongs
//     to it (the escapes of DeepEqual's arguments go away with the
//     deepequal fix; smallalloc names the same make as the compiler's
//     escape; byvalue and optional name the variable the compiler moves
//     to the heap);
//   - heapescape findings on one line of one function with the same cause
//     (the text after "because") are one finding, at the first of them;
//     so are those of one function that give one rewrite of the call
//     ("write a + strconv.Itoa(n) instead of fmt.Sprintf"), whatever
//     their lines (the arguments of one call written over several lines)
//     and whatever the compiler says of each argument's escape.
//
// The folded findings become the survivor's Related locations. The order
// of the survivors is kept. An escape heapescape judged inherent that a
// byvalue or optional finding removes keeps the compiler's reason in its
// Related message, not that judgement.
func Merge(fs []Finding) []Finding {
	folded := make([]bool, len(fs))
	// Owners first, innermost (shortest) range first, so that an escape
	// goes to the narrowest finding that contains it.
	var own []int
	for i, f := range fs {
		if owners[f.Analyzer] {
			own = append(own, i)
		}
	}
	slices.SortStableFunc(own, func(a, b int) int { return cmp.Compare(extent(fs[a]), extent(fs[b])) })
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
		if h.Analyzer != "heapescape" {
			continue
		}
		for _, o := range covering[fileLine{h.File, h.Line}] {
			if contains(&fs[o], h) {
				r := related(*h)
				if h.Class == "inherent" && fs[o].Class != "inherent" {
					// The owner says the allocation can go; the
					// compiler's reason for it still helps, the
					// judgement that it cannot does not.
					r.Message = dropInherent(r.Message)
				}
				fs[o].Related = append(fs[o].Related, r)
				folded[i] = true
				break
			}
		}
	}
	// Escapes with one cause on one line.
	type lineKey struct {
		file, fn, cause string
		line            int
	}
	first := make(map[lineKey]int)
	for i := range fs {
		h := fs[i]
		if folded[i] || h.Analyzer != "heapescape" {
			continue
		}
		cause, ok := sameCost(h)
		if !ok {
			continue
		}
		k := lineKey{h.File, h.Function, cause, h.Line}
		if _, rewrite, ok := strings.Cut(cause, "; write "); ok && strings.Contains(rewrite, " instead of ") {
			// One rewrite of one call, whatever the line of each
			// argument and however the compiler explains its
			// escape: an int boxed, a call's result converted.
			k.cause, k.line = rewrite, 0
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

// sameCost returns what heapescape findings on one line share when they
// are one cost: the allocations of one inlined call ("calling F allocates
// (inlined): ...") at one column, or else the cause, the text after
// "because".
func sameCost(h Finding) (string, bool) {
	if call, _, ok := strings.Cut(h.Message, " allocates (inlined): "); ok {
		return fmt.Sprintf("%s@%d", call, h.Column), true
	}
	_, cause, ok := strings.Cut(h.Message, " because ")
	return cause, ok
}

// dropInherent removes heapescape's "; inherent: why" from msg, which it
// writes before the tier in brackets.
func dropInherent(msg string) string {
	i := strings.Index(msg, "; inherent: ")
	if i < 0 {
		return msg
	}
	j := strings.Index(msg[i:], " [")
	if j < 0 {
		return msg[:i]
	}
	return msg[:i] + msg[i+j:]
}

func related(f Finding) Related {
	return Related{Analyzer: f.Analyzer, File: f.File, Line: f.Line, Column: f.Column, Message: f.Message}
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
