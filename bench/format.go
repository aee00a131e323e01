package bench

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/perf/benchunit"
)

// Formats accepted by Write.
const (
	FormatText = "text"
	FormatJSON = "json"
	FormatCSV  = "csv"
)

// Write writes c to w in the given format: "text" (benchstat-style tables,
// one per package and unit), "json" or "csv".
func Write(w io.Writer, c *Comparison, format string) error {
	switch format {
	case "", FormatText:
		return writeText(w, c)
	case FormatJSON:
		return writeJSON(w, c)
	case FormatCSV:
		return writeCSV(w, c)
	}
	return fmt.Errorf("unknown format %q (want text, json or csv)", format)
}

// writeText writes tables in the style of benchstat: per package and unit,
// the median of each version with its confidence interval as "± x%", the
// delta ("~" when not significant), the p-value and sample sizes, and the
// verdict. Values are scaled with SI or binary prefixes as benchstat does.
func writeText(w io.Writer, c *Comparison) error {
	bw := bufio.NewWriter(w)
	for _, cfg := range c.Config {
		fmt.Fprintf(bw, "%s: %s\n", cfg.Key, cfg.Value)
	}
	var notes []string
	noteIdx := make(map[string]int)
	footnote := func(ws []string) string {
		var marks []string
		for _, s := range ws {
			i, ok := noteIdx[s]
			if !ok {
				i = len(notes)
				noteIdx[s] = i
				notes = append(notes, s)
			}
			marks = append(marks, superscript(i+1))
		}
		return strings.Join(marks, " ")
	}

	// Group rows into tables by package and unit, keeping first-seen order.
	type tkey struct{ pkg, unit string }
	var order []tkey
	tables := make(map[tkey][]*Row)
	for _, r := range c.Rows {
		k := tkey{r.Pkg, r.Unit}
		if _, ok := tables[k]; !ok {
			order = append(order, k)
		}
		tables[k] = append(tables[k], r)
	}
	lastPkg := "\x00"
	for _, k := range order {
		if k.pkg != lastPkg {
			if k.pkg != "" {
				fmt.Fprintf(bw, "pkg: %s\n", k.pkg)
			}
			lastPkg = k.pkg
		}
		rows := tables[k]
		t := [][]string{
			{"", "│", c.BaseLabel, "│", c.HeadLabel, "", "", "", "│"},
			{"", "│", k.unit, "│", k.unit, "vs base", "", "", "│"},
		}
		cls := benchunit.ClassOf(k.unit)
		for _, r := range rows {
			var vals []float64
			for _, s := range []*Stats{r.Base, r.Head} {
				if s != nil {
					vals = append(vals, s.Center)
				}
			}
			sc := benchunit.CommonScale(vals, cls)
			cell := func(s *Stats) string {
				if s == nil {
					return ""
				}
				return sc.Format(s.Center) + " ± " + s.Spread
			}
			delta, pn := "", ""
			if r.Base != nil && r.Head != nil {
				delta = formatDelta(r)
				pn = formatP(r)
			}
			verdict := string(r.Verdict)
			if r.Regression {
				verdict += " (regression)"
			}
			t = append(t, []string{r.Name, "│", cell(r.Base), "│", cell(r.Head), delta, pn, verdict + footnoteSep(footnote(r.Warnings)), "│"})
		}
		if g := geomean(rows); g != nil {
			t = append(t, []string{"geomean", "│", benchunit.Scale(g[0], cls), "│", benchunit.Scale(g[1], cls), fmt.Sprintf("%+.2f%%", (g[1]/g[0]-1)*100), "", "", "│"})
		}
		writeAligned(bw, t)
		fmt.Fprintln(bw)
	}
	for i, n := range notes {
		fmt.Fprintf(bw, "%s %s\n", superscript(i+1), n)
	}
	if len(notes) > 0 {
		fmt.Fprintln(bw)
	}
	for _, wmsg := range c.Warnings {
		fmt.Fprintf(bw, "warning: %s\n", wmsg)
	}
	if regs := c.Regressions(); len(regs) > 0 {
		for _, r := range regs {
			fmt.Fprintf(bw, "REGRESSION: %s %s: %s\n", r.Name, r.Unit, describeChange(r))
		}
	} else {
		fmt.Fprintf(bw, "no significant regression beyond %g%% (alpha %g)\n", c.Threshold, c.Alpha)
	}
	return bw.Flush()
}

func footnoteSep(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

func describeChange(r *Row) string {
	cls := benchunit.ClassOf(r.Unit)
	s := fmt.Sprintf("%s → %s", benchunit.Scale(r.Base.Center, cls), benchunit.Scale(r.Head.Center, cls))
	if !math.IsNaN(r.DeltaPct) {
		s += fmt.Sprintf(" (%+.2f%%)", r.DeltaPct)
	}
	if !math.IsNaN(r.P) {
		s += " " + formatP(r)
	}
	return s
}

// formatDelta formats the percent change, or "~" when it is not significant.
func formatDelta(r *Row) string {
	if r.Verdict == TooFewSamples && !r.Regression {
		return "?"
	}
	if !r.Significant && !r.Regression {
		return "~"
	}
	if math.IsNaN(r.DeltaPct) {
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", r.DeltaPct)
}

// formatP formats the p-value and sample sizes as benchstat does.
func formatP(r *Row) string {
	var s string
	if r.P != 0 {
		s = fmt.Sprintf("p=%0.3f ", r.P)
	}
	n1, n2 := r.Base.N(), r.Head.N()
	if n1 == n2 {
		return "(" + s + fmt.Sprintf("n=%d", n1) + ")"
	}
	return "(" + s + fmt.Sprintf("n=%d+%d", n1, n2) + ")"
}

// geomean returns the geometric means of the base and head centres of the
// rows measured in both versions, or nil if there are fewer than two such
// rows or a centre is not positive.
func geomean(rows []*Row) []float64 {
	var lb, lh float64
	n := 0
	for _, r := range rows {
		if r.Base == nil || r.Head == nil {
			continue
		}
		if r.Base.Center <= 0 || r.Head.Center <= 0 {
			return nil
		}
		lb += math.Log(r.Base.Center)
		lh += math.Log(r.Head.Center)
		n++
	}
	if n < 2 {
		return nil
	}
	return []float64{math.Exp(lb / float64(n)), math.Exp(lh / float64(n))}
}

// writeAligned writes a table whose first two rows are headers and whose
// other rows have the cells name, "│", base, "│", head, delta, p-value,
// verdict, "│". In the first header row the head label spans the head,
// delta, p-value and verdict columns; in the second, "vs base" spans the
// last three. Values are right aligned, text left aligned.
func writeAligned(w io.Writer, t [][]string) {
	const spanFrom, spanTo = 4, 7 // columns spanned by the head label
	width := make([]int, 9)
	for ri, row := range t {
		for i, c := range row {
			if ri == 0 && i == spanFrom || ri == 1 && i == spanFrom+1 {
				continue // spanning cells are fitted below
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	spanWidth := func(from int) int {
		n := 0
		for i := from; i <= spanTo; i++ {
			n += width[i] + 1
		}
		return n - 1
	}
	// Widen the verdict column to fit the spanning headers.
	width[spanTo] += max(0, utf8.RuneCountInString(t[0][spanFrom])-spanWidth(spanFrom))
	width[spanTo] += max(0, utf8.RuneCountInString(t[1][spanFrom+1])-spanWidth(spanFrom+1))

	pad := func(s string, n int, align byte) string {
		p := max(0, n-utf8.RuneCountInString(s))
		switch align {
		case 'r':
			return strings.Repeat(" ", p) + s
		case 'c':
			return strings.Repeat(" ", p/2) + s + strings.Repeat(" ", p-p/2)
		}
		return s + strings.Repeat(" ", p)
	}
	for ri, row := range t {
		var cells []string
		for i := 0; i < len(row); i++ {
			c := row[i]
			switch {
			case ri == 0 && i == spanFrom:
				cells = append(cells, pad(c, spanWidth(spanFrom), 'c'))
				i = spanTo
			case ri == 1 && i == spanFrom+1:
				cells = append(cells, pad(c, spanWidth(spanFrom+1), 'l'))
				i = spanTo
			case ri < 2 && (i == 2 || i == 4):
				cells = append(cells, pad(c, width[i], 'c'))
			case ri >= 2 && (i == 2 || i == 4 || i == 5):
				cells = append(cells, pad(c, width[i], 'r'))
			default:
				cells = append(cells, pad(c, width[i], 'l'))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(cells, " "), " "))
	}
}

var superDigits = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

func superscript(i int) string {
	s := strconv.Itoa(i)
	var b strings.Builder
	for _, c := range s {
		b.WriteRune(superDigits[c-'0'])
	}
	return b.String()
}

// jsonStats and jsonRow are the JSON forms of Stats and Row. Values that
// may be infinite or NaN are pointers, omitted when not finite.
type jsonStats struct {
	Center float64   `json:"center"`
	Lo     *float64  `json:"lo,omitempty"`
	Hi     *float64  `json:"hi,omitempty"`
	Spread string    `json:"spread"`
	N      int       `json:"n"`
	Values []float64 `json:"values"`
}

type jsonRow struct {
	Pkg         string     `json:"pkg,omitempty"`
	Name        string     `json:"name"`
	Unit        string     `json:"unit"`
	Base        *jsonStats `json:"base,omitempty"`
	Head        *jsonStats `json:"head,omitempty"`
	DeltaPct    *float64   `json:"delta_pct,omitempty"`
	P           *float64   `json:"p,omitempty"`
	Significant bool       `json:"significant"`
	Verdict     Verdict    `json:"verdict"`
	Regression  bool       `json:"regression"`
	Warnings    []string   `json:"warnings,omitempty"`
}

type jsonComparison struct {
	Base       string            `json:"base"`
	Head       string            `json:"head"`
	Config     map[string]string `json:"config,omitempty"`
	Alpha      float64           `json:"alpha"`
	Threshold  float64           `json:"threshold_pct"`
	Regression bool              `json:"regression"`
	Rows       []jsonRow         `json:"rows"`
	Warnings   []string          `json:"warnings,omitempty"`
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func toJSONStats(s *Stats) *jsonStats {
	if s == nil {
		return nil
	}
	return &jsonStats{Center: s.Center, Lo: finite(s.Lo), Hi: finite(s.Hi), Spread: s.Spread, N: s.N(), Values: s.Values}
}

func writeJSON(w io.Writer, c *Comparison) error {
	out := jsonComparison{
		Base: c.BaseLabel, Head: c.HeadLabel, Alpha: c.Alpha, Threshold: c.Threshold,
		Regression: c.Regressed(), Rows: []jsonRow{}, Warnings: c.Warnings,
	}
	if len(c.Config) > 0 {
		out.Config = make(map[string]string)
		for _, cfg := range c.Config {
			out.Config[cfg.Key] = string(cfg.Value)
		}
	}
	for _, r := range c.Rows {
		out.Rows = append(out.Rows, jsonRow{
			Pkg: r.Pkg, Name: r.Name, Unit: r.Unit,
			Base: toJSONStats(r.Base), Head: toJSONStats(r.Head),
			DeltaPct: finite(r.DeltaPct), P: finite(r.P),
			Significant: r.Significant, Verdict: r.Verdict, Regression: r.Regression,
			Warnings: r.Warnings,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// csvHeader is the header row of the CSV format.
var csvHeader = []string{"pkg", "benchmark", "unit", "base", "base_spread", "base_n", "head", "head_spread", "head_n", "delta_pct", "p", "verdict", "regression"}

func writeCSV(w io.Writer, c *Comparison) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	num := func(x float64) string {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	side := func(s *Stats) []string {
		if s == nil {
			return []string{"", "", ""}
		}
		return []string{num(s.Center), s.Spread, strconv.Itoa(s.N())}
	}
	for _, r := range c.Rows {
		rec := []string{r.Pkg, r.Name, r.Unit}
		rec = append(rec, side(r.Base)...)
		rec = append(rec, side(r.Head)...)
		rec = append(rec, num(r.DeltaPct), num(r.P), string(r.Verdict), strconv.FormatBool(r.Regression))
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}
