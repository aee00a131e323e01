package html

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/bench"
	"github.com/goadvise/goadvise/report"
)

// storeSrc is the source of the fixture's kv/store.go. Its findings are
// located by searching for their text, so that offsets stay right when the
// source is edited.
const storeSrc = `package kv

import (
	"reflect"
	"sync"
)

// Entry is one stored value.
type Entry struct {
	Value   []byte
	Version int
}

// Store keeps entries in memory.
type Store struct {
	mu      sync.Mutex
	entries map[string]*Entry
	tags    map[string]string
}

// Put stores value under key if it changed.
func (s *Store) Put(key string, value []byte, tags map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.entries[key]; ok && reflect.DeepEqual(old.Value, value) {
		return
	}
	s.entries[key] = &Entry{Value: append([]byte(nil), value...)}
	for k, v := range tags {
		if s.tags[k] != v && len(k) < 10 && "<b>" != v {
			s.tags[k] = v
		}
	}
}
`

// handlerSrc is the source of the fixture's kv/handler.go.
const handlerSrc = `package kv

import "net/http"

// Handler serves the store over HTTP.
type Handler struct{ s *Store }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tags := map[string]string{}
	h.s.Put(r.URL.Path, nil, tags)
}
`

// fixtureFinding describes a finding of the fixture by the text it points
// at.
type fixtureFinding struct {
	file, at, analyzer, fn, tier, msg string
	score, cum, funcCum               float64
	fixOld, fixNew                    string // the fix replaces fixOld (found at at) with fixNew
}

// writeFixture writes the fixture module to a new temporary directory and
// returns a report on it, ranked by score as check -profile would, and the
// directory. The first finding, the top one, is a heapescape finding whose
// message contains characters that must be escaped.
func writeFixture(t *testing.T) (*report.Report, string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":        "module example.com/svc\n\ngo 1.26\n",
		"kv/store.go":   storeSrc,
		"kv/handler.go": handlerSrc,
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	specs := []fixtureFinding{
		{file: "kv/store.go", at: "&Entry{", analyzer: "heapescape", fn: "(*Store).Put", tier: "hot-loop",
			msg:   "&Entry{...} escapes to heap: stored in s.entries[key] <outside>; Entry is small: store it by value instead of by pointer [hot-loop: profile: 8.5% of CPU in (*Store).Put]",
			score: 3.77, cum: 0.0598, funcCum: 0.085},
		{file: "kv/handler.go", at: "map[string]string{}", analyzer: "heapescape", fn: "(*Handler).ServeHTTP", tier: "per-item",
			msg:   "map[string]string{} escapes to heap: passed to (*Store).Put, which keeps it; let the caller provide the memory [per-item: method ServeHTTP handles requests]",
			score: 3.01, cum: 0.17, funcCum: 0.17},
		{file: "kv/store.go", at: "reflect.DeepEqual(old.Value, value)", analyzer: "deepequal", fn: "(*Store).Put", tier: "hot-loop",
			msg:   "reflect.DeepEqual on []byte uses reflection: use bytes.Equal, which compares directly without allocating [hot-loop: inside a loop]",
			score: 1.28, cum: 0.0256, funcCum: 0.085,
			fixOld: "reflect.DeepEqual(old.Value, value)", fixNew: "bytes.Equal(old.Value, value)"},
		{file: "kv/store.go", at: "append([]byte(nil), value...)", analyzer: "heapescape", fn: "(*Store).Put", tier: "hot-loop",
			msg:   "append(([]byte)(nil), value...) escapes to heap: append growth; preallocate the slice with make(..., 0, n) [hot-loop: inside a loop]",
			score: 0.75, cum: 0.0598, funcCum: 0.085},
		{file: "kv/store.go", at: `"<b>" != v`, analyzer: "redundantbranch", fn: "(*Store).Put", tier: "cold",
			msg: `the condition "<b>" != v is always true here: remove it, so that the loop does less work per item <script>alert(1)</script> [cold]`},
	}
	r := &report.Report{Stats: report.Stats{
		Packages: 1, Files: 2, Ranking: "profile", DurationMS: 310, ByAnalyzer: map[string]int{},
		Profile: &report.ProfileStats{
			Sources: []string{"cpu.pprof"}, Samples: 117, DurationS: 1.42, GCFactor: 0.76,
			Outside: []report.HotSpot{{Function: "runtime.memmove", Flat: 4.27, Cum: 4.27}},
			Inside:  []report.HotSpot{{Function: "example.com/svc/kv.(*Store).scan", Flat: 6.5, Cum: 9.25}},
		},
	}}
	for i, s := range specs {
		path := filepath.Join(dir, s.file)
		src := files[s.file]
		off := strings.Index(src, s.at)
		if off < 0 {
			t.Fatalf("fixture: %q not in %s", s.at, s.file)
		}
		line := strings.Count(src[:off], "\n") + 1
		col := off - strings.LastIndex(src[:off], "\n")
		f := report.Finding{
			Rank: i + 1, Analyzer: s.analyzer, File: path, Line: line, Column: col,
			Function: "example.com/svc/kv." + s.fn, Package: "example.com/svc/kv",
			Message: s.msg, Fixes: []report.Fix{}, Score: s.score,
		}
		// The fixture's messages end with their tier and its reason, as
		// the analyzers' do: the finding's fields carry them apart.
		f.Tier, f.Text = s.tier, s.msg
		if i := strings.LastIndex(s.msg, " ["+s.tier); i >= 0 {
			f.Text = s.msg[:i]
			f.TierReason = strings.TrimPrefix(strings.TrimSuffix(s.msg[i+2:], "]"), s.tier)
			f.TierReason = strings.TrimPrefix(f.TierReason, ": ")
		}
		if i == 0 {
			f.Callers = []report.Caller{{Text: "62% of this line's allocations come from (*reader).next via newBuffer (r.go:12)"}}
		}
		if s.cum > 0 {
			f.Hot = &report.Hot{Cum: s.cum, Flat: s.cum / 2, Alloc: s.cum / 3, FuncCum: s.funcCum}
			f.Cost = "~" + trimNum(s.score) + "% of CPU"
		}
		if s.fixOld != "" {
			f.EndLine, f.EndColumn = line, col+len(s.fixOld)
			f.Fixes = append(f.Fixes, report.Fix{
				Message: "Replace reflect.DeepEqual with bytes.Equal",
				Edits: []report.Edit{
					{File: path, Start: off, End: off + len(s.fixOld), New: s.fixNew},
					{File: path, Start: strings.Index(src, `"reflect"`), End: strings.Index(src, `"reflect"`), New: "\"bytes\"\n\t"},
				},
			})
		}
		r.Findings = append(r.Findings, f)
		r.Stats.ByAnalyzer[f.Analyzer]++
		r.Stats.Profile.TopCover += f.Score
	}
	r.Stats.Findings, r.Stats.Total = len(r.Findings), len(r.Findings)
	return r, dir
}

// baseBench and headBench are benchmark output of two versions: Parse got
// faster, Format slower (a regression beyond 5%), Encode allocates more.
const baseBench = `goos: linux
goarch: amd64
pkg: example.com/svc/wire
cpu: Test CPU @ 2.00GHz
BenchmarkParse-8    	 1000	       100 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	       101 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        99 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	       102 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	       100 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	       103 ns/op	      64 B/op	       2 allocs/op
BenchmarkFormat<x>-8	 1000	        50 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat<x>-8	 1000	        51 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat<x>-8	 1000	        49 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat<x>-8	 1000	        50 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat<x>-8	 1000	        50 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat<x>-8	 1000	        52 ns/op	      32 B/op	       1 allocs/op
`

const headBench = `goos: linux
goarch: amd64
pkg: example.com/svc/wire
cpu: Test CPU @ 2.00GHz
BenchmarkParse-8    	 1000	        80 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        81 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        79 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        80 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        82 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        80 ns/op	      64 B/op	       2 allocs/op
BenchmarkFormat<x>-8	 1000	        60 ns/op	      48 B/op	       2 allocs/op
BenchmarkFormat<x>-8	 1000	        61 ns/op	      48 B/op	       2 allocs/op
BenchmarkFormat<x>-8	 1000	        59 ns/op	      48 B/op	       2 allocs/op
BenchmarkFormat<x>-8	 1000	        60 ns/op	      48 B/op	       2 allocs/op
BenchmarkFormat<x>-8	 1000	        62 ns/op	      48 B/op	       2 allocs/op
BenchmarkFormat<x>-8	 1000	        60 ns/op	      48 B/op	       2 allocs/op
`

// fixtureComparison compares baseBench with headBench as goadvise bench
// -old -new does.
func fixtureComparison(t *testing.T) *bench.Comparison {
	t.Helper()
	c, err := bench.Parse(strings.NewReader(baseBench), "old.txt", strings.NewReader(headBench), "new.txt", bench.CompareOptions{Threshold: 5})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
