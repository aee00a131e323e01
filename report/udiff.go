package report

// UnifiedDiff returns the unified diff, with three lines of context, that
// turns a into b, headed "--- aName" and "+++ bName"; it is empty when a
// and b are equal. It is the diff that check -diff prints.
func UnifiedDiff(aName, bName, a, b string) string {
	return unified(aName, bName, a, b)
}
