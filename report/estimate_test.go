package report

import "testing"

// TestEstimateIgnoresReason checks that the tier's reason, which names
// functions, does not pick the estimate: a redundant case in a function
// called from appendStep costs a compare, not an append's growth.
func TestEstimateIgnoresReason(t *testing.T) {
	branch := Finding{Analyzer: "redundantbranch", Tier: "per-item",
		Message: "case X does the same as the default case, so testing it only costs a compare and a jump: delete the case [per-item: called in a loop in appendStep]"}
	lit := Finding{Analyzer: "heapescape", Tier: "per-item",
		Message: "func literal escapes to heap because it is captured by a closure that outlives the call; declare it as a function [per-item: called in a loop in run]"}
	if b, l := EstimateNS(branch), EstimateNS(lit); b != 1 || l != 30 {
		t.Errorf("EstimateNS: redundant case %v ns, closure %v ns; want 1 and 30", b, l)
	}
	fs := []Finding{branch, lit}
	Rank(fs)
	if fs[0].Analyzer != "heapescape" {
		t.Errorf("Rank put %s first; want the allocation before the compare", fs[0].Analyzer)
	}
}
