package p

import "testing"

// fixture is initialised by a function of the test file: the SSA form of
// the package's own code must leave its initialiser out.
var fixture = helper()

func helper() int { return len(table) } // want `helper: SSA with the tests`

func TestSum(t *testing.T) { // want `TestSum: SSA with the tests`
	if Sum() != 6 || fixture != 3 {
		t.Fatal("wrong")
	}
}
