package many

import "reflect"

func Same(a, b []byte) bool {
	return reflect.DeepEqual(a, b)
}

func Equal(a, b []byte) bool { // per-item by its name: ranked first
	return reflect.DeepEqual(a, b) // want `use bytes.Equal`
}
