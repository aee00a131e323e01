package cache

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const key = "0123456789abcdef"

func TestPutGet(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GOADVISE_CACHE", root)
	c := New("escape")
	if _, ok := c.Get(key); ok {
		t.Fatal("hit in an empty cache")
	}
	for _, data := range []string{"", "records", "records, again"} {
		if err := c.Put(key, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, ok := c.Get(key)
		if !ok || string(got) != data || !c.Has(key) {
			t.Errorf("Get after Put(%q): %q, %v", data, got, ok)
		}
	}
	if !marked(root) {
		t.Error("no marker in the new cache")
	}
	if _, ok := New("findings").Get(key); ok {
		t.Error("hit in another cache")
	}
}

// TestDamaged checks that a damaged entry is a miss, is removed, and is
// reported once.
func TestDamaged(t *testing.T) {
	root := t.TempDir()
	t.Setenv("GOADVISE_CACHE", root)
	var warnings []string
	Warn = func(msg string) { warnings = append(warnings, msg) }
	defer func() { Warn = func(msg string) {} }()
	c := New("findings")
	_, name, _ := c.path(key)
	damage := map[string]func([]byte) []byte{
		"truncated":  func(b []byte) []byte { return b[:len(b)-3] },
		"emptied":    func([]byte) []byte { return nil },
		"random":     func(b []byte) []byte { return []byte("\x8f\x01\xfe{not an entry\n\x00\x00") },
		"flipped":    func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
		"longer":     func(b []byte) []byte { return append(b, '\n') },
		"other key":  func(b []byte) []byte { return []byte(strings.Replace(string(b), key, "ff"+key[2:], 1)) },
		"old format": func(b []byte) []byte { _, d, _ := strings.Cut(string(b), "\n"); return []byte(d) },
	}
	for what, f := range damage {
		if err := c.Put(key, []byte("some findings\nof a package")); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(name)
		os.WriteFile(name, f(raw), 0o666)
		if data, ok := c.Get(key); ok {
			t.Errorf("%s entry: hit %q", what, data)
		}
		if _, err := os.Stat(name); !os.IsNotExist(err) {
			t.Errorf("%s entry not removed: %v", what, err)
		}
	}
	want := "cache entry " + name + " is damaged; recomputing"
	if len(warnings) != 1 || warnings[0] != want {
		t.Errorf("warnings %q, want one: %q", warnings, want)
	}
}

// TestClean checks that Clean removes what goadvise wrote and nothing
// else, and refuses a directory goadvise did not create.
func TestClean(t *testing.T) {
	user := t.TempDir()
	t.Setenv("GOADVISE_CACHE", user)
	os.WriteFile(filepath.Join(user, "thesis.txt"), []byte("years of work"), 0o666)
	os.Mkdir(filepath.Join(user, "escape"), 0o777)
	os.WriteFile(filepath.Join(user, "escape", "plan.txt"), []byte("a plan"), 0o666)
	err := Clean()
	if err == nil || err.Error() != user+" is not goadvise's cache (it has no CACHEDIR.TAG written by goadvise); not cleaning it" {
		t.Errorf("Clean of a user directory: %v", err)
	}
	// Using it as a cache does not make it one.
	if err := New("findings").Put(key, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := Clean(); err == nil {
		t.Error("Clean of a user directory used as a cache: no error")
	}
	for _, f := range []string{"thesis.txt", "escape/plan.txt"} {
		if _, err := os.Stat(filepath.Join(user, f)); err != nil {
			t.Errorf("user file %s: %v", f, err)
		}
	}

	root := filepath.Join(t.TempDir(), "cache")
	t.Setenv("GOADVISE_CACHE", root)
	if err := Clean(); err != nil {
		t.Errorf("Clean of a missing cache: %v", err)
	}
	New("escape").Put(key, []byte("x"))
	New("findings").Put(key, []byte("x"))
	unlock, err := Lock("m", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	os.WriteFile(filepath.Join(root, "notes"), []byte("mine"), 0o666)
	if err := Clean(); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(root)
	if len(ents) != 1 || ents[0].Name() != "notes" {
		t.Errorf("after Clean the cache holds %v, want only notes", ents)
	}
	os.Remove(filepath.Join(root, "notes"))
	if err := New("escape").Put(key, []byte("x")); err != nil || !marked(root) {
		t.Errorf("cache not usable after Clean: %v", err)
	}

	// A cache of an older goadvise (no marker) is marked when used.
	old := t.TempDir()
	t.Setenv("GOADVISE_CACHE", old)
	os.MkdirAll(filepath.Join(old, "escape", "01"), 0o777)
	New("escape").Put(key, []byte("x"))
	if err := Clean(); err != nil {
		t.Errorf("Clean of an older cache: %v", err)
	}
}

// TestLock checks that a lock held exclusively makes Lock wait.
func TestLock(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no file locks")
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	unlock, err := Lock("m", true, func() { t.Error("first Lock waited") })
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan bool)
	done := make(chan bool)
	go func() {
		u, err := Lock("m", false, func() { waiting <- true })
		if err != nil {
			t.Error(err)
		} else {
			u()
		}
		done <- true
	}()
	<-waiting // the shared lock waits for the exclusive one
	unlock()
	<-done
	// Shared locks do not wait for each other.
	u1, _ := Lock("m", false, func() { t.Error("shared Lock waited") })
	u2, _ := Lock("m", false, func() { t.Error("shared Lock waited") })
	u1()
	u2()
}

func TestTryLock(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no file locks")
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	unlock, ok, err := TryLock("m")
	if err != nil || !ok {
		t.Fatalf("first TryLock: %v, %v", ok, err)
	}
	if u, ok, err := TryLock("m"); ok || err != nil {
		t.Errorf("TryLock of a held lock: %v, %v; want not taken, no error", ok, err)
		if ok {
			u()
		}
	}
	unlock()
	u, ok, err := TryLock("m")
	if err != nil || !ok {
		t.Fatalf("TryLock after unlock: %v, %v", ok, err)
	}
	u()
}
