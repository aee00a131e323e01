package a

// Near misses: none of these may be reported.

// N1. Reduces to base + 1, not base.
func offByOne(base, lo, hi int) int {
	d := hi - lo
	var total int
	if lo == hi {
		total = base
	} else {
		total = base + d + 1
	}
	return total
}

// N2. Floats: x == y does not make x and y interchangeable (0 == -0).
func floats(x, y float64) float64 {
	if x == y {
		return y
	}
	return x
}

// N3. Float identities do not hold: x + 0 is not x for x == -0.
func floatZero(x, off float64) float64 {
	if off != 0 {
		return x + off
	}
	return x
}

// N4. The condition's variable is reassigned inside the branch.
func reassigned(p []byte, off, n int) []byte {
	if off != 0 {
		off++
		return p[off : n+off]
	}
	return p[:n]
}

// N5. The definition's operand is reassigned between definition and use.
func reassignedDef(base, lo, hi int) int {
	d := hi - lo
	hi++
	var total int
	if lo == hi {
		total = base
	} else {
		total = base + d
	}
	return total
}

// N6. Shadowing: the inner off is another variable.
func shadow(p []byte, off, n int) []byte {
	if off != 0 {
		off := 1
		return p[off : n+off]
	}
	return p[:n]
}

// N7. Pointer aliasing: off is address-taken and may change through q.
func aliased(p []byte, off, n int, set func(*int)) []byte {
	q := &off
	set(q)
	if off != 0 {
		*q = 3
		return p[off : n+off]
	}
	return p[:n]
}

// N8. Different capacity in three-index slices.
func capacity(s []int, off, n int) []int {
	if off == 0 {
		return s[:n:n]
	}
	return s[off : n+off]
}

// N9. Calls in the arms are not pure: f() - f() is not 0.
func calls(a, b int, f func() int) int {
	if a == b {
		return 0
	}
	return f() - f() + a - b
}

// N10. A closure assigns the variable.
func closure(p []byte, off, n int) []byte {
	bump := func() { off++ }
	if off != 0 {
		bump()
		return p[off : n+off]
	}
	return p[:n]
}

// N11. Division may panic and does not cancel: (a-b)/k is not 0 when k == 0.
func division(a, b, k int) int {
	if a == b {
		return 0
	}
	return (a - b) / k * 0
}

// N12. The definition is outside the loop that changes its operand.
func loopDef(xs []int, lo, hi int) int {
	d := hi - lo
	sum := 0
	for _, x := range xs {
		if lo == hi {
			sum += x
		} else {
			sum += x + d
		}
		hi = x
	}
	return sum
}

// N13. Interface conversion: any(x) holds an int8 and any(1) an int.
func iface(x int8) any {
	if x == 1 {
		return 1
	}
	return x
}

// N14. A call in the condition is not an equality that may be
// substituted: next() returns a new value each time.
func condCall(p []byte, n int, next func() int) []byte {
	if next() != 0 {
		return p[next() : n+next()]
	}
	return p[:n]
}

// N15. Different cases in a type switch bind different variables.
func typeSwitch(x any) string {
	switch v := x.(type) {
	case int:
		return describe(v)
	case string:
		return describe(v)
	}
	return ""
}

func describe(any) string { return "" }

// N16. Non-adjacent switch cases are not merged, and fallthrough is left alone.
func nonAdjacent(x int) int {
	switch x {
	case 1:
		return 1
	case 2:
		return 2
	case 3:
		return 1
	case 4:
		x++
		fallthrough
	case 5:
		x++
		fallthrough
	default:
		return x
	}
}

// N17. The condition's variable is reassigned in the general arm before
// it is used.
func innerReassign(s []byte, a, b, k int) []byte {
	var x []byte
	if a == b {
		x = s[:k]
	} else {
		delta := b - a
		b = a + 1
		x = s[delta : k+b-a]
	}
	return x
}

// N18. goto can carry a changed operand back above the use.
func withGoto(base, lo, hi int) int {
	d := hi - lo
	total := 0
again:
	if lo == hi {
		total += base
	} else {
		total += base + d
	}
	if hi < 10 {
		hi++
		goto again
	}
	return total
}

// N19. A closure reading a variable of the enclosing function: the
// enclosing function may change it while the closure runs.
func capturedVar(p []byte, off, n int) func() []byte {
	f := func() []byte {
		if off != 0 {
			return p[off : n+off]
		}
		return p[:n]
	}
	off = 4
	return f
}

// N20. A function literal in an arm runs later: the equality may no longer
// hold then.
func later(x int) func() int {
	if x == 0 {
		return func() int { return 0 }
	}
	return func() int { return x }
}

// N21. len(s) == 0 does not make a slice nil.
func emptySlice(s []int) []int {
	if len(s) == 0 {
		return nil
	}
	return s
}

// N22. Conversions that truncate are not the identity: int(uint8(x)) is
// 44, not 300, when x == 300.
func truncate(x int) int {
	if x == 300 {
		return 300
	}
	return int(uint8(x))
}

// N23. Type parameters may be floats: no integer identities.
func generic[T ~int | ~float64](x, off T) T {
	if off != 0 {
		return x + off
	}
	return x
}

// N24. Inequalities establish no equality.
func inequality(p []byte, off, n int) []byte {
	if off > 0 {
		return p[off : n+off]
	}
	return p[:n]
}

// N25. A nil pointer in an interface is not a nil interface.
type myErr struct{}

func (*myErr) Error() string { return "" }

func typedNil(p *myErr) error {
	if p != nil {
		return p
	}
	return nil
}

// N26. Two equal interfaces may hold 0 and -0.
func ifaceEq(a, b any) any {
	if a == b {
		return a
	}
	return b
}

// N27. A later case with another body could take over a deleted case's
// values (a == b here), and a case with a call is evaluated for effect.
func notLast(x, a, b int, f func() int) int {
	switch x {
	case a:
		return 0
	case b:
		return 1
	case f():
		return 0
	default:
		return 0
	}
}

// N28. The case before falls through into it.
func fallInto(x int) int {
	switch x {
	case 1:
		x++
		fallthrough
	case 2:
		return 0
	default:
		return 0
	}
}

// N29. Two named constants that happen to have the same value today are
// not the same code: either may change.
const (
	LeafElementSize   = 16
	BranchElementSize = 16
	noOffset          = 0
)

type width int

const (
	narrow width = iota + 1
	wide
)

func elementSize(leaf bool) int {
	var size int
	if leaf {
		size = LeafElementSize
	} else {
		size = BranchElementSize
	}
	return size
}

// N30. A literal against a named constant of the same value.
func literalVsNamed(leaf bool) int {
	if leaf {
		return 16
	}
	return BranchElementSize
}

// N31. Constant expressions of different constants, iota-derived typed
// constants.
func plusOne(c bool, n int) int {
	if c {
		return n + LeafElementSize + 1
	}
	return n + BranchElementSize + 1
}

func nextWidth(c bool) width {
	if c {
		return narrow + 1
	}
	return wide
}

// N32. Under off == noOffset, p[off:n+off] is p[:n] only while noOffset is 0.
func windowNamed(p []byte, off, n int) []byte {
	if off != noOffset {
		return p[off : n+off]
	}
	return p[:n]
}

// N33. A case whose constant body equals the default's only by value.
func caseNamed(x int) int {
	switch x {
	case 1:
		return LeafElementSize
	default:
		return BranchElementSize
	}
}

// N34. A later interface case could take over a deleted type case.
func bitsIface(x any) int {
	switch x.(type) {
	case int8:
		return 0
	case interface{ String() string }:
		return 16
	default:
		return 0
	}
}

// N35. A later case that is not constant could take over its value.
func laterVar(x, y int) int {
	switch x {
	case 1:
		return 10
	case y:
		return 20
	default:
		return 10
	}
}

// N36. The case before falls through into it.
func fallIntoFar(x int) int {
	switch x {
	case 0:
		x++
		fallthrough
	case 1:
		return 10
	case 2:
		return 20
	default:
		return 10
	}
}

// N37. A switch without a tag tests conditions, not disjoint values.
func tagless(x int) int {
	switch {
	case x > 1:
		return 10
	case x > 0:
		return 20
	default:
		return 10
	}
}
