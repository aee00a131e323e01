package report

import (
	"fmt"
	"io"
	"strings"
)

// WriteDiff writes the changes of res as unified diffs, paths relative to dir.
func WriteDiff(w io.Writer, res *FixResult, dir string) error {
	for _, file := range sortedKeys(res.Files) {
		c := res.Files[file]
		name := relPath(dir, file)
		if _, err := io.WriteString(w, unified("a/"+name, "b/"+name, string(c.Old), string(c.New))); err != nil {
			return err
		}
	}
	return nil
}

// unified returns the unified diff (3 lines of context) that turns a into b.
func unified(aName, bName, a, b string) string {
	al, bl := splitLines(a), splitLines(b)
	ops := diffLines(al, bl)
	if len(ops) == 0 {
		return ""
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	const ctx = 3
	// Group edit operations into hunks.
	for i := 0; i < len(ops); {
		j := i
		for j+1 < len(ops) && ops[j+1].a-ops[j].a-(ops[j].del) <= 2*ctx {
			j++
		}
		// Hunk covers ops[i..j].
		aStart := max(ops[i].a-ctx, 0)
		aEnd := min(ops[j].a+ops[j].del+ctx, len(al))
		bStart := ops[i].b - (ops[i].a - aStart)
		bEnd := bStart + (aEnd - aStart)
		for k := i; k <= j; k++ {
			bEnd += ops[k].ins - ops[k].del
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", span(aStart, aEnd-aStart), span(bStart, bEnd-bStart))
		pos := aStart
		for k := i; k <= j; k++ {
			for ; pos < ops[k].a; pos++ {
				out.WriteString(" " + al[pos])
			}
			for d := 0; d < ops[k].del; d++ {
				out.WriteString("-" + al[pos])
				pos++
			}
			for n := 0; n < ops[k].ins; n++ {
				out.WriteString("+" + bl[ops[k].b+n])
			}
		}
		for ; pos < aEnd; pos++ {
			out.WriteString(" " + al[pos])
		}
		i = j + 1
	}
	return out.String()
}

func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s into lines that keep their newline; a last line
// without one gets the "\ No newline at end of file" marker.
func splitLines(s string) []string {
	var lines []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s+"\n\\ No newline at end of file\n")
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// An op deletes del lines of a at index a and inserts ins lines of b from
// index b in their place.
type op struct{ a, b, del, ins int }

// diffLines computes a shortest edit script between a and b with the
// Myers algorithm, as a list of ops in order.
func diffLines(a, b []string) []op {
	// Trim the common prefix and suffix: fixes change few lines.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	maxD := n + m
	v := make([]int, 2*maxD+3)
	var trace [][]int
	off := maxD + 1
	found := false
	for d := 0; d <= maxD && !found; d++ {
		snapshot := make([]int, len(v))
		copy(snapshot, v)
		trace = append(trace, snapshot)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && ma[x] == mb[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	// Backtrack to recover the path.
	type step struct {
		x, y int
		del  bool
	}
	var steps []step
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		vd := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && vd[off+k-1] < vd[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := vd[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
		}
		if prevK == k+1 {
			steps = append(steps, step{prevX, prevY, false}) // insertion of mb[prevY]
		} else {
			steps = append(steps, step{prevX, prevY, true}) // deletion of ma[prevX]
		}
		x, y = prevX, prevY
	}
	// steps are in reverse order; fold adjacent ones into ops.
	var ops []op
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		o := op{a: pre + s.x, b: pre + s.y}
		if s.del {
			o.del = 1
		} else {
			o.ins = 1
		}
		if len(ops) > 0 {
			last := &ops[len(ops)-1]
			if last.a+last.del == o.a && last.b+last.ins == o.b {
				last.del += o.del
				last.ins += o.ins
				continue
			}
		}
		ops = append(ops, o)
	}
	return ops
}
