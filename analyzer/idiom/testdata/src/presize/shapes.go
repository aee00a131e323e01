package presize

import mb "math/big"

// Bigs: the advice writes the element type as this file names its
// package (mb.Int, not math/big.Int).
func Bigs(xs []int64) []*mb.Int {
	out := []*mb.Int{} // want `make\(\[\]\*mb\.Int, 0, len\(xs\)\)`
	for _, x := range xs {
		out = append(out, mb.NewInt(x))
	}
	return out
}

// Ptrs: a generic element type.
func Ptrs[T any](xs []T) []*T {
	out := make([]*T, 0) // want `make\(\[\]\*T, 0, len\(xs\)\)`
	for _, x := range xs {
		p := new(T)
		*p = x
		out = append(out, p)
	}
	return out
}

// Frames: a counted loop, with a nil slice.
func Frames(n int) [][]byte {
	var frames [][]byte // want `appends exactly n elements.*no automatic fix: make gives a non-nil slice`
	for i := 0; i < n; i++ {
		frames = append(frames, make([]byte, 64))
	}
	return frames
}
