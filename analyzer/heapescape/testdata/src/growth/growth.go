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

// makeNames makes a slice for n names, at most a limit: the caller's, or
// a new one.
func makeNames(s []string, n int) []string {
	if n > 1024 {
		n = 1024
	}
	if cap(s) >= n {
		return s[:0]
	}
	return make([]string, 0, n)
}

// Names presizes its slice through makeNames: the append grows it only
// past the capacity makeNames chose.
func Names(dst []string, n int, next func() string) []string {
	s := makeNames(dst, n) // want `calling makeNames allocates \(inlined\)`
	for i := 0; i < n; i++ {
		s = append(s, next()) // want `append\(s, next\(\)\) escapes to heap because append grows it.*the slice is presized`
	}
	return s
}

// A pool makes buffers of a size.
type pool struct{ size int }

// get makes a buffer with the pool's capacity.
func (p *pool) get() []byte { return make([]byte, 0, p.size) }

// Fill presizes its buffer through a method.
func (p *pool) Fill(n int, b byte) []byte {
	buf := p.get() // want `calling \(\*pool\).get allocates \(inlined\)`
	for range n {
		buf = append(buf, b) // want `append\(buf, b\) escapes to heap because append grows it.*the slice is presized`
	}
	return buf
}

// emptyIDs makes a slice with no capacity: nothing is presized.
func emptyIDs() []int { return make([]int, 0) }

// IDs grows a slice that emptyIDs made without capacity.
func IDs(n int) []int {
	ids := emptyIDs()
	for i := range n {
		ids = append(ids, i) // want `append\(ids, i\) escapes to heap because append grows it.*its final size is not known before the appends`
	}
	return ids
}

// someNames returns either a made slice or one it does not size: not
// presized.
func someNames(n int, fallback []string) []string {
	if n > 0 {
		return make([]string, 0, n)
	}
	return fallback
}

// Others grows a slice someNames may not have sized.
func Others(n int, next func() string) []string {
	s := someNames(n, nil) // want `calling someNames allocates \(inlined\)`
	for range n {
		s = append(s, next()) // want `append\(s, next\(\)\) escapes to heap because append grows it.*its final size is not known before the appends`
	}
	return s
}
