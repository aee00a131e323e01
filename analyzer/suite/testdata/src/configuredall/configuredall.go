package configuredall

import "reflect"

// Same runs per item (its callers loop over items).
func Same(a, b []int) bool {
	return reflect.DeepEqual(a, b) // want `reflect.DeepEqual on \[\]int .*\[hot-loop: profile`
}

// Setup runs once.
func Setup(a, b map[string]int) bool {
	return reflect.DeepEqual(a, b) // want `reflect.DeepEqual on map\[string\]int .*\[cold: never sampled in the profile\]`
}
