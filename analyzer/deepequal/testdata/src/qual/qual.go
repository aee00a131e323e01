package qual

import (
	"reflect"

	in "qual/inner"
)

// Same compares values of another package's type, imported under
// another name: the message names the type as this file does (in.Point).
func Same(a, b in.Point) bool {
	return reflect.DeepEqual(a, b) // want `reflect\.DeepEqual on in\.Point uses reflection: use ==, which compares directly without allocating \[unknown: exported: how often its callers run it is not known\]`
}
