package copies

type Big struct {
	data [16]int64
	name string
}

type small struct{ a, b int }

type config struct{ buf [10]int64 }

func Process(b Big) int64 { // want `^b is a 144-byte Big copied at every call; pass \*Big instead, which copies 8 bytes; no automatic fix: the function is exported API`
	return b.data[0]
}

func process(c config, s small) int64 { // want `^c is a 80-byte config copied at every call; pass \*config instead, which copies 8 bytes; no automatic fix: the signature`
	return c.buf[0] + int64(s.a)
}

func (b Big) Method(o Big) int64 { // want `^the receiver b is a 144-byte Big copied at every call; give the method a pointer receiver` `o is a 144-byte Big.*the method is exported API`
	return o.data[1]
}

func Sum(bs []Big, table [64]int64) (n int64) { // want `^table is a 512-byte \[64\]int64 copied at every call`
	for _, b := range bs { // want `^each iteration copies a 144-byte element into b; range over the indexes and take b := &bs\[i\]`
		n += b.data[0]
	}
	for i := range bs {
		n += bs[i].data[0]
	}
	for _, v := range table { // want `^the range copies the 512-byte array table before the loop; range over &table`
		n += v
	}
	for i, v := range table { // want `no automatic fix: the loop changes the array`
		table[i] = v + 1
	}
	for i := range table {
		n += table[i]
	}
	return n
}

type cell struct {
	v   int64
	pad [7]int64
}

// Cells reads a field of the ranged array in the loop: a read, not a
// change.
func Cells(grid [8]cell) (n int64) { // want `grid is a 512-byte \[8\]cell copied at every call`
	for _, c := range grid { // want `range over &grid`
		n += c.v + grid[0].v
	}
	return n
}

// Peers ranges over a map of large values.
func Peers(m map[string]Big) (n int64) {
	for _, b := range m { // want `^each iteration copies a 144-byte element into b; store \*Big in the map`
		n += b.data[0]
	}
	return n
}
