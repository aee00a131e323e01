package a

// NOTE: THIS FILE WAS PRODUCED BY A CODE GENERATION TOOL,
// as tools wrote before Go's marker.
// DO NOT EDIT

import "sort"

// LegacySorted's allocations are not reported: the file is generated.
func LegacySorted(xs []int) []int {
	ys := append([]int(nil), xs...)
	sort.Slice(ys, func(i, j int) bool { return ys[i] < ys[j] })
	return ys
}
