package golist

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

func TestKeys(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
	pkgs := map[string]*Package{
		"fmt":           {ImportPath: "fmt", Standard: true},
		"example.com/m": {ImportPath: "example.com/m", Module: &Module{Path: "example.com/m", Version: "v1.2.3"}},
		"local/a":       {ImportPath: "local/a", Dir: dir, GoFiles: []string{"a.go"}},
		"local/gone":    {ImportPath: "local/gone", Dir: dir, GoFiles: []string{"gone.go"}},
	}
	k := NewKeys(pkgs)
	if got := k.Dep("fmt"); got != "std" {
		t.Errorf("Dep(fmt) = %q", got)
	}
	if got := k.Dep("example.com/m"); got != "mod example.com/m@v1.2.3" {
		t.Errorf("Dep(module) = %q", got)
	}
	if got := k.Dep("nowhere"); got != "missing" {
		t.Errorf("Dep(unlisted) = %q", got)
	}
	if got := k.Dep("local/gone"); got != "" {
		t.Errorf("Dep with an unreadable file = %q, want empty", got)
	}
	a := k.Dep("local/a")
	if len(a) != 64 || k.Dep("local/a [local/b.test]") != a {
		t.Errorf("Dep(local/a) = %q; the test variant must share it", a)
	}
	// Another content gives another key.
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a // changed\n"), 0o644)
	if NewKeys(pkgs).Dep("local/a") == a {
		t.Error("key unchanged after the file changed")
	}
	if !HashFiles(sha256.New(), dir, []string{"a.go"}) || HashFiles(sha256.New(), dir, []string{"a.go", "gone.go"}) {
		t.Error("HashFiles reports readability wrongly")
	}
}
