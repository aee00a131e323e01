package a

import mb "math/big"

// Bigs appends one value per element: the advice writes the element type
// as this file names its package (mb.Int, not math/big.Int).
func Bigs(xs []int64) []*mb.Int {
	var out []*mb.Int
	for _, x := range xs {
		out = append(out, mb.NewInt(x)) // want `^append\(out, mb\.NewInt\(x\)\) escapes to heap because append grows it and it is returned; the loop appends exactly len\(xs\) elements: make out with make\(\[\]\*mb\.Int, 0, len\(xs\)\) before the loop`
	}
	return out
}
