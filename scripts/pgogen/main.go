// Command pgogen writes reproducible synthetic CPU profiles, shaped like
// those of one Go service profiled on many instances, for
// scripts/pgo-merge-bench.sh.
//
// Usage:
//
//	go run ./scripts/pgogen -n 200 -o DIR
//
// All profiles share one binary (functions, locations and addresses); each
// has its own random samples, so merging them finds many equal stacks but
// not all.
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/google/pprof/profile"
)

func main() {
	n := flag.Int("n", 200, "number of profiles")
	out := flag.String("o", "", "output directory")
	funcs := flag.Int("funcs", 4000, "functions in the binary")
	locs := flag.Int("locs", 30000, "locations in the binary")
	samples := flag.Int("samples", 22000, "distinct stacks per profile")
	flag.Parse()
	if *out == "" {
		log.Fatal("usage: pgogen -n N -o DIR")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	bin := newBinary(*funcs, *locs)
	for i := 0; i < *n; i++ {
		p := bin.profile(uint64(i), *samples)
		name := filepath.Join(*out, fmt.Sprintf("cpu-%03d.pprof", i))
		f, err := os.Create(name)
		if err != nil {
			log.Fatal(err)
		}
		if err := p.Write(f); err != nil {
			log.Fatal(err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
}

type binary struct {
	mapping *profile.Mapping
	funcs   []*profile.Function
	locs    []*profile.Location
	callers [][]int // for each location, locations that call into its function
}

func newBinary(nf, nl int) *binary {
	r := rand.New(rand.NewPCG(1, 2))
	b := &binary{mapping: &profile.Mapping{
		ID: 1, Start: 0x400000, Limit: 0x400000 + uint64(nl)*64, File: "/usr/local/bin/service",
		BuildID: "0123456789abcdef", HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true,
	}}
	for i := 0; i < nf; i++ {
		pkg := fmt.Sprintf("example.com/service/internal/pkg%02d", i%60)
		name := fmt.Sprintf("%s.(*Type%d).Method%d", pkg, i%37, i)
		if i < 200 {
			name = fmt.Sprintf("runtime.func%d", i)
			pkg = "runtime"
		}
		b.funcs = append(b.funcs, &profile.Function{
			ID: uint64(i + 1), Name: name, SystemName: name,
			Filename:  fmt.Sprintf("/home/build/src/%s/file%d.go", pkg, i%13),
			StartLine: int64(10 + r.IntN(2000)),
		})
	}
	for i := 0; i < nl; i++ {
		l := &profile.Location{ID: uint64(i + 1), Mapping: b.mapping, Address: 0x400000 + uint64(i)*64}
		depth := 1
		if r.IntN(4) == 0 {
			depth += 1 + r.IntN(3) // inlined frames
		}
		for d := 0; d < depth; d++ {
			f := b.funcs[zipf(r, nf)]
			l.Line = append(l.Line, profile.Line{Function: f, Line: f.StartLine + int64(r.IntN(60))})
		}
		b.locs = append(b.locs, l)
	}
	return b
}

// zipf returns a skewed index in [0, n): a few hot, many cold.
func zipf(r *rand.Rand, n int) int {
	x := r.ExpFloat64() * float64(n) / 8
	return int(x) % n
}

func (b *binary) profile(seed uint64, n int) *profile.Profile {
	r := rand.New(rand.NewPCG(seed, 99))
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10_000_000,
		TimeNanos:     1_700_000_000_000_000_000 + int64(seed)*1e9,
		DurationNanos: 30e9,
		Mapping:       []*profile.Mapping{b.mapping},
		Function:      b.funcs,
	}
	used := map[*profile.Location]bool{}
	// Stacks come from a pool of "paths" shared by all instances, plus
	// per-instance noise.
	pool := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < n; i++ {
		var rr *rand.Rand
		if r.IntN(3) > 0 {
			pool = rand.New(rand.NewPCG(7, uint64(r.IntN(20000))))
			rr = pool
		} else {
			rr = r
		}
		depth := 8 + rr.IntN(30)
		s := &profile.Sample{Value: []int64{int64(1 + r.IntN(5))}}
		s.Value = append(s.Value, s.Value[0]*10_000_000)
		for d := 0; d < depth; d++ {
			l := b.locs[zipf(rr, len(b.locs))]
			s.Location = append(s.Location, l)
			used[l] = true
		}
		p.Sample = append(p.Sample, s)
	}
	for _, l := range b.locs {
		if used[l] {
			p.Location = append(p.Location, l)
		}
	}
	return p
}
