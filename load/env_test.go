package load

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRoots checks that the module's root is the nearest go.mod's
// directory and the workspace's the nearest go.work's, from any
// directory below them.
func TestRoots(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"go.work":       "go 1.26\n\nuse ./m\n",
		"m/go.mod":      "module m\n",
		"m/sub/x.go":    "package sub\n",
		"m/go.mod.d/.k": "", // a directory named like go.mod's neighbours is not a go.mod
	} {
		name = filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ from, module, workspace string }{
		{"m/sub", "m", "."},
		{"m", "m", "."},
		{".", "", "."},
	} {
		module, workspace := Roots(filepath.Join(dir, tc.from))
		want := func(rel string) string {
			if rel == "" {
				return ""
			}
			return filepath.Join(dir, rel)
		}
		if module != want(tc.module) || workspace != want(tc.workspace) {
			t.Errorf("Roots(%s) = %q, %q; want %q, %q", tc.from, module, workspace, want(tc.module), want(tc.workspace))
		}
	}
}

// TestInModule checks that patterns of a module are refused outside one,
// in one line naming the directory, and the standard library's are not.
func TestInModule(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	if err := InModule(dir, []string{"./..."}); err == nil || !strings.Contains(err.Error(), dir) || strings.Contains(err.Error(), "\n") {
		t.Errorf("InModule(./...) outside a module: %v; want one line naming %s", err, dir)
	}
	if err := InModule(dir, []string{"fmt", "std"}); err != nil {
		t.Errorf("InModule(fmt std) outside a module: %v", err)
	}
	// Inside a module, the go command is not asked; what it says is read
	// once per directory, environment and go.mod (which did not exist
	// before).
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := InModule(filepath.Join(dir), nil); err != nil {
		t.Errorf("InModule in a module: %v", err)
	}
	e1, err := ReadEnv(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := ReadEnv(context.Background(), dir, nil)
	if err != nil || e1 != e2 || e1.GOMOD != filepath.Join(dir, "go.mod") {
		t.Errorf("ReadEnv twice: %p, %p (GOMOD %q), %v; want one reading naming %s", e1, e2, e1.GOMOD, err, filepath.Join(dir, "go.mod"))
	}
}
