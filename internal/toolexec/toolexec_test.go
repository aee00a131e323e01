package toolexec

import (
	"os/exec"
	"runtime"
	"slices"
	"testing"
)

func TestParseDecision(t *testing.T) {
	for _, c := range []struct {
		line, key string
		can       bool
		text      string
	}{
		{"/src/p/a.go:3:6: can inline F with cost 4 as: func(int) int { return x + 2 }", "a.go:3", true, "F with cost 4 as: func(int) int { return x + 2 }"},
		{"p/a.go:12:1: cannot inline (*T).M: function too complex: cost 96 exceeds budget 80", "a.go:12", false, "(*T).M: function too complex: cost 96 exceeds budget 80"},
		{"/src/p:q/a.go:7:6: can inline G with cost 10 as: func() {  }", "a.go:7", true, "G with cost 10 as: func() {  }"},
		{"p/a.go:5:29: inlining call to F", "", false, ""},
		{"p/a.go:5:2: moved to heap: x", "", false, ""},
		{"a.go:x:6: can inline F with cost 4 as: f", "", false, ""},
	} {
		d, ok := ParseDecision(c.line)
		if ok != (c.key != "") || ok && (d.Key() != c.key || d.Can != c.can || d.Text != c.text) {
			t.Errorf("ParseDecision(%q) = %+v, %v; want key %q, can %v, text %q", c.line, d, ok, c.key, c.can, c.text)
		}
	}
}

// TestWatch checks that Watch stops a command that has printed every
// wanted decision, and waits for one that has not.
func TestWatch(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("runs sh")
	}
	print := "printf 'a.go:3:6: can inline F with cost 4 as: x\\na.go:3:9: inlining call to G\\nb.go:8:6: cannot inline H: function too complex: cost 90 exceeds budget 80\\n'"
	cmd := exec.Command("sh", "-c", print+"; exec sleep 600")
	lines, complete, _, err := Watch(cmd, []string{"b.go:8", "a.go:3"})
	if err != nil {
		t.Fatal(err)
	}
	if !complete || len(lines) != 2 {
		t.Errorf("got complete=%v, lines %q; want both decisions, complete", complete, lines)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.Success() {
		t.Errorf("the command was not stopped: %v", cmd.ProcessState)
	}

	// A decision that never comes: the command runs to its end, and
	// its other output is returned.
	cmd = exec.Command("sh", "-c", print+"; echo 'a.go:1:1: undefined: y'; exit 1")
	lines, complete, output, err := Watch(cmd, []string{"a.go:3", "c.go:1"})
	if err != nil {
		t.Fatal(err)
	}
	if complete || !slices.Equal(lines, []string{"a.go:3:6: can inline F with cost 4 as: x"}) {
		t.Errorf("got complete=%v, lines %q; want F's decision only, incomplete", complete, lines)
	}
	if string(output) != "a.go:1:1: undefined: y\n" || cmd.ProcessState.ExitCode() != 1 {
		t.Errorf("got output %q, exit %d; want the error line and status 1", output, cmd.ProcessState.ExitCode())
	}
}
