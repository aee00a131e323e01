package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/pgo"
)

// TestNoMessageText checks that merging, ranking, scoring, charging
// allocations and the behaviour a fix changes follow the findings' fields
// alone: with every message, text, advice and fix message replaced by
// unrelated words (equal texts by equal words), the findings come out in
// the same order, merged the same way, with the same scores and costs.
func TestNoMessageText(t *testing.T) {
	run := func(scramble bool) string {
		fs := textFindings()
		if scramble {
			for i := range fs {
				scrambleText(&fs[i])
			}
		}
		fs = Merge(fs)
		static := append([]Finding(nil), fs...)
		Rank(static)
		h := textProfile(t)
		Score(fs, h, ScoreOptions{GCFactor: 0.5, Module: "example.com/m"})
		RankByScore(fs)
		charger := NewAllocCharger(fs, "example.com/m")
		allocs := h.Allocations(charger.Own())
		var b strings.Builder
		for _, set := range [][]Finding{static, fs} {
			for _, f := range set {
				fmt.Fprintf(&b, "%s:%d:%d %s tier=%s score=%v samples=%d cost=%q behaviour=%q made=%v related=",
					f.File, f.Line, f.Column, f.Kind, f.Tier, f.Score, f.Samples, f.Cost, ChangesBehaviour(f), charger.Made(allocs, &f))
				for _, r := range f.Related {
					fmt.Fprintf(&b, "%d:%d ", r.Line, r.Column)
				}
				b.WriteString("\n")
			}
			b.WriteString("--\n")
		}
		return b.String()
	}
	plain, scrambled := run(false), run(true)
	if plain != scrambled {
		t.Errorf("the findings' order, merging or scores depend on their text:\nwith the text:\n%s\nscrambled:\n%s", plain, scrambled)
	}
	// The scramble must change something for the test to mean anything.
	fs := textFindings()
	before, _ := json.Marshal(fs)
	for i := range fs {
		scrambleText(&fs[i])
	}
	after, _ := json.Marshal(fs)
	if bytes.Equal(before, after) {
		t.Fatal("scrambling changed no text")
	}
}

// scrambleText replaces every text of f people read by words derived
// from it: equal texts stay equal, nothing else of them is kept.
func scrambleText(f *Finding) {
	s := func(text string) string {
		if text == "" {
			return ""
		}
		h := sha256.Sum256([]byte(text))
		x := hex.EncodeToString(h[:9])
		return x[:6] + " " + x[6:12] + "; " + x[12:]
	}
	f.Message, f.Text, f.Advice, f.Flow = s(f.Message), s(f.Text), s(f.Advice), s(f.Flow)
	for i := range f.Fixes {
		f.Fixes[i].Message = s(f.Fixes[i].Message)
	}
	for i := range f.Related {
		f.Related[i].Message, f.Related[i].What, f.Related[i].Advice = s(f.Related[i].Message), s(f.Related[i].What), s(f.Related[i].Advice)
	}
}

// textFindings returns findings of every shape ranking and merging know:
// owners and the allocations in their range, inlined calls, one call's
// arguments over two lines, a branch, a finding whose fix changes
// behaviour, findings in a command, each with a message that says what
// older code parsed ("calling X allocates (inlined)", "because", "[tier]",
// "(changes behaviour: ...)").
func textFindings() []Finding {
	const file = "/m/p.go"
	mk := func(line, col int, id kind.ID, tier, text string, set func(*Finding)) Finding {
		f := Finding{Analyzer: id.Analyzer(), File: file, Line: line, Column: col, Function: "example.com/m.F", Package: "example.com/m", Fixes: []Fix{}}
		f.Kind, f.Tier, f.TierReason, f.Text = id, tier, "inside a loop", text
		if set != nil {
			set(&f)
		}
		k, ok := kind.Lookup(id)
		if ok {
			f.Scoring, f.Rewrite, f.Owns = k.Scoring, k.Rewrite, k.Owns
		}
		if f.Scoring == "" {
			f.Scoring = kind.ScoreAlloc
		}
		if f.CostNS == 0 {
			f.CostNS = 30
		}
		f.Message = f.Fields.Message()
		return f
	}
	return []Finding{
		mk(10, 5, "deepequal/direct-compare", "hot-loop", "reflect.DeepEqual on []byte uses reflection: use bytes.Equal (behaviour change: nil and empty)", func(f *Finding) {
			f.EndLine, f.EndColumn, f.Owns, f.Rewrite, f.Scoring, f.CostNS = 10, 40, true, true, kind.ScoreUnder, 300
			f.Callee, f.Behaviour = "reflect.DeepEqual", "nil and empty compare equal"
			f.Fixes = []Fix{{Message: "Replace reflect.DeepEqual with bytes.Equal (changes behaviour: nil and empty compare equal)"}}
		}),
		mk(10, 23, "heapescape/no-known-rewrite", "hot-loop", "h escapes to heap because it is converted to an interface", func(f *Finding) {
			f.Cause, f.Sink = "interface conversion", "callee"
		}),
		mk(20, 9, "heapescape/no-known-rewrite", "per-item", "calling bufio.NewReader allocates (inlined): make([]byte, 4096) escapes to heap because it is stored", func(f *Finding) {
			f.Cause, f.Sink, f.Callee, f.Inlined, f.Size, f.CostNS = "returned or stored", "container", "bufio.NewReader", true, 4096, 286
		}),
		mk(20, 9, "heapescape/no-known-rewrite", "per-item", "calling bufio.NewReader allocates (inlined): &bufio.Reader{...} escapes to heap because it is returned", func(f *Finding) {
			f.Cause, f.Sink, f.Callee, f.Inlined = "returned or stored", "return", "bufio.NewReader", true
		}),
		mk(20, 30, "heapescape/field-buffer", "per-item", "make([]byte, 4) escapes to heap because io.ReadFull passes it to an interface method; keep a [4]byte array", func(f *Finding) {
			f.Cause, f.Sink, f.Advice, f.Size, f.CostNS = "returned or stored", "callee", "keep a [4]byte array", 4, 30.25
		}),
		mk(30, 41, "heapescape/fmt-concat", "hot-loop", "key escapes to heap because it is converted to an interface and passed to fmt.Sprintf; write a + b", func(f *Finding) {
			f.Cause, f.Sink, f.Callee, f.Group, f.Advice = "interface conversion", "callee", "fmt.Sprintf", "p.go:30:20", "write a + b"
		}),
		mk(31, 41, "heapescape/fmt-concat", "hot-loop", "n escapes to heap because it is converted to an interface and passed to fmt.Sprintf; write a + b", func(f *Finding) {
			f.Cause, f.Sink, f.Callee, f.Group, f.Advice = "interface conversion", "callee", "fmt.Sprintf", "p.go:30:20", "write a + b"
		}),
		mk(40, 2, "redundantbranch/under-condition", "unknown", "under off == 0, the code after the if computes the same [hot-loop: not a tier]", func(f *Finding) {
			f.Class, f.Scoring, f.CostNS = "negligible", kind.ScoreFlat, 1
		}),
		mk(50, 7, "percall/from-constants", "per-item", "regexp.MustCompile with constant arguments compiles the regular expression on every call", func(f *Finding) {
			f.Scoring, f.CostNS, f.Owns, f.Rewrite = kind.ScoreCum, 5000, true, true
		}),
		mk(60, 3, "heapescape/inherent", "hot-loop", "&T{...} escapes to heap because NewT returns it; inherent: it is the value the function returns", func(f *Finding) {
			f.Cause, f.Sink, f.Class = "returned or stored", "return", "inherent"
		}),
		mk(70, 3, "heapescape/hoist-loop", "hot-loop", "new(T) escapes to heap; hoist the allocation out of the loop", func(f *Finding) {
			f.Cause, f.Sink, f.Program, f.Rewrite = "returned or stored", "callee", true, true
		}),
	}
}

// textProfile returns the hotness of a CPU profile that samples the lines
// of textFindings, some allocating.
func textProfile(t *testing.T) *pgo.Hotness {
	t.Helper()
	fn := &profile.Function{ID: 1, Name: "example.com/m.F", Filename: "/m/p.go"}
	malloc := &profile.Function{ID: 2, Name: "runtime.mallocgc", Filename: "/go/src/runtime/malloc.go"}
	deq := &profile.Function{ID: 3, Name: "reflect.DeepEqual", Filename: "/go/src/reflect/deepequal.go"}
	bufio := &profile.Function{ID: 4, Name: "bufio.NewReaderSize", Filename: "/go/src/bufio/bufio.go"}
	var locs []*profile.Location
	loc := func(lines ...profile.Line) *profile.Location {
		l := &profile.Location{ID: uint64(len(locs) + 1), Line: lines}
		locs = append(locs, l)
		return l
	}
	at := func(line int64) profile.Line { return profile.Line{Function: fn, Line: line} }
	mallocAt := loc(profile.Line{Function: malloc, Line: 1000})
	var samples []*profile.Sample
	add := func(n int64, stack ...*profile.Location) {
		samples = append(samples, &profile.Sample{Location: stack, Value: []int64{n, n * 10_000_000}})
	}
	add(40, loc(profile.Line{Function: deq, Line: 50}), loc(at(10)))
	add(30, mallocAt, loc(profile.Line{Function: bufio, Line: 60}, at(20)))
	add(20, mallocAt, loc(at(20)))
	add(25, mallocAt, loc(at(30)))
	add(15, mallocAt, loc(at(31)))
	add(12, loc(at(40)))
	add(60, loc(at(50)))
	add(18, mallocAt, loc(at(60)))
	add(9, mallocAt, loc(at(70)))
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		Function:   []*profile.Function{fn, malloc, deq, bufio},
		Location:   locs,
		Sample:     samples,
	}
	h, err := pgo.NewHotness(p)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
