package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/analyzer/kind"
)

// alloc returns a finding of the compiler's allocation at line:col of
// function fn, with the kind, cause and sink given and text as its
// message.
func alloc(fn string, line, col int, id kind.ID, cause, sink, text string) Finding {
	f := Finding{Analyzer: id.Analyzer(), File: "/m/p.go", Line: line, Column: col, Function: fn}
	f.Kind, f.Tier, f.Cause, f.Sink, f.Text, f.Scoring = id, "per-item", cause, sink, text, kind.ScoreAlloc
	f.Message = f.Fields.Message()
	return f
}

// owner returns a finding of kind id that owns the allocations in its
// range, line:col to endLine:endCol.
func owner(fn string, line, col, endLine, endCol int, id kind.ID, text string) Finding {
	f := Finding{Analyzer: id.Analyzer(), File: "/m/p.go", Line: line, Column: col, EndLine: endLine, EndColumn: endCol, Function: fn}
	f.Kind, f.Tier, f.Text, f.Owns, f.Rewrite = id, "per-item", text, true, true
	f.Message = f.Fields.Message()
	return f
}

// TestMerge checks that one cost is one finding: allocations inside the
// range of a finding whose kind owns them are folded into it,
// allocations of one kind, cause and sink (or of one inlined call) on one
// line are one finding, so are those of one group in a function, and
// everything else is kept as it was.
func TestMerge(t *testing.T) {
	const (
		noRW  = kind.ID("heapescape/no-known-rewrite")
		fmtRW = kind.ID("heapescape/fmt-concat")
		conv  = "interface conversion"
	)
	fmtArg := func(line, col int, group string) Finding {
		f := alloc("p.F", line, col, fmtRW, conv, "callee", "an argument escapes; write a + b")
		f.Callee, f.Group, f.Advice, f.Rewrite = "fmt.Sprintf", group, "write a + b", true
		return f
	}
	inlined := func(line, col int, sink string) Finding {
		f := alloc("p.F", line, col, noRW, "returned or stored", sink, "calling httptest.NewRecorder allocates")
		f.Callee, f.Inlined = "httptest.NewRecorder", true
		return f
	}
	ms := alloc("p.(*conn).setTimeout", 60, 27, "heapescape/inherent", "address taken and stored", "field", "moved to heap: ms because its address is stored in c.timeout")
	ms.Advice = "inherent: its address is what the code keeps"
	ms.Text += "; " + ms.Advice
	ms.Message = ms.Fields.Message()
	in := []Finding{
		// reflect.DeepEqual(h, r.last) at 10:5-10:33 and its boxed arguments.
		owner("p.F", 10, 5, 10, 33, "deepequal/direct-compare", "reflect.DeepEqual on Header"),
		alloc("p.F", 10, 23, noRW, conv, "callee", "h escapes"),
		alloc("p.F", 10, 27, noRW, conv, "callee", "r.last escapes"),
		// An escape on the same line after the DeepEqual call is not its.
		alloc("p.F", 10, 40, noRW, "returned or stored", "field", "x escapes"),
		// smallalloc's make and the compiler's escape of it.
		owner("p.F", 20, 9, 20, 24, "smallalloc/field-buffer", "make([]byte, 5) on every call"),
		alloc("p.F", 20, 13, noRW, "returned or stored", "callee", "make([]byte, 5) escapes"),
		// byvalue's &T{...} and the compiler's escape of it, at one position.
		owner("p.newPoint", 50, 9, 50, 25, "byvalue/return-by-value", "newPoint returns a 16-byte point by pointer"),
		alloc("p.newPoint", 50, 9, "heapescape/inherent", "returned or stored", "return", "&point{...} escapes"),
		// optional's local and the compiler's escape of it, at one position.
		owner("p.(*conn).setTimeout", 60, 27, 60, 29, "optional/store-by-value", "field conn.timeout holds an optional int by pointer"),
		ms,
		// Three arguments of one fmt.Sprintf: one cost.
		fmtArg(30, 60, "p.go:30:40"),
		fmtArg(30, 41, "p.go:30:40"),
		fmtArg(30, 47, "p.go:30:40"),
		// Two allocations of one inlined call, with different sinks.
		inlined(40, 30, "field"),
		inlined(40, 30, "dynamic-call"),
		// The arguments of one call over two lines, one group.
		fmtArg(71, 23, "p.go:70:10"),
		fmtArg(70, 23, "p.go:70:10"),
		// Same kind, cause and sink on another line, and in another
		// function: kept.
		alloc("p.F", 31, 41, noRW, conv, "callee", "key escapes"),
		alloc("p.G", 30, 70, noRW, conv, "callee", "y escapes"),
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
	}
	wantOrder := []string{"deepequal 10:5", "heapescape 10:40", "smallalloc 20:9", "byvalue 50:9", "optional 60:27", "heapescape 30:41", "heapescape 40:30", "heapescape 70:23", "heapescape 31:41", "heapescape 30:70"}
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
	// keeps the compiler's reason, not the judgement that the allocation
	// is inherent.
	for _, f := range out {
		if f.Analyzer == "optional" {
			const want = "moved to heap: ms because its address is stored in c.timeout [per-item]"
			if len(f.Related) != 1 || f.Related[0].Message != want {
				t.Errorf("optional's related: %+v, want one with message %q", f.Related, want)
			}
		}
	}
}
