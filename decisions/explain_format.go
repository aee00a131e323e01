package decisions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/internal/plural"
)

// verdict weighs the runtime change against the build cost in one line.
func verdict(cmp *bench.Comparison, cost *CostTable) (string, Outcome) {
	var costs []string
	if cost != nil {
		cpu := cost.Row(MetricCleanCPU)
		what := "clean build CPU"
		if cpu == nil {
			cpu, what = cost.Row(MetricModuleCPU), "build CPU"
		}
		if cpu != nil && !math.IsNaN(cpu.DeltaPct) {
			costs = append(costs, fmt.Sprintf("%+.0f%% %s", cpu.DeltaPct, what))
		}
		if b := cost.Row(MetricBinary); b != nil && !math.IsNaN(b.DeltaPct) {
			costs = append(costs, fmt.Sprintf("%+.1f%% binary", b.DeltaPct))
		}
	}
	forCost := ""
	if len(costs) > 0 {
		forCost = " for " + strings.Join(costs, ", ")
	}
	if cmp == nil {
		return "PGO: runtime not measured (give -bench)" + forCost, NotMeasured
	}
	var rows []*bench.Row
	for _, r := range cmp.Rows {
		if r.Unit == "sec/op" && r.Base != nil && r.Head != nil && r.Base.Center > 0 && r.Head.Center > 0 {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return "PGO: no sec/op benchmark ran in both builds" + forCost, NotMeasured
	}
	faster, slower := 0, 0
	logSum := 0.0
	for _, r := range rows {
		logSum += math.Log(r.Head.Center / r.Base.Center)
		if r.Significant {
			switch r.Verdict {
			case bench.Faster:
				faster++
			case bench.Slower:
				slower++
			}
		}
	}
	var change string
	if len(rows) == 1 {
		r := rows[0]
		change = fmt.Sprintf("%+.1f%% sec/op (p=%.3f)", r.DeltaPct, r.P)
	} else {
		g := (math.Exp(logSum/float64(len(rows))) - 1) * 100
		change = fmt.Sprintf("%+.1f%% sec/op geomean over %d benchmarks (%d significantly faster, %d slower)", g, len(rows), faster, slower)
	}
	switch {
	case faster > 0 && slower == 0:
		return "PGO: " + change + forCost + ": worth it", WorthIt
	case faster > 0 && slower > 0:
		return "PGO: " + change + forCost + ": mixed, check the slower benchmarks", Mixed
	case slower > 0:
		return "PGO: " + change + forCost + ": slower, do not use this profile", Slower
	}
	return "PGO: " + change + forCost + ": no significant gain", NoGain
}

// An Outcome is the conclusion of a verdict.
type Outcome string

// The outcomes of a verdict.
const (
	NotMeasured Outcome = "not-measured" // no benchmark compared both builds
	WorthIt     Outcome = "worth-it"     // some benchmarks significantly faster, none slower
	Mixed       Outcome = "mixed"        // some faster, some slower
	Slower      Outcome = "slower"       // some slower, none faster
	NoGain      Outcome = "no-gain"      // no significant change
)

// Write writes the explanation as text or, with format "json", as one
// JSON object.
func (ex *Explanation) Write(w io.Writer, format string) error {
	if format == "json" {
		return ex.writeJSON(w)
	}
	var b bytes.Buffer
	ex.writeText(&b)
	_, err := w.Write(b.Bytes())
	return err
}

func (ex *Explanation) writeJSON(w io.Writer) error {
	type alias Explanation
	v := struct {
		*alias
		Runtime json.RawMessage `json:"runtime,omitempty"`
	}{alias: (*alias)(ex)}
	if ex.Runtime != nil {
		var b bytes.Buffer
		if err := bench.Write(&b, ex.Runtime, bench.FormatJSON); err != nil {
			return err
		}
		v.Runtime = json.RawMessage(bytes.TrimSpace(b.Bytes()))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func (ex *Explanation) writeText(w *bytes.Buffer) {
	fmt.Fprintf(w, "PGO explain: -pgo=off vs -pgo=%s, %s of the main module\n", filepath.Base(ex.Profile), plural.Count(len(ex.Packages), "package", "packages"))

	section := func(title string, n int) bool {
		fmt.Fprintf(w, "\n%s", title)
		if n == 0 {
			fmt.Fprintln(w, ": none")
			return false
		}
		fmt.Fprintln(w, ":")
		return true
	}
	// group prints items grouped by package and function.
	type item struct{ pkg, fn, line string }
	group := func(items []item) {
		lastPkg, lastFn := "\x00", "\x00"
		for _, it := range items {
			if it.pkg != lastPkg {
				fmt.Fprintf(w, "  %s\n", it.pkg)
				lastPkg, lastFn = it.pkg, "\x00"
			}
			if it.fn != lastFn {
				fn := funcname.Brief(it.fn)
				if fn == "" {
					fn = "(package level)"
				}
				fmt.Fprintf(w, "    %s\n", fn)
				lastFn = it.fn
			}
			fmt.Fprintf(w, "      %s\n", it.line)
		}
	}
	weight := func(v int64) string {
		if v < 0 {
			return "weight unknown"
		}
		return fmt.Sprintf("weight %d", v)
	}
	if section("Hot-budget inlining (inlined only because the profile marks the call hot; the default budget is 80)", len(ex.HotInlines)) {
		var items []item
		for _, h := range sortedByFunc(ex.HotInlines, func(h HotInline) (string, string) { return h.Package, h.Caller }) {
			items = append(items, item{h.Package, h.Caller, fmt.Sprintf("%s: inlined %s (cost %d), %s", h.Pos.rel(ex.dir), funcname.From(h.Package, h.Callee), h.Cost, weight(h.Weight))})
		}
		group(items)
	}
	if section("Devirtualized calls", len(ex.Devirtualized)) {
		var items []item
		for _, d := range ex.Devirtualized {
			share := ""
			if d.Weight >= 0 && d.Total > 0 {
				share = fmt.Sprintf(" of %d (%.0f%%)", d.Total, 100*float64(d.Weight)/float64(d.Total))
			}
			then := ""
			if d.Inlined {
				then = ", then inlined"
			}
			items = append(items, item{d.Package, d.Caller, fmt.Sprintf("%s: %s call %s -> %s, %s%s%s", d.Pos.rel(ex.dir), d.Kind, d.Call, funcname.From(d.Package, d.Callee), weight(d.Weight), share, then)})
		}
		group(items)
	}
	if len(ex.InlineChanges) > 0 {
		section("Other inlining changes", len(ex.InlineChanges))
		var items []item
		for _, c := range ex.InlineChanges {
			how := "inlined only with PGO"
			if !c.WithPGO {
				how = "inlined only without PGO"
			}
			items = append(items, item{c.Package, c.Caller, fmt.Sprintf("%s: %s %s", c.Pos.rel(ex.dir), funcname.Brief(c.Callee), how)})
		}
		group(items)
	}
	if section("Escapes changed", len(ex.Escapes)) {
		var items []item
		for _, e := range ex.Escapes {
			line := fmt.Sprintf("%s: %s: %s without PGO, %s with PGO", e.Pos.rel(ex.dir), e.Name, e.Off, e.On)
			if e.Via != "" {
				line += fmt.Sprintf(" (%s is inlined here only %s PGO)", funcname.Brief(e.Via), map[bool]string{true: "with", false: "without"}[e.On == "stack"])
			}
			items = append(items, item{e.Package, e.Func, line})
		}
		group(items)
	}
	if ex.Cost != nil {
		fmt.Fprintf(w, "\nBuild cost (median [min .. max] of %d runs", ex.Cost.Runs)
		if ex.Cost.CleanRuns > 0 {
			fmt.Fprintf(w, "; clean builds: %d runs", ex.Cost.CleanRuns)
		}
		fmt.Fprintln(w, "):")
		ex.Cost.writeText(w)
	}
	if ex.Runtime != nil {
		fmt.Fprintln(w, "\nRuntime (goadvise bench -pgo):")
		var b bytes.Buffer
		bench.Write(&b, ex.Runtime, bench.FormatText)
		for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if len(ex.Hazards) > 0 {
		fmt.Fprintln(w, "\nHazards:")
		for _, h := range ex.Hazards {
			fmt.Fprintf(w, "  - %s\n", h)
		}
	}
	fmt.Fprintf(w, "\n%s\n", ex.Verdict)
}

// sortedByFunc returns items stably ordered by package and function,
// keeping the order within a function.
func sortedByFunc[T any](items []T, key func(T) (string, string)) []T {
	out := append([]T(nil), items...)
	// Insertion sort keeps it stable and the lists are short.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0; j-- {
			p1, f1 := key(out[j-1])
			p2, f2 := key(out[j])
			if p1 < p2 || (p1 == p2 && f1 <= f2) {
				break
			}
			out[j-1], out[j] = out[j], out[j-1]
		}
	}
	return out
}

func (c *CostTable) writeText(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  metric\tpgo=off\tpgo=on\tchange")
	for _, r := range c.Rows {
		delta := "~"
		if !math.IsNaN(r.DeltaPct) {
			delta = fmt.Sprintf("%+.1f%%", r.DeltaPct)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", r.Metric, r.Off.Format(r.Unit), r.On.Format(r.Unit), delta)
	}
	tw.Flush()
}

// FormatValue formats a measured value in its unit ("s", "MB", "bytes").
func FormatValue(v float64, unit string) string {
	switch unit {
	case "s":
		return fmt.Sprintf("%.2fs", v)
	case "MB":
		return fmt.Sprintf("%.0fMB", v)
	case "bytes":
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%g", v)
}

// Format formats the sample as "median [min .. max]" in unit, or as the
// median alone if every run measured the same.
func (s Sample) Format(unit string) string {
	if len(s.Values) <= 1 || s.Min == s.Max {
		return FormatValue(s.Median, unit)
	}
	return fmt.Sprintf("%s [%s .. %s]", FormatValue(s.Median, unit), FormatValue(s.Min, unit), FormatValue(s.Max, unit))
}
