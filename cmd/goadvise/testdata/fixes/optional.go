package fixes

// A limit is an optional cap on a count, set from a parameter and tested
// for nil (optional).
type limit struct {
	max  *int
	hits int
}

// set caps the count at n.
//
//go:noinline
func (l *limit) set(n int) {
	l.max = &n
}

// clamp returns n, or the cap if one is set and n exceeds it.
func (l *limit) clamp(n int) int {
	if l.max != nil && n > *l.max {
		l.hits++
		return *l.max
	}
	return n
}

// clamped returns n capped at most, if most is positive.
func clamped(n, most int) int {
	var l limit
	if most > 0 {
		l.set(most)
	}
	return l.clamp(n)
}
