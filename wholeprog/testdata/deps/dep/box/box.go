// Package box is a generic container of package dep.
package box

import "reflect"

// Box holds a value of any type; a Box of the app's *Item has the app's
// Sink's method.
type Box[T any] struct{ v T }

// Put stores v.
func (b *Box[T]) Put(v T) { b.v = v }

// wrap is converted to an interface (by reflect.TypeOf); its field's
// type, Box[T], never is.
type wrap[T any] struct{ B Box[T] }

// New returns a *Box[T] made by reflection from wrap's field.
//
//go:noinline
func New[T any]() any {
	return reflect.New(reflect.TypeOf(wrap[T]{}).Field(0).Type).Interface()
}
