package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// TestCheckBuild checks the fixed files with go build and go vet through
// an overlay: an error the module had before is not the fixes', a new one
// in an importer names the fix of the package it imports, and nothing is
// written either way.
func TestCheckBuild(t *testing.T) {
	dir := t.TempDir()
	gittest.WriteFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.26\n",
		"lib/lib.go": "package lib\n\n// Size is a size.\nfunc Size() int { return 1 }\n",
		"use/use.go": "package use\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/lib\"\n)\n\n// Print prints.\nfunc Print() { fmt.Printf(\"%d\\n\", lib.Size(), 2) }\n",
	})
	lib := filepath.Join(dir, "lib", "lib.go")
	old, _ := os.ReadFile(lib)
	fixed := func(src string) *FixResult {
		return &FixResult{
			Files: map[string]FileChange{lib: {Old: old, New: []byte(src)}},
			Fixes: []AppliedFix{{Name: "lib.go:4: test: Change Size", Files: []string{lib}}},
		}
	}
	// use.go's Printf call has one argument too many: go vet fails before
	// any fix, which is not the fix's doing.
	if err := CheckBuild(context.Background(), dir, nil, fixed("package lib\n\n// Size is a size.\nfunc Size() int { return 2 }\n")); err != nil {
		t.Errorf("a harmless fix in a module that already fails go vet: %v", err)
	}
	err := CheckBuild(context.Background(), dir, nil, fixed("package lib\n\n// Size is a size.\nfunc Size() string { return \"1\" }\n"))
	if err == nil {
		t.Fatal("a fix that breaks the importer passed")
	}
	for _, want := range []string{"use/use.go:10:", "by 1 fix:\n\tlib.go:4: test: Change Size"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	if got, _ := os.ReadFile(lib); string(got) != string(old) {
		t.Errorf("lib.go was written:\n%s", got)
	}
}
