package driver

import (
	"strings"
	"testing"

	"github.com/goadvise/goadvise/analyzer/suite"
)

// TestSelect checks that -enable and -disable take the whole-program
// passes by name, and that -enable runs exactly what it names: with only
// passes, only them, even with -whole (which adds every pass only when
// -enable names none); and that -whole with every analyzer disabled runs
// the passes.
func TestSelect(t *testing.T) {
	var all []string
	for _, a := range suite.Analyzers() {
		all = append(all, a.Name)
	}
	for _, tc := range []struct {
		enable, disable []string
		whole           bool
		analyzers       int
		passes          string
	}{
		{[]string{"devirt"}, nil, false, 0, "devirt"},
		{[]string{"devirt"}, nil, true, 0, "devirt"}, // not loopalloc
		{[]string{"deepequal", "loopalloc"}, nil, false, 1, "loopalloc"},
		{[]string{"deepequal", "loopalloc"}, nil, true, 1, "loopalloc"},
		{[]string{"deepequal"}, nil, true, 1, "devirt,loopalloc"},
		{nil, nil, true, len(all), "devirt,loopalloc"},
		{nil, append(all, "devirt"), true, 0, "loopalloc"},
	} {
		as, ps, err := Select(tc.enable, tc.disable, tc.whole)
		if err != nil || len(as) != tc.analyzers || strings.Join(ps, ",") != tc.passes {
			t.Errorf("-enable %v -disable %v -whole=%v: %d analyzers, passes %v, err %v; want %d and %s",
				tc.enable, tc.disable, tc.whole, len(as), ps, err, tc.analyzers, tc.passes)
		}
	}
	if _, _, err := Select(nil, all, false); err == nil {
		t.Errorf("-disable of every analyzer without -whole: no error")
	}
}
