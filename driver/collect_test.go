package driver

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestCopiedDir checks which package directories are copies of another
// project's code: those at or below a directory, under the module's root,
// with a license file of its own, whatever its case or extension; the
// module's own license covers the rest.
func TestCopiedDir(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{
		"go.mod", "LICENSE",
		"third_party/x/License.md", "third_party/x/sub/p.go",
		"c/COPYING", "c/p.go",
		"a/b/p.go",
		"d/LICENSES/p.go", // a directory named like a license is not one
	} {
		path := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for dir, want := range map[string]string{
		".":                 "",
		"a/b":               "",
		"third_party/x":     "third_party/x",
		"third_party/x/sub": "third_party/x",
		"c":                 "c",
		"d/LICENSES":        "",
	} {
		pkg := &packages.Package{Dir: filepath.Join(root, filepath.FromSlash(dir)), Module: &packages.Module{Dir: root}}
		if got := copiedDir(pkg); got != want {
			t.Errorf("copiedDir(%s) = %q, want %q", dir, got, want)
		}
	}
}
