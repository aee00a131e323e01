package optlog

import "testing"

// TestCallee checks that an explanation names the called function, not the
// whole call, also for the method expressions the compiler writes.
func TestCallee(t *testing.T) {
	for _, tc := range []struct{ call, want string }{
		{"r.Read(buf)", "r.Read"},
		{"io.ReadFull(r, buf[:n])", "io.ReadFull"},
		{"(*kip951move).maybeAddSharePartition(kmove, sc, drained.cursor, brokers)", "(*kip951move).maybeAddSharePartition"},
		{"(*pair[go.shape.int]).set(p, x)", "(*pair[go.shape.int]).set"},
		{"f", "f"},
	} {
		if got := callee(tc.call); got != tc.want {
			t.Errorf("callee(%q) = %q, want %q", tc.call, got, tc.want)
		}
	}
}
