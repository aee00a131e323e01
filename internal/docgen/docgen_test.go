package docgen

import (
	"bytes"
	"os"
	"testing"
)

// TestUpToDate checks that docs/analyzers.md is what the analyzers' doc.go
// files and flags say.
func TestUpToDate(t *testing.T) {
	got, err := os.ReadFile("../../docs/analyzers.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, Analyzers()) {
		t.Errorf("docs/analyzers.md is out of date: run go generate ./internal/docgen")
	}
}
