package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
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

// WriteText writes the findings one per line in the file:line:col form
// that editors and go vet users know, paths relative to dir, followed by
// a one-line summary.
func WriteText(w io.Writer, r *Report, dir string) error {
	for _, f := range r.Findings {
		if _, err := fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", relPath(dir, f.File), f.Line, f.Column, f.Analyzer, f.Message); err != nil {
			return err
		}
	}
	return writeSummary(w, r)
}

func writeSummary(w io.Writer, r *Report) error {
	s := r.Stats
	var b strings.Builder
	switch {
	case s.Findings == 0:
		fmt.Fprintf(&b, "no findings in %d packages", s.Packages)
	case s.Findings < s.Total:
		fmt.Fprintf(&b, "%d of %d findings shown (-top) in %d packages", s.Findings, s.Total, s.Packages)
	default:
		fmt.Fprintf(&b, "%d %s in %d packages", s.Findings, plural(s.Findings, "finding", "findings"), s.Packages)
	}
	if s.Ranking == "static" && s.Findings > 0 {
		b.WriteString("; ranking is static (hot-path tiers): give -profile cpu.pprof to rank by measured cost")
	}
	if s.Suppressed > 0 {
		fmt.Fprintf(&b, "; %d suppressed", s.Suppressed)
	}
	_, err := fmt.Fprintln(w, b.String())
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
	Name             string         `json:"name"`
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
	Fixes      []sarifFix      `json:"fixes,omitempty"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
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

// sarifLevel maps a tier to a SARIF level, so that code scanning shows the
// hottest findings first.
func sarifLevel(tier string) string {
	switch tier {
	case "hot-loop":
		return "error"
	case "per-item":
		return "warning"
	}
	return "note"
}

// WriteSARIF writes r as a SARIF 2.1.0 log. Paths are written relative to
// root (the repository or module root) under the base id %SRCROOT%, which
// is how GitHub code scanning expects them.
func WriteSARIF(w io.Writer, r *Report, analyzers []*analysis.Analyzer, root, version string) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "goadvise",
			Version:        version,
			InformationURI: "https://github.com/goadvise/goadvise",
		}},
		Results: []sarifResult{},
		Properties: map[string]any{
			"ranking": r.Stats.Ranking,
		},
	}
	if root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{"%SRCROOT%": {URI: fileURI(root) + "/"}}
	}
	index := make(map[string]int)
	for _, a := range analyzers {
		index[a.Name] = len(run.Tool.Driver.Rules)
		short, _, _ := strings.Cut(a.Doc, "\n")
		if name, rest, ok := strings.Cut(short, ": "); ok && name == a.Name {
			short = rest
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:               a.Name,
			Name:             a.Name,
			ShortDescription: sarifText{Text: short},
			FullDescription:  sarifText{Text: a.Doc},
			Help:             sarifText{Text: a.Doc, Markdown: a.Doc},
			HelpURI:          a.URL,
			Properties:       map[string]any{"tags": []string{"performance"}},
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
		idx, ok := index[f.Analyzer]
		if !ok {
			return fmt.Errorf("finding of unknown analyzer %q", f.Analyzer)
		}
		res := sarifResult{
			RuleID:    f.Analyzer,
			RuleIndex: idx,
			Level:     sarifLevel(f.Tier),
			Message:   sarifText{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: loc(f.File),
				Region:           sarifRegion{StartLine: f.Line, StartColumn: f.Column, EndLine: f.EndLine, EndColumn: f.EndColumn},
			}}},
			Properties: map[string]any{"rank": f.Rank, "tier": f.Tier, "function": f.Function},
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
