package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const oldText = `goos: linux
goarch: amd64
pkg: example.com/p
cpu: Test CPU
BenchmarkParse-8    	 1000	       100 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	       101 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        99 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	       102 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	       100 ns/op	      64 B/op	       2 allocs/op
BenchmarkFormat-8   	 1000	        50 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat-8   	 1000	        51 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat-8   	 1000	        49 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat-8   	 1000	        50 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat-8   	 1000	        50 ns/op	      32 B/op	       1 allocs/op
PASS
ok  	example.com/p	1.234s
`

const newText = `goos: linux
goarch: amd64
pkg: example.com/p
cpu: Test CPU
BenchmarkParse-8    	 1000	        80 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        81 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        79 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        80 ns/op	      64 B/op	       2 allocs/op
BenchmarkParse-8    	 1000	        82 ns/op	      64 B/op	       2 allocs/op
BenchmarkFormat-8   	 1000	        60 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat-8   	 1000	        61 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat-8   	 1000	        59 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat-8   	 1000	        60 ns/op	      32 B/op	       1 allocs/op
BenchmarkFormat-8   	 1000	        62 ns/op	      32 B/op	       1 allocs/op
PASS
`

func compareText(t *testing.T, old, new string, threshold float64) *Comparison {
	t.Helper()
	c, err := Parse(strings.NewReader(old), "old.txt", strings.NewReader(new), "new.txt", CompareOptions{Threshold: threshold})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCompareText(t *testing.T) {
	c := compareText(t, oldText, newText, 5)
	parse := c.Find("BenchmarkParse-8", "sec/op")
	if parse == nil {
		t.Fatal("no Parse sec/op row")
	}
	// Two fully separated samples of 5: p = 2/C(10,5) = 2/252.
	if math.Abs(parse.P-2.0/252) > 1e-9 || !parse.Significant || parse.Verdict != Faster || math.Abs(parse.DeltaPct+20) > 1e-9 {
		t.Errorf("Parse sec/op: p=%v significant=%v verdict=%q delta=%v", parse.P, parse.Significant, parse.Verdict, parse.DeltaPct)
	}
	if math.Abs(parse.Base.Center-100e-9) > 1e-15 || parse.Pkg != "example.com/p" {
		t.Errorf("Parse sec/op base centre %v pkg %q, want 100ns in example.com/p", parse.Base.Center, parse.Pkg)
	}
	format := c.Find("Format", "sec/op")
	if !format.Regression || format.Verdict != Slower {
		t.Errorf("Format sec/op +20%% at threshold 5%%: regression=%v verdict=%q", format.Regression, format.Verdict)
	}
	if a := c.Find("Format", "allocs/op"); a.Verdict != NoChange || a.Regression {
		t.Errorf("Format allocs/op: %+v", a)
	}
	if !c.Regressed() {
		t.Error("Regressed() = false")
	}

	// Above the threshold, the slowdown is reported but not a regression.
	c = compareText(t, oldText, newText, 25)
	if f := c.Find("Format", "sec/op"); f.Regression || f.Verdict != Slower {
		t.Errorf("threshold 25%%: Format regression=%v verdict=%q, want slower without regression", f.Regression, f.Verdict)
	}
	if c.Regressed() {
		t.Error("threshold 25%: Regressed() = true")
	}

	var buf bytes.Buffer
	if err := Write(&buf, c, FormatText); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"goos: linux", "cpu: Test CPU", "pkg: example.com/p",
		"old.txt", "new.txt", "sec/op", "vs base",
		"Parse-8", "100.00n ± ∞", "80.00n ± ∞", "need >= 6 samples for confidence interval", "-20.00%", "(p=0.008 n=5)", "faster",
		"Format-8", "+20.00%", "slower",
		"geomean",
		"no significant regression beyond 25% (alpha 0.05)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
}

func TestCompareFiles(t *testing.T) {
	dir := t.TempDir()
	oldF, newF := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(oldF, []byte(oldText), 0o666)
	os.WriteFile(newF, []byte(newText), 0o666)
	c, err := CompareFiles(oldF, newF, CompareOptions{Threshold: 5})
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseLabel != oldF || c.HeadLabel != newF || !c.Regressed() {
		t.Errorf("labels %q %q regressed %v", c.BaseLabel, c.HeadLabel, c.Regressed())
	}

	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, []byte("PASS\nok x 1s\n"), 0o666)
	if _, err := CompareFiles(empty, newF, CompareOptions{}); err == nil || !strings.Contains(err.Error(), empty+": no benchmark results") {
		t.Errorf("empty file: err = %v", err)
	}
	if _, err := CompareFiles(filepath.Join(dir, "missing.txt"), newF, CompareOptions{}); err == nil || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("missing file: err = %v", err)
	}
}

func TestMalformedLines(t *testing.T) {
	bad := oldText + "BenchmarkBroken-8 \t 1000 \t abc ns/op\nBenchmarkNaN-8 1 NaN ns/op\n"
	c := compareText(t, bad, newText, 5)
	if len(c.Warnings) != 2 {
		t.Fatalf("warnings = %q, want 2", c.Warnings)
	}
	if !strings.Contains(c.Warnings[0], "old.txt:17:") || !strings.Contains(c.Warnings[1], "old.txt:18: ignoring non-finite value") {
		t.Errorf("warnings = %q, want them to name old.txt and the lines", c.Warnings)
	}
	if c.Find("Broken-8", "sec/op") != nil || c.Find("NaN-8", "sec/op") != nil {
		t.Error("malformed lines produced rows")
	}
	var buf bytes.Buffer
	Write(&buf, c, FormatText)
	if !strings.Contains(buf.String(), "warning: old.txt:17:") {
		t.Errorf("text output lacks the warning:\n%s", buf.String())
	}
}

func TestOneSidedAndCustomUnits(t *testing.T) {
	old := "pkg: p\nBenchmarkGone 10 5 ns/op\nBenchmarkRate 10 100 MB/s 3 widgets/op 7 ns/item\n"
	var oldAll, newAll strings.Builder
	for i := 0; i < 6; i++ {
		oldAll.WriteString(old)
		newAll.WriteString("pkg: p\nBenchmarkNew 10 5 ns/op\nBenchmarkRate 10 50 MB/s 6 widgets/op 9 ns/item\n")
	}
	c := compareText(t, oldAll.String(), newAll.String(), 0)
	if r := c.Find("Gone", "sec/op"); r == nil || r.Verdict != OnlyBase || r.Head != nil {
		t.Errorf("Gone row = %+v", r)
	}
	if r := c.Find("New", "sec/op"); r == nil || r.Verdict != OnlyHead || r.Base != nil {
		t.Errorf("New row = %+v", r)
	}
	// MB/s is tidied to B/s, where higher is better.
	if r := c.Find("Rate", "B/s"); r == nil || r.Verdict != Worse || !r.Regression {
		t.Errorf("Rate B/s row = %+v, want a regression", r)
	}
	// A custom unit of unknown direction is "changed", never a regression.
	if r := c.Find("Rate", "widgets/op"); r == nil || r.Verdict != Changed || r.Regression {
		t.Errorf("widgets/op row = %+v, want changed", r)
	}
	// A time per item is better lower.
	if r := c.Find("Rate", "sec/item"); r == nil || r.Verdict != Slower || !r.Regression {
		t.Errorf("sec/item row = %+v, want slower", r)
	}
	var buf bytes.Buffer
	if err := Write(&buf, c, FormatJSON); err != nil || !json.Valid(buf.Bytes()) {
		t.Errorf("JSON with one-sided rows: err=%v valid=%v", err, json.Valid(buf.Bytes()))
	}
}

func TestMinP(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want float64
	}{{1, 1}, {2, 1.0 / 3}, {3, 0.1}, {4, 2.0 / 70}, {5, 2.0 / 252}, {10, 2.0 / 184756}} {
		if got := minP(tc.n, tc.n); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("minP(%d, %d) = %v, want %v", tc.n, tc.n, got, tc.want)
		}
	}
	if got := samplesFor(0.05); got != 4 {
		t.Errorf("samplesFor(0.05) = %d, want 4", got)
	}
	if got := samplesFor(0.01); got != 5 {
		t.Errorf("samplesFor(0.01) = %d, want 5", got)
	}
}

// FuzzParse feeds arbitrary, mostly malformed, benchmark output through the
// parser, the statistics and every output format. Comparing an input with
// itself must never report a change, let alone a regression.
func FuzzParse(f *testing.F) {
	f.Add([]byte(oldText))
	f.Add([]byte("BenchmarkX 1 2 ns/op\nBenchmarkX 1 3 ns/op\n"))
	f.Add([]byte("BenchmarkX-8 abc 1 ns/op\nBenchmark\nBenchmarkY 1\nBenchmarkZ 1 1\n"))
	f.Add([]byte("pkg: a\nBenchmarkX 1 1e308 ns/op 0 B/op\nBenchmarkX 1 -5 ns/op\nUnit ns/op assume=exact\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(bytes.NewReader(data), "a", bytes.NewReader(data), "b", CompareOptions{})
		if err != nil {
			t.Fatal(err) // only I/O errors are errors
		}
		for _, r := range c.Rows {
			if r.Base == nil || r.Head == nil {
				t.Fatalf("row %s %s on one side only when comparing input with itself", r.Name, r.Unit)
			}
			if r.Regression || r.Significant {
				t.Fatalf("row %s %s: regression=%v significant=%v comparing input with itself", r.Name, r.Unit, r.Regression, r.Significant)
			}
		}
		for _, format := range []string{FormatText, FormatJSON, FormatCSV} {
			var buf bytes.Buffer
			if err := Write(&buf, c, format); err != nil {
				t.Fatalf("Write %s: %v", format, err)
			}
			if format == FormatJSON && !json.Valid(buf.Bytes()) {
				t.Fatalf("invalid JSON:\n%s", buf.String())
			}
		}
	})
}

// benchLines returns go test -bench output of one benchmark, one line per
// sample, with the given B/op and allocs/op.
func benchLines(bytesPerOp []float64, allocs float64) string {
	var b strings.Builder
	b.WriteString("pkg: example.com/p\n")
	for i, v := range bytesPerOp {
		fmt.Fprintf(&b, "BenchmarkRun-8\t1000\t%d ns/op\t%g B/op\t%g allocs/op\n", 100+i%3, v, allocs)
	}
	return b.String()
}

// TestBytesNoise checks that B/op is judged like sec/op, with a 1%
// threshold: a tiny but significant growth, which B/op shows from run to
// run, is no regression, a larger one is; allocs/op stays exact.
func TestBytesNoise(t *testing.T) {
	base := []float64{10240, 10242, 10239, 10241, 10240, 10243}
	for _, tc := range []struct {
		name       string
		head       []float64
		baseAllocs float64
		headAllocs float64
		threshold  float64
		regressed  bool
	}{
		// +0.19%: significant (every head sample is above every base
		// sample) but noise.
		{"noise", []float64{10259, 10261, 10258, 10260, 10262, 10259}, 3, 3, 5, false},
		// +2%: above the 1% threshold, though below -threshold 5.
		{"growth", []float64{10445, 10447, 10444, 10446, 10445, 10448}, 3, 3, 5, true},
		// +0.19%, with a -threshold below 1%: the smaller one holds.
		{"strict", []float64{10259, 10261, 10258, 10260, 10262, 10259}, 3, 3, 0.1, true},
		// One more allocation, whatever the threshold: allocs/op is exact.
		{"allocs", base, 3, 4, 1000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := compareText(t, benchLines(base, tc.baseAllocs), benchLines(tc.head, tc.headAllocs), tc.threshold)
			row := c.Find("Run", "B/op")
			if row == nil {
				t.Fatal("no B/op row")
			}
			if tc.name != "allocs" && (!row.Significant || row.Verdict != Worse) {
				t.Errorf("B/op row = %+v, want a significant growth", row)
			}
			res := &VerifyResult{TestsPassed: true, Comparison: c}
			if got := res.Regressed(); got != tc.regressed {
				t.Errorf("Regressed() = %v, want %v; regressions %+v", got, tc.regressed, c.Regressions())
			}
			if tc.name == "allocs" {
				if r := c.Find("Run", "allocs/op"); r == nil || !r.Regression {
					t.Errorf("allocs/op row = %+v, want a regression", r)
				}
				if row.Regression {
					t.Errorf("B/op row = %+v, unchanged, want no regression", row)
				}
			}
		})
	}
}
