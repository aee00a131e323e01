package single

import "reflect"

// Equal is the only use of reflect in this file, so the fix removes the import.
func Equal(a, b []byte) bool {
	return reflect.DeepEqual(a, b) // want `use bytes.Equal`
}
