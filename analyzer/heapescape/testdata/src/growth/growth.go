// Package growth has appends to slices made with a capacity: those whose
// loop cannot append more than the capacity never grow the slice, and
// are not reported; the others are.
package growth

// Item is a value a loop appends.
type Item struct{ name string }

// Kept keeps the items that pass: at most len(items), the capacity.
func Kept(items []Item, ok func(Item) bool) []Item {
	out := make([]Item, 0, len(items)) // want `make\(\[\]Item, 0, len\(items\)\) escapes`
	for _, it := range items {
		if ok(it) {
			out = append(out, it)
		}
	}
	return out
}

// Counted appends n values to a slice made for n.
func Counted(n int, next func() Item) []Item {
	s := make([]Item, 0, n) // want `make\(\[\]Item, 0, n\) escapes`
	for i := 0; i < n; i++ {
		s = append(s, next())
	}
	return s
}

// Keys appends one key per entry of a map, declared with var.
func Keys(m map[string]int) []string {
	var keys = make([]string, 0, len(m)) // want `make\(\[\]string, 0, len\(m\)\) escapes`
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// Ints ranges over an integer.
func Ints(n int) []int {
	s := make([]int, 0, n) // want `make\(\[\]int, 0, n\) escapes`
	for i := range n {
		s = append(s, i*i)
	}
	return s
}

// Twice appends two elements per item into room for one each: it grows.
func Twice(items []Item) []Item {
	out := make([]Item, 0, len(items)) // want `make\(\[\]Item, 0, len\(items\)\) escapes`
	for _, it := range items {
		out = append(out, it) // want `append\(out, it\) escapes to heap because append grows it.*the slice is presized`
		out = append(out, it) // want `append\(out, it\) escapes to heap because append grows it.*the slice is presized`
	}
	return out
}

// Half makes room for half the items.
func Half(items []Item) []Item {
	out := make([]Item, 0, len(items)/2) // want `make\(\[\]Item, 0, len\(items\) / 2\) escapes`
	for _, it := range items {
		out = append(out, it) // want `append\(out, it\) escapes to heap because append grows it.*the slice is presized`
	}
	return out
}

// More counts past the capacity: n changes between the make and the loop.
func More(n int, next func() Item) []Item {
	s := make([]Item, 0, n) // want `make\(\[\]Item, 0, n\) escapes`
	n++
	for i := 0; i < n; i++ {
		s = append(s, next()) // want `append\(s, next\(\)\) escapes to heap because append grows it.*the slice is presized`
	}
	return s
}

// Nested appends in an inner loop: per outer item, any number.
func Nested(groups [][]Item) []Item {
	out := make([]Item, 0, len(groups)) // want `make\(\[\]Item, 0, len\(groups\)\) escapes`
	for _, g := range groups {
		for _, it := range g {
			out = append(out, it) // want `append\(out, it\) escapes to heap because append grows it.*the slice is presized`
		}
	}
	return out
}

// Open reads the bound again between the make and the loop (zap's open):
// it keeps its value.
func Open(paths []string, open func(string) (Item, error)) ([]Item, []string) {
	items := make([]Item, 0, len(paths))   // want `make\(\[\]Item, 0, len\(paths\)\) escapes`
	names := make([]string, 0, len(paths)) // want `make\(\[\]string, 0, len\(paths\)\) escapes`
	for _, p := range paths {
		it, err := open(p)
		if err != nil {
			continue
		}
		items = append(items, it)
		names = append(names, p)
	}
	return items, names
}

// Shift changes the bound between the make and the loop.
func Shift(paths []string) []string {
	out := make([]string, 0, len(paths)) // want `make\(\[\]string, 0, len\(paths\)\) escapes`
	paths = append(paths, "extra")
	for _, p := range paths {
		out = append(out, p) // want `append\(out, p\) escapes to heap because append grows it.*the slice is presized`
	}
	return out
}
