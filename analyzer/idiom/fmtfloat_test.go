package idiom_test

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// TestFloatVerbsAreStrconv checks the equivalence the float rewrite rests
// on: fmt's %v and %g of a float64, and %v of a float32, give the text of
// strconv.FormatFloat with 'g' and precision -1 at the float's size; %q of
// a string gives strconv.Quote's.
func TestFloatVerbsAreStrconv(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e20, 1e21, 1e-4, 1e-5, 123456789,
		math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64, 1234567.0}
	r := rand.New(rand.NewSource(1))
	for range 50000 {
		vals = append(vals, math.Float64frombits(r.Uint64()), r.NormFloat64()*math.Pow(10, float64(r.Intn(60)-30)))
	}
	for _, v := range vals {
		want := strconv.FormatFloat(v, 'g', -1, 64)
		if got := fmt.Sprintf("%v", v); got != want {
			t.Fatalf("%%v of %b: fmt %q, strconv %q", v, got, want)
		}
		if got := fmt.Sprintf("%g", v); got != want {
			t.Fatalf("%%g of %b: fmt %q, strconv %q", v, got, want)
		}
		f := float32(v)
		if got, want := fmt.Sprintf("%v", f), strconv.FormatFloat(float64(f), 'g', -1, 32); got != want {
			t.Fatalf("%%v of float32 %b: fmt %q, strconv %q", f, got, want)
		}
	}
	for _, s := range []string{"", `a"b`, "\x00\xff", "é", "`x`", "\u2028", "tab\there"} {
		if got, want := fmt.Sprintf("%q", s), strconv.Quote(s); got != want {
			t.Errorf("%%q of %q: fmt %s, strconv %s", s, got, want)
		}
	}
}
