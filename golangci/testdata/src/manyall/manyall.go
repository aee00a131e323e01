package manyall

import "reflect"

func Same(a, b []byte) bool {
	return reflect.DeepEqual(a, b) // want `use bytes.Equal`
}

func Equal(a, b []byte) bool {
	return reflect.DeepEqual(a, b) // want `use bytes.Equal`
}
