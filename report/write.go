package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/internal/plural"
)

// WriteJSON writes r as one indented JSON object.
func WriteJSON(w io.Writer, r *Report) error {
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the findings as a ranked list, in their order: each
// finding is one line that starts with its rank and, with a profile, its
// score ("#3 1.9%"), followed by its place in the file:line:col form
// editors recognise (paths relative to dir), its cost, the callers its
// allocations come from, and a two-line excerpt: the source line and a
// caret under the column. Consecutive findings of one function share a
// header line naming it; the order is never changed to group them. The
// report ends with the hot spots outside the module, when a profile gave
// them, and a one-line summary.
func WriteText(w io.Writer, r *Report, dir string) error {
	var b strings.Builder
	lines := newLineCache()
	prev := "\x00"
	for _, f := range r.Findings {
		fn := f.Function
		if fn == "" {
			fn = f.Package + " (package level)"
		}
		if fn != prev {
			fmt.Fprintf(&b, "%s\n", fn)
			prev = fn
		}
		fmt.Fprintf(&b, "#%d", f.Rank)
		if f.Hot != nil {
			fmt.Fprintf(&b, " %s", ScoreText(f))
		}
		fmt.Fprintf(&b, " %s:%d:%d: %s: %s\n", relPath(dir, f.File), f.Line, f.Column, f.Analyzer, f.Message)
		if f.Generated {
			if f.GeneratedElsewhere {
				b.WriteString("      generated: this file is made by another project's tool; the change is the tool's, or how the module runs it\n")
			} else {
				b.WriteString("      generated: this file is made by a tool; make the change in its generator\n")
			}
		}
		if f.Cost != "" {
			fmt.Fprintf(&b, "      cost: %s\n", f.Cost)
		}
		for _, c := range f.Callers {
			fmt.Fprintf(&b, "      %s\n", c.Text)
		}
		for _, c := range f.Benchmarks {
			fmt.Fprintf(&b, "      measured: %s\n", c.Text)
		}
		if f.Verify != nil {
			fmt.Fprintf(&b, "      verified: %s\n", f.Verify.Summary)
		}
		for _, r := range f.Related {
			fmt.Fprintf(&b, "      also %s:%d:%d: %s: %s\n", relPath(dir, r.File), r.Line, r.Column, r.Analyzer, RelatedText(f, r))
		}
		if src, ok := lines.get(f.File, f.Line); ok {
			prefix := fmt.Sprintf("%6d | ", f.Line)
			text, col := expandTabs(src, f.Column)
			fmt.Fprintf(&b, "%s%s\n", prefix, text)
			fmt.Fprintf(&b, "%s| %s^\n", strings.Repeat(" ", len(prefix)-2), strings.Repeat(" ", col))
		}
	}
	if p := r.Stats.Profile; p != nil && p.Match != nil && *p.Match < 90 {
		fmt.Fprintf(&b, "the profile is stale: only %.0f%% of its call-edge weight matches the current source", *p.Match)
		if len(p.Stale) > 0 {
			fmt.Fprintf(&b, " (no longer matching: %s)", strings.Join(p.Stale, ", "))
		}
		b.WriteString("; collect a fresh one\n")
	}
	if p := r.Stats.Profile; p != nil && len(p.Inside) > 0 {
		b.WriteString("the hottest functions of your module (where its own time goes, with or without findings):\n")
		for _, h := range p.Inside {
			what := "no finding"
			if h.Findings > 0 {
				what = fmt.Sprintf("%d %s", h.Findings, plural.Noun(h.Findings, "finding", "findings"))
			}
			fmt.Fprintf(&b, "  %6.2f%% flat %6.2f%% cum  %s (%s)\n", h.Flat, h.Cum, h.Function, what)
		}
	}
	if p := r.Stats.Profile; p != nil && len(p.Outside) > 0 {
		b.WriteString("hot spots outside your module (not reported, but that is where time goes):\n")
		for _, h := range p.Outside {
			fmt.Fprintf(&b, "  %6.2f%% flat %6.2f%% cum  %s\n", h.Flat, h.Cum, h.Function)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return writeSummary(w, r)
}

// expandTabs turns the tabs of a source line into four spaces and returns
// the display column (0-based) of the 1-based byte column col.
func expandTabs(line string, col int) (string, int) {
	var out strings.Builder
	disp := 0
	for i := 0; i < len(line); i++ {
		if i == col-1 {
			disp = out.Len()
		}
		if line[i] == '\t' {
			out.WriteString("    ")
		} else {
			out.WriteByte(line[i])
		}
	}
	if col-1 >= len(line) {
		disp = out.Len()
	}
	return out.String(), disp
}

// lineCache reads source lines, keeping each file's lines once read.
type lineCache struct{ files map[string][]string }

func newLineCache() *lineCache { return &lineCache{files: make(map[string][]string)} }

func (c *lineCache) get(file string, line int) (string, bool) {
	lines, ok := c.files[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil {
			lines = strings.Split(string(data), "\n")
		}
		c.files[file] = lines
	}
	if line < 1 || line > len(lines) {
		return "", false
	}
	return strings.TrimRight(lines[line-1], "\r"), true
}

func writeSummary(w io.Writer, r *Report) error {
	s := r.Stats
	var b strings.Builder
	// The findings are in the packages that hold them; the packages
	// analysed are more when some have none.
	in := make(map[string]bool)
	for _, f := range r.Findings {
		in[f.Package] = true
	}
	pkgs := plural.Count(s.Packages, "package", "packages")
	if len(in) > 0 && len(in) != s.Packages {
		pkgs = plural.Count(len(in), "package", "packages") + fmt.Sprintf(" (of %d analysed)", s.Packages)
	}
	switch {
	case s.Findings == 0:
		fmt.Fprintf(&b, "no findings in %s", plural.Count(s.Packages, "package", "packages"))
	case s.Findings < s.Total:
		fmt.Fprintf(&b, "%d of %d findings shown in %s", s.Findings, s.Total, pkgs)
	default:
		fmt.Fprintf(&b, "%s in %s", plural.Count(s.Findings, "finding", "findings"), pkgs)
	}
	if s.Failed > 0 {
		fmt.Fprintf(&b, "; %d %s failed to load and %s not analysed (see the errors above)",
			s.Failed, plural.Noun(s.Failed, "package", "packages"), plural.Noun(s.Failed, "was", "were"))
	}
	if p := s.Profile; p != nil && s.Findings > 0 {
		// The five first, or all that -top let through.
		top := min(5, s.Findings, len(r.Findings))
		if s.Findings < s.Total {
			top = min(s.Findings, len(r.Findings))
		}
		cover := 0.0
		for _, f := range r.Findings[:top] {
			cover += f.Score
		}
		fmt.Fprintf(&b, ", top %d %s ~%.1f%% of CPU", top, plural.Noun(top, "covers", "cover"), cover)
	}
	if p := s.Profile; p != nil && p.Benchmarks > 0 {
		fmt.Fprintf(&b, "; %s from %s", plural.Count(int(p.Samples), "sample", "samples"), plural.Count(p.Benchmarks, "benchmark", "benchmarks"))
		if p.Samples < MinProfileSamples {
			b.WriteString(": a longer -benchtime gives a stabler ranking")
		}
	} else if p != nil && p.Samples < MinProfileSamples {
		fmt.Fprintf(&b, "; %s: profile at least %d s for a stable ranking", plural.Count(int(p.Samples), "sample", "samples"), secondsFor(p, MinProfileSamples))
	}
	if s.Ranking == "static" && s.Findings > 0 {
		b.WriteString("; ranking is static (estimated cost per run x hot-path tier): give -profile cpu.pprof or -bench . to rank by measured cost")
	}
	if s.Hidden > 0 {
		fmt.Fprintf(&b, "; %d in code the profile never saw run hidden (-all shows them)", s.Hidden)
	}
	if s.Unchanged > 0 {
		fmt.Fprintf(&b, "; %d on lines not changed since %s not shown", s.Unchanged, s.NewFromRev)
	}
	if s.Excluded > 0 {
		fmt.Fprintf(&b, "; %d in excluded files not shown", s.Excluded)
	}
	if s.HiddenCold > 0 {
		fmt.Fprintf(&b, "; %d in cold code not shown (-cold shows them)", s.HiddenCold)
	}
	if s.BelowCut > 0 {
		fmt.Fprintf(&b, "; %d more ranked below the %d shown for %s lines (-all shows them)",
			s.BelowCut, s.Total, humanCount(int64(s.Lines)))
	}
	if s.Suppressed > 0 {
		fmt.Fprintf(&b, "; %d suppressed by directives", s.Suppressed)
	}
	_, err := fmt.Fprintln(w, b.String())
	return err
}

// secondsFor returns how many seconds of profiling, rounded up to ten,
// give n samples at the rate of the profile p (100 Hz if unknown).
func secondsFor(p *ProfileStats, n int64) int {
	rate := 100.0
	if p.DurationS > 0 && p.Samples > 0 {
		rate = float64(p.Samples) / p.DurationS
	}
	s := int(float64(n)/rate + 0.999)
	return (s + 9) / 10 * 10
}

// SARIF output, version 2.1.0, in the subset GitHub code scanning reads.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	Results            []sarifResult               `json:"results"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Properties         map[string]any              `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string         `json:"id"`
	Name             string         `json:"name,omitempty"`
	ShortDescription sarifText      `json:"shortDescription"`
	FullDescription  sarifText      `json:"fullDescription"`
	Help             sarifText      `json:"help"`
	HelpURI          string         `json:"helpUri,omitempty"`
	Properties       map[string]any `json:"properties,omitempty"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Level      string          `json:"level"`
	Message    sarifText       `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Related    []sarifRelated  `json:"relatedLocations,omitempty"`
	Fixes      []sarifFix      `json:"fixes,omitempty"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

// sarifRelated is a related location: another place of a result's cost.
type sarifRelated struct {
	ID               int           `json:"id"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          sarifText     `json:"message"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           sarifRegion      `json:"region"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine,omitempty"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// sarifCharRegion is a region given by byte offsets; both fields are always
// present, even when zero.
type sarifCharRegion struct {
	CharOffset int `json:"charOffset"`
	CharLength int `json:"charLength"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifCharRegion `json:"deletedRegion"`
	InsertedContent *sarifText      `json:"insertedContent,omitempty"`
}

// RepositoryURL is the repository goadvise is developed in: the home of
// its module path, github.com/goadvise/goadvise. SARIF rules link to their
// documentation in it ([DocURL]).
const RepositoryURL = "https://github.com/goadvise/goadvise"

// DocURL returns the address of the documentation of an analyzer or a
// whole-program pass: its section of docs/analyzers.md in the repository,
// on the default branch.
func DocURL(name string) string {
	return RepositoryURL + "/blob/HEAD/docs/analyzers.md#" + name
}

// DefaultSARIFLevel is the SARIF level of a finding whose tier
// [SARIFOptions.Levels] does not name: a warning, which GitHub code
// scanning shows without failing the check that uploads it (its default
// fails on errors).
const DefaultSARIFLevel = "warning"

// SARIFOptions configure [WriteSARIF].
type SARIFOptions struct {
	// Root is the repository or module root: paths are written relative
	// to it under %SRCROOT%. "" writes absolute file URIs.
	Root string

	// Version is goadvise's version, for the tool's driver.
	Version string

	// Levels maps tiers to SARIF levels ("error", "warning", "note" or
	// "none"); a tier not in it gets DefaultSARIFLevel. ParseSARIFLevels
	// reads it from the -sarif.level flag's form.
	Levels map[string]string
}

// Level returns the SARIF level of a finding of the tier.
func (o SARIFOptions) Level(tier string) string {
	if l, ok := o.Levels[tier]; ok {
		return l
	}
	return DefaultSARIFLevel
}

// ParseSARIFLevels parses SARIF levels by tier from a comma-separated list
// of tier=level pairs: "hot-loop=error,per-item=warning".
func ParseSARIFLevels(s string) (map[string]string, error) {
	levels := make(map[string]string)
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		tier, level, ok := strings.Cut(pair, "=")
		tier, level = strings.TrimSpace(tier), strings.TrimSpace(level)
		if !ok {
			return nil, fmt.Errorf("%q is not tier=level", pair)
		}
		if !slices.Contains(kind.Tiers, tier) {
			return nil, fmt.Errorf("unknown tier %q (want %s)", tier, strings.Join(kind.Tiers, ", "))
		}
		switch level {
		case "error", "warning", "note", "none":
		default:
			return nil, fmt.Errorf("unknown SARIF level %q for %s (want error, warning, note or none)", level, tier)
		}
		levels[tier] = level
	}
	return levels, nil
}

// ruleName returns a SARIF rule's name for a kind: a name a reader
// understands, which SARIF wants different from the rule's id (the
// kind's ID): "FieldBuffer" for heapescape/field-buffer.
func ruleName(id kind.ID) string {
	_, short, _ := strings.Cut(string(id), "/")
	var b strings.Builder
	for w := range strings.SplitSeq(short, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// sarifVersion returns the tool version for SARIF, which wants it to
// start with a number: a development build ("devel") is 0.0.0-devel.
func sarifVersion(v string) string {
	if v == "" {
		return ""
	}
	if t := strings.TrimPrefix(v, "v"); t[0] >= '0' && t[0] <= '9' {
		return t
	}
	return "0.0.0-" + v
}

// WriteSARIF writes r as a SARIF 2.1.0 log, with one rule per kind of
// kinds (those of the analyzers that ran) and each result's ruleId its
// finding's kind. Paths are written relative to opts.Root (the repository
// or module root) under the base id %SRCROOT%, which is how GitHub code
// scanning expects them; each rule's helpUri is its analyzer's
// documentation in the repository ([DocURL]) and each result's level is
// its tier's in opts.Levels.
func WriteSARIF(w io.Writer, r *Report, kinds []kind.Kind, opts SARIFOptions) error {
	root := opts.Root
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "goadvise",
			Version:        sarifVersion(opts.Version),
			InformationURI: RepositoryURL,
		}},
		Results: []sarifResult{},
		Properties: map[string]any{
			"ranking": r.Stats.Ranking,
		},
	}
	if root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{"%SRCROOT%": {URI: fileURI(root) + "/"}}
	}
	index := make(map[kind.ID]int)
	for _, k := range kinds {
		index[k.ID] = len(run.Tool.Driver.Rules)
		tags := []string{"performance", k.ID.Analyzer()}
		if k.Rewrite {
			tags = append(tags, "rewrite")
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:               string(k.ID),
			Name:             ruleName(k.ID),
			ShortDescription: sarifText{Text: k.Title},
			FullDescription:  sarifText{Text: k.Doc},
			Help:             sarifText{Text: k.Doc, Markdown: k.Doc},
			HelpURI:          DocURL(k.ID.Analyzer()),
			Properties:       map[string]any{"tags": tags, "mechanical": k.Mechanical, "changes_behaviour": k.ChangesBehaviour},
		})
	}
	loc := func(file string) sarifArtifactLoc {
		if root != "" {
			if rel := relPath(root, file); rel != file {
				return sarifArtifactLoc{URI: strings.ReplaceAll(rel, string(os.PathSeparator), "/"), URIBaseID: "%SRCROOT%"}
			}
		}
		return sarifArtifactLoc{URI: fileURI(file)}
	}
	for _, f := range r.Findings {
		idx, ok := index[f.Kind]
		if !ok {
			return fmt.Errorf("finding of unknown kind %q", f.Kind)
		}
		res := sarifResult{
			RuleID:    string(f.Kind),
			RuleIndex: idx,
			Level:     opts.Level(f.Tier),
			Message:   sarifText{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: loc(f.File),
				Region:           sarifRegion{StartLine: f.Line, StartColumn: f.Column, EndLine: f.EndLine, EndColumn: f.EndColumn},
			}}},
			Properties: map[string]any{"rank": f.Rank, "tier": f.Tier, "function": f.Function, "score": f.Score, "samples": f.Samples, "cost": f.Cost,
				"analyzer": f.Analyzer, "cost_ns": f.CostNS, "class": f.Class, "sink": f.Sink},
		}
		for i, r := range f.Related {
			res.Related = append(res.Related, sarifRelated{
				ID: i + 1,
				PhysicalLocation: sarifPhysical{
					ArtifactLocation: loc(r.File),
					Region:           sarifRegion{StartLine: r.Line, StartColumn: r.Column},
				},
				Message: sarifText{Text: r.Analyzer + ": " + r.Message},
			})
		}
		for _, fix := range f.Fixes {
			sf := sarifFix{Description: sarifText{Text: fix.Message}}
			byFile := make(map[string]int)
			for _, e := range fix.Edits {
				i, ok := byFile[e.File]
				if !ok {
					i = len(sf.ArtifactChanges)
					byFile[e.File] = i
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: loc(e.File)})
				}
				rep := sarifReplacement{DeletedRegion: sarifCharRegion{CharOffset: e.Start, CharLength: e.End - e.Start}}
				if e.New != "" {
					rep.InsertedContent = &sarifText{Text: e.New}
				}
				sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, rep)
			}
			res.Fixes = append(res.Fixes, sf)
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}

// fileURI returns the file:// URI of an absolute path.
func fileURI(path string) string {
	p := strings.ReplaceAll(path, string(os.PathSeparator), "/")
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return "file://" + p
}

// RelatedText returns the message of r, a place folded into f, to print
// under f: "same advice" instead of advice that f's message gives
// already (the arguments of one fmt.Sprintf, each with the same rewrite).
func RelatedText(f Finding, r Related) string {
	if r.Advice != "" && r.Advice == f.Advice {
		return kind.Message(r.What+"; same advice", r.Tier, r.TierReason)
	}
	return r.Message
}
