// Package old is a module whose go.mod says go 1.12: package slices and
// maps (go1.21) do not exist for it, so their fixes are not offered,
// while bytes.Equal and == still are.
package old

import "reflect"

// Ints compares two slices.
func Ints(a, b []int) bool {
	return reflect.DeepEqual(a, b) // want `use slices.Equal, .*; no automatic fix: slices.Equal needs go1.21 and this file is go1.12`
}

// Maps compares two maps.
func Maps(a, b map[string]int) bool {
	return reflect.DeepEqual(a, b) // want `use maps.Equal, .*; no automatic fix: maps.Equal needs go1.21 and this file is go1.12`
}

// Bytes compares two byte slices.
func Bytes(a, b []byte) bool {
	return reflect.DeepEqual(a, b) // want `use bytes.Equal`
}

// Points compares two structs.
func Points(a, b struct{ X, Y int }) bool {
	return reflect.DeepEqual(a, b) // want `use ==`
}
