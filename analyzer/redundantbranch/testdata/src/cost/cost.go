// Package cost holds redundant branches that do and do not cost more
// than a compare: by default only the first are reported.
package cost

import "strings"

// Kind says what a value is.
type Kind int

const (
	Plain Kind = iota
	Quoted
	Raw
)

// Width's case Plain does the same as the default: deleting it saves a
// compare of a constant, which is reported only with -all.
func Width(k Kind, s string) int {
	switch k {
	case Plain:
		return len(s)
	case Quoted:
		return len(s) + 2
	default:
		return len(s)
	}
}

// Trim's early return computes the same as the code after it, and its
// condition calls a function: deleting the if saves the call.
func Trim(s string) string {
	if strings.HasPrefix(s, " ") { // want `this if does the same as the code after it, so the condition's call of strings.HasPrefix is wasted work: delete the if`
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(s)
}

// Lookup's condition indexes a map: deleting the if saves the lookup.
func Lookup(m map[string]int, k string, n int) int {
	if m[k] > 0 { // want `this if does the same as the code after it, so the condition's map lookup m\[k\] is wasted work`
		return n + 1
	}
	return n + 1
}

// Sign's condition is a compare of a variable: only -all reports it.
func Sign(n int) int {
	if n == 0 {
		return 1
	}
	return 1
}
