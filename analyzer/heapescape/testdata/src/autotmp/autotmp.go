// Package autotmp passes the results of calls on whole into interfaces:
// the compiler copies each converted result through a temporary of its
// own, which the findings name by the result's type and the call.
package autotmp

type point struct{ x, y, z int }

//go:noinline
func ints() ([]int, error) { return make([]int, 2), nil } // want `make\(\[\]int, 2\) escapes to heap`

//go:noinline
func pair() (string, point, error) { return "", point{}, nil }

// Returned: the one result converted, of two.
func Returned() (any, error) {
	return ints() // want `^the \[\]int result of ints\(\) escapes to heap`
}

// Both: two results converted; the finding names the one the compiler's
// flow is about, by its place among the temporaries the flow passes on.
func Both() (any, any, error) {
	return pair() // want `^the (string|point) result of pair\(\) escapes to heap`
}

var sink any

//go:noinline
func keep(v any, err error) { sink = v }

// Passed: the results passed on to a call's parameters.
func Passed() {
	keep(ints()) // want `^the \[\]int result of ints\(\) escapes to heap`
}

var global any

// Assigned: the results assigned to variables.
func Assigned() error {
	var err error
	global, err = ints() // want `^the \[\]int result of ints\(\) escapes to heap`
	return err
}
