// Package page renders goadvise reports as one self-contained HTML page.
//
// The pages are meant to be attached to a pull request or opened in a
// meeting: each is a single file with its styles, script and charts inline
// (CSS, a little vanilla JavaScript and SVG), so it needs no network, loads
// in any browser and prints. Everything that comes from source code,
// analyzer messages or benchmark names goes through html/template, which
// escapes it for the context it appears in.
//
// [WriteCheck] renders the findings of goadvise check: a summary, a chart
// of CPU share per function with the findings marked, and the ranked
// findings with filters by analyzer and tier, each expandable to its code
// excerpt, explanation and suggested diff. [WriteBench] renders a
// comparison of goadvise bench: per benchmark and unit, the samples of both
// versions, the delta, the p-value and the verdict. [WriteExplain] renders
// what goadvise pgo explain found: the verdict, the build cost of both
// builds, the compiler's decisions that the profile changed, the hazards
// and, when benchmarks ran, their comparison as WriteBench shows it.
//
// The script is optional: without it every finding is still listed and can
// be expanded. With it, the filters work and their state is kept in the
// URL fragment (#analyzer=deepequal&tier=hot-loop), so that a link can
// point to a filtered view; open=N expands finding N. Script errors are
// recorded in the element #js-errors, so that tests can assert that the
// page ran cleanly.
package html

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// templates returns the parsed templates: "check", "bench" and "explain",
// which share the layout in layout.tmpl. They are parsed on first use, not
// when every goadvise process (each of go vet's units) starts.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"f1":  func(x float64) string { return fmt.Sprintf("%.1f", x) },
		"f2":  func(x float64) string { return fmt.Sprintf("%.2f", x) },
		"pct": func(x float64) string { return fmt.Sprintf("%.2f%%", x) },
		"add": func(a, b int) int { return a + b },
		"sub": func(a, b float64) float64 { return a - b },
	}).ParseFS(templateFS, "templates/*.tmpl"))
})

// render executes the named template into a buffer and writes it to w only
// when it succeeded, so that w never receives half a page.
func render(w io.Writer, name string, data any) error {
	var b strings.Builder
	if err := templates().ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Errorf("rendering %s page: %w", name, err)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// header is what the layout shows at the top of every page.
type header struct {
	Title     string
	Version   string
	Generated string // empty when no time was given
}

func makeHeader(title, defaultTitle, version string, t time.Time) header {
	if title == "" {
		title = defaultTitle
	}
	h := header{Title: title, Version: version}
	if !t.IsZero() {
		h.Generated = t.UTC().Format("2006-01-02 15:04 UTC")
	}
	return h
}

// relPath returns path relative to dir when it lies below it.
func relPath(dir, path string) string {
	if dir == "" {
		return path
	}
	if r, err := filepath.Rel(dir, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return path
}

// A tick is one labelled mark on a chart axis.
type tick struct {
	X     float64
	Label string
}

// niceCeil returns a round number (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a
// power of ten) at least x, for the end of a chart axis.
func niceCeil(x float64) float64 {
	if x <= 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if v := m * p; v >= x*(1-1e-9) {
			// Round away the binary error of m*p: 3*0.1 is 0.30000000000000004.
			v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
			return v
		}
	}
	return 10 * p
}

// trimNum formats x with up to two decimals and no trailing zeros.
func trimNum(x float64) string {
	s := fmt.Sprintf("%.2f", x)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
