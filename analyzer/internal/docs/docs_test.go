package docs

import (
	"strings"
	"testing"
)

func TestSection(t *testing.T) {
	src := "// Package p does things.\n//\n// # Analyzer p\n//\n// p: find things\n//\n// Details here.\n//\n// # Other\n//\n// Not this.\npackage p\n"
	got := Section(src, "p")
	if !strings.HasPrefix(got, "p: find things") || !strings.Contains(got, "Details here.") || strings.Contains(got, "Not this") {
		t.Errorf("Section = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Section with a missing heading did not panic")
		}
	}()
	Section(src, "q")
}
