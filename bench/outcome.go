package bench

import (
	"bytes"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
)

// A listing is what the verbose output of a run of a test binary
// (-test.v=test2json, whose framing lines start with ^V) says of the
// benchmarks it ran: which printed a result, which skipped themselves,
// which failed, and, if the binary did not end through the testing
// package (a panic, a fatal error of the runtime, os.Exit), the benchmark
// it was running.
type listing struct {
	results    []benchResult
	unfinished []string           // see unfinished
	skipped    []SkippedBenchmark // Package is left empty
	failed     []SkippedBenchmark // idem
	ended      bool               // the output ends with the testing package's PASS or FAIL
	running    string             // if not ended: the benchmark started last and not done
}

// fileLine matches the start of a line a benchmark logged: "x_test.go:12: ".
var fileLine = regexp.MustCompile(`^\S+\.go:\d+: `)

// readListing reads the verbose output of a run of benchmarks.
func readListing(out []byte) *listing {
	l := &listing{}
	set, _ := parse(bytes.NewReader(out), "")
	done := make(map[string]bool)
	for _, r := range set.results {
		name := "Benchmark" + trimProcs(string(r.Name))
		l.results = append(l.results, benchResult{name: name, n: r.Iters})
	}
	var started []string
	logs := make(map[string]string) // the last line each benchmark logged
	for _, line := range strings.Split(string(out), "\n") {
		framed := strings.HasPrefix(line, "\x16")
		line = strings.TrimPrefix(line, "\x16")
		if name, ok := strings.CutPrefix(line, "=== RUN   "); ok && framed {
			started = append(started, name)
			continue
		}
		if s, ok := strings.CutPrefix(line, "    "); ok && len(started) > 0 && fileLine.MatchString(s) {
			logs[started[len(started)-1]] = s
			continue
		}
		for _, kind := range []string{"--- SKIP: ", "--- FAIL: ", "--- PASS: "} {
			name, ok := strings.CutPrefix(line, kind)
			if !ok || !framed {
				continue
			}
			if i := strings.Index(name, " ("); i >= 0 {
				name = name[:i] // " (0.00s)"
			}
			done[name] = true
			s := SkippedBenchmark{Name: name, Reason: logs[name]}
			switch kind {
			case "--- SKIP: ":
				s.Reason = joinReason("the benchmark skips itself", s.Reason)
				l.skipped = append(l.skipped, s)
			case "--- FAIL: ":
				s.Reason = joinReason("failed", s.Reason)
				l.failed = append(l.failed, s)
			}
		}
	}
	l.unfinished = unfinished(out)
	for _, r := range l.results {
		done[r.name] = true
	}
	for _, name := range l.unfinished {
		done[name] = true
	}
	// A benchmark fails when one of its sub-benchmarks does: only the
	// innermost failures are named.
	inner := l.failed[:0]
	for _, f := range l.failed {
		parent := false
		for _, g := range l.failed {
			parent = parent || strings.HasPrefix(g.Name, f.Name+"/")
		}
		if !parent {
			inner = append(inner, f)
		}
	}
	l.failed = inner
	end := lastLine(out)
	l.ended = end == "PASS" || end == "FAIL"
	if !l.ended {
		for i := len(started) - 1; i >= 0; i-- {
			if !done[started[i]] {
				l.running = started[i]
				break
			}
		}
	}
	return l
}

// errUnfinished says that a benchmark's result has no measurement, with
// no word of why: see unfinished.
var errUnfinished = errors.New("its result has no time: its function did not return (a panic or os.Exit that the test binary exited before reporting, runtime.Goexit) or it stopped its timer throughout")

// unfinished returns the benchmarks of a run's output whose result has
// an iteration count but no measurement ("BenchmarkExit-8   \t 1"): the
// testing package prints that when the goroutine running a benchmark
// ends without its function returning (or when the benchmark stopped
// its timer for the whole run). On a panic, an os.Exit(0) made
// one included, that goroutine's deferred functions tell the testing
// package that the benchmark is done before the runtime reports the
// panic, and the test binary may print the result, PASS, and exit with
// status 0 before the runtime says anything: a race that the runtime
// loses now and then on a loaded machine. The line is the only trace.
func unfinished(out []byte) []string {
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && strings.HasPrefix(f[0], "Benchmark") && strings.Trim(f[1], "0123456789") == "" {
			names = append(names, trimProcs(f[0]))
		}
	}
	return names
}

func joinReason(what, detail string) string {
	if detail == "" {
		return what
	}
	return what + ": " + detail
}

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
