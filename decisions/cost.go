package decisions

import (
	"bufio"
	"context"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goadvise/goadvise/internal/gocmd"
	"github.com/goadvise/goadvise/internal/toolexec"
)

// toolRun is one recorded tool invocation.
type toolRun struct {
	tool, pkg string
	maxrss    int64 // bytes
	cpu       time.Duration
}

func readToolLog(name string) ([]toolRun, error) {
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var runs []toolRun
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 4 {
			return nil, fmt.Errorf("%s: malformed line %q", name, sc.Text())
		}
		rss, err1 := strconv.ParseInt(fs[2], 10, 64)
		cpu, err2 := strconv.ParseInt(fs[3], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: malformed line %q", name, sc.Text())
		}
		runs = append(runs, toolRun{fs[0], fs[1], rss, time.Duration(cpu)})
	}
	return runs, sc.Err()
}

// CostOptions configures the build cost measurement.
type CostOptions struct {
	// Skip leaves the measurement out.
	Skip bool

	// Runs is the number of measured builds of each kind and variant;
	// 0 means 3.
	Runs int

	// Clean also measures clean builds, with an empty build cache
	// (the standard library is compiled too); CleanRuns is their number,
	// 0 meaning 1.
	Clean     bool
	CleanRuns int

	// Wrapper is the -toolexec program that records each compile's peak
	// memory: a program that calls [toolexec.Serve] first thing. ""
	// means the running program, if it serves as one.
	Wrapper string
}

// CostTable compares the cost of building with -pgo=off and with the
// profile.
type CostTable struct {
	Runs      int       `json:"runs"`
	CleanRuns int       `json:"clean_runs,omitempty"`
	Rows      []CostRow `json:"rows"`
}

// CostRow is one metric of the cost table.
type CostRow struct {
	Metric   string  `json:"metric"`
	Unit     string  `json:"unit"` // "s", "MB" or "bytes"
	Off      Sample  `json:"off"`
	On       Sample  `json:"on"`
	DeltaPct float64 `json:"delta_pct"` // change of the median in percent
}

// Sample summarizes repeated measurements.
type Sample struct {
	Median float64   `json:"median"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Values []float64 `json:"values"`
}

func newSample(v []float64) Sample {
	s := Sample{Values: slices.Clone(v)}
	slices.Sort(s.Values)
	if n := len(s.Values); n > 0 {
		s.Min, s.Max = s.Values[0], s.Values[n-1]
		if n%2 == 1 {
			s.Median = s.Values[n/2]
		} else {
			s.Median = (s.Values[n/2-1] + s.Values[n/2]) / 2
		}
	}
	return s
}

// Row returns the row of the named metric, or nil.
func (c *CostTable) Row(metric string) *CostRow {
	if c == nil {
		return nil
	}
	for i := range c.Rows {
		if c.Rows[i].Metric == metric {
			return &c.Rows[i]
		}
	}
	return nil
}

// The metrics of the cost table.
const (
	MetricModuleWall = "module build wall"
	MetricModuleCPU  = "module build CPU"
	MetricRebuild    = "rebuild wall"
	MetricRebuildCPU = "rebuild CPU"
	MetricCompileRSS = "peak RSS, largest compile"
	MetricLinkRSS    = "peak RSS, link"
	MetricCleanWall  = "clean build wall"
	MetricCleanCPU   = "clean build CPU"
	MetricCleanRSS   = "clean peak RSS, largest compile"
	MetricBinary     = "binary size"
	MetricText       = "text size"
)

// measurement is one measured build.
type measurement struct {
	wall, cpu           time.Duration
	compileRSS, linkRSS int64
	compiles            int
}

// measureCost measures the cost of building the targets with -pgo=off and
// with the profile prof: builds in which every package of the main module
// is recompiled (the standard library comes from the cache), rebuilds
// after a change to one file of each target package, optionally clean
// builds, the peak memory of the largest compile and of the link, and the
// size of the binaries. Files are changed through -overlay only: the
// source tree is never written. Runs of the two variants alternate.
func measureCost(ctx context.Context, dir string, env []string, t *targets, prof string, opts CostOptions, progress io.Writer) (*CostTable, error) {
	if opts.Runs <= 0 {
		opts.Runs = 3
	}
	if opts.CleanRuns <= 0 {
		opts.CleanRuns = 1
	}
	wrapper := opts.Wrapper
	if wrapper == "" {
		wrapper = toolexec.Program()
	}
	if wrapper == "" {
		return nil, errors.New("measuring build costs needs a -toolexec wrapper: the running program does not serve as one (toolexec.Serve)")
	}
	tmp, err := os.MkdirTemp("", "goadvise-cost-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := probeWrapper(ctx, wrapper, tmp); err != nil {
		return nil, err
	}

	variants := []string{"off", prof}
	names := []string{"off", "on"}
	build := func(v int, overlay map[string]string, cache string, label string) (*measurement, error) {
		logName := filepath.Join(tmp, fmt.Sprintf("tools-%d.log", time.Now().UnixNano()))
		benv := append(slices.Clone(env), toolexec.LogEnv(logName))
		if cache != "" {
			benv = append(benv, "GOCACHE="+cache)
		}
		b := &buildSpec{dir: dir, env: benv, pgo: variants[v], out: filepath.Join(tmp, "bin-"+names[v]),
			extra: []string{"-toolexec=" + gocmd.Quote(wrapper)}}
		if len(overlay) > 0 {
			name, err := writeOverlay(tmp, overlay)
			if err != nil {
				return nil, err
			}
			b.extra = append(b.extra, "-overlay="+name)
		}
		if progress != nil {
			fmt.Fprintf(progress, "  %s, pgo %s\n", label, names[v])
		}
		start := time.Now()
		if _, err := b.run(ctx, t); err != nil {
			return nil, err
		}
		m := &measurement{wall: time.Since(start), cpu: b.cpu}
		runs, err := readToolLog(logName)
		if err != nil {
			return nil, err
		}
		os.Remove(logName)
		for _, r := range runs {
			switch r.tool {
			case "compile":
				m.compiles++
				m.compileRSS = max(m.compileRSS, r.maxrss)
			case "link":
				m.linkRSS = max(m.linkRSS, r.maxrss)
			}
		}
		return m, nil
	}
	// Warm the cache (the standard library built with the profile is
	// cached too) and produce the binaries whose size is measured.
	var size, text [2]float64
	for v := range variants {
		if _, err := build(v, nil, "", "warming the build cache"); err != nil {
			return nil, err
		}
		s, x, err := binarySizes(filepath.Join(tmp, "bin-"+names[v]))
		if err != nil {
			return nil, err
		}
		size[v], text[v] = float64(s), float64(x)
	}

	nonce := time.Now().UnixNano()
	touch := func(pkgs []string, v, run int) (map[string]string, error) {
		ov := make(map[string]string)
		for _, p := range pkgs {
			files := t.files[p]
			var src string
			for _, f := range files {
				if !strings.HasSuffix(f, "_test.go") {
					src = f
					break
				}
			}
			if src == "" {
				continue
			}
			data, err := os.ReadFile(src)
			if err != nil {
				return nil, err
			}
			// A new unexported function changes the package's object
			// file but not its export data, like an edit of a function
			// body: the package is compiled and the binary linked again,
			// but its importers are not recompiled. A comment would not
			// do: the go command would reuse the identical link.
			ov[src] = string(data) + fmt.Sprintf("\nfunc goadviseBuildCost%d_%d_%d() int { return %d }\n", nonce, v, run, run)
		}
		return ov, nil
	}
	targetsPkgs := append(slices.Clone(t.mains), t.tests...)
	module := make([][]*measurement, 2)
	rebuild := make([][]*measurement, 2)
	clean := make([][]*measurement, 2)
	for run := 0; run < opts.Runs; run++ {
		order := []int{0, 1}
		if run%2 == 1 {
			order = []int{1, 0}
		}
		for _, v := range order {
			ov, err := touch(t.modulePkgs, v, run)
			if err != nil {
				return nil, err
			}
			m, err := build(v, ov, "", fmt.Sprintf("module build %d/%d", run+1, opts.Runs))
			if err != nil {
				return nil, err
			}
			if m.compiles == 0 {
				return nil, fmt.Errorf("the -toolexec wrapper %s recorded no compile: it must call toolexec.Serve first thing", wrapper)
			}
			module[v] = append(module[v], m)
			ov, err = touch(targetsPkgs, v, run+opts.Runs)
			if err != nil {
				return nil, err
			}
			m, err = build(v, ov, "", fmt.Sprintf("rebuild %d/%d", run+1, opts.Runs))
			if err != nil {
				return nil, err
			}
			rebuild[v] = append(rebuild[v], m)
		}
	}
	if opts.Clean {
		for run := 0; run < opts.CleanRuns; run++ {
			order := []int{0, 1}
			if run%2 == 1 {
				order = []int{1, 0}
			}
			for _, v := range order {
				cache := filepath.Join(tmp, fmt.Sprintf("cache-%s-%d", names[v], run))
				m, err := build(v, nil, cache, fmt.Sprintf("clean build %d/%d", run+1, opts.CleanRuns))
				if err != nil {
					return nil, err
				}
				clean[v] = append(clean[v], m)
				if err := removeCache(cache); err != nil {
					return nil, err
				}
			}
		}
	}

	ct := &CostTable{Runs: opts.Runs}
	add := func(metric, unit string, ms [][]*measurement, f func(*measurement) float64) {
		var vals [2][]float64
		for v := range 2 {
			for _, m := range ms[v] {
				vals[v] = append(vals[v], f(m))
			}
		}
		ct.addRow(metric, unit, vals[0], vals[1])
	}
	secs := func(d time.Duration) float64 { return d.Seconds() }
	mb := func(b int64) float64 { return float64(b) / (1 << 20) }
	add(MetricModuleWall, "s", module, func(m *measurement) float64 { return secs(m.wall) })
	add(MetricModuleCPU, "s", module, func(m *measurement) float64 { return secs(m.cpu) })
	add(MetricRebuild, "s", rebuild, func(m *measurement) float64 { return secs(m.wall) })
	add(MetricRebuildCPU, "s", rebuild, func(m *measurement) float64 { return secs(m.cpu) })
	add(MetricCompileRSS, "MB", module, func(m *measurement) float64 { return mb(m.compileRSS) })
	add(MetricLinkRSS, "MB", module, func(m *measurement) float64 { return mb(m.linkRSS) })
	if opts.Clean {
		ct.CleanRuns = opts.CleanRuns
		add(MetricCleanWall, "s", clean, func(m *measurement) float64 { return secs(m.wall) })
		add(MetricCleanCPU, "s", clean, func(m *measurement) float64 { return secs(m.cpu) })
		add(MetricCleanRSS, "MB", clean, func(m *measurement) float64 { return mb(m.compileRSS) })
	}
	ct.addRow(MetricBinary, "bytes", size[:1], size[1:])
	if text[0] > 0 && text[1] > 0 {
		ct.addRow(MetricText, "bytes", text[:1], text[1:])
	}
	return ct, nil
}

func (c *CostTable) addRow(metric, unit string, off, on []float64) {
	r := CostRow{Metric: metric, Unit: unit, Off: newSample(off), On: newSample(on), DeltaPct: math.NaN()}
	if r.Off.Median != 0 {
		r.DeltaPct = (r.On.Median - r.Off.Median) / r.Off.Median * 100
	}
	c.Rows = append(c.Rows, r)
}

// MarshalJSON writes an undefined change as null.
func (r CostRow) MarshalJSON() ([]byte, error) {
	type plain CostRow
	var d *float64
	if !math.IsNaN(r.DeltaPct) && !math.IsInf(r.DeltaPct, 0) {
		d = &r.DeltaPct
	}
	return json.Marshal(struct {
		plain
		DeltaPct *float64 `json:"delta_pct"`
	}{plain(r), d})
}

// probeWrapper checks that wrapper acts as the -toolexec wrapper: that
// it runs "go version" and records it.
func probeWrapper(ctx context.Context, wrapper, tmp string) error {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	logName := filepath.Join(tmp, "probe.log")
	cmd := exec.CommandContext(ctx, wrapper, goCmd, "version")
	cmd.Env = append(os.Environ(), toolexec.LogEnv(logName))
	out, err := cmd.CombinedOutput()
	runs, rerr := readToolLog(logName)
	if err != nil || rerr != nil || len(runs) != 1 {
		return fmt.Errorf("%s does not act as the -toolexec wrapper (it must call toolexec.Serve first thing): %s", wrapper, firstLine(string(out)))
	}
	return nil
}

// writeOverlay writes the replaced files and the -overlay file that names
// them, and returns the latter's name.
func writeOverlay(tmp string, files map[string]string) (string, error) {
	dir, err := os.MkdirTemp(tmp, "overlay-")
	if err != nil {
		return "", err
	}
	replace := make(map[string]string)
	i := 0
	for orig, content := range files {
		name := filepath.Join(dir, fmt.Sprintf("%d.go", i))
		i++
		if err := os.WriteFile(name, []byte(content), 0o666); err != nil {
			return "", err
		}
		replace[orig] = name
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	name := filepath.Join(dir, "overlay.json")
	return name, os.WriteFile(name, data, 0o666)
}

// removeCache removes a temporary build cache; the go command leaves some
// of its files read-only.
func removeCache(dir string) error {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o777)
		}
		return nil
	})
	return os.RemoveAll(dir)
}

// binarySizes returns the total file size and text size of the binaries
// in dir.
func binarySizes(dir string) (size, text int64, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, fmt.Errorf("reading built binaries: %w", err)
	}
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		size += fi.Size()
		text += textSize(name)
	}
	return size, text, nil
}

// textSize returns the size of the text section of an executable, or 0
// if its format is not known.
func textSize(name string) int64 {
	if f, err := elf.Open(name); err == nil {
		defer f.Close()
		if s := f.Section(".text"); s != nil {
			return int64(s.Size)
		}
		return 0
	}
	if f, err := macho.Open(name); err == nil {
		defer f.Close()
		if s := f.Section("__text"); s != nil {
			return int64(s.Size)
		}
		return 0
	}
	if f, err := pe.Open(name); err == nil {
		defer f.Close()
		if s := f.Section(".text"); s != nil {
			return int64(s.Size)
		}
	}
	return 0
}
