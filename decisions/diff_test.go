package decisions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/goadvise/goadvise/internal/gittest"
)

const calcBase = `// Package calc is a fixture for goadvise diff.
package calc

// mix is a small hot function.
func mix(a, b uint64) uint64 {
	a ^= b * 0x9e3779b97f4a7c15
	return a<<13 | a>>51
}

// Sum mixes all values.
func Sum(xs []uint64) uint64 {
	var h uint64
	for _, x := range xs {
		h = mix(h, x)
	}
	return h
}

type point struct{ x, y int }

var last *point

func remember(p *point) int {
	return p.x + p.y
}

// Dist computes with a point on the stack.
func Dist(x, y int) int {
	p := point{x, y}
	return remember(&p)
}

// Get reads an element.
func Get(xs []int, i int) int {
	return xs[i]
}

// Pair adds the first two elements.
func Pair(xs []int) int {
	return xs[0] + xs[1]
}
`

// calcHead pushes mix over the inlining budget and makes remember keep
// its argument, which moves p in the untouched Dist to the heap. Get and
// Sum are not touched.
const calcHead = `// Package calc is a fixture for goadvise diff.
package calc

// mix is a small hot function.
func mix(a, b uint64) uint64 {
	a ^= b * 0x9e3779b97f4a7c15
	for i := uint64(0); i < b&7; i++ {
		a ^= a >> 17
		a *= 0xbf58476d1ce4e5b9
		a ^= a >> 31
		a *= 0x94d049bb133111eb
		a ^= a >> 29
		a += i * 0x9e3779b97f4a7c15
		a ^= a >> 33
		a *= 0xff51afd7ed558ccd
		a ^= a >> 33
	}
	a ^= a >> 17
	a *= 0xbf58476d1ce4e5b9
	a ^= a >> 31
	a *= 0x94d049bb133111eb
	a ^= a >> 29
	a *= 0xc4ceb9fe1a85ec53
	a ^= a >> 33
	return a<<13 | a>>51
}

// Sum mixes all values.
func Sum(xs []uint64) uint64 {
	var h uint64
	for _, x := range xs {
		h = mix(h, x)
	}
	return h
}

type point struct{ x, y int }

var last *point

func remember(p *point) int {
	last = p
	return p.x + p.y
}

// Dist computes with a point on the stack.
func Dist(x, y int) int {
	p := point{x, y}
	return remember(&p)
}

// Get reads an element.
func Get(xs []int, i int) int {
	return xs[i]
}

// Pair adds the first two elements.
func Pair(xs []int) int {
	_ = xs[1]
	return xs[0] + xs[1]
}
`

const userSrc = `// Package user calls calc from another package.
package user

import "example.com/dfx/calc"

// Twice sums twice.
func Twice(xs []uint64) uint64 { return calc.Sum(xs) + calc.Sum(xs) }
`

// diffFixture makes a git repository whose HEAD has calcBase and whose
// working tree has calcHead, and returns it.
func diffFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gittest.WriteFiles(t, dir, map[string]string{
		"go.mod":       "module example.com/dfx\n\ngo 1.26\n",
		"calc/calc.go": calcBase,
		"user/user.go": userSrc,
	})
	run(t, dir, "git", "init", "-q")
	run(t, dir, "git", "add", "-A")
	run(t, dir, "git", "commit", "-qm", "base")
	gittest.WriteFiles(t, dir, map[string]string{"calc/calc.go": calcHead})
	return dir
}

func findFunc(rep *DiffReport, pkg, fn string) *FuncDiff {
	for i := range rep.Funcs {
		if rep.Funcs[i].Package == pkg && rep.Funcs[i].Func == fn {
			return &rep.Funcs[i]
		}
	}
	return nil
}

func TestDiff(t *testing.T) {
	testEnv(t)
	dir := diffFixture(t)
	status := run(t, dir, "git", "status", "--porcelain")
	worktrees := run(t, dir, "git", "worktree", "list")

	// The compiler agrees with the fixture's premise.
	m := run(t, dir, "go", "build", "-gcflags=example.com/dfx/calc=-m=2", "./calc")
	if !strings.Contains(m, "cannot inline mix: function too complex") {
		t.Fatalf("mix is still inlinable in head; the fixture is wrong:\n%s", m)
	}

	rep, err := Diff(context.Background(), DiffOptions{Dir: dir, Packages: []string{"./..."}, Base: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	checkCalcDiff(t, rep)

	// The user's tree, index, stash and worktrees are as they were.
	if got := run(t, dir, "git", "status", "--porcelain"); got != status {
		t.Errorf("git status changed:\n%s\nwant:\n%s", got, status)
	}
	if got := run(t, dir, "git", "worktree", "list"); got != worktrees {
		t.Errorf("worktrees left behind:\n%s", got)
	}
	if got := run(t, dir, "git", "stash", "list"); got != "" {
		t.Errorf("stash changed: %s", got)
	}

	// The gate fails on the new escape and the lost inlining.
	fails := rep.GateFailures([]string{GateEscapes, GateInline})
	joined := strings.Join(fails, "\n")
	for _, want := range []string{
		"example.com/dfx/calc.Dist: new heap escape of p",
		"example.com/dfx/calc.mix is no longer inlinable: function too complex: cost ",
		"example.com/dfx/calc.Sum: 1 call to mix no longer inlined",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("gate failures lack %q:\n%s", want, joined)
		}
	}
	if fails := rep.GateFailures([]string{GateBounds}); len(fails) != 0 {
		t.Errorf("bounds gate failed though no function has more bounds checks: %q", fails)
	}

	var text bytes.Buffer
	rep.Write(&text, "text")
	for _, want := range []string{
		"goadvise diff: HEAD (", "-> working tree, 2 packages",
		"! Dist  [NOT TOUCHED by the diff",
		"  mix  [changed by the diff]\n    no longer inlinable: function too complex: cost ",
		fmt.Sprintf("      lost call site: calc/calc.go:%d:10 in example.com/dfx/calc.Sum", lineOf(calcBase, "h = mix(h, x)")),
		fmt.Sprintf("    + heap: calc/calc.go:%d:2  p (address taken and stored)", lineOf(calcHead, "p := point{x, y}")),
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := rep.Write(&js, "json"); err != nil {
		t.Fatal(err)
	}
	var back DiffReport
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("JSON output does not decode: %v", err)
	}
	if len(back.Funcs) != len(rep.Funcs) || findFunc(&back, "example.com/dfx/calc", "mix").Inlinable == nil {
		t.Errorf("JSON output incomplete:\n%s", js.String())
	}
}

// lineOf returns the 1-based line of the first occurrence of substr in
// src.
func lineOf(src, substr string) int {
	i := strings.Index(src, substr)
	if i < 0 {
		panic("fixture lacks " + substr)
	}
	return strings.Count(src[:i], "\n") + 1
}

// checkCalcDiff checks the report of the calc fixture.
func checkCalcDiff(t *testing.T, rep *DiffReport) {
	t.Helper()
	sumCall := lineOf(calcBase, "h = mix(h, x)")
	pLine := lineOf(calcHead, "p := point{x, y}")
	mix := findFunc(rep, "example.com/dfx/calc", "mix")
	if mix == nil || mix.Inlinable == nil {
		t.Fatalf("mix: no inlinability change reported: %+v", rep.Funcs)
	}
	if c := mix.Inlinable; !c.Before || c.After || c.CostAfter <= 80 || c.CostBefore == 0 || c.CostBefore > 80 ||
		!strings.Contains(c.Reason, "exceeds budget 80") || !mix.Touched {
		t.Errorf("mix = %+v, inlinable %+v: want no longer inlinable, cost over 80, touched", *mix, *c)
	}
	// Sum inlined mix, and Twice inlined both through its two inlined
	// calls of Sum.
	if ls := mix.LostCallSites; len(ls) != 3 ||
		ls[0] != (CallSite{"example.com/dfx/calc.Sum", Pos{"calc/calc.go", sumCall, 10}}) ||
		ls[1].Func != "example.com/dfx/user.Twice" || ls[2].Func != "example.com/dfx/user.Twice" || ls[1].Pos.File != "user/user.go" {
		t.Errorf("lost call sites of mix = %+v, want Sum at line %d and Twice twice", ls, sumCall)
	}

	sum := findFunc(rep, "example.com/dfx/calc", "Sum")
	if sum == nil || sum.Touched || len(sum.InlinedRemoved) != 1 || sum.InlinedRemoved[0] != (Count{"mix", 1}) {
		t.Errorf("Sum = %+v, want untouched, 1 call to mix no longer inlined", sum)
	}

	dist := findFunc(rep, "example.com/dfx/calc", "Dist")
	if dist == nil || dist.Touched || len(dist.EscapesAdded) != 1 {
		t.Fatalf("Dist = %+v, want untouched with one new escape", dist)
	}
	if e := dist.EscapesAdded[0]; e.Name != "p" || e.Cause != "address taken and stored" || e.Pos.File != "calc/calc.go" || e.Pos.Line != pLine {
		t.Errorf("Dist's new escape = %+v, want p at calc/calc.go:%d (address taken and stored)", e, pLine)
	}

	// Pair's early check of xs[1] replaces the checks of xs[0] and xs[1].
	pair := findFunc(rep, "example.com/dfx/calc", "Pair")
	if pair == nil || !pair.Touched || len(pair.BoundsRemoved) != 2 || len(pair.BoundsAdded) != 1 ||
		pair.BoundsAdded[0].Line != "_ = xs[1]" || pair.BoundsAdded[0].Kind != "index" {
		t.Errorf("Pair = %+v, want two bounds checks removed and the one of \"_ = xs[1]\" added", pair)
	}
	if get := findFunc(rep, "example.com/dfx/calc", "Get"); get != nil {
		t.Errorf("Get did not change but is reported: %+v", *get)
	}
	// Sum is inlined into Twice in base; in head Sum's cost changes but
	// whether Twice still inlines it is the compiler's call: only check
	// that anything reported for Twice is marked untouched.
	if tw := findFunc(rep, "example.com/dfx/user", "Twice"); tw != nil && tw.Touched {
		t.Errorf("Twice is marked touched: %+v", *tw)
	}
}

// TestDiffRevisions compares two commits, with the working tree dirty:
// the working tree must not matter.
func TestDiffRevisions(t *testing.T) {
	testEnv(t)
	dir := diffFixture(t)
	run(t, dir, "git", "commit", "-qam", "head")
	gittest.WriteFiles(t, dir, map[string]string{"calc/calc.go": calcBase}) // a dirty tree that undoes the change
	rep, err := Diff(context.Background(), DiffOptions{Dir: dir, Packages: []string{"./..."}, Base: "HEAD~1", Head: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Head, "HEAD (") || !strings.HasPrefix(rep.Base, "HEAD~1 (") {
		t.Errorf("labels = %q, %q", rep.Base, rep.Head)
	}
	checkCalcDiff(t, rep)
	if got := run(t, dir, "git", "worktree", "list"); strings.Count(got, "\n") != 1 {
		t.Errorf("worktrees left behind:\n%s", got)
	}
}

func TestDiffErrors(t *testing.T) {
	testEnv(t)
	dir := diffFixture(t)
	for _, tc := range []struct {
		opts DiffOptions
		want string
	}{
		{DiffOptions{Dir: dir}, "no base revision"},
		{DiffOptions{Dir: dir, Base: "nosuchrev"}, `unknown git revision "nosuchrev"`},
		{DiffOptions{Dir: t.TempDir(), Base: "HEAD"}, "is not in a git repository"},
		{DiffOptions{Dir: dir, Base: "HEAD", Packages: []string{"./nosuch"}}, "nosuch"},
	} {
		_, err := Diff(context.Background(), tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Diff(%+v) = %v, want an error containing %q", tc.opts, err, tc.want)
		}
	}
	if got := run(t, dir, "git", "worktree", "list"); strings.Count(got, "\n") != 1 {
		t.Errorf("worktrees left behind after errors:\n%s", got)
	}
}

// TestDiffProfile gives Diff a CPU profile in which Sum calls mix: only
// they are hot, and the gate ignores the new escape in the cold Dist.
func TestDiffProfile(t *testing.T) {
	testEnv(t)
	dir := diffFixture(t)
	mixFn := &profile.Function{ID: 1, Name: "example.com/dfx/calc.mix", SystemName: "example.com/dfx/calc.mix", Filename: "calc/calc.go", StartLine: int64(lineOf(calcBase, "func mix"))}
	sumFn := &profile.Function{ID: 2, Name: "example.com/dfx/calc.Sum", SystemName: "example.com/dfx/calc.Sum", Filename: "calc/calc.go", StartLine: int64(lineOf(calcBase, "func Sum"))}
	mixLoc := &profile.Location{ID: 1, Address: 0x1000, Line: []profile.Line{{Function: mixFn, Line: mixFn.StartLine + 1}}}
	sumLoc := &profile.Location{ID: 2, Address: 0x2000, Line: []profile.Line{{Function: sumFn, Line: int64(lineOf(calcBase, "h = mix(h, x)"))}}}
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10000000,
		DurationNanos: 1e9,
		Function:      []*profile.Function{mixFn, sumFn},
		Location:      []*profile.Location{mixLoc, sumLoc},
		Sample:        []*profile.Sample{{Location: []*profile.Location{mixLoc, sumLoc}, Value: []int64{50, 500000000}}},
	}
	prof := filepath.Join(t.TempDir(), "cpu.pprof")
	f, err := os.Create(prof)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()

	rep, err := Diff(context.Background(), DiffOptions{Dir: dir, Packages: []string{"./..."}, Base: "HEAD", Profile: prof})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Funcs {
		if want := f.Func == "Sum" || f.Func == "mix"; f.Hot != want {
			t.Errorf("%s.%s: hot = %v, want %v", f.Package, f.Func, f.Hot, want)
		}
	}
	fails := rep.GateFailures([]string{GateEscapes, GateInline})
	if len(fails) != 2 || !strings.Contains(fails[0], "calc.Sum: 1 call to mix no longer inlined") || !strings.Contains(fails[1], "calc.mix is no longer inlinable") {
		t.Errorf("gate failures with a profile = %q, want Sum's lost inlining and mix only", fails)
	}
	var text bytes.Buffer
	rep.Write(&text, "text")
	if !strings.Contains(text.String(), "! Sum  [NOT TOUCHED by the diff: changed through inlining or a dependency, hot]") {
		t.Errorf("text output does not mark Sum hot:\n%s", text.String())
	}
}

// TestDiffCancel cancels Diff at various points: whatever it was doing,
// the worktree and the temporary files are removed.
func TestDiffCancel(t *testing.T) {
	testEnv(t)
	dir := diffFixture(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cancelled := 0
	for _, d := range []time.Duration{20 * time.Millisecond, 100 * time.Millisecond, 300 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		_, err := Diff(ctx, DiffOptions{Dir: dir, Packages: []string{"./..."}, Base: "HEAD", Head: "HEAD"})
		cancel()
		if err == nil {
			continue // finished in time
		}
		cancelled++
		if got := run(t, dir, "git", "worktree", "list"); strings.Count(got, "\n") != 1 {
			t.Errorf("after cancellation at %v: worktrees left behind:\n%s", d, got)
		}
		ents, _ := os.ReadDir(tmp)
		for _, e := range ents {
			// Package escape's temporary directories are its own
			// concern; Diff's and its worktrees' are checked.
			if strings.HasPrefix(e.Name(), "goadvise-diff") || strings.HasPrefix(e.Name(), "goadvise-worktree") {
				t.Errorf("after cancellation at %v: %s left behind", d, e.Name())
			}
		}
	}
	if cancelled == 0 {
		t.Errorf("Diff finished within 20ms: the test cancels nothing")
	}
}

// TestDiffPGOSameOnBothSides checks that an untracked default.pgo in a main
// package of the working tree does not make the head differ from the base:
// both are built with the same -pgo setting, off by default, and the
// header says so.
func TestDiffPGOSameOnBothSides(t *testing.T) {
	testEnv(t)
	src, prof := shapesFixture(t)
	files := map[string]string{}
	for _, name := range []string{"go.mod", "shapes/shapes.go", "shapes/shapes_test.go", "cmd/app/main.go"} {
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	dir := gittest.NewRepo(t, files)
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cmd", "app", "default.pgo"), data, 0o666); err != nil {
		t.Fatal(err)
	}
	rep, err := Diff(context.Background(), DiffOptions{Dir: dir, Packages: []string{"./..."}, Base: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	rep.Write(&text, "text")
	if len(rep.Funcs) != 0 || !strings.Contains(text.String(), "both built with -pgo=off") {
		t.Errorf("the code did not change, yet:\n%s", text.String())
	}
}
