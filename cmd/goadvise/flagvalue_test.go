package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

// TestBenchFlagValues checks that check's -bench flags refuse a bad value
// when they are parsed, naming the flag and the value, and keep a good
// one.
func TestBenchFlagValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		err  string // "" for none
	}{
		{[]string{"-benchtime", "banana"}, `invalid value "banana" for flag -benchtime`},
		{[]string{"-benchtime", "0x"}, `invalid value "0x" for flag -benchtime`},
		{[]string{"-benchtime", "100"}, `invalid value "100" for flag -benchtime`},
		{[]string{"-bench-budget", "0"}, `invalid value "0" for flag -bench-budget: want a positive duration`},
		{[]string{"-bench-budget", "-1m"}, `invalid value "-1m" for flag -bench-budget: want a positive duration`},
		{[]string{"-bench-budget", "soon"}, `invalid value "soon" for flag -bench-budget`},
		{[]string{"-benchtime", "250x", "-bench-budget", "90s"}, ""},
	} {
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var bf benchFlags
		registerBenchFlags(fs, &bf)
		err := fs.Parse(tc.args)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case tc.err == "" && (bf.benchtime != "250x" || bf.budget != 90*time.Second):
			t.Errorf("%q: -benchtime %q, -bench-budget %v", tc.args, bf.benchtime, bf.budget)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
		}
	}
	// The defaults.
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	var bf benchFlags
	registerBenchFlags(fs, &bf)
	if bf.benchtime != "100ms" || bf.budget != 5*time.Minute || fs.Lookup("bench-budget").DefValue != "5m0s" {
		t.Errorf("defaults: -benchtime %q, -bench-budget %v (shown as %q)", bf.benchtime, bf.budget, fs.Lookup("bench-budget").DefValue)
	}
}
