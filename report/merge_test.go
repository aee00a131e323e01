package report

import (
	"fmt"
	"strings"
	"testing"
)

// TestMerge checks that one cost is one finding: escapes inside a
// deepequal or smallalloc finding's range are folded into it, escapes with
// one cause (or of one inlined call) on one line are one finding, and
// everything else is kept as it was.
func TestMerge(t *testing.T) {
	const file = "/m/p.go"
	esc := func(line, col int, msg string) Finding {
		return Finding{Analyzer: "heapescape", File: file, Line: line, Column: col, Function: "p.F", Message: msg}
	}
	in := []Finding{
		// reflect.DeepEqual(h, r.last) at 10:5-10:33 and its boxed arguments.
		{Analyzer: "deepequal", File: file, Line: 10, Column: 5, EndLine: 10, EndColumn: 33, Function: "p.F", Message: "reflect.DeepEqual on Header"},
		esc(10, 23, "h escapes to heap because it is converted to an interface to be passed to reflect.DeepEqual"),
		esc(10, 27, "r.last escapes to heap because it is converted to an interface to be passed to reflect.DeepEqual"),
		// An escape on the same line after the DeepEqual call is not its.
		esc(10, 40, "x escapes to heap because it is stored in s.m"),
		// smallalloc's make and the compiler's escape of it.
		{Analyzer: "smallalloc", File: file, Line: 20, Column: 9, EndLine: 20, EndColumn: 24, Function: "p.F", Message: "make([]byte, 5) on every call"},
		esc(20, 13, "make([]byte, 5) escapes to heap because io.ReadFull passes it to an interface method"),
		// byvalue's &T{...} and the compiler's escape of it, at one position.
		{Analyzer: "byvalue", File: file, Line: 50, Column: 9, EndLine: 50, EndColumn: 25, Function: "p.newPoint", Message: "newPoint returns a 16-byte point by pointer"},
		{Analyzer: "heapescape", File: file, Line: 50, Column: 9, Function: "p.newPoint", Message: "&point{...} escapes to heap because it is returned"},
		// optional's local and the compiler's escape of it, at one position.
		{Analyzer: "optional", File: file, Line: 60, Column: 27, EndLine: 60, EndColumn: 29, Function: "p.(*conn).setTimeout", Message: "field conn.timeout holds an optional int by pointer"},
		{Analyzer: "heapescape", File: file, Line: 60, Column: 27, Function: "p.(*conn).setTimeout", Class: "inherent", Message: "moved to heap: ms because its address is stored in c.timeout; inherent: its address is what the code keeps or passes on [per-item: runs per item]"},
		// Three arguments of one fmt.Sprintf: one cause.
		esc(30, 60, "len(v) escapes to heap because it is converted to an interface and passed to fmt.Sprintf"),
		esc(30, 41, "key escapes to heap because it is converted to an interface and passed to fmt.Sprintf"),
		esc(30, 47, "e.Version escapes to heap because it is converted to an interface and passed to fmt.Sprintf"),
		// Two allocations of one inlined call, with different causes.
		esc(40, 30, "calling httptest.NewRecorder allocates (inlined): make(http.Header) escapes to heap because it is stored"),
		esc(40, 30, "calling httptest.NewRecorder allocates (inlined): &httptest.ResponseRecorder{...} escapes to heap because of an interface call"),
		// The arguments of one call over two lines, with one rewrite.
		esc(71, 23, `p.Y escapes to heap because it is converted to an interface and passed to fmt.Sprintf; write "(" + p.X + "," + p.Y + ")" instead of fmt.Sprintf`),
		esc(70, 23, `p.X escapes to heap because it is converted to an interface and passed to fmt.Sprintf; write "(" + p.X + "," + p.Y + ")" instead of fmt.Sprintf`),
		// One rewrite, two explanations: an int expression and a call's
		// result (VictoriaMetrics' awsapi filters).
		esc(80, 57, `i + 1 escapes to heap because it is passed to fmt.Sprintf, which lets it escape; write "Filter." + strconv.Itoa(i + 1) + ".Name=" + url.QueryEscape(f.Name) instead of fmt.Sprintf`),
		esc(80, 76, `the result of url.QueryEscape(f.Name) escapes to heap because it is converted to an interface and passed to fmt.Sprintf; write "Filter." + strconv.Itoa(i + 1) + ".Name=" + url.QueryEscape(f.Name) instead of fmt.Sprintf`),
		// Same cause on another line, and in another function: kept.
		esc(31, 41, "key escapes to heap because it is converted to an interface and passed to fmt.Sprintf"),
		{Analyzer: "heapescape", File: file, Line: 30, Column: 70, Function: "p.G", Message: "y escapes to heap because it is converted to an interface and passed to fmt.Sprintf"},
	}
	out := Merge(in)
	got := make(map[string][]string)
	var order []string
	for _, f := range out {
		k := fmt.Sprintf("%s %d:%d", f.Analyzer, f.Line, f.Column)
		order = append(order, k)
		for _, r := range f.Related {
			got[k] = append(got[k], fmt.Sprintf("%d:%d", r.Line, r.Column))
		}
	}
	want := map[string][]string{
		"deepequal 10:5":   {"10:23", "10:27"},
		"smallalloc 20:9":  {"20:13"},
		"heapescape 30:41": {"30:47", "30:60"},
		"heapescape 40:30": {"40:30"},
		"heapescape 70:23": {"71:23"},
		"byvalue 50:9":     {"50:9"},
		"optional 60:27":   {"60:27"},
		"heapescape 80:57": {"80:76"},
	}
	wantOrder := []string{"deepequal 10:5", "heapescape 10:40", "smallalloc 20:9", "byvalue 50:9", "optional 60:27", "heapescape 30:41", "heapescape 40:30", "heapescape 70:23", "heapescape 80:57", "heapescape 31:41", "heapescape 30:70"}
	if strings.Join(order, ", ") != strings.Join(wantOrder, ", ") {
		t.Errorf("findings after Merge:\n got %v\nwant %v", order, wantOrder)
	}
	for k, w := range want {
		if strings.Join(got[k], " ") != strings.Join(w, " ") {
			t.Errorf("%s: related %v, want %v", k, got[k], w)
		}
	}
	for k, g := range got {
		if want[k] == nil {
			t.Errorf("%s: unexpected related %v", k, g)
		}
	}
	// The optional finding says the allocation can go: its related escape
	// keeps the compiler's reason, not heapescape's judgement that the
	// allocation is inherent.
	for _, f := range out {
		if f.Analyzer == "optional" {
			const want = "moved to heap: ms because its address is stored in c.timeout [per-item: runs per item]"
			if len(f.Related) != 1 || f.Related[0].Message != want {
				t.Errorf("optional's related: %+v, want one with message %q", f.Related, want)
			}
		}
	}
}
