package report

import (
	"regexp"
	"strconv"
	"strings"
)

// Without a profile, findings of one tier are ordered by an estimate of
// what one execution of the code they name costs, in nanoseconds on a
// current amd64 machine. The figures are orders of magnitude, not
// measurements: they only need to put a reflective comparison or a
// regular expression compiled per call before a boxed integer, and a
// 4 KiB buffer before a 16-byte one. The first rule of the table whose
// analyzer matches (empty: any) and whose message contains the text
// (empty: any) gives the base cost; allocations add their size (see
// EstimateNS). docs/ranking.md describes the table.
var estimates = []struct {
	analyzer string
	text     string
	ns       float64
}{
	// Work redone per call that could be done once: compiling a regular
	// expression or parsing a template costs microseconds.
	{"percall", "regexp", 5000},
	{"percall", "template", 5000},
	{"percall", "map literal", 500},
	{"percall", "", 1000},
	// reflect.DeepEqual walks both values by reflection and boxes them.
	{"deepequal", "", 300},
	// Allocations, by what is allocated: a map allocates its header and
	// buckets; append growth copies and reallocates several times; a
	// call that allocates inside the callee usually allocates more than
	// one object; a boxed value or a moved variable is one small object.
	{"", "map[", 150},
	{"", "append", 100},
	{"", "calling ", 80},
	{"", "... argument", 50},
	{"", "moved to heap", 30},
	{"", "converted to an interface", 20},
	{"heapescape", "", 30},
	{"smallalloc", "", 30},
	{"loopalloc", "", 30},
	// A dynamic call the compiler could make direct and inline; a call
	// that could be inlined.
	{"devirt", "", 5},
	{"inlinebudget", "", 3},
	// A compare and a jump.
	{"redundantbranch", "", 1},
	{"", "", 10},
}

// allocSize finds the size of the allocation a message names: "(64
// bytes)" as heapescape reports a type's size, or a constant length in
// make([]byte, 4096).
var allocSize = regexp.MustCompile(`\((\d+) bytes\)|make\(\[\]byte, (\d+)\)`)

// EstimateNS returns the estimated cost of one execution of the code f
// names, in nanoseconds, from the table above, matched against the part
// of the message before its first "; " (what happens, not the advice).
// An allocation whose size
// the message gives costs a further nanosecond per 16 bytes: the
// allocator zeroes the memory and the collector's work grows with the
// bytes allocated.
func EstimateNS(f Finding) float64 {
	what, _, _ := strings.Cut(f.Message, "; ")
	if i := strings.LastIndex(what, " ["+f.Tier); i >= 0 && f.Tier != "" {
		// The tier's reason names functions ("called in a loop in
		// appendStep"): not what is allocated.
		what = what[:i]
	}
	ns := 10.0
	for _, e := range estimates {
		if (e.analyzer == "" || e.analyzer == f.Analyzer) && (e.text == "" || strings.Contains(what, e.text)) {
			ns = e.ns
			break
		}
	}
	if scoring[f.Analyzer] == scoreAlloc {
		if m := allocSize.FindStringSubmatch(f.Message); m != nil {
			n, _ := strconv.Atoi(m[1] + m[2])
			ns += float64(n) / 16
		}
	}
	return ns
}
