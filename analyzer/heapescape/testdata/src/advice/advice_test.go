package advice

import (
	"fmt"
	"testing"
)

// TestKeep's failure message is on an error path; the test variant of the
// package is analyzed with the compiler's decisions for its test build.
func TestKeep(t *testing.T) {
	got := fmt.Sprint(len(Keys())) // want `len\(Keys\(\)\) escapes to heap because it is converted to an interface and passed to fmt.Sprint; .* \[cold\]`
	if got != "1" {
		t.Fatalf("got %s", got) // want `got escapes to heap because it is converted to an interface and passed to \(\*testing.common\).Fatalf; this runs only on an error path .* \[cold: on an error path\]`
	}
}

// Keys is a test helper.
func Keys() []string { return []string{"a"} } // want `\[\]string{...} escapes to heap because it is returned; let the caller provide the memory, or reuse one value across calls \[cold\]`
