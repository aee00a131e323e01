package p

import "reflect"

func same(a, b []byte) bool {
	return reflect.DeepEqual(a, b) // want `use bytes.Equal`
}

func quiet(a, b []byte) bool {
	return reflect.DeepEqual(a, b) //nolint:goadvise // measured: cold
}
