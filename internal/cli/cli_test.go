package cli

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

// TestStatusOff checks that a status line turned off (as with -format
// json) never starts, terminal or not.
func TestStatusOff(t *testing.T) {
	s := NewStatus(false)
	select {
	case <-s.ended:
	default:
		t.Fatal("a status line turned off is running")
	}
	s.Set("listing packages")
	s.Stop()
}

// TestParse checks a command's parse: the flags before the arguments, -h
// printing the usage, and an error in one line that suggests the nearest
// flag, or says that a flag came after the arguments.
func TestParse(t *testing.T) {
	u := Usage{Name: "check", Line: "check [flags] [packages]", Long: "Check checks."}
	for _, tc := range []struct {
		args       []string
		rest       string
		err        error
		out, diags string
	}{
		{[]string{"-top", "2", "./..."}, "./...", nil, "", ""},
		{[]string{"-h"}, "", ErrHelp, "usage: goadvise check [flags] [packages]\n\nCheck checks.\n\nFlags:\n", ""},
		{[]string{"-tpo", "2"}, "", nil, "", "goadvise check: flag provided but not defined: -tpo (did you mean -top?)\nrun 'goadvise check -h' for the flags\n"},
		{[]string{"./...", "-top", "2"}, "", nil, "", "goadvise check: flag -top after the arguments: flags go first (goadvise check [flags] [packages])\n"},
	} {
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		fs.Int("top", 0, "report only the first `N` findings")
		var out, diags bytes.Buffer
		rest, err := Parse(fs, u, tc.args, &out, &diags)
		failed := tc.diags != ""
		if strings.Join(rest, " ") != tc.rest || (tc.err != nil && err != tc.err) || (failed != (err != nil && err != ErrHelp)) ||
			!strings.HasPrefix(out.String(), tc.out) || diags.String() != tc.diags {
			t.Errorf("Parse(%q) = %q, %v; stdout %q, stderr %q", tc.args, rest, err, out.String(), diags.String())
		}
	}
}
