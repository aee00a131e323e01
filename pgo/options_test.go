package pgo

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// synth builds a CPU profile from stacks written leaf first as
// "fn:line fn:line", with "|" separating inlined frames within one
// location ("inner:line|outer:line").
func synth(t *testing.T, dur time.Duration, stacks map[string]int64) *profile.Profile {
	t.Helper()
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10000000,
		DurationNanos: int64(dur),
		Mapping:       []*profile.Mapping{{ID: 1, File: "/bin/app", HasFunctions: true}, {ID: 2, File: "[vdso]", HasFunctions: true}},
	}
	fns := map[string]*profile.Function{}
	fn := func(name string) *profile.Function {
		if f := fns[name]; f != nil {
			return f
		}
		f := &profile.Function{ID: uint64(len(fns) + 1), Name: name, SystemName: name, Filename: "/src/" + strings.SplitN(name, ".", 2)[0] + ".go", StartLine: 10}
		fns[name] = f
		p.Function = append(p.Function, f)
		return f
	}
	for stack, n := range stacks {
		s := &profile.Sample{Value: []int64{n, n * 10000000}}
		for _, loc := range strings.Fields(stack) {
			l := &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(0x1000 + len(p.Location)), Mapping: p.Mapping[0]}
			for _, fr := range strings.Split(loc, "|") {
				name, line, _ := strings.Cut(fr, ":")
				if strings.HasPrefix(name, "vdso") {
					l.Mapping = p.Mapping[1]
				}
				var ln int64
				for _, c := range line {
					ln = ln*10 + int64(c-'0')
				}
				l.Line = append(l.Line, profile.Line{Function: fn(name), Line: ln})
			}
			p.Location = append(p.Location, l)
			s.Location = append(s.Location, l)
		}
		p.Sample = append(p.Sample, s)
	}
	if err := p.CheckValid(); err != nil {
		t.Fatal(err)
	}
	return p
}

func mergeSynth(t *testing.T, opts MergeOptions, ps ...*profile.Profile) *profile.Profile {
	t.Helper()
	dir := t.TempDir()
	var names []string
	for i, p := range ps {
		names = append(names, writeProfile(t, p, filepath.Join(dir, string(rune('a'+i))+".pprof")))
	}
	out, _, err := Merge(context.Background(), names, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Write the profile the way the command does and read it back.
	return readProfile(t, writeProfile(t, out, filepath.Join(dir, "merged.pprof")))
}

func flatOf(p *profile.Profile) map[string]int64 {
	m := map[string]int64{}
	for _, s := range p.Sample {
		m[s.Location[0].Line[0].Function.Name] += s.Value[0]
	}
	return m
}

func TestMergeWeighting(t *testing.T) {
	long := synth(t, 10*time.Second, map[string]int64{"main.a:11 runtime.main:12": 900})
	short := synth(t, time.Second, map[string]int64{"main.b:11 runtime.main:12": 100})
	for _, tc := range []struct {
		w    Weighting
		a, b int64
	}{
		{BySamples, 900, 100},
		{Equal, 500, 500},
		{ByDuration, 500, 500}, // 90/s and 100/s... see below
	} {
		got := flatOf(mergeSynth(t, MergeOptions{Weighting: tc.w}, long, short))
		if tc.w == ByDuration {
			// 900 samples in 10s weigh 90, 100 in 1s weigh 100; the
			// total stays 1000.
			tc.a, tc.b = 474, 526
		}
		if got["main.a"] != tc.a || got["main.b"] != tc.b {
			t.Errorf("weighting %d: a=%d b=%d, want %d %d", tc.w, got["main.a"], got["main.b"], tc.a, tc.b)
		}
	}
}

func TestMergeMainOnlyLabelsExclude(t *testing.T) {
	p := synth(t, time.Second, map[string]int64{
		"vdso.clock:1 main.now:11 main.loop:12":      5,
		"main.leaf:11 main.handler:15 main.serve:13": 7,
		"main.leaf:12|main.handler:16 main.serve:14": 3,
	})
	p.Sample[0].Label = map[string][]string{"path": {"/a"}}

	got := mergeSynth(t, MergeOptions{MainOnly: true}, p)
	for _, l := range got.Location {
		if strings.HasPrefix(l.Line[0].Function.Name, "vdso") {
			t.Errorf("MainOnly kept a vdso frame")
		}
	}
	for _, s := range got.Sample {
		if s.Label != nil {
			t.Errorf("labels kept without KeepLabels")
		}
	}
	withLabels := mergeSynth(t, MergeOptions{KeepLabels: true}, p)
	n := 0
	for _, s := range withLabels.Sample {
		if s.HasLabel("path", "/a") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("KeepLabels: %d samples with the label, want 1", n)
	}

	// Excluding handler removes the edges into it but keeps its samples.
	ex := mergeSynth(t, MergeOptions{Exclude: regexp.MustCompile(`^main\.handler$`)}, p)
	for _, e := range CallEdges(ex).Edges {
		if e.Callee == "main.handler" {
			t.Errorf("edge into excluded function kept: %+v", e)
		}
	}
	var leafEdges int
	for _, e := range CallEdges(ex).Edges {
		if e.Caller == "main.handler" && e.Callee == "main.leaf" {
			leafEdges += int(e.Weight)
		}
	}
	if leafEdges != 10 || flatOf(ex)["main.leaf"] != 10 {
		t.Errorf("excluded function's own edges weigh %d, leaf flat %d; want 10 and 10", leafEdges, flatOf(ex)["main.leaf"])
	}
}

func TestMergeKeepsRecursionEdges(t *testing.T) {
	// Two distinct locations with the same frame: the compiler counts the
	// self edge, so the merged profile must too.
	p := synth(t, time.Second, map[string]int64{"main.rec:12 main.rec:12 main.main:20": 4})
	sameEdges(t, "recursive edges", CallEdges(mergeSynth(t, MergeOptions{}, p)).Edges, CallEdges(p).Edges)
}

func TestTrimKeepsHotEdges(t *testing.T) {
	fx := fixture(t)
	full, _, err := Merge(context.Background(), []string{fx.cpu}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	trimmed, _, err := Merge(context.Background(), []string{fx.cpu}, MergeOptions{Trim: 99})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fullFile := writeProfile(t, full, filepath.Join(dir, "full.pprof"))
	trimFile := writeProfile(t, trimmed, filepath.Join(dir, "trim.pprof"))
	// Trimming cuts every stack to the two frames the compiler reads
	// (a caller and its callee); how many samples that merges depends
	// on the run, so the test asserts the cut, not a count.
	deep := false
	for _, s := range readProfile(t, fullFile).Sample {
		deep = deep || len(s.Location) > 2
	}
	if !deep {
		t.Fatal("the fixture's profile has no stack deeper than two frames")
	}
	for _, s := range readProfile(t, trimFile).Sample {
		if len(s.Location) > 2 {
			t.Errorf("trimmed profile keeps a stack of %d frames", len(s.Location))
			break
		}
	}
	// Compare the compiler's hot edges, computed from go tool preprofile's
	// output, with and without trimming.
	hot := func(file string) ([]Edge, float64) {
		e := &Edges{Edges: preprofileEdges(t, file)}
		for _, x := range e.Edges {
			e.Total += x.Weight
		}
		return e.Hot(DefaultHotCDF)
	}
	hf, tf := hot(fullFile)
	ht, tt := hot(trimFile)
	sameEdges(t, "hot edges after trimming", ht, hf)
	if tf != tt {
		t.Errorf("hot threshold %v after trimming, %v before", tt, tf)
	}
}

func TestWriteFile(t *testing.T) {
	p := synth(t, time.Second, map[string]int64{"main.a:11 runtime.main:12": 9})
	dir := t.TempDir()
	path, err := WriteFile(p, dir, false)
	if err != nil || path != filepath.Join(dir, "default.pgo") {
		t.Fatalf("WriteFile(dir) = %q, %v", path, err)
	}
	_, err = WriteFile(p, path, false)
	checkOneLine(t, err, path, "file exists (use -force")
	// Destination says the same before anything is merged.
	_, err = Destination(dir, false)
	checkOneLine(t, err, path, "file exists (use -force")
	if got, err := Destination(dir, true); err != nil || got != path {
		t.Errorf("Destination(dir, force) = %q, %v; want %s", got, err, path)
	}
	if got, err := Destination(filepath.Join(dir, "new.pgo"), false); err != nil || got != filepath.Join(dir, "new.pgo") {
		t.Errorf("Destination(new.pgo) = %q, %v", got, err)
	}
	if _, err := WriteFile(p, path, true); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("directory holds %d entries after writing, want only default.pgo", len(ents))
	}
	_, err = WriteFile(p, filepath.Join(dir, "no", "such", "dir", "x.pgo"), false)
	checkOneLine(t, err, "x.pgo", "writing")
}
