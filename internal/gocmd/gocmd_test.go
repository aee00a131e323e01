package gocmd

import (
	"context"
	"os"
	"path/filepath"
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

// TestQuote checks that the go command takes a quoted flag element as one,
// with a -toolexec wrapper whose path has a space in it.
func TestQuote(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("wraps the tools with a shell script")
	}
	for _, c := range []struct{ in, want string }{
		{"/bin/x", "/bin/x"},
		{"/a b/x", "'/a b/x'"},
		{"/a b/it's", `"/a b/it's"`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	dir := filepath.Join(t.TempDir(), "a b")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	wrap := filepath.Join(dir, "wrap.sh")
	if err := os.WriteFile(wrap, []byte("#!/bin/sh\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The go command asks the compiler for its version through the
	// wrapper even when nothing is compiled.
	if _, err := Output(context.Background(), "", nil, "list", "-export", "-toolexec="+Quote(wrap), "errors"); err != nil {
		t.Errorf("go list -toolexec=%s: %v", Quote(wrap), err)
	}
}
