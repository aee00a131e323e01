// Package zerocopy has a conversion of []byte to string without a copy,
// as go-redis's internal/util does: where a callee only reads the string,
// the module's own conversion removes the copy.
package zerocopy

import (
	"math/big"
	"unsafe"
)

// bytesToString converts b without copying it.
func bytesToString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// readBigInt parses a reply line (go-redis's readBigInt, before it used
// util.BytesToString).
func readBigInt(line []byte) (*big.Int, bool) {
	return new(big.Int).SetString(string(line[1:]), 10) // want `string\(line\[1:\]\) escapes to heap because it is passed to \(\*big.Int\).SetString, which lets it escape; pass bytesToString\(line\[1:\]\) instead, the module's conversion without a copy, since \(\*big.Int\).SetString only reads it, which saves copying the bytes per call; no automatic fix: the module's conversion shares the bytes; they must not change while \(\*big.Int\).SetString runs \[per-item: called in a loop in Sum\]`
}

// Sum adds up the replies.
func Sum(lines [][]byte) *big.Int {
	t := new(big.Int)
	for _, l := range lines {
		if i, ok := readBigInt(l); ok {
			t.Add(t, i)
		}
	}
	return t
}
