package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// onlyFiles fails the test unless dir holds exactly the given files (no
// temporary file left behind).
func onlyFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if len(got) != len(want) {
		t.Fatalf("%s holds %q, want %q", dir, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s holds %q, want %q", dir, got, want)
		}
	}
}

func content(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out")
	for _, data := range []string{"first", "second"} {
		if err := WriteFile(name, []byte(data), Replace|Sync); err != nil {
			t.Fatal(err)
		}
		if got := content(t, name); got != data {
			t.Errorf("file holds %q, want %q", got, data)
		}
	}
	onlyFiles(t, dir, "out")
}

func TestNoClobber(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out")
	if err := WriteFile(name, []byte("new"), NoClobber); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(name, []byte("other"), NoClobber)
	if !errors.Is(err, fs.ErrExist) || err.Error() != name+": file already exists" {
		t.Errorf("second write: %v, want %q", err, name+": file already exists")
	}
	if got := content(t, name); got != "new" {
		t.Errorf("file holds %q, want %q", got, "new")
	}
	onlyFiles(t, dir, "out")
}

// TestNoClobberRace creates the target after the data is written and
// before it takes its name: NoClobber must leave that file alone, Replace
// replaces it.
func TestNoClobberRace(t *testing.T) {
	for _, mode := range []Mode{NoClobber, Replace} {
		dir := t.TempDir()
		name := filepath.Join(dir, "out")
		beforeCommit = func() {
			if err := os.WriteFile(name, []byte("theirs"), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		err := WriteFile(name, []byte("ours"), mode)
		beforeCommit = func() {}
		want := "theirs"
		if mode == Replace {
			want = "ours"
			if err != nil {
				t.Errorf("Replace: %v", err)
			}
		} else if !errors.Is(err, fs.ErrExist) {
			t.Errorf("NoClobber onto a file created meanwhile: %v, want a file-exists error", err)
		}
		if got := content(t, name); got != want {
			t.Errorf("mode %d: file holds %q, want %q", mode, got, want)
		}
		onlyFiles(t, dir, "out")
	}
}

// TestNoClobberWithoutLinks checks the fallback for file systems without
// hard links.
func TestNoClobberWithoutLinks(t *testing.T) {
	link = func(string, string) error { return &os.LinkError{Op: "link", Err: errors.ErrUnsupported} }
	defer func() { link = os.Link }()
	dir := t.TempDir()
	name := filepath.Join(dir, "out")
	if err := WriteFile(name, []byte("new"), NoClobber); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(name, []byte("other"), NoClobber); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second write: %v, want a file-exists error", err)
	}
	if got := content(t, name); got != "new" {
		t.Errorf("file holds %q, want %q", got, "new")
	}
	onlyFiles(t, dir, "out")
}

// TestFailedWrite checks that a failing writer leaves the file as it was.
func TestFailedWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out")
	os.WriteFile(name, []byte("old"), 0o666)
	boom := errors.New("boom")
	for _, mode := range []Mode{Replace, NoClobber} {
		err := Write(name, mode, func(w io.Writer) error {
			io.WriteString(w, "partial")
			return boom
		})
		if !errors.Is(err, boom) {
			t.Errorf("mode %d: %v, want boom", mode, err)
		}
		if got := content(t, name); got != "old" {
			t.Errorf("mode %d: file holds %q, want %q", mode, got, "old")
		}
		onlyFiles(t, dir, "out")
	}
	if err := WriteFile(filepath.Join(dir, "missing", "out"), nil, Replace); err == nil || err.Error() != "writing "+filepath.Join(dir, "missing", "out")+": no such file or directory" {
		t.Errorf("write into a missing directory: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o777)
	os.WriteFile(filepath.Join(dir, "sub", "f"), nil, 0o666)
	for _, mode := range []Mode{Replace, NoClobber} {
		if err := WriteFile(filepath.Join(dir, "sub"), nil, mode); err == nil || err.Error() != "writing "+filepath.Join(dir, "sub")+": is a directory" {
			t.Errorf("mode %d, write onto a directory: %v", mode, err)
		}
	}
}

// TestCheckDir checks that an output whose directory is missing, or a
// file, is refused naming the output, and one in a directory is not.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(filepath.Join(dir, "out.html")); err != nil {
		t.Errorf("CheckDir in a directory: %v", err)
	}
	for _, p := range []string{filepath.Join(dir, "no", "out.html"), filepath.Join(file, "out.html")} {
		if err := CheckDir(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("CheckDir(%s) = %v, want an error naming it", p, err)
		}
	}
}
