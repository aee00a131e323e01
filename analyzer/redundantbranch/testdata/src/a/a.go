package a

import "strings"

func sink(int) {}

func check() bool { return true }

// 1. Identical arms.
func identical(c bool, x int) int {
	if c { // want `both branches of this if do the same thing`
		x++
	} else {
		x++
	}
	return x
}

// 2. Identical arms, condition with a call: the call is kept.
func identicalCall(x int) int {
	if check() { // want `both branches of this if do the same thing`
		x = 2
	} else {
		x = 2
	}
	return x
}

// 3. Identical arms, condition with a call inside: kept as _ = cond.
func identicalCallAnd(c bool, x int) int {
	if c && check() { // want `both branches of this if do the same thing`
		x = 3
	} else {
		x = 3
	}
	return x
}

// 4. Early return equal to the fall-through.
func earlyReturn(c bool, s string) string {
	if c { // want `this if does the same as the code after it`
		return strings.ToUpper(s)
	}
	return strings.ToUpper(s)
}

// 5. Equivalent under the negated condition (off == 0).
func window(p []byte, off, n int) []byte {
	if off != 0 { // want `under off == 0, the code after the if computes the same as the if body`
		return p[off : n+off]
	}
	return p[:n]
}

// 6. Equivalent under the condition, through a local definition.
func total(base, lo, hi int) int {
	d := hi - lo
	var total int
	if lo == hi { // want `under lo == hi, d is 0, the if branch computes the same as the else branch`
		total = base
	} else {
		total = base + d
	}
	return total
}

// 7. A definition inside the general arm.
func sub(s []byte, a, b, k int) []byte {
	var x []byte
	if a == b { // want `under a == b, delta is 0, the if branch computes the same as the else branch`
		x = s[:k]
	} else {
		delta := b - a
		x = s[delta : k+delta]
	}
	return x
}

// 8. else-if arms with the same body.
func chain(x int) string {
	if x < 0 { // want `this if and the else if after it have the same body`
		sink(x)
		return "small"
	} else if x > 100 {
		sink(x)
		return "small"
	} else {
		return "ok"
	}
}

// 9. Identical last arms of a chain: the inner if is replaced by a block.
func chainTail(x, y int) int {
	if x < 0 {
		y = 1
	} else if x > 10 { // want `both branches of this if do the same thing`
		y = 2
	} else {
		y = 2
	}
	return y
}

// 10. Adjacent switch cases.
func sw(x int) int {
	switch x {
	case 1: // want `cases 1 and 2 have the same body`
		sink(x)
		return 10
	case 2:
		sink(x)
		return 10
	default:
		return 0
	}
}

// 11. Three-index slice whose max is the capacity.
func three(s []int, i, n int) []int {
	if i == 0 { // want `under i == 0, the if branch computes the same as the else branch`
		return s[:n]
	} else {
		return s[i:n:cap(s)]
	}
}

// 12. Hot loop: under len(p) == 0, n += len(p) adds 0.
func loop(parts []string, sep string) int {
	n := 0
	for _, p := range parts {
		if len(p) == 0 { // want `under len\(p\) == 0, the if branch computes the same as the else branch.*\[hot-loop: inside a loop\]`
			n += 0
		} else {
			n += len(p)
		}
	}
	return n
}

// 13. Integer arithmetic is normalised: x*1, commuted operands.
func arith(a, b, k int) int {
	if a != b { // want `under a == b, the code after the if computes the same as the if body`
		return k*1 + a - b
	}
	return k
}

// 14. Identical arms that declare variables stay in a block when the
// names are taken in the enclosing block.
func declares(c bool) int {
	v := 1
	if c { // want `both branches of this if do the same thing`
		v := 2
		sink(v)
	} else {
		v := 2
		sink(v)
	}
	return v
}

// 15. Strings: under s == "", s[0:] is "".
func str(s string) string {
	if s != "" { // want `under s == "", the code after the if computes the same as the if body`
		return s[0:]
	}
	return ""
}

// 16. A receive in the condition is kept for its effect.
func recv(ch chan int, x int) int {
	if <-ch > 0 { // want `both branches of this if do the same thing`
		x = 7
	} else {
		x = 7
	}
	return x
}

// 17. A run of three cases is one finding.
func run3(r rune) bool {
	switch {
	case '0' <= r && r <= '9': // want `cases '0' <= r && r <= '9', 'a' <= r && r <= 'z' and r == '_' have the same body`
		sink(int(r))
		return true
	case 'a' <= r && r <= 'z':
		sink(int(r))
		return true
	case r == '_':
		sink(int(r))
		return true
	}
	return false
}

// 18. Type switch cases whose bodies do not use the bound variable.
func kind(x any) int {
	switch x.(type) {
	case int, int8: // want `cases int, ... and string have the same body`
		sink(1)
		return 1
	case string:
		sink(1)
		return 1
	}
	return 0
}

// 19. A string of length 0 is "".
func emptyStr(s string) string {
	if len(s) == 0 { // want `under len\(s\) == 0, the if branch computes the same as the else branch`
		return ""
	} else {
		return s
	}
}

// 20. Equalities of two variables, through && and a chain of definitions.
func chained(a, b, c, n int) int {
	d := a - b
	e := d * c
	if a == b && c > 0 { // want `under a == b, d is 0 and e is 0, the if branch computes the same as the else branch`
		return n
	} else {
		return n + e
	}
}

// 21. Condition on the loop variable inside the loop body.
func perIter(xs []int, base, stride int) int {
	s := 0
	for i := 0; i < len(xs); i++ {
		pos := 0
		if i == 0 { // want `under i == 0, the if branch computes the same as the else branch.*\[hot-loop: inside a loop\]`
			pos = base
		} else {
			pos = base + i*stride
		}
		s += xs[pos]
	}
	return s
}

// 22. An interface equal to nil is the nil interface.
func wrap(err error) error {
	if err != nil { // want `under err == nil, the code after the if computes the same as the if body`
		return err
	}
	return nil
}

// 23. The same with several results, converted to another interface.
func pair(v int, err error) (int, any) {
	if err != nil { // want `under err == nil, the code after the if computes the same as the if body`
		return v, err
	}
	return v, nil
}

// 24. Cases that do the same as the default case cost a compare each.
func isSpecial(r rune) bool {
	switch r {
	case '$', '_':
		return true
	case '-': // want `cases '-', '\+', ... and ' ' do the same as the default case`
		return false
	case '+', '*':
		return false
	case ' ':
		return false
	default:
		return false
	}
}

// 25. The default case may come first.
func kindOf(x any) int {
	switch x.(type) {
	default:
		return 0
	case int:
		return 1
	case string: // want `case string does the same as the default case`
		return 0
	}
}

// 26. The blank line before a deleted case goes with it, and no double
// blank line is left. (A case with a comment of its own is kept: see
// package comments.)
func withComments(x int) int {
	switch x {
	case 1:
		return 1

	case 2: // want `case 2 does the same as the default case`
		return 0

	default:
		return 0
	}
}

// 27. All three arms alike: the inner if is reported, not the merge, so
// that the fixes do not overlap.
func allAlike(x, y int) int {
	if x < 0 {
		y = 1
	} else if x > 10 { // want `both branches of this if do the same thing`
		y = 1
	} else {
		y = 1
	}
	return y
}

// 28. The same named constant in both arms, and the same constant
// expression written in another order.
const pageSize = 4096

func sameConst(c bool, n int) int {
	var size int
	if c { // want `both branches of this if do the same thing`
		size = pageSize
	} else {
		size = pageSize
	}
	if c { // want `this if does the same as the code after it`
		return n + pageSize + 1 + size
	}
	return 1 + n + pageSize + size
}

// 29. Under x == pageSize, returning pageSize is returning x.
func clampPage(x int) int {
	if x == pageSize { // want `under x == pageSize, the if body computes the same as the code after the if`
		return pageSize
	}
	return x
}

// 30. A case like the default, though not next to it: the values are
// constant and disjoint, so deleting it sends them to the default.
func code(x int) int {
	switch x {
	case 1: // want `case 1 does the same as the default case, so testing it only costs a compare and a jump: delete the case \[unknown: no loop or per-item code of the package calls it\]`
		return 10
	case 2:
		return 20
	default:
		return 10
	}
}

// 31. String cases and a case list, in the middle.
func color(s string) int {
	switch s {
	case "red":
		return 1
	case "green", "lime": // want `case "green", ... does the same as the default case`
		return 0
	case "blue":
		return 2
	default:
		return 0
	}
}

func bucket(n int) string {
	switch n {
	case 3, 4: // want `cases 3, ... and 6 do the same as the default case`
		return "other"
	case 5:
		return "five"
	case 6:
		return "other"
	case 7:
		return "seven"
	default:
		return "other"
	}
}

// 32. A type switch whose later cases are all concrete types.
func bits(x any) int {
	switch x.(type) {
	case int8: // want `case int8 does the same as the default case`
		return 0
	case int16:
		return 16
	case nil:
		return -1
	default:
		return 0
	}
}

// 33. A chain of three arms with the same body is one finding.
func chain3(x int) string {
	if x < 0 { // want `this if and the 2 else ifs after it have the same body: join their conditions with \|\| so the function is smaller and cheaper to inline \[unknown: no loop or per-item code of the package calls it\]`
		sink(x)
		return "out"
	} else if x > 100 {
		sink(x)
		return "out"
	} else if x == 50 {
		sink(x)
		return "out"
	}
	return "in"
}

// 34. Arms of one statement too small to share are not merged: the
// compiler emits the same jumps for the joined condition, and the code
// saved is a few bytes.
func smallArms(b []byte, v any, x int) (int, bool) {
	for _, c := range b {
		switch {
		case 'A' <= c && c <= 'Z':
			continue
		case '0' <= c && c <= '9':
			continue
		}
		if c == '-' {
			break
		} else if c == '.' {
			break
		}
	}
	var n int
	switch {
	case x > 5 && b[0] == 'P':
		n = 4
	case x > 5 && b[0] == 'H':
		n = 4
	}
	switch v.(type) {
	case int:
		return n, true
	case string:
		return n, true
	}
	if x < 0 {
		return -1, false
	} else if x > 100 {
		return -1, false
	}
	return n, false
}
