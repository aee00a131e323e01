package report

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// applyUnified applies a unified diff produced by unified to a.
func applyUnified(t *testing.T, a, diff string) string {
	t.Helper()
	al := splitLines(a)
	var out []string
	pos := 0
	lines := strings.SplitAfter(diff, "\n")
	for i := 2; i < len(lines); i++ {
		l := lines[i]
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "@@") {
			f := strings.Fields(l)
			start, _, _ := strings.Cut(strings.TrimPrefix(f[1], "-"), ",")
			n, _ := strconv.Atoi(start)
			if strings.HasSuffix(f[1], ",0") {
				n++ // empty range names the line before
			}
			for ; pos < n-1; pos++ {
				out = append(out, al[pos])
			}
			continue
		}
		if strings.HasPrefix(l, `\`) {
			out[len(out)-1] += l
			continue
		}
		switch l[0] {
		case ' ':
			out = append(out, al[pos])
			pos++
		case '-':
			pos++
		case '+':
			out = append(out, l[1:])
		}
	}
	out = append(out, al[pos:]...)
	s := strings.Join(out, "")
	return strings.ReplaceAll(s, "\n\\ No newline at end of file\n", "")
}

func TestUnifiedRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	gen := func() string {
		var b strings.Builder
		for range r.Intn(40) {
			b.WriteString(strconv.Itoa(r.Intn(6)) + "\n")
		}
		return b.String()
	}
	for i := range 2000 {
		a, b := gen(), gen()
		d := unified("a", "b", a, b)
		if a == b {
			if d != "" {
				t.Fatalf("case %d: diff of equal texts is %q", i, d)
			}
			continue
		}
		if got := applyUnified(t, a, d); got != b {
			t.Fatalf("case %d: applying\n%s\nto %q gives %q, want %q", i, d, a, got, b)
		}
	}
}

func TestUnifiedFormat(t *testing.T) {
	a := "package p\n\nimport \"reflect\"\n\nfunc f(a, b []byte) bool { return reflect.DeepEqual(a, b) }\n"
	b := "package p\n\nimport \"bytes\"\n\nfunc f(a, b []byte) bool { return bytes.Equal(a, b) }\n"
	want := `--- a/p.go
+++ b/p.go
@@ -1,5 +1,5 @@
 package p
 
-import "reflect"
+import "bytes"
 
-func f(a, b []byte) bool { return reflect.DeepEqual(a, b) }
+func f(a, b []byte) bool { return bytes.Equal(a, b) }
`
	if got := unified("a/p.go", "b/p.go", a, b); got != want {
		t.Errorf("unified =\n%s\nwant\n%s", got, want)
	}
}
