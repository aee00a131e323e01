package report

import (
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/analyzer/kind"
	"github.com/goadvise/goadvise/pgo"
)

// TestRankByScoreSamples checks that a score resting on fewer than
// MinSamples samples ranks after the measured ones, whatever its value,
// and is shown as a bound with its sample count.
func TestRankByScoreSamples(t *testing.T) {
	fs := []Finding{
		{Analyzer: "heapescape", File: "/m/a.go", Offset: 1, Score: 2.5, Samples: 3, Floor: 0.1, Hot: &Hot{}},
		{Analyzer: "heapescape", File: "/m/b.go", Offset: 1, Score: 0.4, Samples: 40, Hot: &Hot{}},
		{Analyzer: "heapescape", File: "/m/c.go", Offset: 1, Score: 2.1, Samples: 210, Hot: &Hot{}},
	}
	RankByScore(fs)
	if fs[0].File != "/m/c.go" || fs[1].File != "/m/b.go" || fs[2].File != "/m/a.go" {
		t.Errorf("order %s %s %s, want c b a", fs[0].File, fs[1].File, fs[2].File)
	}
	if got := ScoreText(fs[2]); got != "<0.10% (3 samples)" {
		t.Errorf("ScoreText of a 3-sample score = %q", got)
	}
	if got := ScoreText(fs[0]); got != "2.1%" {
		t.Errorf("ScoreText of a measured score = %q", got)
	}
}

// TestRankByScoreTurns checks that a profile's ranking takes turns
// between what to change (measured share times the odds of the advice)
// and where the cost is (the functions by measured share), and that a
// score on too few samples counts for no more than its floor.
func TestRankByScoreTurns(t *testing.T) {
	mk := func(fn string, score float64, samples int64, rewrite bool) Finding {
		f := Finding{Analyzer: "heapescape", File: "/m/" + fn + ".go", Offset: 1, Function: "m." + fn, Score: score, Samples: samples, Hot: &Hot{}}
		f.Rewrite = rewrite
		return f
	}
	noisy := mk("D", 2.5, 3, true) // a large share on 3 samples: at most its floor
	noisy.Floor = 0.05
	fs := []Finding{
		mk("A", 5, 500, false), // the costliest, nothing known to remove it
		mk("B", 0.5, 50, true), // a smaller cost a rewrite removes
		mk("C", 1, 100, false), // a cost with no rewrite
		noisy,
	}
	RankByScore(fs)
	var got []string
	for _, f := range fs {
		got = append(got, strings.TrimPrefix(f.Function, "m."))
	}
	// B saves most (0.5 x 1); A is where most cost is (5); D saves
	// next (0.05 x 1, not 2.5); C is the next function by cost.
	if want := "B A D C"; strings.Join(got, " ") != want {
		t.Errorf("order %s, want %s", strings.Join(got, " "), want)
	}
	for i, f := range fs {
		if f.Rank != i+1 {
			t.Errorf("%s: rank %d at position %d", f.Function, f.Rank, i+1)
		}
	}
}

// TestRankByScoreMeasuredFree checks that an allocation every benchmark
// that ran its line made no allocation at (a buffer grown once and kept)
// ranks after the others, even after one no benchmark ran; one that any
// benchmark saw allocate, or a finding about CPU, keeps its place.
func TestRankByScoreMeasuredFree(t *testing.T) {
	mk := func(file string, scoring kind.Scoring, allocs ...float64) Finding {
		f := Finding{Analyzer: "heapescape", File: file, Offset: 1}
		f.Scoring, f.Tier, f.CostNS = scoring, "hot-loop", 30
		for _, a := range allocs {
			f.Benchmarks = append(f.Benchmarks, BenchCost{Benchmark: "BenchmarkX", AllocsPerOp: a, CPU: 5})
		}
		return f
	}
	free := mk("/m/free.go", kind.ScoreAlloc, 0, 0)
	free.Free = true // as check -bench sets it: no benchmark allocated at the line
	fs := []Finding{
		free,
		mk("/m/some.go", kind.ScoreAlloc, 0, 0.5),
		mk("/m/cpu.go", kind.ScoreFlat, 0),
		mk("/m/unrun.go", kind.ScoreAlloc),
	}
	fs[3].Tier = "per-item" // a lower static weight than the free one's
	RankByScore(fs)
	if fs[3].File != "/m/free.go" {
		t.Errorf("last: %s, want the allocation measured at none", fs[3].File)
	}
	for _, f := range fs[:3] {
		if MeasuredFree(f) {
			t.Errorf("%s: MeasuredFree, want not", f.File)
		}
	}
	if !MeasuredFree(free) {
		t.Error("no allocation in two benchmarks: not MeasuredFree")
	}
	cpu := mk("/m/cpu.go", kind.ScoreFlat, 0)
	if cpu.Free = true; MeasuredFree(cpu) {
		t.Error("a finding about CPU: MeasuredFree, want not")
	}
}

// TestWriteTextRanked checks that the text report keeps the ranked order,
// leads each finding with its rank and score, and names a function again
// when its findings are not consecutive.
func TestWriteTextRanked(t *testing.T) {
	r := &Report{
		Findings: []Finding{
			{Rank: 1, Analyzer: "deepequal", File: "/m/a.go", Line: 3, Column: 2, Function: "m.F", Message: "one", Score: 2.1, Samples: 210, Hot: &Hot{}},
			{Rank: 2, Analyzer: "heapescape", File: "/m/a.go", Line: 9, Column: 2, Function: "m.G", Message: "two", Score: 1.5, Samples: 150, Hot: &Hot{}},
			{Rank: 3, Analyzer: "heapescape", File: "/m/a.go", Line: 4, Column: 2, Function: "m.F", Message: "three", Score: 0.5, Samples: 3, Floor: 0.1, Hot: &Hot{}},
			{Rank: 4, Analyzer: "heapescape", File: "/m/a.go", Line: 5, Column: 2, Function: "m.F", Message: "four", Score: 0, Samples: 0, Floor: 0.1, Hot: &Hot{}},
		},
		Stats: Stats{Packages: 1, Findings: 4, Total: 4, Ranking: "profile", Profile: &ProfileStats{Samples: 412, DurationS: 4.12}},
	}
	var b strings.Builder
	if err := WriteText(&b, r, "/m"); err != nil {
		t.Fatal(err)
	}
	want := `m.F
#1 2.1% a.go:3:2: deepequal: one
m.G
#2 1.5% a.go:9:2: heapescape: two
m.F
#3 <0.10% (3 samples) a.go:4:2: heapescape: three
#4 0% a.go:5:2: heapescape: four
4 findings in 1 package, top 4 cover ~4.1% of CPU; 412 samples: profile at least 30 s for a stable ranking
`
	if b.String() != want {
		t.Errorf("text report:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestCalleeIs checks that the callee a "calling X allocates" finding
// names matches the profile's spelling of that function, and no other.
func TestCalleeIs(t *testing.T) {
	for _, c := range []struct {
		fn, x string
		want  bool
	}{
		{"net/http.Header.Set", "http.Header.Set", true},
		{"bytes.(*Buffer).String", "(*bytes.Buffer).String", true},
		{"example.com/charge.(*Reader).Next", "(*Reader).Next", true},
		{"example.com/charge.allocBytes", "allocBytes", true},
		{"io.ReadAll", "io.LimitReader", false},
		{"example.com/charge.xallocBytes", "allocBytes", false},
		{"", "allocBytes", false},
	} {
		if got := calleeIs(c.fn, c.x); got != c.want {
			t.Errorf("calleeIs(%q, %q) = %v, want %v", c.fn, c.x, got, c.want)
		}
	}
}

// TestRankProgramsLast checks that without a profile a command's findings
// weigh less than a library's (kind.ProgramWeight): badger's bank test
// tool and its main's port search, in loops, ranked above its value log's
// per-item findings.
func TestRankProgramsLast(t *testing.T) {
	mk := func(file, tier string, program bool) Finding {
		f := Finding{Analyzer: "heapescape", File: file, Program: program}
		f.Tier, f.CostNS, f.Rewrite = tier, 30, true
		return f
	}
	fs := []Finding{mk("/m/cmd/tool/main.go", "hot-loop", true), mk("/m/lib.go", "unknown", false), mk("/m/value.go", "per-item", false)}
	Rank(fs)
	BySaving(fs)
	if fs[0].File != "/m/value.go" || fs[1].File != "/m/lib.go" || fs[2].File != "/m/cmd/tool/main.go" {
		t.Errorf("order %s %s %s, want value.go, lib.go, then the command's", fs[0].File, fs[1].File, fs[2].File)
	}
}

// TestAllocChargerMade checks what a finding counts of a profile's
// allocations: two inlined constructors of the standard library on one
// line, whose allocations the profile records at their own lines, each
// count for the finding about them; a finding about the line's own
// allocation counts only that one.
func TestAllocChargerMade(t *testing.T) {
	fn := func(id uint64, name, file string) *profile.Function {
		return &profile.Function{ID: id, Name: name, Filename: file}
	}
	decode := fn(1, "example.com/m%2ego.Decode", "/src/m/decode.go")
	bufio := fn(2, "bufio.NewReaderSize", "/go/src/bufio/bufio.go")
	bytesR := fn(3, "bytes.NewReader", "/go/src/bytes/reader.go")
	// One location per inlined chain: the callee's line, then Decode's.
	inl := func(id uint64, callee *profile.Function, line int64) *profile.Location {
		return &profile.Location{ID: id, Line: []profile.Line{{Function: callee, Line: line}, {Function: decode, Line: 5}}}
	}
	lBufio, lBytes := inl(1, bufio, 60), inl(2, bytesR, 160)
	lOwn := &profile.Location{ID: 3, Line: []profile.Line{{Function: decode, Line: 5}}}
	heap := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}, {Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:     1,
		Function:   []*profile.Function{decode, bufio, bytesR},
		Location:   []*profile.Location{lBufio, lBytes, lOwn},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{lBufio}, Value: []int64{20, 2560, 0, 0}},
			{Location: []*profile.Location{lBytes}, Value: []int64{20, 960, 0, 0}},
			{Location: []*profile.Location{lOwn}, Value: []int64{10, 160, 0, 0}},
		},
	}
	h, err := pgo.NewHotness(heap)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(callee, msg string) Finding {
		f := Finding{Analyzer: "heapescape", File: "/src/m/decode.go", Line: 5, Message: msg}
		f.Scoring, f.Callee, f.Inlined = kind.ScoreAlloc, callee, callee != ""
		return f
	}
	fs := []Finding{
		mk("bufio.NewReaderSize", "calling bufio.NewReaderSize allocates (inlined): make([]byte, 128) escapes to heap"),
		mk("bytes.NewReader", "calling bytes.NewReader allocates (inlined): &bytes.Reader{...} escapes to heap"),
		mk("", "make([]byte, 16) escapes to heap"),
	}
	c := NewAllocCharger(fs, "example.com/m.go")
	allocs := h.Allocations(c.Own())
	for i, want := range []int64{20, 20, 10} {
		if got := c.Made(allocs, &fs[i]).Objects; got != want {
			t.Errorf("%q: %d objects, want %d", fs[i].Message, got, want)
		}
	}
}
