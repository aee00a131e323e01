package gocmd

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

func TestTail(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"a\nb\nc\n", 2, "b\nc"},
		{"a\nb", 5, "a\nb"},
		{"", 3, ""},
	} {
		if got := Tail(c.s, c.n); got != c.want {
			t.Errorf("Tail(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestOutput(t *testing.T) {
	out, err := Output(context.Background(), t.TempDir(), nil, "env", "GOARCH")
	if err != nil || strings.TrimSpace(string(out)) != runtime.GOARCH {
		t.Errorf("go env GOARCH: %q, %v; want %s", out, err, runtime.GOARCH)
	}
	// Outside a module, go list of a relative pattern fails and says why.
	_, err = Output(context.Background(), t.TempDir(), nil, "list", "./nothing")
	if err == nil || strings.Contains(err.Error(), "exit status") || !strings.Contains(err.Error(), "go.mod") {
		t.Errorf("go list outside a module: %v, want what the go command said", err)
	}
}
