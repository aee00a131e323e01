package fix

import (
	"bytes"
	"strings"
)

func check() bool { return true }

func use(...int) {}

// The dropped arm is the only user of m: reported without a fix.
func onlyUse(p []byte, off, n int) []byte {
	m := n
	if off != 0 { // want `under off == 0, the code after the if computes the same as the if body`
		return p[off : n+off]
	}
	return p[:m]
}

// The condition's call is kept as _ = cond.
func keepCall(p []byte, off, n int) []byte {
	if off != 0 || check() { // want `under off == 0, the code after the if computes the same`
		return p[off : n+off]
	}
	return p[:n]
}

// Comments and several statements move with the kept arm.
func several(c bool, a, b int) int {
	if c { // want `both branches of this if do the same thing`
		// Add them up.
		s := a + b
		use(s)
		return s * 2
	} else {
		// Add them up.
		s := a + b
		use(s)
		return s * 2
	}
}

// Early return whose body has several statements.
func tail(c bool, a int) int {
	for i := 0; i < 3; i++ {
		if c { // want `this if does the same as the code after it, so the condition only costs a compare and a jump: delete the if \[unknown: no loop or per-item code of the package calls it\]`
			a++
			return a
		}
		a++
		return a
	}
	return 0
}

// Empty identical arms: the whole if goes.
func empty(c bool) {
	if c { // want `both branches of this if do the same thing`
	} else {
	}
}

// A label in the dropped arm: reported without a fix.
func label(c bool, a int) int {
	if c { // want `both branches of this if do the same thing`
	L1:
		for {
			break L1
		}
	} else {
	L2:
		for {
			break L2
		}
	}
	return a
}

// An init statement is kept before the if body.
func initErr(f func() error) error {
	if err := f(); err != nil { // want `under err == nil, the code after the if computes the same as the if body`
		return err
	}
	return nil
}

// The init's name is taken in the enclosing block: a block keeps it apart.
func initCollide(f func() error) error {
	err := f()
	if err != nil {
		return err
	}
	if err := f(); err != nil { // want `under err == nil, the code after the if computes the same as the if body`
		return err
	}
	return nil
}

// The init's variables are used only by the condition: reported without
// a fix, which would leave them unused.
func initIdentical(m map[string]int, x int) int {
	if v, ok := m["a"]; ok && v > 0 { // want `both branches of this if do the same thing`
		x++
	} else {
		x++
	}
	return x
}

// A multi-line condition with a call is kept as a statement.
func multiLine(a, b int, check func(int) bool, x int) int {
	if a > b || // want `both branches of this if do the same thing`
		check(a) {
		x = 1
	} else {
		x = 1
	}
	if a > b {
		x = 2
	} else if a > 0 || // want `both branches of this if do the same thing`
		check(b) {
		x = 3
	} else {
		x = 3
	}
	return x
}

// Comments between the if and the code after it are kept.
func comments(f func() error) error {
	if err := f(); err != nil { // want `under err == nil, the code after the if computes the same as the if body`
		return err
	}

	// TODO: retry.

	return nil // done
}

// Calls the analyzer knows to be pure leave no statement behind.
func pureCond(s string, x int) string {
	if strings.HasPrefix(s, "#") && len(s) > 1 { // want `both branches of this if do the same thing, so the condition's call of strings.HasPrefix is wasted work: replace the if with one branch \[unknown: no loop or per-item code of the package calls it\]`
		x = 1
	} else {
		x = 1
	}
	return strings.ToLower(s)[x:]
}

func pureEarly(a, b []byte) int {
	if bytes.Equal(a, b) || string(a) == "x" { // want `this if does the same as the code after it, so the condition's call of bytes.Equal is wasted work: delete the if \[unknown: no loop or per-item code of the package calls it\]`
		return bytes.IndexByte(a, 'x')
	}
	return bytes.IndexByte(a, 'x')
}

type counter struct{ n int }

func (c *counter) next() bool { c.n++; return c.n > 3 }

// A call that may have effects is kept, and the message says so.
func effectCond(c *counter, x int) int {
	if c.next() { // want `both branches of this if do the same thing, so the condition only costs a compare and a jump: replace the if with one branch, keeping the call to c\.next for its side effects \[unknown: no loop or per-item code of the package calls it\]`
		x = 2
	} else {
		x = 2
	}
	return x
}
