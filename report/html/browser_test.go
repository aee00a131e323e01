package html

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// These tests load the pages in a real browser, headless Chromium, and
// assert on the DOM it dumps after the page's script ran. They are skipped
// when Chromium is not installed, unless GOADVISE_REQUIRE_BROWSER is set
// (as .ci/run does, after scripts/install-chromium.sh installed it).

// chromium returns the path of the Chromium binary or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("GOADVISE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "chromium is not installed (run scripts/install-chromium.sh, or set GOADVISE_CHROMIUM to its path)"
	if os.Getenv("GOADVISE_REQUIRE_BROWSER") != "" {
		t.Fatalf("GOADVISE_REQUIRE_BROWSER is set but %s", msg)
	}
	t.Skip("skipping browser test: " + msg)
	return ""
}

// browse loads the file page (with the URL fragment frag, if any) in
// headless Chromium and returns the DOM after the page's script ran, and
// the browser's log, which has a line for each console message and
// uncaught error of the page.
func browse(t *testing.T, page, frag string) (dom, log string) {
	t.Helper()
	bin := chromium(t)
	url := "file://" + filepath.ToSlash(page)
	if frag != "" {
		url += "#" + frag
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0",
		"--virtual-time-budget=2000", "--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, stderr.String())
	}
	if stdout.Len() == 0 {
		t.Fatalf("chromium dumped no DOM for %s:\n%s", url, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// pageErrors returns what the page's error recorder caught and the lines of
// the browser log about the page's console messages or uncaught errors.
func pageErrors(dom, log string) (recorded string, logged []string) {
	if m := regexp.MustCompile(`(?s)<pre id="js-errors"[^>]*>(.*?)</pre>`).FindStringSubmatch(dom); m != nil {
		recorded = m[1]
	} else {
		recorded = "(no #js-errors element)"
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, ":CONSOLE") || strings.Contains(line, "Uncaught") {
			logged = append(logged, line)
		}
	}
	return recorded, logged
}

func assertClean(t *testing.T, dom, log string) {
	t.Helper()
	recorded, logged := pageErrors(dom, log)
	if recorded != "" {
		t.Errorf("the page recorded script errors:\n%s", recorded)
	}
	if len(logged) > 0 {
		t.Errorf("the browser logged console messages or errors of the page:\n%s", strings.Join(logged, "\n"))
	}
}

func writePage(t *testing.T, name, html string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rows returns the opening tags of the finding rows in the DOM.
func rows(dom string) []string {
	return regexp.MustCompile(`<tr class="finding"[^>]*>`).FindAllString(dom, -1)
}

func TestBrowserCheck(t *testing.T) {
	chromium(t)
	r, dir := writeFixture(t)
	r.Findings[4].Tier = "" // from JSON of another tool: still shown
	path := writePage(t, "check.html", renderCheck(t, r, CheckOptions{Dir: dir}))
	dom, log := browse(t, path, "")
	assertClean(t, dom, log)

	rs := rows(dom)
	if len(rs) != len(r.Findings) {
		t.Fatalf("%d finding rows in the DOM, want %d", len(rs), len(r.Findings))
	}
	for _, row := range rs {
		if strings.Contains(row, "hidden") {
			t.Errorf("row hidden without a filter: %s", row)
		}
	}
	// The top finding is first, with its message.
	first := dom[strings.Index(dom, rs[0]):]
	first = first[:strings.Index(first, "</tr>")]
	if !strings.Contains(rs[0], `id="finding-1"`) || !strings.Contains(first, `<span class="message">&amp;Entry{...} escapes to heap: stored in s.entries[key] &lt;outside&gt;; Entry is small`) {
		t.Errorf("first row is not the top finding:\n%s", first)
	}
	// The script ran: the filters are shown and count every finding.
	if !regexp.MustCompile(`<div class="filters noprint" id="filters">`).MatchString(dom) {
		t.Errorf("filters still hidden: the script did not run")
	}
	if !strings.Contains(dom, `<span id="shown-count">5</span> of 5 shown`) {
		t.Errorf("shown count wrong:\n%s", grepLine(dom, "shown-count"))
	}
	for _, box := range []string{`value="deepequal"`, `value="heapescape"`, `value="redundantbranch"`, `value="hot-loop"`, `value="per-item"`, `value=""`} {
		if !strings.Contains(dom, box) {
			t.Errorf("filter %s missing", box)
		}
	}
	// The chart is there, with a mark per finding.
	if n := strings.Count(dom, `class="finding-mark"`); n != len(r.Findings) {
		t.Errorf("%d finding marks in the chart, want %d", n, len(r.Findings))
	}
}

func TestBrowserCheckFilter(t *testing.T) {
	chromium(t)
	r, dir := writeFixture(t)
	path := writePage(t, "check.html", renderCheck(t, r, CheckOptions{Dir: dir}))
	// Only hot-loop heapescape findings (#1 and #4), with #3 expanded,
	// though the filter hides it.
	dom, log := browse(t, path, "analyzer=heapescape&tier=hot-loop,cold&open=1,3")
	assertClean(t, dom, log)

	var shown []string
	for _, row := range rows(dom) {
		if !strings.Contains(row, "hidden") {
			shown = append(shown, regexp.MustCompile(`id="(finding-\d+)"`).FindStringSubmatch(row)[1])
		}
	}
	if got := strings.Join(shown, " "); got != "finding-1 finding-4" {
		t.Errorf("shown rows %q, want %q", got, "finding-1 finding-4")
	}
	if !strings.Contains(dom, `<span id="shown-count">2</span> of 5 shown`) {
		t.Errorf("shown count wrong:\n%s", grepLine(dom, "shown-count"))
	}
	for _, c := range []struct {
		value   string
		checked bool
	}{{"heapescape", true}, {"deepequal", false}, {"hot-loop", true}, {"per-item", false}, {"cold", true}} {
		box := regexp.MustCompile(`<input type="checkbox" data-filter="\w+" value="` + c.value + `"[^>]*>`).FindString(dom)
		if strings.Contains(box, "checked") != c.checked {
			t.Errorf("checkbox %s: %s, want checked=%v", c.value, box, c.checked)
		}
	}
	open := regexp.MustCompile(`<details open="">`).FindAllStringIndex(dom, -1)
	if len(open) != 2 {
		t.Errorf("%d expanded findings, want 2", len(open))
	}
	for _, id := range []string{"finding-1", "finding-3"} {
		row := dom[strings.Index(dom, `id="`+id+`"`):]
		row = row[:strings.Index(row, "</tr>")]
		if !strings.Contains(row, `<details open="">`) {
			t.Errorf("%s not expanded", id)
		}
	}
}

// TestBrowserCheckInteractive unticks a filter and presses "Expand all" as a
// user would, from a script added to the page.
func TestBrowserCheckInteractive(t *testing.T) {
	chromium(t)
	r, dir := writeFixture(t)
	html := renderCheck(t, r, CheckOptions{Dir: dir})
	html = strings.Replace(html, "</body>", `<script>
var box = document.querySelector('input[value="heapescape"]');
box.checked = false;
box.dispatchEvent(new Event("change"));
document.getElementById("expand-all").click();
var out = document.createElement("pre");
out.id = "test-hash";
out.textContent = location.hash;
document.body.appendChild(out);
</script></body>`, 1)
	dom, log := browse(t, writePage(t, "check.html", html), "")
	assertClean(t, dom, log)

	var shown, open []string
	for _, row := range rows(dom) {
		id := regexp.MustCompile(`id="(finding-\d+)"`).FindStringSubmatch(row)[1]
		if !strings.Contains(row, "hidden") {
			shown = append(shown, id)
		}
		body := dom[strings.Index(dom, row):]
		if strings.Contains(body[:strings.Index(body, "</tr>")], `<details open="">`) {
			open = append(open, id)
		}
	}
	if got := strings.Join(shown, " "); got != "finding-3 finding-5" {
		t.Errorf("shown rows %q, want the deepequal and redundantbranch findings 3 and 5", got)
	}
	if got := strings.Join(open, " "); got != "finding-3 finding-5" {
		t.Errorf("expanded rows %q, want the shown ones", got)
	}
	if !strings.Contains(dom, `<pre id="test-hash">#analyzer=deepequal,redundantbranch</pre>`) {
		t.Errorf("the filter is not kept in the URL:\n%s", grepLine(dom, "test-hash"))
	}
}

func TestBrowserBench(t *testing.T) {
	chromium(t)
	c := fixtureComparison(t)
	path := writePage(t, "bench.html", renderBench(t, c, BenchOptions{}))
	dom, log := browse(t, path, "")
	assertClean(t, dom, log)
	if n := strings.Count(dom, `<div class="bench"`); n != 2 {
		t.Errorf("%d benchmarks in the DOM, want 2", n)
	}
	if n := strings.Count(dom, `<tr class="unit-row"`); n != len(c.Rows) {
		t.Errorf("%d unit rows in the DOM, want %d", n, len(c.Rows))
	}
	if n := strings.Count(dom, `<circle class="dot`); n != 72 {
		t.Errorf("%d sample dots in the DOM, want 72", n)
	}
	if !strings.Contains(dom, `<h3>Format&lt;x&gt;-8 <span class="pkg">`) {
		t.Errorf("escaped benchmark name not in the DOM")
	}
}

// TestBrowserDetectsErrors checks the checks: a page whose script fails is
// caught both by the page's recorder and in the browser's log.
func TestBrowserDetectsErrors(t *testing.T) {
	chromium(t)
	r, dir := writeFixture(t)
	html := renderCheck(t, r, CheckOptions{Dir: dir})
	html = strings.Replace(html, "</body>", `<script>console.error("boom"); noSuchFunction();</script></body>`, 1)
	dom, log := browse(t, writePage(t, "broken.html", html), "")
	recorded, logged := pageErrors(dom, log)
	if !strings.Contains(recorded, "console.error: boom") || !strings.Contains(recorded, "noSuchFunction is not defined") {
		t.Errorf("recorder caught %q, want the console.error and the ReferenceError", recorded)
	}
	all := strings.Join(logged, "\n")
	if !strings.Contains(all, `"boom"`) || !strings.Contains(all, "Uncaught ReferenceError: noSuchFunction") {
		t.Errorf("browser log lacks the console message or the uncaught error:\n%s", log)
	}
}

func TestBrowserExplain(t *testing.T) {
	chromium(t)
	ex := fixtureExplanation()
	ex.Runtime = fixtureComparison(t)
	var b strings.Builder
	if err := WriteExplain(&b, ex, ExplainOptions{Dir: explainDir}); err != nil {
		t.Fatal(err)
	}
	dom, log := browse(t, writePage(t, "explain.html", b.String()), "")
	assertClean(t, dom, log)

	if !strings.Contains(dom, `<p id="verdict" class="verdict good">PGO: -6.1% sec/op (p=0.002) for +5% build CPU, +1.2% binary: worth it</p>`) {
		t.Errorf("verdict not in the DOM:\n%s", grepLine(dom, "verdict"))
	}
	// The cost table, a row per metric in order, each with its plot.
	var metrics []string
	for _, m := range regexp.MustCompile(`<tr class="cost-row" data-metric="([^"]+)">`).FindAllStringSubmatch(dom, -1) {
		metrics = append(metrics, m[1])
	}
	want := []string{"module build CPU", "peak RSS, largest compile", "binary size", "text size"}
	if strings.Join(metrics, "|") != strings.Join(want, "|") {
		t.Errorf("cost rows %q, want %q", metrics, want)
	}
	cost := section(t, dom, "cost")
	if n := strings.Count(cost, `<svg class="plot"`); n != len(want) {
		t.Errorf("%d plots in the cost table, want %d", n, len(want))
	}
	// The decisions, with callee, cost and weight.
	decisions := section(t, dom, "decisions")
	for s, n := range map[string]int{`<tr class="hot-inline">`: 2, `<tr class="devirt">`: 1, `<tr class="escape `: 2, `<tr class="inline-change">`: 1} {
		if got := strings.Count(decisions, s); got != n {
			t.Errorf("%d of %q in the decisions, want %d", got, s, n)
		}
	}
	for _, s := range []string{
		`<td class="mono" title="example.com/svc/wire.(*Reader).Next">wire.(*Reader).Next</td>`,
		`<td class="num">96 <span class="muted">(+16)</span></td>`,
		`<td class="mono" title="example.com/svc/wire.(*Rect).Area">wire.(*Rect).Area</td>`,
		`<code>&amp;Token{&lt;script&gt;}</code>`,
	} {
		if !strings.Contains(decisions, s) {
			t.Errorf("decisions lack %q", s)
		}
	}
	if n := strings.Count(section(t, dom, "hazards"), `<li class="hazard">`); n != 1 {
		t.Errorf("%d hazards in the DOM, want 1", n)
	}
	// The runtime comparison as goadvise bench shows it.
	runtime := section(t, dom, "runtime")
	if n := strings.Count(runtime, `<tr class="unit-row"`); n != len(ex.Runtime.Rows) {
		t.Errorf("%d unit rows in the runtime section, want %d", n, len(ex.Runtime.Rows))
	}
	if n := strings.Count(runtime, `<circle class="dot`); n != 72 {
		t.Errorf("%d sample dots in the runtime section, want 72", n)
	}
}

// section returns the section element with the given id in the DOM.
func section(t *testing.T, dom, id string) string {
	t.Helper()
	i := strings.Index(dom, `<section id="`+id+`">`)
	if i < 0 {
		t.Fatalf("no section %q in the DOM", id)
	}
	j := strings.Index(dom[i:], "</section>")
	if j < 0 {
		t.Fatalf("section %q not closed", id)
	}
	return dom[i : i+j]
}
