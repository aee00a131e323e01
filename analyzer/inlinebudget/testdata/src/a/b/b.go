package b

import "a"

// Decode runs per item; its panic message is built by a function of
// another package of the module, which the compiler does not inline.
func Decode(p []byte) uint32 { // want `^Decode costs 93 to inline, 13 over the budget of 80: the panic at line 9 builds its value with a\.Describe \(not inlinable\), charged 57; panic at line 9 with a value built without a call \(a constant message, or an error struct literal holding the values\), .*\[per-item: function Decode runs per item\]$`
	if len(p) < 4 {
		panic(a.Describe(p))
	}
	return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
}

// decode is the same, but nothing calls it: cold.
func decode(p []byte) uint32 {
	if len(p) < 4 {
		panic(a.Describe(p))
	}
	return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
}
