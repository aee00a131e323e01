// Package gen uses generics and method values, which the call graph must
// handle.
package gen

type List[T any] struct{ items []T }

func (l *List[T]) Each(f func(T)) {
	for _, x := range l.items {
		f(x)
	}
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type Counter struct{ n int }

func (c *Counter) Add(x int) { c.n += x }

// Count passes a method value to a generic method.
func Count(l *List[int]) int {
	var c Counter
	l.Each(c.Add)
	return c.n
}

// Lens maps with a generic function.
func Lens(xs []string) []int { return Map(xs, func(s string) int { return len(s) }) }
