package pgo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

func edit(t *testing.T, file string, edits ...string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			t.Fatalf("%s does not contain %q", file, edits[i])
		}
		s = strings.ReplaceAll(s, edits[i], edits[i+1])
	}
	if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckStaleness(t *testing.T) {
	fx := fixture(t)
	mod := copyFixture(t)
	ctx := context.Background()

	rep, err := Check(ctx, fx.cpu, []string{"./..."}, CheckOptions{Dir: mod, Preprofile: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Preprofile != "ok" {
		t.Errorf("preprofile verdict %q", rep.Preprofile)
	}
	if rep.Checked == 0 || rep.Share() != 1 || len(rep.Stale) != 0 {
		t.Fatalf("fresh profile: %.3f of %d checked matches, stale %+v\n%s", rep.Share(), rep.Checked, rep.Stale, rep.Format())
	}
	if rep.HotEdgesTotal == 0 || len(rep.HotEdges) == 0 {
		t.Errorf("no hot edges")
	}
	if len(rep.Packages) != 1 || rep.Packages[0].Path != "example.com/fix/work" {
		t.Errorf("packages %+v, want example.com/fix/work", rep.Packages)
	}

	// Rename Sum, shrink Apply's closure to one line, and move Apply's
	// calls down two lines.
	work := filepath.Join(mod, "work", "work.go")
	edit(t, work,
		"func Sum(", "func Total(",
		"f := func(x int) int {\n\t\treturn mix(x) + 1\n\t}", "f := func(x int) int { return mix(x) + 1 }",
		"func Apply(xs []int) int {\n", "func Apply(xs []int) int {\n\t// Four\n\t// new\n\t// lines\n\t// here.\n")
	edit(t, filepath.Join(mod, "work", "work_test.go"), "Sum(xs)", "Total(xs)")
	edit(t, filepath.Join(mod, "cmd", "app", "main.go"), "work.Sum(", "work.Total(")

	rep, err = Check(ctx, fx.cpu, []string{"./..."}, CheckOptions{Dir: mod})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Share() >= 0.9 {
		t.Errorf("edited source: %.3f matching, want less", rep.Share())
	}
	reasons := map[string]string{}
	for _, s := range rep.Stale {
		reasons[s.Name] = s.Reason
	}
	for name, want := range map[string]string{
		"example.com/fix/work.Sum":          "not found",
		"example.com/fix/work.Apply.func1":  "outside its body",
		"example.com/fix/work.Apply":        "no call at line offset",
		"example.com/fix/work.BenchmarkSum": "callee example.com/fix/work.Sum not found",
	} {
		if !strings.Contains(reasons[name], want) {
			t.Errorf("stale %s: reason %q, want %q\n%s", name, reasons[name], want, rep.Format())
		}
	}
	for name := range reasons {
		if strings.Contains(name, "mix") || strings.Contains(name, "Same") || strings.Contains(name, "Alloc") {
			t.Errorf("unchanged function %s reported stale: %s", name, reasons[name])
		}
	}
}

func TestCheckRejectsBadProfile(t *testing.T) {
	fx := fixture(t)
	_, err := Check(context.Background(), fx.heap, []string{"./..."}, CheckOptions{Dir: fx.dir})
	checkOneLine(t, err, fx.heap, "not a CPU profile")
}

// TestCheckMainPackage profiles a real program, whose functions are named
// main.*, and checks the profile against its package.
func TestCheckMainPackage(t *testing.T) {
	dir := t.TempDir()
	err := writeTree(dir, map[string]string{
		"go.mod": "module example.com/prog\n\ngo 1.22\n",
		"main.go": `package main

import (
	"os"
	"runtime/pprof"
)

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(f)
	t := 0
	// A fixed amount of work (about 0.4 s of CPU), not a wall time: a
	// timed loop gets fewer samples on a loaded machine.
	for i := 0; i < 200000; i++ {
		t += spin(t)
	}
	pprof.StopCPUProfile()
	f.Close()
	os.Exit(t & 0)
}

func spin(x int) int {
	for i := 0; i < 1000; i++ {
		x = churn(x, i)
	}
	return x
}

//go:noinline
func churn(x, i int) int {
	return x*31 + i ^ x>>3
}
`,
	})
	if err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "cpu.pprof")
	cmd := exec.Command("go", "run", ".", prof)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	ctx := context.Background()
	rep, err := Check(ctx, prof, []string{"."}, CheckOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Checked == 0 || rep.Share() != 1 || strings.Contains(strings.Join(rep.Warnings, "\n"), "import path") {
		t.Fatalf("fresh profile of a program:\n%s", rep.Format())
	}
	// Without a profile named, Check takes the main package's
	// default.pgo, as go build -pgo=auto does, and says when there is
	// none.
	if _, err := Check(ctx, "", []string{"."}, CheckOptions{Dir: dir}); err == nil || !strings.Contains(err.Error(), "has a default.pgo") {
		t.Errorf("Check without a profile or a default.pgo: %v, want an error saying so", err)
	}
	if err := os.Rename(prof, filepath.Join(dir, "default.pgo")); err != nil {
		t.Fatal(err)
	}
	prof = filepath.Join(dir, "default.pgo")
	if rep, err := Check(ctx, "", []string{"."}, CheckOptions{Dir: dir}); err != nil || rep.Profile != prof || rep.Share() != 1 {
		t.Fatalf("Check of the default.pgo: %v\n%v", err, rep)
	}
	edit(t, filepath.Join(dir, "main.go"), "spin(", "spin2(")
	rep, err = Check(ctx, prof, []string{"."}, CheckOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// The renamed function is stale as a caller (of churn) in the samples
	// that end in churn, and as a callee (of main) in those that end in
	// it: which of the two carries the weight depends on where the
	// samples fell.
	found := false
	for _, s := range rep.Stale {
		found = found || s.Name == "main.spin" && strings.Contains(s.Reason, "not found") ||
			s.Name == "main.main" && strings.Contains(s.Reason, "main.spin not found")
	}
	if !found {
		t.Errorf("renamed main.spin not reported stale:\n%s", rep.Format())
	}
}

// TestCheckAssemblyCallee profiles a package whose hot callee is written
// in assembly: the function has a Go declaration without a body and its
// code in a .s file. A fresh profile must match the source in full.
func TestCheckAssemblyCallee(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the fixture's assembly is for amd64")
	}
	dir := t.TempDir()
	err := writeTree(dir, map[string]string{
		"go.mod": "module example.com/asm\n\ngo 1.22\n",
		"vec/vec.go": `// Package vec sums vectors.
package vec

// Total sums each vector.
func Total(vs [][]uint64) uint64 {
	var t uint64
	for _, v := range vs {
		t += sum(v)
	}
	return t
}
`,
		"vec/sum_amd64.go": "package vec\n\n// sum returns the sum of xs.\n//\n//go:noescape\nfunc sum(xs []uint64) uint64\n",
		"vec/sum_amd64.s": `#include "textflag.h"

// func sum(xs []uint64) uint64
TEXT ·sum(SB), NOSPLIT, $0-32
	MOVQ xs_base+0(FP), SI
	MOVQ xs_len+8(FP), CX
	XORQ AX, AX
loop:
	TESTQ CX, CX
	JZ done
	ADDQ (SI), AX
	ADDQ $8, SI
	DECQ CX
	JMP loop
done:
	MOVQ AX, ret+24(FP)
	RET
`,
		"vec/vec_test.go": `package vec

import "testing"

var sink uint64

func BenchmarkTotal(b *testing.B) {
	vs := make([][]uint64, 16)
	for i := range vs {
		vs[i] = make([]uint64, 4096)
	}
	for b.Loop() {
		sink += Total(vs)
	}
}
`,
	})
	if err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "cpu.pprof")
	cmd := exec.Command("go", "test", "-run=^$", "-bench=.", "-benchtime=5000x", "-cpuprofile="+prof, "-o", filepath.Join(dir, "vec.test"), "./vec")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -cpuprofile: %v\n%s", err, out)
	}
	rep, err := Check(context.Background(), prof, []string{"./..."}, CheckOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Read(context.Background(), prof, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	edge := false
	for _, e := range CallEdges(p.Profile).Edges {
		edge = edge || e.Callee == "example.com/asm/vec.sum"
	}
	if !edge {
		t.Fatalf("the profile has no call edge to the assembly function sum; the fixture no longer exercises it:\n%s", rep.Format())
	}
	if rep.Checked == 0 || rep.Share() != 1 || len(rep.Stale) != 0 {
		t.Errorf("fresh profile with an assembly callee: %.3f of %d checked matches, stale %+v\n%s", rep.Share(), rep.Checked, rep.Stale, rep.Format())
	}
}

// TestCheckEscapedPackagePath checks a module whose path ends in ".go",
// as nats.go's does: profiles name its functions "example.com/m%2ego.F",
// and its call edges are checked against the source like any other.
func TestCheckEscapedPackagePath(t *testing.T) {
	mod := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module example.com/m.go\n\ngo 1.22\n",
		"m.go": `package m

func Decode(b []byte) int {
	return helper(b) + 1
}

func helper(b []byte) int { return len(b) }
`,
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	decode := &profile.Function{ID: 1, Name: "example.com/m%2ego.Decode", Filename: filepath.Join(mod, "m.go"), StartLine: 3}
	helper := &profile.Function{ID: 2, Name: "example.com/m%2ego.helper", Filename: filepath.Join(mod, "m.go"), StartLine: 7}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		Function:   []*profile.Function{decode, helper},
		Location: []*profile.Location{
			{ID: 1, Line: []profile.Line{{Function: helper, Line: 7}}},
			{ID: 2, Line: []profile.Line{{Function: decode, Line: 4}}},
		},
	}
	p.Sample = []*profile.Sample{{Location: p.Location, Value: []int64{10, 100_000_000}}}
	rep, err := Check(context.Background(), writePprof(t, p), []string{"./..."}, CheckOptions{Dir: mod})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Packages) != 1 || rep.Packages[0].Path != "example.com/m.go" || rep.Checked == 0 || rep.Share() != 1 || len(rep.Stale) != 0 {
		t.Errorf("packages %+v, %.2f of %d matching, stale %+v; want example.com/m.go, all matching\n%s", rep.Packages, rep.Share(), rep.Checked, rep.Stale, rep.Format())
	}
}
