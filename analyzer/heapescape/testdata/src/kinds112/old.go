// Package kinds112 is a module whose go.mod says go 1.12: package slices
// and the clear builtin (go1.21) do not exist for it, so the advice and
// the fixes use the older spelling, or there is no fix and the message
// says why.
package kinds112

import "sort"

type byName []string

func (s byName) Len() int           { return len(s) }
func (s byName) Less(i, j int) bool { return s[i] < s[j] }
func (s byName) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

// Sorted sorts with sort.Sort, which boxes the slice in an interface.
func Sorted(names []string) []string {
	sort.Sort(byName(names)) // want `call slices\.SortFunc .*; no automatic fix: package slices needs go1\.21 and this file is go1\.12`
	return names
}

type Index struct {
	seen map[string]bool
}

// Add re-makes a map it keeps, once per item: the map is emptied with the
// loop of deletes the compiler turns into one call.
func (x *Index) Add(words []string) int {
	x.seen = make(map[string]bool) // want `clear x\.seen and reuse it instead of making a new map each time \(if x\.seen == nil \{ x\.seen = make\(map\[string\]bool\) \} else \{ for k := range x\.seen \{ delete\(x\.seen, k\) \} \}\)`
	for _, w := range words {
		x.seen[w] = true
	}
	return len(x.seen)
}
