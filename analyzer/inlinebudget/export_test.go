package inlinebudget

import "slices"

// LookUps returns how many times the analyzer has called
// optlog.PackageRecords since ResetLookUps, and the packages it looked up,
// sorted.
func LookUps() (int64, []string) {
	external.Lock()
	defer external.Unlock()
	var paths []string
	for p := range external.m {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return lookUps.Load(), paths
}

// ResetLookUps forgets the records looked up so far.
func ResetLookUps() {
	external.Lock()
	defer external.Unlock()
	external.m = make(map[string]recordIndex)
	lookUps.Store(0)
}
