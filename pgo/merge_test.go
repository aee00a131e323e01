package pgo

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/internal/funcname"
)

func readProfile(t testing.TB, name string) *profile.Profile {
	t.Helper()
	p, err := Read(context.Background(), name, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Profile
}

func writeProfile(t testing.TB, p interface{ Write(io.Writer) error }, name string) string {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return name
}

// preprofileEdges runs go tool preprofile and parses its output: the
// compiler's own edge weights.
func preprofileEdges(t testing.TB, file string) []Edge {
	t.Helper()
	out := filepath.Join(t.TempDir(), "pre.out")
	if b, err := exec.Command("go", "tool", "preprofile", "-i", file, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("go tool preprofile %s: %v\n%s", file, err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	sc.Scan()
	if sc.Text() != "GO PREPROFILE V1" {
		t.Fatalf("preprofile output starts with %q", sc.Text())
	}
	var edges []Edge
	for sc.Scan() {
		caller := sc.Text()
		sc.Scan()
		callee := sc.Text()
		sc.Scan()
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			t.Fatalf("bad preprofile line %q", sc.Text())
		}
		off, _ := strconv.Atoi(f[0])
		w, _ := strconv.ParseInt(f[1], 10, 64)
		edges = append(edges, Edge{Caller: caller, Offset: off, Callee: callee, Weight: w})
	}
	return edges
}

func sameEdges(t *testing.T, what string, got, want []Edge) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d edges, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: edge %d is %+v, want %+v", what, i, got[i], want[i])
		}
	}
}

func TestCallEdgesMatchPreprofile(t *testing.T) {
	fx := fixture(t)
	edges := CallEdges(readProfile(t, fx.cpu))
	if len(edges.Edges) < 5 || !edges.StartLine {
		t.Fatalf("fixture profile has %d edges (start lines %v)", len(edges.Edges), edges.StartLine)
	}
	sameEdges(t, "CallEdges vs go tool preprofile", edges.Edges, preprofileEdges(t, fx.cpu))
}

func TestMergeKeepsEdgesAndStartLines(t *testing.T) {
	fx := fixture(t)
	in := readProfile(t, fx.cpu)
	// Merging a profile with itself doubles every edge weight.
	p, stats, err := Merge(context.Background(), []string{fx.cpu, fx.cpu}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Inputs != 2 {
		t.Errorf("Inputs = %d, want 2", stats.Inputs)
	}
	out := writeProfile(t, p, filepath.Join(t.TempDir(), "merged.pprof"))
	want := CallEdges(in).Edges
	for i := range want {
		want[i].Weight *= 2
	}
	sameEdges(t, "merged edges (ours)", CallEdges(readProfile(t, out)).Edges, want)
	sameEdges(t, "merged edges (go tool preprofile)", preprofileEdges(t, out), want)

	starts := map[string]int64{}
	for _, f := range in.Function {
		starts[f.Name] = f.StartLine
	}
	for _, f := range readProfile(t, out).Function {
		if s, ok := starts[f.Name]; !ok || s != f.StartLine {
			t.Errorf("function %s: start line %d, input has %d", f.Name, f.StartLine, s)
		}
	}
	if stats.Total != 2*Inspect(in).Samples {
		t.Errorf("merged samples %d, want %d", stats.Total, 2*Inspect(in).Samples)
	}
}

func TestMergeBuildsWithPGO(t *testing.T) {
	fx := fixture(t)
	mod := copyFixture(t)
	p, _, err := Merge(context.Background(), []string{fx.cpu, filepath.Dir(fx.cpu) + "/cpu.pprof"}, MergeOptions{Trim: 99.9})
	if err != nil {
		t.Fatal(err)
	}
	path, err := WriteFile(p, filepath.Join(mod, "cmd", "app"), false)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "default.pgo" {
		t.Fatalf("WriteFile wrote %s, want default.pgo in the package directory", path)
	}
	cmd := exec.Command("go", "build", "-pgo="+path, "-gcflags=example.com/fix/...=-d=pgodebug=1", "-o", filepath.Join(t.TempDir(), "app"), "./cmd/app")
	cmd.Dir = mod
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -pgo: %v\n%s", err, out)
	}
	// The compiler prints the weight of its coldest hot edge; ours must
	// agree.
	m := regexp.MustCompile(`hot-callsite-thres-from-CDF=(\S+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("compiler printed no hot-callsite-thres-from-CDF:\n%s", out)
	}
	_, thr := CallEdges(readProfile(t, path)).Hot(DefaultHotCDF)
	if got := strconv.FormatFloat(thr, 'g', -1, 64); got != string(m[1]) {
		t.Errorf("hot call-site threshold %s, compiler says %s", got, m[1])
	}
	// The compiler raises the inlining budget of every hot callee it
	// compiles; the set must be the callees of our hot edges.
	printed := map[string]bool{}
	for _, m := range regexp.MustCompile(`increased budget=\d+ for func=(\S+)`).FindAllSubmatch(out, -1) {
		printed[string(m[1])] = true
	}
	hot, _ := CallEdges(readProfile(t, path)).Hot(DefaultHotCDF)
	ours := map[string]bool{}
	for _, e := range hot {
		// Benchmarks are not part of the build.
		if funcname.Package(e.Callee) == "example.com/fix/work" && !strings.Contains(e.Callee, ".Benchmark") {
			ours[e.Callee] = true
		}
	}
	if !printed["example.com/fix/work.mix"] || len(printed) != len(ours) {
		t.Errorf("compiler's hot callees %v, ours %v", printed, ours)
	}
	for f := range printed {
		if !ours[f] {
			t.Errorf("compiler's hot callee %s is not a callee of our hot edges %v", f, ours)
		}
	}
}

// TestMergeStreams merges a directory of many profiles and checks that only
// a few were held in memory at once and that the result is exact.
func TestMergeStreams(t *testing.T) {
	fx := fixture(t)
	data, err := os.ReadFile(fx.cpu)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const n = 24
	for i := 0; i < n; i++ {
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+".pprof"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, stats, err := Merge(context.Background(), []string{dir}, MergeOptions{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Inputs != n || stats.PeakParsed < 1 || stats.PeakParsed > 2 {
		t.Errorf("merged %d inputs holding up to %d parsed at once; want %d and at most 2", stats.Inputs, stats.PeakParsed, n)
	}
	want := CallEdges(readProfile(t, fx.cpu)).Edges
	for i := range want {
		want[i].Weight *= n
	}
	sameEdges(t, "edges of 24 merged copies", m.CallEdges().Edges, want)
}
