package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/report"
)

// coldModule writes a module whose package p has one redundant branch
// (each with a condition that calls a function, so that removing it saves
// more than a compare) in a loop (hot), one in a function only init calls (cold), one in a loop in
// init (cold: init runs once) and one in an exported function nothing in
// the module calls (unknown: shown); package q has only a cold one, and
// package n one whose condition is only a compare (negligible).
func coldModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/cold\n\ngo 1.26\n",
		"p/p.go": `package p

import "math"

var total int

func init() {
	for i := range 3 {
		if math.Signbit(float64(i)) {
			total++
		} else {
			total++
		}
	}
}

func init() { total = configure(true, total) }

func configure(c bool, x int) int {
	if math.Signbit(float64(x)) {
		x++
	} else {
		x++
	}
	return x
}

func Scale(c bool, x int) int {
	if math.Signbit(float64(x)) {
		x *= 2
	} else {
		x *= 2
	}
	return x
}

func Sum(xs []int, c bool) int {
	t := 0
	for _, x := range xs {
		if math.Signbit(float64(x)) {
			t += x
		} else {
			t += x
		}
	}
	return t
}
`,
		"q/q.go": `package q

import "math"

var n = configure(true, 1)

func configure(c bool, x int) int {
	if math.Signbit(float64(x)) {
		x++
	} else {
		x++
	}
	return x
}
`,
		"n/n.go": `package n

func Scale(c bool, x int) int {
	if c {
		x *= 2
	} else {
		x *= 2
	}
	return x
}
`,
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCheckHidesCold checks that check hides findings in cold code by
// default and counts them (JSON stats, text summary, HTML page), that
// -cold shows them (also from the findings cache), and that hidden
// findings alone do not make exit 3.
func TestCheckHidesCold(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	dir := coldModule(t)
	env := []string{"GOADVISE_CACHE=" + t.TempDir()}
	runJSON := func(args ...string) report.Report {
		t.Helper()
		stdout, stderr, code := runCmdEnv(t, dir, env, bin, append([]string{"check", "-format", "json", "-enable", "redundantbranch"}, args...)...)
		if code != exitFindings {
			t.Fatalf("check %v: exit code %d, want %d\n%s", args, code, exitFindings, stderr)
		}
		var r report.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("check %v: output is not JSON: %v\n%s", args, err, stdout)
		}
		return r
	}

	// The default shows the highest ranked finding of this small package
	// (3 per 1,000 lines) and counts the rest; -all shows them.
	r := runJSON("./p")
	if len(r.Findings) != 1 || r.Findings[0].Function != "example.com/cold/p.Sum" || r.Stats.BelowCut != 1 || r.Stats.HiddenCold != 2 {
		t.Errorf("default: got %d findings (%+v), %d below the cut, %d hidden in cold code; want Sum's, 1 below, 2 hidden", len(r.Findings), r.Findings, r.Stats.BelowCut, r.Stats.HiddenCold)
	}
	r = runJSON("-all", "./p")
	if len(r.Findings) != 2 || r.Findings[0].Function != "example.com/cold/p.Sum" || r.Findings[1].Function != "example.com/cold/p.Scale" ||
		r.Findings[1].Tier != "unknown" || r.Stats.HiddenCold != 2 {
		t.Errorf("-all: got %d findings (%+v), %d hidden in cold code; want Sum's, then Scale's (unknown), 2 hidden", len(r.Findings), r.Findings, r.Stats.HiddenCold)
	}

	// From the findings cache, which keeps what check hides.
	r = runJSON("-cold", "-all", "./p")
	if r.Stats.Cached != 1 {
		t.Errorf("-cold: %d packages from the findings cache, want 1", r.Stats.Cached)
	}
	tiers := map[string]string{}
	for _, f := range r.Findings {
		tiers[f.Function] = f.Tier
	}
	want := map[string]string{"example.com/cold/p.Sum": "hot-loop", "example.com/cold/p.Scale": "unknown", "example.com/cold/p.configure": "cold", "example.com/cold/p.init": "cold"}
	if len(r.Findings) != 4 || r.Stats.HiddenCold != 0 || !maps.Equal(tiers, want) {
		t.Errorf("-cold: got tiers %v, %d hidden; want %v, none hidden", tiers, r.Stats.HiddenCold, want)
	}

	stdout, stderr, code := runCmdEnv(t, dir, env, bin, "check", "-enable", "redundantbranch", "./q")
	if code != exitOK {
		t.Errorf("only cold findings: exit code %d, want %d\n%s", code, exitOK, stderr)
	}
	if want := "no findings in 1 package; 1 in cold code not shown (-cold shows them)"; !strings.Contains(stdout, want) {
		t.Errorf("text summary %q does not say %q", stdout, want)
	}

	stdout, _, _ = runCmdEnv(t, dir, env, bin, "check", "-format", "html", "-enable", "redundantbranch", "./p", "./q")
	if want := "3 in cold code not shown (-cold shows them)"; !strings.Contains(stdout, want) {
		t.Errorf("HTML page does not say %q", want)
	}

	// A branch whose removal saves only a compare is reported, in the
	// class "negligible", which ranks it low.
	r = runJSON("./n")
	if len(r.Findings) != 1 || r.Findings[0].Class != "negligible" || r.Findings[0].Kind == "" {
		t.Errorf("negligible: got %+v, want the one negligible finding, with its kind", r.Findings)
	}
}
