package plural

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 files"}, {1, "1 file"}, {2, "2 files"}, {-1, "-1 files"}} {
		if got := Count(c.n, "file", "files"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := Noun(1, "finding has", "findings have"); got != "finding has" {
		t.Errorf("Noun(1) = %q", got)
	}
}
