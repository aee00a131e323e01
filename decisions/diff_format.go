package decisions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/goadvise/goadvise/internal/plural"
)

// The checks of a CI gate (goadvise diff -fail-on).
const (
	GateEscapes = "escapes" // a function has a new heap escape
	GateInline  = "inline"  // a function is no longer inlinable, or a call site in it is no longer inlined
	GateBounds  = "bounds"  // a function has more bounds checks than before
)

// ParseGate parses a comma-separated list of gate checks.
func ParseGate(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch f {
		case "":
		case GateEscapes, GateInline, GateBounds:
			out = append(out, f)
		default:
			return nil, fmt.Errorf("unknown check %q (want escapes, inline or bounds)", f)
		}
	}
	return out, nil
}

// GateFailures returns one line per change that fails the gate: new heap
// escapes, lost inlining, or new bounds checks, as selected by checks.
// With a profile, only hot functions count.
func (rep *DiffReport) GateFailures(checks []string) []string {
	var out []string
	for _, r := range rep.regressions(checks) {
		out = append(out, r.Text)
	}
	return out
}

// A Regression is a change of the compiler's decisions that makes the
// code worse, as a CI gate sees it (see [DiffReport.GateFailures]).
type Regression struct {
	Package string // import path of the function changed
	Func    string // as the compiler names it: "F", "(*T).M", "F.func1"

	// Escape is the new heap allocation, with its position, when the
	// change is one; nil for lost inlining and new bounds checks.
	Escape *Escape

	// Text says what changed, in one line: "use/use.go:12:7:
	// example.com/fx/use.Header: new heap escape of &fx.Parser{...}
	// (passed to an interface method or unknown function)".
	Text string
}

// regressions returns the changes of rep that fail the gate checks.
func (rep *DiffReport) regressions(checks []string) []Regression {
	on := make(map[string]bool)
	for _, c := range checks {
		on[c] = true
	}
	var out []Regression
	for _, f := range rep.Funcs {
		if rep.Profile != "" && !f.Hot {
			continue
		}
		name := f.Package + "." + f.Func
		add := func(e *Escape, format string, args ...any) {
			out = append(out, Regression{Package: f.Package, Func: f.Func, Escape: e, Text: fmt.Sprintf(format, args...)})
		}
		if on[GateEscapes] {
			for _, e := range f.EscapesAdded {
				add(&e, "%s: %s: new heap escape of %s (%s)", e.Pos, name, e.Name, e.Cause)
			}
		}
		if on[GateInline] {
			if f.Inlinable != nil && !f.Inlinable.After {
				add(nil, "%s is no longer inlinable: %s", name, f.Inlinable.Reason)
			}
			for _, c := range f.InlinedRemoved {
				add(nil, "%s: %s to %s no longer inlined", name, plural.Count(c.N, "call", "calls"), c.Callee)
			}
		}
		// A bounds check moved (an early check that replaces later
		// ones) is progress: only a net increase fails.
		if on[GateBounds] && len(f.BoundsAdded) > len(f.BoundsRemoved) {
			for _, b := range f.BoundsAdded {
				add(nil, "%s: %s: new %s bounds check", b.Pos, name, b.Kind)
			}
		}
	}
	return out
}

// Write writes the report as text or, with format "json", as one JSON
// object.
func (rep *DiffReport) Write(w io.Writer, format string) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	var b bytes.Buffer
	rep.writeText(&b)
	_, err := w.Write(b.Bytes())
	return err
}

func (rep *DiffReport) writeText(w *bytes.Buffer) {
	fmt.Fprintf(w, "goadvise diff: %s -> %s, %s, both built with -pgo=%s\n", rep.Base, rep.Head, plural.Count(len(rep.Packages), "package", "packages"), rep.PGO)
	for _, e := range rep.Errors {
		fmt.Fprintf(w, "not compared: %s\n", e)
	}
	if len(rep.Funcs) == 0 {
		fmt.Fprintln(w, "\nno change in the compiler's decisions")
		rep.writeFailures(w)
		return
	}
	untouched := 0
	last := ""
	for _, f := range rep.Funcs {
		if f.Package != last {
			fmt.Fprintf(w, "\n%s\n", f.Package)
			last = f.Package
		}
		var tags []string
		if f.Touched {
			tags = append(tags, "changed by the diff")
		} else {
			untouched++
			tags = append(tags, "NOT TOUCHED by the diff: changed through inlining or a dependency")
		}
		if f.Hot {
			tags = append(tags, "hot")
		}
		mark := " "
		if !f.Touched {
			mark = "!"
		}
		fmt.Fprintf(w, "%s %s  [%s]\n", mark, f.Func, strings.Join(tags, ", "))
		if c := f.Inlinable; c != nil {
			if c.After {
				fmt.Fprintf(w, "    now inlinable (cost %d; was: %s)\n", c.CostAfter, c.Reason)
			} else {
				fmt.Fprintf(w, "    no longer inlinable: %s (was cost %d)\n", c.Reason, c.CostBefore)
				for _, s := range f.LostCallSites {
					fmt.Fprintf(w, "      lost call site: %s in %s\n", s.Pos, s.Func)
				}
			}
		}
		for _, c := range f.InlinedRemoved {
			fmt.Fprintf(w, "    - call to %s no longer inlined (%s)\n", c.Callee, plural.Count(c.N, "site", "sites"))
		}
		for _, c := range f.InlinedAdded {
			fmt.Fprintf(w, "    + call to %s now inlined (%s)\n", c.Callee, plural.Count(c.N, "site", "sites"))
		}
		for _, e := range f.EscapesAdded {
			fmt.Fprintf(w, "    + heap: %s  %s\n", e.Pos, describeEscape(e))
		}
		for _, e := range f.EscapesRemoved {
			fmt.Fprintf(w, "    - heap: %s  %s (now on the stack or gone)\n", e.Pos, describeEscape(e))
		}
		for _, b := range f.BoundsAdded {
			fmt.Fprintf(w, "    + %s bounds check: %s  %s\n", b.Kind, b.Pos, b.Line)
		}
		for _, b := range f.BoundsRemoved {
			fmt.Fprintf(w, "    - %s bounds check: %s  %s\n", b.Kind, b.Pos, b.Line)
		}
	}
	fmt.Fprintf(w, "\n%s changed, %d of them not touched by the diff (marked !)\n", plural.Count(len(rep.Funcs), "function", "functions"), untouched)
	rep.writeFailures(w)
}

func (rep *DiffReport) writeFailures(w *bytes.Buffer) {
	if len(rep.Gate) == 0 {
		return
	}
	if len(rep.Failures) == 0 {
		fmt.Fprintf(w, "\ngate -fail-on %s: passed\n", strings.Join(rep.Gate, ","))
		return
	}
	fmt.Fprintf(w, "\ngate -fail-on %s: FAILED\n", strings.Join(rep.Gate, ","))
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "  %s\n", f)
	}
}

func describeEscape(e Escape) string {
	s := e.Name + " (" + e.Cause
	if e.Via != "" {
		s += ", from inlined " + e.Via
	}
	s += ")"
	if e.Explanation != "" {
		s += ": " + e.Explanation
	}
	return s
}
