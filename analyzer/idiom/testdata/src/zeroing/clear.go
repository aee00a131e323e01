package zeroing

type point struct{ x, y int }

type buffer struct {
	words []uint64
	refs  []*point
	pad   [64]byte
}

// A slice of integers, zeroed with a counted loop.
func zeroWords(data []uint64) {
	for i := 0; i < len(data); i++ { // want `the loop stores the zero value in each element of data one at a time; write clear\(data\), which the compiler compiles to one memory clear`
		data[i] = 0
	}
}

// A field's slice of pointers, reset to nil, with another counter name.
func (b *buffer) reset() {
	for j := 0; j < len(b.refs); j++ { // want `the loop stores the zero value in each element of b.refs one at a time; write clear\(b.refs\)`
		b.refs[j] = nil
	}
}

// An array field of a struct, and struct elements of a local slice.
func (b *buffer) wipe(ps []point) {
	for k := 0; k < len(b.pad); k++ { // want `write clear\(b.pad\[:\]\)`
		b.pad[k] = 0
	}
	for i := 0; i < len(ps); i++ { // want `write clear\(ps\)`
		ps[i] = point{}
	}
}

// Strings and booleans through a pointer to an array.
func blank(names *[8]string, flags []bool) {
	for i := 0; i < len(names); i++ { // want `write clear\(names\[:\]\)`
		names[i] = ""
	}
	for i := 0; i < len(flags); i++ { // want `write clear\(flags\)`
		flags[i] = false
	}
}

// Not reported: the range form (the compiler already clears at once), a
// value that is not zero, a loop that does more, one that starts later,
// a slice of interfaces given 0 (an int in each, not nil), a slice
// reached through a call.
func notReported(data []uint64, vals []any, b *buffer) {
	for i := range data {
		data[i] = 0
	}
	for i := 0; i < len(data); i++ {
		data[i] = 1
	}
	for i := 0; i < len(data); i++ {
		data[i] = 0
		b.words = append(b.words, 0)
	}
	for i := 1; i < len(data); i++ {
		data[i] = 0
	}
	for i := 0; i < len(vals); i++ {
		vals[i] = 0
	}
	for i := 0; i < len(b.get()); i++ {
		b.get()[i] = 0
	}
	for i := 0; i < len(data); i++ {
		data[0] = 0
	}
}

func (b *buffer) get() []uint64 { return b.words }
