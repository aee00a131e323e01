package smallalloc_test

import (
	"fmt"
	"go/token"
	"os"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// applyFixes applies the first suggested fix of every diagnostic and
// returns the new contents of the files it changes. Overlapping edits are
// an error.
func applyFixes(fset *token.FileSet, diags []analysis.Diagnostic) (map[string][]byte, error) {
	type edit struct {
		start, end int
		text       []byte
	}
	edits := make(map[string][]edit)
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 {
			continue
		}
		for _, e := range d.SuggestedFixes[0].TextEdits {
			start, end := fset.Position(e.Pos), fset.Position(e.End)
			if !e.End.IsValid() {
				end = start
			}
			edits[start.Filename] = append(edits[start.Filename], edit{start.Offset, end.Offset, e.NewText})
		}
	}
	out := make(map[string][]byte)
	for name, es := range edits {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(es, func(a, b edit) int { return a.start - b.start })
		var buf []byte
		last := 0
		for _, e := range es {
			if e.start < last {
				return nil, fmt.Errorf("%s: overlapping edits at offset %d", name, e.start)
			}
			buf = append(buf, src[last:e.start]...)
			buf = append(buf, e.text...)
			last = e.end
		}
		buf = append(buf, src[last:]...)
		out[name] = buf
	}
	return out, nil
}
