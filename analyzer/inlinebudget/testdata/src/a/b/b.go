package b

import (
	"io"
	"strconv"

	"a"
)

// Decode runs per item; its panic path builds its message with a function
// of another package of the module, which the compiler does not inline,
// and writes it to w.
func Decode(p []byte, w io.Writer) byte { // want `^Decode costs 137 to inline, 57 over the budget of 80: the panic path at line 14 makes 2 costly calls \(a\.Describe \(not inlinable\) at line 15, w\.Write \(an interface method call\) at line 16\); move the panic path at line 14 into one //go:noinline function that returns the panic value: cost 137 -> 72, measured by compiling the change, .*\[per-item: function Decode runs per item\]$`
	if len(p) < 4 {
		msg := a.Describe(p)
		w.Write(p)
		panic(msg)
	}
	return p[3]
}

// Describe panics with a value built by a function that is not one of
// fmt's: no struct can build the same value later, and moving the one
// call into a helper saves nothing. Not reported.
func Describe(p []byte) uint32 {
	if len(p) < 4 {
		panic(a.Describe(p))
	}
	return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24
}

// decode is the same as Decode, but nothing calls it: cold.
func decode(p []byte, w io.Writer) byte {
	if len(p) < 4 {
		msg := a.Describe(p)
		w.Write(p)
		panic(msg)
	}
	return p[3]
}

// Encode runs per item; its panic path calls functions of two other
// packages, whose costs are looked up together.
func Encode(p []byte) byte { // want `^Encode costs 136 to inline, 56 over the budget of 80: the panic path at line 45 makes 2 costly calls \(strconv\.Unquote \(not inlinable\) at line 46, a\.Describe \(not inlinable\) at line 46\); move the panic path at line 45 into one //go:noinline function that returns the panic value: cost 136 -> 71, measured by compiling the change, .*\[per-item: function Encode runs per item\]$`
	if len(p) < 4 {
		s, _ := strconv.Unquote(a.Describe(p))
		panic(s)
	}
	return p[3]
}
