package html

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/goadvise/goadvise/analyzer/hotpath"
	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/funcname"
	"github.com/goadvise/goadvise/internal/plural"
	"github.com/goadvise/goadvise/report"
)

// CheckOptions control WriteCheck.
type CheckOptions struct {
	// Title is the page title; "goadvise check" if empty.
	Title string

	// Dir is the directory that file names are shown relative to,
	// usually the working directory of the check; absolute if empty.
	Dir string

	// Version is goadvise's version, shown in the page footer.
	Version string

	// Generated is when the report was made; omitted if zero.
	Generated time.Time

	// ReadFile reads source files for the excerpts and diffs; os.ReadFile
	// if nil. A file that cannot be read gets a note instead of an excerpt.
	ReadFile func(name string) ([]byte, error)
}

// excerptContext is the number of source lines shown before and after the
// lines of a finding.
const excerptContext = 3

// maxMarkedLines bounds the number of lines of one finding that an excerpt
// highlights.
const maxMarkedLines = 12

// maxChartBars bounds the number of functions in the CPU chart.
const maxChartBars = 16

type checkPage struct {
	Meta       header
	Stats      report.Stats
	Ranking    string // "profile" or "static"
	Profile    *report.ProfileStats
	Staleness  string
	Analyzers  []filterOption
	Tiers      []filterOption
	Chart      chart
	Findings   []findingView
	Outside    []report.HotSpot
	Inside     []report.HotSpot // the module's hottest functions
	Errors     []string
	HasProfile bool
	MaxScore   float64
}

type filterOption struct {
	Name  string
	Count int
}

type findingView struct {
	Rank      int
	Analyzer  string
	Tier      string
	Where     string // "kv/store.go:63:19"
	Function  string // full name
	Short     string // without the package path
	Message   string // without the bracketed hot-path reason
	Reason    string // the bracketed hot-path reason, without brackets
	Cost      string
	Score     float64
	ScoreText string  // the score as the text report shows it, "<0.1% (3 samples)"; empty without a sample count
	ScoreBar  float64 // width of the score bar in percent of the column
	Sampled   bool
	Verify    *report.Verification
	Excerpt   []excerptLine
	SourceErr string
	Related   []string // "kv/store.go:55:32: heapescape: ..." for each folded diagnostic
	Callers   []string // "62% of this line's allocations come from (*reader).next via newBuffer (...)"
	Fix       string   // message of the first fix
	Diff      []diffLine
	DiffErr   string
}

type excerptLine struct {
	Num              int
	Pre, Mark, Post  string
	Hit, HasMark     bool
	Continued, Blank bool
}

type diffLine struct {
	Class string // "hdr", "hunk", "add", "del" or "ctx"
	Text  string
}

// WriteCheck writes r as an HTML page to w. Source excerpts and diffs are
// read from the files the findings name; findings keep their order in r.
// Nothing is written if the page cannot be rendered.
func WriteCheck(w io.Writer, r *report.Report, opts CheckOptions) error {
	readFile := opts.ReadFile
	if readFile == nil {
		readFile = os.ReadFile
	}
	files := newSourceCache(readFile)
	p := &checkPage{
		Meta:       makeHeader(opts.Title, "goadvise check", opts.Version, opts.Generated),
		Stats:      r.Stats,
		Ranking:    r.Stats.Ranking,
		Profile:    r.Stats.Profile,
		Staleness:  staleness(r.Stats.Profile),
		Errors:     r.Stats.Errors,
		HasProfile: r.Stats.Ranking == "profile" || r.Stats.Profile != nil,
	}
	if p.Ranking == "" {
		p.Ranking = "static"
	}
	if p.Profile != nil {
		p.Outside = p.Profile.Outside
		p.Inside = p.Profile.Inside
	}
	byAnalyzer := make(map[string]int)
	byTier := make(map[string]int)
	for _, f := range r.Findings {
		byAnalyzer[f.Analyzer]++
		byTier[f.Tier]++
		p.MaxScore = max(p.MaxScore, f.Score)
	}
	for _, name := range sortedNames(byAnalyzer) {
		p.Analyzers = append(p.Analyzers, filterOption{name, byAnalyzer[name]})
	}
	// Known tiers hottest first, then any others, so that every finding
	// has a filter that shows it.
	for _, t := range kind.Tiers {
		if byTier[t] > 0 {
			p.Tiers = append(p.Tiers, filterOption{t, byTier[t]})
			delete(byTier, t)
		}
	}
	for _, t := range sortedNames(byTier) {
		p.Tiers = append(p.Tiers, filterOption{t, byTier[t]})
	}
	for _, f := range r.Findings {
		p.Findings = append(p.Findings, makeFindingView(f, opts.Dir, files, p.MaxScore))
	}
	if p.HasProfile {
		p.Chart = cpuChart(r)
	} else {
		p.Chart = tierChart(p.Tiers)
	}
	return render(w, "check", p)
}

func sortedNames(m map[string]int) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

func makeFindingView(f report.Finding, dir string, files *sourceCache, maxScore float64) findingView {
	v := findingView{
		Rank:     f.Rank,
		Analyzer: f.Analyzer,
		Tier:     f.Tier,
		Where:    fmt.Sprintf("%s:%d:%d", relPath(dir, f.File), f.Line, f.Column),
		Function: f.Function,
		Short:    funcname.Short(f.Function),
		Cost:     f.Cost,
		Score:    f.Score,
		Sampled:  f.Sampled || f.Hot != nil,
		Verify:   f.Verify,
	}
	if v.Function == "" {
		v.Function = f.Package + " (package level)"
		v.Short = funcname.Short(f.Package) + " (package level)"
	}
	v.Message, v.Reason = f.Text, f.Tier
	if f.TierReason != "" {
		v.Reason += ": " + f.TierReason
	}
	for _, r := range f.Related {
		msg := report.RelatedText(f, r)
		v.Related = append(v.Related, fmt.Sprintf("%s:%d:%d: %s: %s", relPath(dir, r.File), r.Line, r.Column, r.Analyzer, msg))
	}
	if f.Samples > 0 {
		v.ScoreText = report.ScoreText(f)
	}
	for _, c := range f.Callers {
		v.Callers = append(v.Callers, c.Text)
	}
	if maxScore > 0 {
		v.ScoreBar = 100 * f.Score / maxScore
	}
	src, err := files.get(f.File)
	if err != nil {
		v.SourceErr = fmt.Sprintf("source not available: %v", err)
	} else {
		v.Excerpt = excerpt(src, f)
		if v.Excerpt == nil {
			v.SourceErr = fmt.Sprintf("line %d is beyond the end of %s (file changed since the check?)", f.Line, relPath(dir, f.File))
		}
	}
	if len(f.Fixes) > 0 {
		v.Fix = f.Fixes[0].Message
		v.Diff, v.DiffErr = fixDiff(f, dir, files)
	}
	return v
}

// excerpt returns the lines of src around the finding f, with its lines
// marked and, on its first line, the span from its column highlighted. It
// returns nil if f's line is not in src.
func excerpt(src []byte, f report.Finding) []excerptLine {
	lines := strings.Split(string(src), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if f.Line < 1 || f.Line > len(lines) {
		return nil
	}
	last := f.Line
	if f.EndLine >= f.Line && f.EndLine <= len(lines) {
		last = f.EndLine
	}
	shownLast := min(last, f.Line+maxMarkedLines-1)
	from := max(1, f.Line-excerptContext)
	to := min(len(lines), shownLast+excerptContext)
	var out []excerptLine
	for n := from; n <= to; n++ {
		text := strings.TrimRight(lines[n-1], "\r")
		l := excerptLine{Num: n, Pre: text, Hit: n >= f.Line && n <= shownLast}
		if n == f.Line && f.Column >= 1 && f.Column-1 <= len(text) {
			start := f.Column - 1
			end := len(text)
			if f.EndLine == f.Line && f.EndColumn > f.Column && f.EndColumn-1 <= len(text) {
				end = f.EndColumn - 1
			} else if f.EndLine <= f.Line {
				end = tokenEnd(text, start)
			}
			l.Pre, l.Mark, l.Post = text[:start], text[start:end], text[end:]
			l.HasMark = true
		}
		l.Blank = text == ""
		out = append(out, l)
		if n == shownLast && shownLast < last {
			out = append(out, excerptLine{Continued: true})
			n = last
			to = min(len(lines), last+excerptContext)
		}
	}
	return out
}

// tokenEnd returns the end of the expression that starts at start in a
// line when the finding gives no end: the first space, comma, semicolon,
// colon or equals sign outside brackets, or an unmatched closing bracket.
func tokenEnd(line string, start int) int {
	depth := 0
	for i := start; i < len(line); i++ {
		switch line[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return i
			}
			depth--
		case ' ', '\t', ',', ';', '=', ':':
			if depth == 0 {
				return i
			}
		}
	}
	return len(line)
}

// fixDiff applies the first fix of f alone and returns the resulting diff.
func fixDiff(f report.Finding, dir string, files *sourceCache) ([]diffLine, string) {
	res, err := report.ApplyFixes([]report.Finding{f}, files.get)
	if err != nil {
		return nil, fmt.Sprintf("the fix cannot be shown: %v", err)
	}
	names := make([]string, 0, len(res.Files))
	for name := range res.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	var out []diffLine
	for _, name := range names {
		c := res.Files[name]
		rel := relPath(dir, name)
		d := report.UnifiedDiff("a/"+rel, "b/"+rel, string(c.Old), string(c.New))
		for _, line := range strings.SplitAfter(d, "\n") {
			if line == "" {
				continue
			}
			line = strings.TrimSuffix(line, "\n")
			class := "ctx"
			switch {
			case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
				class = "hdr"
			case strings.HasPrefix(line, "@@"):
				class = "hunk"
			case strings.HasPrefix(line, "+"):
				class = "add"
			case strings.HasPrefix(line, "-"):
				class = "del"
			}
			out = append(out, diffLine{class, line})
		}
	}
	if len(out) == 0 {
		return nil, "the fix changes nothing once formatted"
	}
	return out, ""
}

// sourceCache reads each source file once.
type sourceCache struct {
	read  func(string) ([]byte, error)
	files map[string]sourceFile
}

type sourceFile struct {
	data []byte
	err  error
}

func newSourceCache(read func(string) ([]byte, error)) *sourceCache {
	return &sourceCache{read: read, files: make(map[string]sourceFile)}
}

func (c *sourceCache) get(name string) ([]byte, error) {
	f, ok := c.files[name]
	if !ok {
		f.data, f.err = c.read(name)
		c.files[name] = f
	}
	return f.data, f.err
}

// A chart is a horizontal bar chart drawn as inline SVG.
type chart struct {
	Title   string
	Caption string
	Width   int
	Height  int
	LabelW  int // width of the label column
	BarW    int // width of the full scale
	Bars    []bar
	Ticks   []tick
	Omitted string // note about bars left out
	Legend  bool   // show the legend of the finding marks
}

type bar struct {
	TextY      int // baseline of the row's text
	BarY, MidY int
	Label      string
	Title      string // full name, for the tooltip
	Width      float64
	ValueX     float64
	Value      string
	Class      string // "module", "outside" or a tier
	Marks      []mark
	More       int // findings not marked
	MoreX      float64
}

// newBar returns the bar of row i.
func newBar(i int, width float64) bar {
	y := chartTop + i*chartRowH
	return bar{TextY: y + 15, BarY: y + 3, MidY: y + 11, Width: width, ValueX: float64(chartLabelW) + width + 6}
}

// A mark is one finding on a chart bar: a dot coloured by tier that links
// to the finding.
type mark struct {
	X    float64 // centre
	Rank int
	Tier string
	Text string // tooltip
}

const (
	chartWidth   = 1000
	chartLabelW  = 300
	chartBarW    = 470
	chartRowH    = 26
	chartTop     = 8
	maxMarks     = 8
	markSpacing  = 17
	chartBottomH = 26
)

// cpuChart charts, per function with findings, its cumulative CPU share
// (report.Hot.FuncCum, the figure of the hot-path reason), and the hottest functions outside the
// module, with each function's findings marked.
func cpuChart(r *report.Report) chart {
	type fn struct {
		name     string
		cum      float64 // percent
		outside  bool
		findings []report.Finding
	}
	byName := make(map[string]*fn)
	var fns []*fn
	for _, f := range r.Findings {
		name := f.Function
		if name == "" {
			name = f.Package + " (package level)"
		}
		g := byName[name]
		if g == nil {
			g = &fn{name: name}
			byName[name] = g
			fns = append(fns, g)
		}
		if f.Hot != nil {
			g.cum = max(g.cum, f.Hot.FuncCum*100)
		}
		g.findings = append(g.findings, f)
	}
	unsampled := 0
	var shown []*fn
	for _, g := range fns {
		if g.cum > 0 {
			shown = append(shown, g)
		} else {
			unsampled++
		}
	}
	if p := r.Stats.Profile; p != nil {
		for _, h := range p.Outside {
			if h.Cum > 0 && byName[h.Function] == nil {
				shown = append(shown, &fn{name: h.Function, cum: h.Cum, outside: true})
			}
		}
	}
	slices.SortStableFunc(shown, func(a, b *fn) int { return cmp.Compare(b.cum, a.cum) })
	omitted := 0
	if len(shown) > maxChartBars {
		omitted = len(shown) - maxChartBars
		shown = shown[:maxChartBars]
	}
	c := chart{
		Title:   "CPU share per function",
		Caption: "Bars: the share of the profile's CPU samples with the function on the stack, the figure of each finding's \"why it is hot\". Dots: the findings in that function, coloured by tier; click one to jump to it.",
		Width:   chartWidth,
		LabelW:  chartLabelW,
		BarW:    chartBarW,
		Legend:  true,
	}
	var notes []string
	if unsampled > 0 {
		notes = append(notes, fmt.Sprintf("%d %s with findings never ran in the profile", unsampled, plural.Noun(unsampled, "function", "functions")))
	}
	if omitted > 0 {
		notes = append(notes, fmt.Sprintf("%d cooler %s not shown", omitted, plural.Noun(omitted, "function", "functions")))
	}
	c.Omitted = strings.Join(notes, "; ")
	top := 0.0
	for _, g := range shown {
		top = max(top, g.cum)
	}
	scale := niceCeil(top)
	for i, g := range shown {
		b := newBar(i, float64(chartBarW)*g.cum/scale)
		b.Label = funcname.Short(g.name)
		b.Title = g.name
		b.Value = funcShare(g.cum)
		b.Class = "module"
		if g.outside {
			b.Class = "outside"
			b.Title += " (outside the module: not analysed)"
		}
		x0 := b.ValueX + 48
		for j, f := range g.findings {
			if j == maxMarks {
				b.More = len(g.findings) - maxMarks
				b.MoreX = x0 + float64(j*markSpacing)
				break
			}
			b.Marks = append(b.Marks, mark{
				X:    x0 + float64(j*markSpacing) + 6,
				Rank: f.Rank,
				Tier: f.Tier,
				Text: fmt.Sprintf("#%d %s (%s)", f.Rank, f.Analyzer, f.Tier),
			})
		}
		c.Bars = append(c.Bars, b)
	}
	c.Height = chartTop + len(c.Bars)*chartRowH + chartBottomH
	c.Ticks = axisTicks(scale, "%")
	if len(c.Bars) == 0 {
		c.Height = 0
	}
	return c
}

// tierChart charts the number of findings per tier, for a static ranking.
func tierChart(tiers []filterOption) chart {
	c := chart{
		Title:   "Findings per tier",
		Caption: "Static ranking: no profile was given, so findings are ranked by goadvise's estimate of how often their code runs. Give -profile cpu.pprof to rank by measured CPU.",
		Width:   chartWidth,
		LabelW:  chartLabelW,
		BarW:    chartBarW,
	}
	top := 0
	for _, t := range tiers {
		top = max(top, t.Count)
	}
	scale := niceCeil(float64(top))
	for i, t := range tiers {
		b := newBar(i, float64(chartBarW)*float64(t.Count)/scale)
		b.Label, b.Title, b.Value, b.Class = t.Name, t.Name, fmt.Sprint(t.Count), t.Name
		c.Bars = append(c.Bars, b)
	}
	c.Height = chartTop + len(c.Bars)*chartRowH + chartBottomH
	c.Ticks = axisTicks(scale, "")
	if len(c.Bars) == 0 {
		c.Height = 0
	}
	return c
}

// axisTicks returns five ticks from 0 to scale.
func axisTicks(scale float64, unit string) []tick {
	var ts []tick
	for i := 0; i <= 4; i++ {
		v := scale * float64(i) / 4
		ts = append(ts, tick{X: float64(chartLabelW) + float64(chartBarW)*float64(i)/4, Label: trimNum(v) + unit})
	}
	return ts
}

// funcShare formats a function's CPU share in percent as the hot-path
// reason does ("profile: 16.9% of CPU in F"), so that the chart and the
// reason show the same figure.
func funcShare(p float64) string {
	if p >= hotpath.HotShare*100 {
		return fmt.Sprintf("%.1f%%", p)
	}
	return fmt.Sprintf("%.2f%%", p)
}

// staleness describes how well the profile matches the current source
// (pgo check's measure), or "" if that was not measured: the page then
// says "not measured".
func staleness(p *report.ProfileStats) string {
	if p == nil || p.Match == nil {
		return ""
	}
	s := fmt.Sprintf("%.0f%% of the profile's call-edge weight matches the current source", *p.Match)
	if len(p.Stale) > 0 {
		s += "; no longer matching: " + strings.Join(p.Stale, ", ")
	}
	return s
}
