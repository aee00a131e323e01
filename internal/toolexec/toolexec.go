// Package toolexec is goadvise's -toolexec wrapper: the go command runs
// every tool of a build through it when given -toolexec=PROGRAM, and the
// wrapper runs the tool as asked, doing one of two things on the side, as
// the environment says:
//
//   - with $GOADVISE_TOOLEXEC_LOG set (see [LogEnv]), it appends a line to
//     that file for each tool run: the tool, the package, its peak
//     resident set size and CPU time (goadvise pgo explain measures build
//     costs with it);
//   - with $GOADVISE_TOOLEXEC_INLINING set (see [Inlining]), it watches
//     one package's compile, run with -m=2, for the inlining decisions
//     about some functions, and stops the compiler as soon as it has
//     printed them all, before escape analysis and code generation.
//
// A program serves as the wrapper by calling [Serve] first thing in main
// (or TestMain); [Program] then names it.
package toolexec

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/goadvise/goadvise/internal/gocmd"
)

// The environment variables that select what the wrapper does.
const (
	logEnv      = "GOADVISE_TOOLEXEC_LOG"
	inliningEnv = "GOADVISE_TOOLEXEC_INLINING"
)

// LogEnv returns the environment setting that makes the wrapper append a
// line for each tool run to the file name: "TOOL\tIMPORTPATH\tMAXRSS\tCPU",
// with the peak resident set size in bytes and the CPU time in
// nanoseconds. The go command's queries of each tool's version (-V=full)
// are not recorded.
func LogEnv(name string) string { return logEnv + "=" + name }

// served is the running program's path, once Serve has found that it was
// not started as the wrapper.
var served atomic.Pointer[string]

// Serve runs the tool and exits with its status if the process was
// started as the wrapper; otherwise it records that the running program
// can serve as one (see [Program]) and returns.
func Serve() {
	if os.Getenv(logEnv) != "" || os.Getenv(inliningEnv) != "" {
		os.Exit(run(os.Args[1:]))
	}
	if exe, err := os.Executable(); err == nil {
		served.Store(&exe)
	}
}

// Program returns the path of the running program if it called [Serve],
// and "" otherwise: an analyzer running in another driver (golangci-lint,
// Bazel's nogo) has no wrapper and must do without.
func Program() string {
	if p := served.Load(); p != nil {
		return *p
	}
	return ""
}

// run is the wrapper's main: args are the tool and its arguments.
func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "goadvise toolexec: no tool to run")
		return 2
	}
	tool := strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	// The go command asks each tool for its version (-V=full) to key its
	// cache: that must be the tool's own answer, untouched.
	version := slices.Contains(args[1:], "-V=full")
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	var status int
	var err error
	if spec := os.Getenv(inliningEnv); spec != "" && tool == "compile" && !version {
		status, err = watch(cmd, spec)
	} else {
		status, err = runStatus(cmd)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise toolexec: %v\n", err)
		return 2
	}
	if name := os.Getenv(logEnv); name != "" && !version {
		maxrss := gocmd.PeakRSS(cmd.ProcessState)
		cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		line := fmt.Sprintf("%s\t%s\t%d\t%d\n", tool, os.Getenv("TOOLEXEC_IMPORTPATH"), maxrss, cpu.Nanoseconds())
		if err := appendLine(name, line); err != nil {
			fmt.Fprintf(os.Stderr, "goadvise toolexec: recording %s: %v\n", tool, err)
			return 2
		}
	}
	return status
}

// runStatus runs cmd and returns its exit status; the error is for a
// tool that could not run at all.
func runStatus(cmd *exec.Cmd) (int, error) {
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &ee):
		return ee.ExitCode(), nil
	}
	return 0, err
}

// appendLine appends line to the file name. One write of a short line to
// a file opened with O_APPEND is atomic with respect to the other tools
// running in parallel.
func appendLine(name, line string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Inlining asks the wrapper for the compiler's inlining decisions about
// some functions of one package, whose compile runs with -m=2.
type Inlining struct {
	Package string   // import path of the package to watch (TOOLEXEC_IMPORTPATH)
	Out     string   // file to write the decisions to (see [Watch])
	Want    []string // the functions, as [Key]s of their declarations
}

// Env returns the environment setting that passes this request to the
// wrapper.
func (in *Inlining) Env() (string, error) {
	data, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	return inliningEnv + "=" + string(data), nil
}

// watch runs the compile cmd for the spec of $GOADVISE_TOOLEXEC_INLINING,
// if cmd compiles its package, and writes what Watch saw to its Out file.
func watch(cmd *exec.Cmd, spec string) (int, error) {
	var in Inlining
	if err := json.Unmarshal([]byte(spec), &in); err != nil {
		return 0, fmt.Errorf("malformed $%s: %v", inliningEnv, err)
	}
	if os.Getenv("TOOLEXEC_IMPORTPATH") != in.Package {
		return runStatus(cmd)
	}
	cmd.Stdout = nil
	lines, complete, output, err := Watch(cmd, in.Want)
	if err != nil {
		return 0, err
	}
	data := strings.Join(lines, "\n")
	if err := os.WriteFile(in.Out, []byte(data), 0o666); err != nil {
		return 0, err
	}
	if complete {
		// The compile was stopped: the go command must not take its
		// output for a package, and this says why.
		fmt.Println("goadvise: compile stopped after inlining")
		return 3, nil
	}
	code := cmd.ProcessState.ExitCode()
	if code != 0 {
		os.Stdout.Write(output) // the compile errors, for the go command to report
	}
	return code, nil
}

// Key returns the key of a declaration at line of the file named name:
// the file's base name and the line, which -m=2 lines and a function's
// declaration agree on, whatever -trimpath did to the directory.
func Key(name string, line int) string {
	return filepath.Base(name) + ":" + strconv.Itoa(line)
}

// A Decision is a line of the compiler's -m=2 output that gives its
// inlining decision about a function: "FILE:LINE:COL: can inline F with
// cost N as: ..." or "FILE:LINE:COL: cannot inline F: REASON".
type Decision struct {
	File      string
	Line, Col int
	Can       bool   // "can inline"
	Text      string // what follows "can inline " or "cannot inline "
}

// Key returns the [Key] of the function's declaration.
func (d Decision) Key() string { return Key(d.File, d.Line) }

// ParseDecision parses s as a [Decision].
func ParseDecision(s string) (Decision, bool) {
	var d Decision
	i := strings.Index(s, ": can inline ")
	if i >= 0 {
		d.Can, d.Text = true, s[i+len(": can inline "):]
	} else if i = strings.Index(s, ": cannot inline "); i >= 0 {
		d.Text = s[i+len(": cannot inline "):]
	} else {
		return d, false
	}
	pos := s[:i] // FILE:LINE:COL
	c := strings.LastIndexByte(pos, ':')
	if c < 0 {
		return d, false
	}
	l := strings.LastIndexByte(pos[:c], ':')
	if l < 0 {
		return d, false
	}
	var err1, err2 error
	d.Line, err1 = strconv.Atoi(pos[l+1 : c])
	d.Col, err2 = strconv.Atoi(pos[c+1:])
	if err1 != nil || err2 != nil {
		return d, false
	}
	d.File = pos[:l]
	return d, true
}

// Watch runs the compile cmd (given -m=2, its stdout unset) and collects
// its inlining decisions (see [Decision]) about the declarations of
// want. As soon as it has one for each, it kills the compiler and returns
// them with complete set: inlining decisions are made and printed before
// escape analysis and code generation, which on a large package take
// most of the compile. Otherwise it waits for the compile to end and
// returns what it saw, with the compiler's output in output, up to 64
// lines not about inlining (its errors, if it failed).
func Watch(cmd *exec.Cmd, want []string) (lines []string, complete bool, output []byte, err error) {
	wanted := make(map[string]bool, len(want))
	for _, k := range want {
		wanted[k] = true
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, false, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, false, nil, err
	}
	var other []string
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for len(wanted) > 0 && sc.Scan() {
		s := sc.Text()
		d, ok := ParseDecision(s)
		switch {
		case ok && wanted[d.Key()]:
			delete(wanted, d.Key())
			lines = append(lines, s)
		case !ok && len(other) < 64 && !strings.Contains(s, ": inlining call to "):
			other = append(other, s)
		}
	}
	if len(wanted) == 0 && len(want) > 0 {
		cmd.Process.Kill()
		cmd.Wait()
		return lines, true, nil, nil
	}
	io.Copy(io.Discard, out) // the rest of the output, if lines were too long
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, false, nil, err
		}
	}
	if len(other) > 0 {
		output = []byte(strings.Join(other, "\n") + "\n")
	}
	return lines, false, output, nil
}
