// Package dep is a dependency of the app module: the whole-program passes
// read it from export data, without the bodies of its functions.
package dep

import (
	"reflect"

	"example.com/dep/internal/impl"
)

// holder is converted to an interface (by reflect.TypeOf); its field's
// type, impl.Heavy, never is.
type holder struct{ H impl.Heavy }

// Make returns an impl.Heavy made by reflection from holder's field: no
// conversion of an impl.Heavy to an interface appears in any code.
//
//go:noinline
func Make() any {
	return reflect.New(reflect.TypeOf(holder{}).Field(0).Type).Elem().Interface()
}
