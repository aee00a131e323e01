package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCheckWhole runs the whole-program passes on the demo through check:
// the loop in the load driver calls (*Reader).Next, which allocates.
func TestCheckWhole(t *testing.T) {
	t.Parallel() // an end-to-end run in its own directory
	if testing.Short() {
		t.Skip("builds SSA for the demo and its dependencies")
	}
	stdout, stderr, code := runCmd(t, ".", bin, "check", "-all", "-whole", "-enable", "deepequal", "-format", "sarif", "../../testdata/demo/...")
	if code != exitFindings {
		t.Fatalf("check -whole: exit %d\n%s", code, stderr)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID  string                `json:"ruleId"`
				Message struct{ Text string } `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		rules[r.ID] = true
	}
	if !rules["devirt/single-implementation"] || !rules["loopalloc/pass-buffer"] || !rules["deepequal/direct-compare"] {
		t.Errorf("SARIF rules %v, want deepequal, devirt and loopalloc", rules)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID == "loopalloc/pass-buffer" && strings.Contains(r.Message.Text, "(*Reader).Next") && strings.Contains(r.Message.Text, "per iteration of the loop in (*Mix).Run") {
			found = true
		}
	}
	if !found {
		t.Errorf("no loopalloc finding for (*Reader).Next called from (*Mix).Run:\n%s", stdout)
	}
}
