package shadow

import (
	"bytes"
	"reflect"
)

// The file already imports bytes: the fix reuses it.
func Same(a, b []byte) bool {
	return reflect.DeepEqual(a, b) || bytes.HasPrefix(a, b) // want `use bytes.Equal`
}

// A local variable named slices hides the package: no fix is offered.
func Shadowed(a, b []int) bool {
	slices := len(a)
	_ = slices
	return reflect.DeepEqual(a, b) // want `use slices.Equal`
}
