package a

import mb "math/big"

// Bigs appends one value per element: the advice writes the element type
// as this file names its package (mb.Int, not math/big.Int).
func Bigs(xs []int64) []*mb.Int {
	var out []*mb.Int
	for _, x := range xs {
		out = append(out, mb.NewInt(x)) // idiom/presize's
	}
	return out
}
