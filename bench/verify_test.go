package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/internal/gittest"
)

// editOf returns the edit replacing the first occurrence of old in file.
func editOf(t *testing.T, file, old, new string) FileEdit {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), old)
	if i < 0 {
		t.Fatalf("%q not in %s", old, file)
	}
	return FileEdit{File: file, Start: i, End: i + len(old), New: new}
}

func TestVerify(t *testing.T) {
	tmp := isolateTemp(t)
	// The commit allocates 3 times, the uncommitted working tree 2: the
	// verification starts from the working tree as it is.
	dir := gittest.NewRepo(t, fixtureFiles(3))
	gittest.WriteFiles(t, dir, map[string]string{"fx.go": workSource(2), "untracked.txt": "x\n"})
	before := gittest.Snapshot(t, dir)
	fx := filepath.Join(dir, "fx.go")

	res, err := Verify(context.Background(), VerifyOptions{
		Dir:       dir,
		Edits:     []FileEdit{editOf(t, fx, "\tsink[1] = new([64]byte)\n", "")},
		Count:     5,
		Benchtime: fixtureBenchtime,
		Threshold: 1000, // timings are not asserted
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TestsPassed || res.NoBenchmarks || res.Comparison == nil {
		t.Fatalf("result = %+v, want passing tests and a comparison", res)
	}
	row := res.Comparison.Find("Work", "allocs/op")
	if row == nil || row.Base.Center != 2 || row.Head.Center != 1 || row.Verdict != Better || !row.Significant {
		t.Errorf("allocs/op row = %+v, want 2 → 1, significant, better", row)
	}
	if res.Regressed() {
		t.Errorf("Regressed() = true for an improvement")
	}
	if s := res.Summary(); !strings.HasPrefix(s, "tests pass; ") || !strings.Contains(s, "allocs/op 2.000 → 1.000 (-50.00%) (p=0.008 n=5) better") {
		t.Errorf("Summary() = %q", s)
	}
	gittest.CheckSnapshot(t, dir, before)
	checkTempClean(t, tmp)
}

func TestVerifyTestsFail(t *testing.T) {
	dir := gittest.NewRepo(t, fixtureFiles(1))
	before := gittest.Snapshot(t, dir)
	res, err := Verify(context.Background(), VerifyOptions{
		Dir:   dir,
		Edits: []FileEdit{editOf(t, filepath.Join(dir, "fx.go"), "return 42", "return 41")},
		Count: 2, Benchtime: "1x",
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.TestsPassed || res.TestsFailedBefore || res.Comparison != nil || !res.Regressed() {
		t.Errorf("result = %+v, want failing tests that passed before, no comparison", res)
	}
	if !strings.Contains(res.TestOutput, "Value() = 41, want 42") {
		t.Errorf("TestOutput lacks the failure:\n%s", res.TestOutput)
	}
	if s := res.Summary(); s != "tests fail" {
		t.Errorf("Summary() = %q, want \"tests fail\"", s)
	}
	gittest.CheckSnapshot(t, dir, before)
}

func TestVerifyBadEdits(t *testing.T) {
	dir := gittest.NewRepo(t, fixtureFiles(1))
	fx := filepath.Join(dir, "fx.go")
	for _, tc := range []struct {
		name  string
		edits []FileEdit
		want  string
	}{
		{"overlap", []FileEdit{{File: fx, Start: 0, End: 10}, {File: fx, Start: 5, End: 12}}, "overlapping edits"},
		{"range", []FileEdit{{File: "fx.go", Start: 0, End: 1 << 20}}, "out of range"},
		{"outside", []FileEdit{{File: filepath.Join(t.TempDir(), "x.go"), Start: 0, End: 0}}, "outside the module"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Verify(context.Background(), VerifyOptions{Dir: dir, Edits: tc.edits})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestApplyEdits(t *testing.T) {
	got, err := applyEdits([]byte("hello, world"), []FileEdit{{Start: 7, End: 12, New: "gopher"}, {Start: 0, End: 5, New: "goodbye"}})
	if err != nil || string(got) != "goodbye, gopher" {
		t.Errorf("applyEdits = %q, %v", got, err)
	}
}

func TestVerifyTestsFailedBefore(t *testing.T) {
	files := fixtureFiles(2)
	files["fx.go"] = strings.Replace(files["fx.go"], "return 42", "return 7", 1)
	dir := gittest.NewRepo(t, files)
	res, err := Verify(context.Background(), VerifyOptions{
		Dir:   dir,
		Edits: []FileEdit{editOf(t, filepath.Join(dir, "fx.go"), "\tsink[1] = new([64]byte)\n", "")},
		Count: 2, Benchtime: "1x",
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.TestsPassed || !res.TestsFailedBefore {
		t.Errorf("result = %+v, want tests failing with and without the edit", res)
	}
	if s := res.Summary(); s != "tests fail (they also fail without the change)" {
		t.Errorf("Summary() = %q", s)
	}
}

// TestVerifyWorkspace measures three edits one after another in one
// Workspace: each is measured against the tree as it was, whatever the
// previous one did (a fix whose tests fail included), and the copy is
// left as the tree is.
func TestVerifyWorkspace(t *testing.T) {
	tmp := isolateTemp(t)
	dir := gittest.NewRepo(t, fixtureFiles(3))
	before := gittest.Snapshot(t, dir)
	fx := filepath.Join(dir, "fx.go")
	w, err := NewWorkspace(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	verify := func(edit FileEdit) *VerifyResult {
		t.Helper()
		res, err := Verify(context.Background(), VerifyOptions{
			Dir: dir, Edits: []FileEdit{edit}, Count: 5, Benchtime: fixtureBenchtime, Threshold: 1000, Workspace: w,
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, tc := range []struct {
		drop     string // the line the edit removes
		allocs   float64
		failures bool
	}{
		{"\tsink[1] = new([64]byte)\n", 2, false},
		{"\treturn 42\n", 0, true},
		{"\tsink[0] = new([64]byte)\n\tsink[1] = new([64]byte)\n", 1, false},
	} {
		edit := editOf(t, fx, tc.drop, "")
		if tc.failures {
			edit = editOf(t, fx, tc.drop, "\treturn 41\n")
		}
		res := verify(edit)
		if tc.failures {
			if res.TestsPassed || res.TestsFailedBefore {
				t.Errorf("removing %q: result %+v, want tests failing with the edit alone", tc.drop, res)
			}
			continue
		}
		row := res.Comparison.Find("Work", "allocs/op")
		if !res.TestsPassed || row == nil || row.Base.Center != 3 || row.Head.Center != tc.allocs {
			t.Errorf("removing %q: allocs/op row %+v, want 3 → %v", tc.drop, row, tc.allocs)
		}
	}
	copied, err := os.ReadFile(filepath.Join(w.src, "fx.go"))
	if err != nil || string(copied) != workSource(3) {
		t.Errorf("the workspace's fx.go after the runs (%v):\n%s\nwant the tree's", err, copied)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	gittest.CheckSnapshot(t, dir, before)
	checkTempClean(t, tmp)
}
