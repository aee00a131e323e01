package report_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/wholeprog"
)

// TestEveryCheckHasKinds checks that every analyzer and whole-program
// pass has registered kinds, that every kind belongs to one of them, and
// that the SARIF log has one rule per kind, with a name, which each
// finding's ruleId names.
func TestEveryCheckHasKinds(t *testing.T) {
	names := make(map[string]bool)
	for _, a := range suite.Analyzers() {
		names[a.Name] = true
	}
	for _, p := range wholeprog.Passes() {
		names[p.Name] = true
	}
	has := make(map[string]bool)
	r := &report.Report{}
	for i, k := range kind.All() {
		if k.ID.Analyzer() == "tiers" {
			continue // the suite's tests' own
		}
		if !names[k.ID.Analyzer()] {
			t.Errorf("kind %s belongs to no analyzer or pass", k.ID)
		}
		has[k.ID.Analyzer()] = true
		f := report.Finding{Rank: i + 1, Analyzer: k.ID.Analyzer(), File: "/m/p.go", Line: i + 1, Column: 1, Message: "m"}
		f.Kind, f.Tier = k.ID, "per-item"
		r.Findings = append(r.Findings, f)
	}
	for n := range names {
		if !has[n] {
			t.Errorf("%s has no kinds", n)
		}
	}
	var b bytes.Buffer
	if err := report.WriteSARIF(&b, r, kind.All(), report.SARIFOptions{Root: "/m"}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID, Name string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	rules := log.Runs[0].Tool.Driver.Rules
	for _, rule := range rules {
		if rule.Name == "" || rule.Name == rule.ID {
			t.Errorf("rule %s has the name %q", rule.ID, rule.Name)
		}
	}
	for i, res := range log.Runs[0].Results {
		if res.RuleID != string(r.Findings[i].Kind) || rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %d: ruleId %s (rule %d), want %s", i, res.RuleID, res.RuleIndex, r.Findings[i].Kind)
		}
	}
}
