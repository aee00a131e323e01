package html

import (
	"errors"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/report"
)

func renderCheck(t *testing.T, r *report.Report, opts CheckOptions) string {
	t.Helper()
	var b strings.Builder
	if err := WriteCheck(&b, r, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteCheckEscapes(t *testing.T) {
	r, dir := writeFixture(t)
	out := renderCheck(t, r, CheckOptions{Dir: dir})
	// The message of the last finding carries a script tag, and the source
	// excerpts contain "<b>", "&" and "<": none may reach the page raw.
	for _, raw := range []string{"<script>alert(1)", `"<b>" != v`, "&Entry{", "<outside>"} {
		if strings.Contains(out, raw) {
			t.Errorf("page contains unescaped %q", raw)
		}
	}
	for _, escaped := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&#34;&lt;b&gt;&#34; != v", "&amp;Entry{", "&lt;outside&gt;"} {
		if !strings.Contains(out, escaped) {
			t.Errorf("page lacks escaped %q", escaped)
		}
	}
	if n := strings.Count(out, "<script>"); n != 2 {
		t.Errorf("page has %d script elements, want 2 (the error recorder and the filters)", n)
	}
}

func TestWriteCheckSelfContained(t *testing.T) {
	r, dir := writeFixture(t)
	out := renderCheck(t, r, CheckOptions{Dir: dir})
	// Nothing may be loaded from elsewhere: no src attributes, no
	// stylesheet links, no CSS imports or URLs, no absolute links.
	external := regexp.MustCompile(`(?i)\ssrc=|<link\b|@import|url\(|href="(https?:)?//|<iframe|<object|<embed`)
	if m := external.FindString(out); m != "" {
		t.Errorf("page refers to an external resource: %q", m)
	}
}

func TestWriteCheckContent(t *testing.T) {
	r, dir := writeFixture(t)
	r.Findings[2].Verify = &report.Verification{TestsPassed: true, Summary: "tests pass; allocs/op 2 → 1 (-50.00%) better"}
	r.Stats.Errors = []string{"package example.com/svc/broken: <syntax error>"}
	out := renderCheck(t, r, CheckOptions{Dir: dir, Title: "PR 42", Version: "v1.2.3"})

	if got := strings.Count(out, `<tr class="finding"`); got != len(r.Findings) {
		t.Errorf("%d finding rows, want %d", got, len(r.Findings))
	}
	for _, want := range []string{
		"<title>PR 42</title>",
		"goadvise v1.2.3",
		// Paths are relative to Dir.
		`<div class="loc">kv/store.go:28:19</div>`,
		// Functions are shown without their package path.
		`<div class="fn" title="example.com/svc/kv.(*Store).Put">kv.(*Store).Put</div>`,
		// The hot-path reason is split from the message.
		`<strong>Why it is hot:</strong> hot-loop: profile: 8.5% of CPU in (*Store).Put`,
		// The excerpt marks the finding's line and its expression.
		`<span class="ln hit" data-n="28">	s.entries[key] = <mark>&amp;Entry{Value: append([]byte(nil), value...)}</mark></span>`,
		// The fix is shown as a diff, with the import swapped.
		`<span class="hdr">--- a/kv/store.go</span><span class="hdr">&#43;&#43;&#43; b/kv/store.go</span>`,
		`<span class="del">-	if old, ok := s.entries[key]; ok &amp;&amp; reflect.DeepEqual(old.Value, value) {</span>`,
		`<span class="add">&#43;	if old, ok := s.entries[key]; ok &amp;&amp; bytes.Equal(old.Value, value) {</span>`,
		`<span class="del">-	&#34;reflect&#34;</span>`,
		`<span class="add">&#43;	&#34;bytes&#34;</span>`,
		// Filters list each analyzer and tier with its count.
		`value="heapescape" checked> <code>heapescape</code> <span class="count">3</span>`,
		`value="cold" checked> <span class="chip cold">cold</span> <span class="count">1</span>`,
		// Staleness is a labelled slot.
		`<dd id="staleness" class="slot-empty">not measured</dd>`,
		// The chart has the functions and the hot spot outside the module.
		`>kv.(*Handler).ServeHTTP</text>`,
		`>runtime.memmove</text>`,
		`<a href="#finding-3" class="finding-mark">`,
		// The module's hottest functions, with or without findings.
		`<td class="mono">example.com/svc/kv.(*Store).scan</td><td class="num">6.50%</td><td class="num">9.25%</td><td class="num">0</td>`,
		// Verification results and load errors.
		`<strong>Verified:</strong> tests pass; allocs/op 2 → 1 (-50.00%) better <span class="chip good">tests pass</span>`,
		`<li>package example.com/svc/broken: &lt;syntax error&gt;</li>`,
		// The caller breakdown of an allocation.
		`<strong>Where the allocations come from:</strong><ul><li>62% of this line&#39;s allocations come from (*reader).next via newBuffer (r.go:12)</li>`,
		// Rows with a fix say so.
		`data-rank="3" data-fix="true">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The chart has one bar per sampled function plus the outside one, in
	// order of CPU share: ServeHTTP (17%), Put (6%), memmove (4.27%).
	bars := regexp.MustCompile(`<title>([^<]*): [0-9.]+%</title>`).FindAllStringSubmatch(out, -1)
	var names []string
	for _, b := range bars {
		names = append(names, b[1])
	}
	want := []string{"example.com/svc/kv.(*Handler).ServeHTTP", "example.com/svc/kv.(*Store).Put", "runtime.memmove (outside the module: not analysed)"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("chart bars %q, want %q", names, want)
	}
	if strings.Contains(out, "never ran") {
		t.Errorf("note about unsampled functions, but every function with findings was sampled")
	}
	// The bar of Put shows the figure of its findings' hot-path reason
	// (8.5%), not the CPU share of one of its lines (5.98%).
	if !strings.Contains(out, "<title>example.com/svc/kv.(*Store).Put: 8.5%</title>") {
		t.Errorf("the chart's figure for (*Store).Put is not the reason's 8.5%%")
	}
}

func TestWriteCheckStaleness(t *testing.T) {
	r, dir := writeFixture(t)
	match := 94.2
	r.Stats.Profile.Match, r.Stats.Profile.Stale = &match, []string{"example.com/svc/kv.Old"}
	out := renderCheck(t, r, CheckOptions{Dir: dir})
	if !strings.Contains(out, `<dd id="staleness">94% of the profile&#39;s call-edge weight matches the current source; no longer matching: example.com/svc/kv.Old</dd>`) {
		t.Errorf("staleness not shown:\n%s", grepLine(out, "staleness"))
	}
}

func TestWriteCheckStatic(t *testing.T) {
	r, dir := writeFixture(t)
	r.Stats.Ranking = "static"
	r.Stats.Profile = nil
	for i := range r.Findings {
		r.Findings[i].Score, r.Findings[i].Hot, r.Findings[i].Cost = 0, nil, ""
	}
	out := renderCheck(t, r, CheckOptions{Dir: dir})
	for _, want := range []string{
		"<h2>Findings per tier</h2>",
		"Static ranking: no profile was given",
		"<th>Tier</th>",
		`<dd class="slot-empty">none: ranking is static`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("static page lacks %q", want)
		}
	}
	for _, unwanted := range []string{`class="scorebar"`, "CPU share per function", "Hot spots outside"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("static page has %q", unwanted)
		}
	}
	// The tier chart counts 3 hot-loop, 1 per-item and 1 cold finding.
	for _, want := range []string{`<title>hot-loop: 3</title>`, `<title>per-item: 1</title>`, `<title>cold: 1</title>`} {
		if !strings.Contains(out, want) {
			t.Errorf("tier chart lacks %q", want)
		}
	}
}

func TestWriteCheckMissingSource(t *testing.T) {
	r, dir := writeFixture(t)
	if err := os.Remove(r.Findings[2].File); err != nil {
		t.Fatal(err)
	}
	out := renderCheck(t, r, CheckOptions{Dir: dir})
	if !strings.Contains(out, "source not available: open ") {
		t.Errorf("missing source file not reported")
	}
	if !strings.Contains(out, "the fix cannot be shown: reading ") {
		t.Errorf("missing source for the fix not reported")
	}
	// The other file's excerpt is still there.
	if !strings.Contains(out, `<span class="ln hit" data-n="9">	tags := <mark>map[string]string{}</mark></span>`) {
		t.Errorf("excerpt of the readable file missing:\n%s", grepLine(out, "data-n=\"9\""))
	}
}

func TestWriteCheckEmpty(t *testing.T) {
	out := renderCheck(t, &report.Report{Stats: report.Stats{Packages: 3, Ranking: "static"}}, CheckOptions{})
	if !strings.Contains(out, `<p id="no-findings">No findings.</p>`) {
		t.Errorf("empty report does not say so")
	}
	if strings.Contains(out, "<svg") {
		t.Errorf("empty report has a chart")
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

func TestWriteCheckWriteError(t *testing.T) {
	r, dir := writeFixture(t)
	w := &failWriter{}
	if err := WriteCheck(w, r, CheckOptions{Dir: dir}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("WriteCheck error = %v, want disk full", err)
	}
	if w.n != 1 {
		t.Errorf("%d writes, want 1: the page is written in one piece", w.n)
	}
}

func TestExcerpt(t *testing.T) {
	src := []byte("a\nb\nc\n\tx := f(g(1), 2) + 3\ne\nf\ng\nh\ni\n")
	tests := []struct {
		name string
		f    report.Finding
		want string // lines as "N*:pre[mark]post", * for a hit
	}{
		{"span from column", report.Finding{Line: 4, Column: 7},
			"1:a 2:b 3:c 4*:\tx := [f(g(1), 2)] + 3 5:e 6:f 7:g"},
		{"explicit end", report.Finding{Line: 4, Column: 2, EndLine: 4, EndColumn: 3},
			"1:a 2:b 3:c 4*:\t[x] := f(g(1), 2) + 3 5:e 6:f 7:g"},
		{"first line", report.Finding{Line: 1, Column: 1},
			"1*:[a] 2:b 3:c 4:\tx := f(g(1), 2) + 3"},
		{"multi-line", report.Finding{Line: 2, Column: 1, EndLine: 3, EndColumn: 2},
			"1:a 2*:[b] 3*:c 4:\tx := f(g(1), 2) + 3 5:e 6:f"},
		{"last line", report.Finding{Line: 9, Column: 1},
			"6:f 7:g 8:h 9*:[i]"},
	}
	for _, tt := range tests {
		var got []string
		for _, l := range excerpt(src, tt.f) {
			s := l.Pre
			if l.HasMark {
				s += "[" + l.Mark + "]" + l.Post
			}
			hit := ""
			if l.Hit {
				hit = "*"
			}
			got = append(got, strconv.Itoa(l.Num)+hit+":"+s)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s: excerpt = %q, want %q", tt.name, g, tt.want)
		}
	}
	if ex := excerpt(src, report.Finding{Line: 10}); ex != nil {
		t.Errorf("excerpt beyond the end = %v, want nil", ex)
	}
}

func TestExcerptLongSpan(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		b.WriteString("line\n")
	}
	ex := excerpt([]byte(b.String()), report.Finding{Line: 10, Column: 1, EndLine: 40, EndColumn: 2})
	hits, gap := 0, false
	for _, l := range ex {
		if l.Hit {
			hits++
		}
		if l.Continued {
			gap = true
		}
	}
	if hits != maxMarkedLines || !gap {
		t.Errorf("long span: %d marked lines (want %d) and gap %v (want true)", hits, maxMarkedLines, gap)
	}
	if last := ex[len(ex)-1]; last.Num != 43 {
		t.Errorf("long span excerpt ends at line %d, want 43 (3 after the end)", last.Num)
	}
}

func TestNiceCeil(t *testing.T) {
	for in, want := range map[float64]float64{25.6: 30, 8.5: 10, 0.3: 0.3, 4.27: 5, 100: 100, 0: 1, 12: 15} {
		if got := niceCeil(in); got != want {
			t.Errorf("niceCeil(%v) = %v, want %v", in, got, want)
		}
	}
}

// grepLine returns the lines of s that contain substr, for error messages.
func grepLine(s, substr string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, substr) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
