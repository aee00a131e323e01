package load

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
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

func TestKey(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package b\n"), 0o644)
	a := &Package{ImportPath: "local/a", Dir: dir, GoFiles: []string{"a.go"}, TestGoFiles: []string{"a_test.go"}, Deps: []string{"fmt", "local/b"}}
	pkgs := map[string]*Package{
		"fmt":     {ImportPath: "fmt", Standard: true},
		"local/a": a,
		"local/b": {ImportPath: "local/b", Dir: dir, GoFiles: []string{"b.go"}},
	}
	k := NewKeys(pkgs)
	key := k.Key("salt", a, false)
	if len(key) != 64 || k.Key("salt", a, false) != key {
		t.Fatalf("Key = %q, not a stable hash", key)
	}
	if k.Key("other", a, false) == key || k.Key("salt", a, true) == key {
		t.Error("the salt or the tests flag does not change the key")
	}
	if k.Key("salt", a, false, []string{"missing/dep"}) == key {
		t.Error("an extra dependency does not change the key")
	}
	if k.Key("salt", a, false, []string{"fmt"}) != key {
		t.Error("a dependency given twice changes the key")
	}
	// A dependency's content is part of the key.
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package b // changed\n"), 0o644)
	if NewKeys(pkgs).Key("salt", a, false) == key {
		t.Error("key unchanged after a dependency changed")
	}
	gone := &Package{ImportPath: "local/gone", Dir: dir, GoFiles: []string{"gone.go"}}
	if got := k.Key("salt", gone, false); got != "" {
		t.Errorf("Key with an unreadable file = %q, want empty", got)
	}
}

func TestPackages(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "m.go"), []byte("package m\n\nimport \"strings\"\n\nvar X = strings.ToUpper(\"x\")\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "m_test.go"), []byte("package m\n"), 0o644)
	l, err := Packages(context.Background(), ListOptions{Dir: dir, Deps: true, Tests: true}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var roots, variants int
	for _, p := range l.Packages {
		switch {
		case p.ImportPath == "example.com/m" && !p.DepOnly:
			roots++
			if p.Module == nil || !p.Module.Main || len(p.GoFiles) != 1 || len(p.TestGoFiles) != 1 {
				t.Errorf("root %+v", p)
			}
		case p.ForTest == "example.com/m":
			variants++
		case p.ImportPath == "strings" && (!p.Standard || !p.DepOnly):
			t.Errorf("strings: %+v", p)
		}
	}
	if roots != 1 || variants != 1 || l.Keys.Dep("strings") != "std" {
		t.Errorf("listed %d roots and %d test variants, want 1 and 1", roots, variants)
	}
	if _, err := Packages(context.Background(), ListOptions{Dir: filepath.Join(dir, "nowhere")}, "."); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("listing in a missing directory: err = %v, want one line", err)
	}
}
