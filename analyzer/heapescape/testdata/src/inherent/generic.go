package inherent

// Generic code: the size of a value whose type holds a type parameter is
// not known before instantiation (types.Sizes panics on it), and the
// compiler names its values as compiled for a shape ("pair[go.shape.int]",
// "new(<node DYNAMICTYPE>)"): the messages give the source. The functions
// are inlined at each of their calls, where the allocations are reported;
// their own compiled bodies never run, and are not.

type pair[T any] struct{ a, b T }

var sinkAny any

// boxPairs boxes a pair of T per item.
func boxPairs[T any](xs []T) {
	for _, x := range xs {
		sinkAny = pair[T]{x, x}
	}
}

// newPairs allocates a pair of T per item.
func newPairs[T any](xs []T) {
	for _, x := range xs {
		sinkAny = &pair[T]{x, x}
	}
}

// newTs allocates a T per item.
func newTs[T any](xs []T) []*T {
	var out []*T
	for _, x := range xs {
		p := new(T)
		*p = x
		out = append(out, p) // idiom/presize's
	}
	return out
}

// wrap boxes a struct whose sole field is a T.
func wrap[T any](xs []T) {
	for _, x := range xs {
		sinkAny = struct{ v T }{x}
	}
}

// Instances compiles the functions above for int, inlining them.
func Instances(xs []int) {
	boxPairs(xs)  // want `calling boxPairs allocates \(inlined\): pair\[T\]\{\.\.\.\} escapes to heap because it is stored in sinkAny; no known rewrite: the code keeps it; storing it by value would change every use of what holds it \[hot-loop: inside a loop of the inlined boxPairs\[\.\.\.\]\]`
	newPairs(xs)  // want `^calling newPairs allocates \(inlined\): &pair\[T\]\{\.\.\.\} escapes to heap`
	_ = newTs(xs) // want `^calling newTs allocates \(inlined\): new\(T\) escapes to heap`
	wrap(xs)      // want `^calling wrap allocates \(inlined\): struct\{v T\}\{\.\.\.\} escapes to heap`
}

// StringInstances compiles boxPairs for string, another shape: its
// allocation is reported once.
func StringInstances(xs []string) {
	boxPairs(xs) // want `^calling boxPairs allocates \(inlined\): pair\[T\]\{\.\.\.\} escapes to heap`
}
