package comments

func sink(int) {}

// Cases whose bodies each say why they do what they do (Prometheus' promql
// engine): an automatic merge would leave one case's reason under the
// other's values, so the merge is left to the developer.
func skip(name string) bool {
	switch name {
	case "quantile", "fraction": // want `cases "quantile", ... and "changes" have the same body: .*; no automatic fix: the arms carry comments of their own`
		// These functions need the whole histogram.
		sink(1)
		return false
	case "changes":
		// Detecting a change compares whole histograms.
		sink(1)
		return false
	}
	return true
}

// A comment above a case belongs to it, and would go with the merge too.
func above(x int) int {
	switch x {
	case 1: // want `cases 1 and 2 have the same body: .*; no automatic fix: the arms carry comments`
		sink(x)
		return 10
	// Two is special for another reason.
	case 2:
		sink(x)
		return 10
	}
	return 0
}

// The same for the arms of an if and its else if.
func chain(x int) string {
	if x < 0 { // want `this if and the else if after it have the same body: .*; no automatic fix: the arms carry comments`
		// Negative values are clamped.
		sink(x)
		return "small"
	} else if x < 10 {
		// Small values are too.
		sink(x)
		return "small"
	}
	return "ok"
}

// The same comment in both arms is kept once: the cases are merged.
func same(x int) int {
	switch x {
	case 1: // want `cases 1 and 2 have the same body`
		// Both are logged.
		sink(x)
		return 10
	case 2:
		// Both are logged.
		sink(x)
		return 10
	}
	return 0
}

// Without comments, as before.
func plain(x int) int {
	switch x {
	case 1: // want `cases 1 and 2 have the same body`
		sink(x)
		return 10
	case 2:
		sink(x)
		return 10
	}
	return 0
}

// A case like the default that says why it is there is kept (Prometheus'
// checkpoint drops a record type it knows, and says why it may).
func drop(kind int) bool {
	switch kind {
	case 1:
		return true
	case 2:
		// The previous checkpoint's own copy: safe to drop.
		return false
	default:
		return false
	}
}

// So is one with a comment above it.
func dropAbove(kind int) bool {
	switch kind {
	case 1:
		return true
	// Two is dropped on purpose.
	case 2:
		return false
	default:
		return false
	}
}

// Branches that do the same thing but each say why are kept.
func both(c bool, x int) int {
	if c {
		// Cached: count it.
		x++
	} else {
		// Fresh: count it too.
		x++
	}
	return x
}

// An early return that says why it is there is kept.
func early(p []byte, n int) []byte {
	if n == len(p) {
		// The whole buffer: no copy.
		return p[:n]
	}
	return p[:n]
}
