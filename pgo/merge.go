package pgo

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/internal/atomicfile"
	"github.com/goadvise/goadvise/internal/plural"
)

// Weighting says how the samples of several inputs are combined.
type Weighting int

// The weightings of [MergeOptions].
const (
	// BySamples adds samples as they are: an input with more samples
	// (longer, or from a busier instance) weighs more. This is what
	// go tool pprof does.
	BySamples Weighting = iota
	// Equal gives every input the same total weight.
	Equal
	// ByDuration divides every input's samples by its duration: busier
	// instances weigh more, longer captures do not.
	ByDuration
)

// ParseWeighting parses "samples", "equal" or "duration".
func ParseWeighting(s string) (Weighting, error) {
	switch s {
	case "samples", "":
		return BySamples, nil
	case "equal":
		return Equal, nil
	case "duration":
		return ByDuration, nil
	}
	return 0, fmt.Errorf("unknown weighting %q (want samples, equal or duration)", s)
}

// MergeOptions control [Merge].
type MergeOptions struct {
	Open OpenOptions

	// KeepLabels keeps sample labels; by default they are dropped, since
	// the compiler ignores them and they make the profile larger.
	KeepLabels bool

	// Weighting says how inputs are weighed against each other.
	Weighting Weighting

	// MainOnly keeps only the frames of the main binary's mapping (the
	// first mapping of each profile), dropping those of shared libraries
	// and the vDSO.
	MainOnly bool

	// Trim, if in [99, 100), keeps only what the compiler uses of the hot
	// call edges that make up Trim percent of the call-edge weight: the
	// last two locations of the stacks that carry them. The weight of the
	// rest is kept as a residual so that the compiler's hot call sites
	// (at its default 99% threshold) stay exactly the same. Zero keeps
	// everything.
	Trim float64

	// Exclude, if not nil, drops the call edges into functions whose names
	// match it: stacks are cut above the first frame (from the leaf) of
	// such a function, so PGO does not inline it into its callers, while
	// its own time and its callees stay in the profile.
	Exclude *regexp.Regexp

	// SkipInvalid skips inputs that cannot serve as PGO profiles, with a
	// warning, instead of failing.
	SkipInvalid bool

	// Parallel is the number of inputs read and parsed at the same time;
	// zero means GOMAXPROCS (at most 4). Memory grows with it.
	Parallel int

	// Warn, if not nil, receives one-line warnings that name the input.
	Warn func(string)

	// Verbose, if not nil, receives one line per input with its name, its
	// samples and its duration.
	Verbose func(string)
}

// MergeStats describes the result of a merge.
type MergeStats struct {
	Inputs    int   // profiles merged
	Skipped   int   // invalid inputs skipped
	Samples   int   // distinct stacks in the result
	Functions int   // functions in the result
	Total     int64 // total samples/count value in the result
	Duration  time.Duration
	HotEdges  int // call edges the compiler treats as hot (99% CDF)

	// PeakParsed is the largest number of parsed inputs held in memory
	// at once: at most Parallel, however many inputs there are.
	PeakParsed int
}

// Destination returns the file that WriteFile writes for path (a
// directory's default.pgo, or path), or an error if it exists and force is
// not set: a merge checks it before it reads any input.
func Destination(path string, force bool) (string, error) {
	path = destination(path)
	if _, err := os.Lstat(path); err == nil && !force {
		return "", fmt.Errorf("%s: file exists (use -force to replace it)", path)
	}
	return path, nil
}

func destination(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return filepath.Join(path, "default.pgo")
	}
	return path
}

// Summary says what a merge that wrote path did, in one line.
func (s *MergeStats) Summary(path string) string {
	return fmt.Sprintf("wrote %s: %s merged (%d skipped), %s over %v, %s, %s, %s", path,
		plural.Count(s.Inputs, "profile", "profiles"), s.Skipped, plural.Count(int(s.Total), "sample", "samples"),
		s.Duration.Round(time.Millisecond), plural.Count(s.Samples, "stack", "stacks"),
		plural.Count(s.Functions, "function", "functions"), plural.Count(s.HotEdges, "hot call edge", "hot call edges"))
}

// The residual functions carry the call-edge weight removed by trimming;
// their names sort after every Go symbol, so that their edges sort after
// all real ones of the same weight.
const (
	residualCaller = "~goadvise.trimmed"
	residualCallee = "~goadvise.trimmed.callee"
)

// A merger accumulates profiles.
type merger struct {
	opts MergeOptions

	funcs   []profile.Function // ID unset
	funcIdx map[funcKey]int32

	locs   [][]frame // frames of each location, innermost first
	locIdx map[string]int32

	samples   []accSample
	sampleIdx map[string]int32

	mappings   []*profile.Mapping
	mappingIdx map[[2]string]int

	rawTotal  float64 // sum of unscaled samples/count
	duration  int64
	timeNanos int64
	period    int64
	inputs    int
	kbuf      []byte
}

type funcKey struct {
	name, system, file string
	start              int64
}

type frame struct {
	fn   int32
	line int32
}

type accSample struct {
	key    string // location IDs, leaf first, 4 bytes each; then labels
	n      int32  // number of locations
	value  [2]float64
	labels map[string][]string
}

func newMerger(opts MergeOptions) *merger {
	return &merger{
		opts:       opts,
		funcIdx:    make(map[funcKey]int32),
		locIdx:     make(map[string]int32),
		sampleIdx:  make(map[string]int32),
		mappingIdx: make(map[[2]string]int),
	}
}

// intern returns the ID of the location with the given frames; variant
// distinguishes locations with equal frames (see add).
func (m *merger) intern(frames []frame, variant int) int32 {
	m.kbuf = m.kbuf[:0]
	m.kbuf = strconv.AppendInt(m.kbuf, int64(variant), 10)
	for _, f := range frames {
		m.kbuf = append(m.kbuf, ',')
		m.kbuf = strconv.AppendInt(m.kbuf, int64(f.fn), 10)
		m.kbuf = append(m.kbuf, ':')
		m.kbuf = strconv.AppendInt(m.kbuf, int64(f.line), 10)
	}
	if id, ok := m.locIdx[string(m.kbuf)]; ok {
		return id
	}
	id := int32(len(m.locs))
	m.locs = append(m.locs, slices.Clone(frames))
	m.locIdx[string(m.kbuf)] = id
	return id
}

// add folds p into the accumulator.
func (m *merger) add(p *profile.Profile) {
	ci, ni := sampleIndex(p, "samples", "count"), sampleIndex(p, "cpu", "nanoseconds")
	var total float64
	for _, s := range p.Sample {
		total += float64(s.Value[ci])
	}
	scale := 1.0
	switch m.opts.Weighting {
	case Equal:
		if total > 0 {
			scale = 1 / total
		}
	case ByDuration:
		if p.DurationNanos > 0 {
			scale = 1e9 / float64(p.DurationNanos)
		}
	}
	m.rawTotal += total
	m.duration += p.DurationNanos
	if p.TimeNanos != 0 && (m.timeNanos == 0 || p.TimeNanos < m.timeNanos) {
		m.timeNanos = p.TimeNanos
	}
	if m.period == 0 && p.PeriodType != nil && p.PeriodType.Type == "cpu" {
		m.period = p.Period
	}
	m.inputs++

	var main *profile.Mapping
	if len(p.Mapping) > 0 {
		main = p.Mapping[0]
		key := [2]string{main.File, main.BuildID}
		if _, ok := m.mappingIdx[key]; !ok {
			m.mappingIdx[key] = len(m.mappings)
			m.mappings = append(m.mappings, &profile.Mapping{
				File: main.File, BuildID: main.BuildID,
				HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true,
			})
		}
	}

	// Translate functions.
	fmap := make(map[*profile.Function]int32, len(p.Function))
	excluded := make(map[*profile.Function]bool)
	for _, f := range p.Function {
		k := funcKey{f.Name, f.SystemName, f.Filename, f.StartLine}
		id, ok := m.funcIdx[k]
		if !ok {
			id = int32(len(m.funcs))
			m.funcs = append(m.funcs, profile.Function{Name: f.Name, SystemName: f.SystemName, Filename: f.Filename, StartLine: f.StartLine})
			m.funcIdx[k] = id
		}
		fmap[f] = id
		if m.opts.Exclude != nil && m.opts.Exclude.MatchString(f.Name) {
			excluded[f] = true
		}
	}

	// Translate locations, cut for Exclude, and intern them.
	type xloc struct {
		id  int32
		cut bool // the stack ends here (Exclude)
	}
	lmap := make(map[*profile.Location]xloc, len(p.Location))
	var frames []frame
	for _, l := range p.Location {
		if m.opts.MainOnly && l.Mapping != nil && l.Mapping != main {
			continue
		}
		frames = frames[:0]
		cut := false
		for _, ln := range l.Line {
			if ln.Function == nil {
				continue
			}
			frames = append(frames, frame{fmap[ln.Function], int32(ln.Line)})
			if excluded[ln.Function] {
				cut = true
				break
			}
		}
		if len(frames) > 0 {
			lmap[l] = xloc{m.intern(frames, 0), cut}
		}
	}

	var stack []int32
	for _, s := range p.Sample {
		c, n := float64(s.Value[ci]), float64(s.Value[ni])
		if c == 0 && n == 0 {
			continue
		}
		stack = stack[:0]
		var first *profile.Location // original location of stack[0]
		for _, l := range s.Location {
			x, ok := lmap[l]
			if !ok {
				continue
			}
			id := x.id
			switch len(stack) {
			case 0:
				first = l
			case 1:
				// The compiler's graph keeps two different locations
				// with the same frames apart by their addresses;
				// since addresses are not kept, keep them apart here.
				if l != first && id == stack[0] {
					id = m.intern(m.locs[id], 1)
				}
			}
			stack = append(stack, id)
			if x.cut {
				break
			}
		}
		if len(stack) == 0 {
			continue
		}
		m.kbuf = m.kbuf[:0]
		for _, id := range stack {
			m.kbuf = binary.LittleEndian.AppendUint32(m.kbuf, uint32(id))
		}
		var labels map[string][]string
		if m.opts.KeepLabels && len(s.Label) > 0 {
			labels = s.Label
			keys := make([]string, 0, len(labels))
			for k := range labels {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				m.kbuf = strconv.AppendQuote(m.kbuf, k)
				for _, v := range labels[k] {
					m.kbuf = strconv.AppendQuote(m.kbuf, v)
				}
				m.kbuf = append(m.kbuf, ';')
			}
		}
		idx, ok := m.sampleIdx[string(m.kbuf)]
		if !ok {
			idx = int32(len(m.samples))
			key := string(m.kbuf) // shared by the map and the sample
			m.samples = append(m.samples, accSample{key: key, n: int32(len(stack)), labels: labels})
			m.sampleIdx[key] = idx
		}
		m.samples[idx].value[0] += c * scale
		m.samples[idx].value[1] += n * scale
	}
}

// A Merged is the result of [Merge]: a merged CPU profile, kept in compact
// form until it is written or converted.
type Merged struct {
	hdr     *profile.Profile // everything but the samples
	samples []accSample
	factor  float64
	trimmed *profile.Profile // set if trimming was asked for
}

// finish turns the accumulator into a Merged.
func (m *merger) finish() *Merged {
	// The indexes are not needed any more.
	m.sampleIdx, m.locIdx, m.funcIdx = nil, nil, nil

	// Scale the weighted sums back so that the total equals the sum of the
	// inputs' samples.
	var wtotal float64
	for _, s := range m.samples {
		wtotal += s.value[0]
	}
	factor := 1.0
	if m.opts.Weighting != BySamples && wtotal > 0 {
		factor = m.rawTotal / wtotal
	}
	period := m.period
	if period == 0 {
		period = 10_000_000
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "samples", Unit: "count"},
			{Type: "cpu", Unit: "nanoseconds"},
		},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        period,
		TimeNanos:     m.timeNanos,
		DurationNanos: m.duration,
		Comments:      []string{fmt.Sprintf("merged by goadvise pgo merge from %d profiles", m.inputs)},
	}
	p.Mapping = m.mappings
	for i, mp := range p.Mapping {
		mp.ID = uint64(i + 1)
	}
	var mapping *profile.Mapping
	if len(p.Mapping) > 0 {
		mapping = p.Mapping[0]
	}
	fns := make([]*profile.Function, len(m.funcs))
	for i := range m.funcs {
		f := m.funcs[i]
		f.ID = uint64(i + 1)
		fns[i] = &f
	}
	p.Function = fns
	locs := make([]*profile.Location, len(m.locs))
	for i, frames := range m.locs {
		l := &profile.Location{ID: uint64(i + 1), Address: uint64(i + 1), Mapping: mapping}
		l.Line = make([]profile.Line, len(frames))
		for j, f := range frames {
			l.Line[j] = profile.Line{Function: fns[f.fn], Line: int64(f.line)}
		}
		locs[i] = l
	}
	p.Location = locs
	r := &Merged{hdr: p, samples: m.samples, factor: factor}
	m.samples, m.funcs, m.locs = nil, nil, nil
	if m.opts.Trim > 0 {
		r.trimmed = trimmed(r.hdr, r.each, m.opts.Trim)
		r.samples = nil
	}
	return r
}

// each calls f for each sample of r. The sample is reused between calls.
func (r *Merged) each(f func(*profile.Sample)) {
	if r.trimmed != nil {
		for _, s := range r.trimmed.Sample {
			f(s)
		}
		return
	}
	s := &profile.Sample{Value: make([]int64, 2)}
	for i := range r.samples {
		a := &r.samples[i]
		c := int64(math.Round(a.value[0] * r.factor))
		n := int64(math.Round(a.value[1] * r.factor))
		if c == 0 && n == 0 {
			continue
		}
		s.Value[0], s.Value[1] = c, n
		s.Label = a.labels
		s.Location = s.Location[:0]
		for k := 0; k < int(a.n)*4; k += 4 {
			id := uint32(a.key[k]) | uint32(a.key[k+1])<<8 | uint32(a.key[k+2])<<16 | uint32(a.key[k+3])<<24
			s.Location = append(s.Location, r.hdr.Location[id])
		}
		f(s)
	}
}

// Profile returns the merged profile as a profile.Profile. For a large
// merge, [Merged.Write] needs much less memory.
func (r *Merged) Profile() *profile.Profile {
	if r.trimmed != nil {
		return r.trimmed
	}
	h := r.hdr
	p := &profile.Profile{
		SampleType: h.SampleType, PeriodType: h.PeriodType, Period: h.Period,
		TimeNanos: h.TimeNanos, DurationNanos: h.DurationNanos, Comments: h.Comments,
		Mapping: h.Mapping, Location: h.Location, Function: h.Function,
	}
	p.Sample = make([]*profile.Sample, 0, len(r.samples))
	r.each(func(s *profile.Sample) {
		p.Sample = append(p.Sample, cloneSample(s))
	})
	return p
}

func cloneSample(s *profile.Sample) *profile.Sample {
	c := *s
	c.Value = slices.Clone(s.Value)
	c.Location = slices.Clone(s.Location)
	return &c
}

// Write writes the merged profile, gzip-compressed, to w, without building
// a profile.Profile of it.
func (r *Merged) Write(w io.Writer) error {
	hdr := r.hdr
	if r.trimmed != nil {
		hdr = r.trimmed
	}
	return writeProto(w, hdr, r.each)
}

// CallEdges returns the call edges of the merged profile (see [CallEdges]).
func (r *Merged) CallEdges() *Edges {
	return callEdges(r.hdr.SampleType, r.each)
}

// trimmed returns the samples each yields, reduced to the last two
// locations of those that carry the call edges making up pct percent of
// the call-edge weight, plus residual edges so that the total call-edge
// weight stays the same and the compiler's hot-edge selection does not
// change (see MergeOptions.Trim); the rest of the profile comes from hdr. It renumbers hdr's locations and functions, which
// it shares, so hdr must not be written afterwards.
func trimmed(hdr *profile.Profile, each func(func(*profile.Sample)), pct float64) *profile.Profile {
	p := &profile.Profile{
		SampleType: hdr.SampleType, PeriodType: hdr.PeriodType, Period: hdr.Period,
		TimeNanos: hdr.TimeNanos, DurationNanos: hdr.DurationNanos, Comments: hdr.Comments,
		Mapping: hdr.Mapping, Location: slices.Clone(hdr.Location), Function: slices.Clone(hdr.Function),
	}
	edges := callEdges(hdr.SampleType, each)
	if edges.Total == 0 {
		each(func(s *profile.Sample) { p.Sample = append(p.Sample, cloneSample(s)) })
		return p
	}
	hot := map[edgeKey]bool{}
	var cum, minKept int64
	for _, e := range edges.Edges {
		hot[edgeKey{e.Caller, e.Callee, e.Offset}] = true
		cum += e.Weight
		minKept = e.Weight
		if percent(cum, edges.Total) > pct {
			break
		}
	}
	// Keep the samples contributing to a kept edge, cut to what the
	// compiler reads, and merge the equal stacks.
	index := map[[2]*profile.Location]*profile.Sample{}
	each(func(s *profile.Sample) {
		keep := false
		forEachEdge(s, func(k edgeKey) {
			keep = keep || hot[k]
		})
		if !keep {
			return
		}
		var k [2]*profile.Location
		copy(k[:], s.Location)
		if t := index[k]; t != nil && s.Label == nil && t.Label == nil {
			t.Value[0] += s.Value[0]
			t.Value[1] += s.Value[1]
			return
		}
		c := cloneSample(s)
		c.Location = c.Location[:min(2, len(c.Location))]
		index[k] = c
		p.Sample = append(p.Sample, c)
	})
	residual := edges.Total - CallEdges(p).Total
	if residual > 0 {
		caller := &profile.Function{Name: residualCaller, SystemName: residualCaller, StartLine: 1}
		callee := &profile.Function{Name: residualCallee, SystemName: residualCallee, StartLine: 1}
		p.Function = append(p.Function, caller, callee)
		leaf := &profile.Location{Line: []profile.Line{{Function: callee, Line: 1}}}
		p.Location = append(p.Location, leaf)
		// Edges of weight minKept or less sort after every kept edge:
		// by weight, then by the residual caller's name.
		per := max(minKept, 1)
		var period int64 = 1
		if p.Period > 0 {
			period = p.Period
		}
		for i := int64(1); residual > 0; i++ {
			w := min(per, residual)
			residual -= w
			l := &profile.Location{Line: []profile.Line{{Function: caller, Line: 1 + i}}}
			p.Location = append(p.Location, l)
			p.Sample = append(p.Sample, &profile.Sample{
				Location: []*profile.Location{leaf, l},
				Value:    []int64{w, w * period},
			})
		}
	}
	// Drop what is no longer used and renumber.
	usedLoc := map[*profile.Location]bool{}
	for _, s := range p.Sample {
		for _, l := range s.Location {
			usedLoc[l] = true
		}
	}
	usedFn := map[*profile.Function]bool{}
	locs := p.Location[:0]
	for _, l := range p.Location {
		if usedLoc[l] {
			l.ID = uint64(len(locs) + 1)
			l.Address = l.ID
			if l.Mapping == nil && len(p.Mapping) > 0 {
				l.Mapping = p.Mapping[0]
			}
			locs = append(locs, l)
			for _, ln := range l.Line {
				usedFn[ln.Function] = true
			}
		}
	}
	p.Location = locs
	fns := p.Function[:0]
	for _, f := range p.Function {
		if usedFn[f] {
			f.ID = uint64(len(fns) + 1)
			fns = append(fns, f)
		}
	}
	p.Function = fns
	return p
}

// Merge reads the profiles named by sources (files, directories, URLs),
// checks that each can serve for PGO (see [CheckPGO]) and merges them into
// one CPU profile, which it returns. Inputs are read one at a time (a few
// in parallel) and dropped once folded into the result.
func Merge(ctx context.Context, sources []string, opts MergeOptions) (*Merged, MergeStats, error) {
	var stats MergeStats
	if opts.Trim != 0 && (opts.Trim < 99 || opts.Trim >= 100) {
		return nil, stats, fmt.Errorf("trim percentage %g out of range [99, 100)", opts.Trim)
	}
	names, err := Expand(sources)
	if err != nil {
		return nil, stats, err
	}
	if len(names) == 0 {
		return nil, stats, errors.New("no profiles to merge")
	}
	warn := opts.Warn
	if warn == nil {
		warn = func(string) {}
	}
	par := opts.Parallel
	if par <= 0 {
		par = min(runtime.GOMAXPROCS(0), 4)
	}
	type result struct {
		p   *Profile
		err error
	}
	results := make([]chan result, len(names))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tokens := make(chan struct{}, par)
	var parsed, peakParsed atomic.Int64
	go func() {
		for i, name := range names {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				for _, ch := range results[i:] {
					ch <- result{err: ctx.Err()}
				}
				return
			}
			go func() {
				p, err := Read(ctx, name, opts.Open)
				if p != nil {
					n := int(parsed.Add(1))
					for {
						peak := peakParsed.Load()
						if int64(n) <= peak || peakParsed.CompareAndSwap(peak, int64(n)) {
							break
						}
					}
				}
				results[i] <- result{p, err}
			}()
		}
	}()
	m := newMerger(opts)
	for i, name := range names {
		r := <-results[i]
		if r.err != nil {
			if !opts.SkipInvalid || ctx.Err() != nil {
				return nil, stats, r.err
			}
			msg, ok := strings.CutPrefix(r.err.Error(), name+": ")
			if !ok {
				msg = r.err.Error() // it names the input another way
			}
			warn(name + ": skipped: " + msg)
			stats.Skipped++
			<-tokens
			continue
		}
		ws, err := CheckPGO(r.p.Profile)
		if err != nil {
			if !opts.SkipInvalid {
				return nil, stats, fmt.Errorf("%s: %v", name, err)
			}
			warn(fmt.Sprintf("%s: skipped: %v", name, err))
			stats.Skipped++
		} else {
			for _, w := range ws {
				warn(name + ": " + w)
			}
			if opts.Weighting == ByDuration && r.p.DurationNanos <= 0 {
				warn(name + ": profile has no duration; weighed as if it lasted 1s")
			}
			if opts.Verbose != nil {
				info := Inspect(r.p.Profile)
				opts.Verbose(fmt.Sprintf("%s: %d samples over %v, %d locations", name, info.Samples, info.Duration.Round(time.Millisecond), info.Locations))
			}
			m.add(r.p.Profile)
		}
		r.p = nil
		parsed.Add(-1)
		<-tokens
	}
	stats.PeakParsed = int(peakParsed.Load())
	if m.inputs == 0 {
		return nil, stats, errors.New("no valid profiles to merge")
	}
	if m.rawTotal == 0 {
		return nil, stats, fmt.Errorf("no samples in the %d profiles to merge", m.inputs)
	}
	stats.Inputs = m.inputs
	r := m.finish()
	r.each(func(s *profile.Sample) {
		stats.Samples++
		stats.Total += s.Value[0]
	})
	if r.trimmed != nil {
		stats.Functions = len(r.trimmed.Function)
	} else {
		stats.Functions = len(r.hdr.Function)
	}
	stats.Duration = time.Duration(r.hdr.DurationNanos)
	hot, _ := r.CallEdges().Hot(DefaultHotCDF)
	stats.HotEdges = len(hot)
	return r, stats, nil
}

// WriteFile writes p (a *Merged or a *profile.Profile) to path
// atomically, with the permissions the umask leaves of 0666. It never
// replaces an existing file, not even one created while it writes,
// unless force is set. If path is a directory, the profile is written to
// default.pgo in it, where go build -pgo=auto finds it for a main package.
// It returns the path written.
func WriteFile(p interface{ Write(io.Writer) error }, path string, force bool) (string, error) {
	path = destination(path)
	mode := atomicfile.NoClobber | atomicfile.Sync
	if force {
		mode = atomicfile.Replace | atomicfile.Sync
	}
	err := atomicfile.Write(path, mode, p.Write)
	if errors.Is(err, fs.ErrExist) && !force {
		return "", fmt.Errorf("%s: file exists (use -force to replace it)", path)
	}
	if err != nil {
		return "", oneLine(err)
	}
	return path, nil
}
