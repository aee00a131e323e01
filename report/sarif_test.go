package report_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/wholeprog"
)

// TestSARIFLevels checks that every tier is a warning by default, which
// GitHub code scanning does not fail on, and that the levels by tier are
// configurable.
func TestSARIFLevels(t *testing.T) {
	r := &report.Report{}
	for i, tier := range kind.Tiers {
		f := report.Finding{Rank: i + 1, Analyzer: "heapescape", File: "/m/p.go", Line: i + 1, Column: 1, Message: "m"}
		f.Tier, f.Kind = tier, "heapescape/no-known-rewrite"
		r.Findings = append(r.Findings, f)
	}
	levels := func(opts report.SARIFOptions) map[string]string {
		t.Helper()
		log := writeSARIF(t, r, kind.All(), opts)
		got := make(map[string]string)
		for _, res := range log.Runs[0].Results {
			got[res.Properties.Tier] = res.Level
		}
		return got
	}
	for tier, level := range levels(report.SARIFOptions{Root: "/m"}) {
		if level != "warning" {
			t.Errorf("tier %s: level %q by default, want warning", tier, level)
		}
	}
	l, err := report.ParseSARIFLevels("hot-loop=error, cold=note,")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"hot-loop": "error", "per-item": "warning", "unknown": "warning", "cold": "note"}
	if got := levels(report.SARIFOptions{Root: "/m", Levels: l}); !maps.Equal(got, want) {
		t.Errorf("levels with hot-loop=error,cold=note: %v, want %v", got, want)
	}
	for _, bad := range []string{"hot=error", "hot-loop=fatal", "hot-loop"} {
		if _, err := report.ParseSARIFLevels(bad); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseSARIFLevels(%q) = %v, want a one-line error", bad, err)
		}
	}
}

// TestSARIFHelpURI checks that each rule's helpUri is its section of
// docs/analyzers.md in the repository that the module path names.
func TestSARIFHelpURI(t *testing.T) {
	data, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	mod := ""
	for _, line := range strings.Split(string(data), "\n") {
		if m, ok := strings.CutPrefix(line, "module "); ok {
			mod = strings.TrimSpace(m)
		}
	}
	if report.RepositoryURL != "https://"+mod {
		t.Errorf("RepositoryURL = %q, but the module path is %s", report.RepositoryURL, mod)
	}
	docs, err := os.ReadFile("../docs/analyzers.md")
	if err != nil {
		t.Fatal(err)
	}
	_ = suite.Analyzers() // registers the analyzers' kinds
	_ = wholeprog.Passes()
	log := writeSARIF(t, &report.Report{}, kind.All(), report.SARIFOptions{})
	for _, rule := range log.Runs[0].Tool.Driver.Rules {
		analyzer := kind.ID(rule.ID).Analyzer()
		if analyzer == "tiers" {
			continue
		}
		if want := report.RepositoryURL + "/blob/HEAD/docs/analyzers.md#" + analyzer; rule.HelpURI != want {
			t.Errorf("rule %s: helpUri %q, want %q", rule.ID, rule.HelpURI, want)
		}
		// GitHub's anchor of a heading "## name" is "name".
		if !bytes.Contains(docs, []byte("\n## "+analyzer+"\n")) {
			t.Errorf("rule %s: docs/analyzers.md has no section %q for its helpUri", rule.ID, "## "+analyzer)
		}
	}
}

type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID      string `json:"id"`
					HelpURI string `json:"helpUri"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			Level      string `json:"level"`
			Properties struct {
				Tier string `json:"tier"`
			} `json:"properties"`
		} `json:"results"`
	} `json:"runs"`
}

func writeSARIF(t *testing.T, r *report.Report, kinds []kind.Kind, opts report.SARIFOptions) sarifLog {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteSARIF(&b, r, kinds, opts); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF output does not decode (%v):\n%s", err, b.String())
	}
	return log
}
