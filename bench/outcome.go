package bench

import (
	"path/filepath"
	"regexp"
	"strings"
)

// why returns the line of a failed run's output that says why it failed:
// the panic, the runtime's fatal error ("fatal error: all goroutines are
// asleep - deadlock!"), the first line a failing benchmark logged, or the
// last line. The runtime's report may follow, on the same line, the
// name of the benchmark that the testing package printed before the
// result it was measuring ("BenchmarkX-8   \tpanic: boom").
func why(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for _, l := range lines {
		for _, p := range []string{"panic: ", "fatal error: "} {
			if i := strings.Index(l, p); i == 0 || i > 0 && l[i-1] == '\t' {
				return l[i:]
			}
		}
	}
	for i, l := range lines {
		if strings.Contains(l, "--- FAIL: ") && i+1 < len(lines) {
			return strings.TrimSpace(l) + ": " + strings.TrimSpace(lines[i+1])
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// goroutineHeader matches the first line of a goroutine's stack in a
// traceback: "goroutine 7 [chan send]:", "goroutine 7 gp=0x... m=nil
// [sleep, 2 minutes]:".
var goroutineHeader = regexp.MustCompile(`^goroutine \d+ .*?\[(.*)\]:$`)

// stuck reads the goroutines' stacks a test binary printed on SIGQUIT and
// returns what the benchmark's goroutine was doing, in the runtime's
// words, and where: "chan send at x_test.go:20". The benchmark's goroutine
// is the one running testing.(*B).runN whose first frame outside the
// runtime is not the testing package's (a benchmark waiting for its
// sub-benchmark is in testing.(*B).Run); where is the first of its frames
// in the module (rel), or else outside the runtime. It returns "" if the
// output has no such goroutine.
func stuck(out string, rel *relocation) string {
	type frame struct{ fn, file string }
	var state string
	var frames []frame
	found := ""
	flush := func() {
		if found != "" || state == "" {
			return
		}
		runN, first := false, ""
		for _, f := range frames {
			runN = runN || strings.HasPrefix(f.fn, "testing.(*B).runN(")
			if first == "" && !strings.HasPrefix(f.fn, "runtime.") && !strings.HasPrefix(f.fn, "internal/") {
				first = f.fn
			}
		}
		if !runN || strings.HasPrefix(first, "testing.") {
			return
		}
		where := ""
		for _, f := range frames {
			if _, ok := rel.user(f.file); ok && where == "" {
				where = f.file
			}
		}
		if where == "" {
			for _, f := range frames {
				if !strings.HasPrefix(f.fn, "runtime.") && !strings.HasPrefix(f.fn, "internal/") {
					where = f.file
					break
				}
			}
		}
		found = state
		if where != "" {
			found += " at " + filepath.Base(where)
		}
	}
	lines := strings.Split(out, "\n")
	for i, line := range lines {
		if m := goroutineHeader.FindStringSubmatch(line); m != nil {
			flush()
			state, frames = m[1], nil
			continue
		}
		if state == "" || strings.HasPrefix(line, "\t") || i+1 >= len(lines) {
			continue
		}
		// A frame: its function, then, indented, "file:line +0x1f ...".
		if loc, ok := strings.CutPrefix(lines[i+1], "\t"); ok && line != "" {
			if j := strings.Index(loc, " "); j >= 0 {
				loc = loc[:j]
			}
			frames = append(frames, frame{fn: line, file: loc})
		}
	}
	flush()
	return found
}
