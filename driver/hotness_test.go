package driver

import (
	"context"
	"strings"
	"testing"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/internal/gittest"
)

// TestCrossPackage checks that check follows hotness across packages: an
// exported function of one package is per item when another package calls
// it in a loop, or a benchmark's loop does, and unknown (shown, with the
// reason) when nothing says how often it runs; a redundant branch in each
// (whose condition calls a function, so that removing it saves more than
// a compare), and the DeepEqual of an exported function nothing calls, are reported
// by default.
func TestCrossPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a fixture module")
	}
	t.Setenv("GOADVISE_CACHE", t.TempDir())
	branch := func(name string) string {
		return "func " + name + "(off, n int, p []byte) []byte {\n\tif bytes.IndexByte(p, 0) >= 0 {\n\t\treturn p[off : n+off]\n\t}\n\treturn p[off : n+off]\n}\n"
	}
	dir := gittest.NewTree(t, map[string]string{
		"go.mod": "module example.com/cross\n\ngo 1.26\n",
		"codec/codec.go": "package codec\n\nimport \"bytes\"\n\n" + branch("Frame") + "\n" + branch("Pack") + "\n" + branch("Unused") + "\n" +
			"type Reader struct{ p []byte }\n\nfunc NewReader(p []byte) *Reader { return &Reader{p} }\n\n" +
			"func (r *Reader) Peek(off, n int) []byte {\n\tif bytes.IndexByte(r.p, 0) >= 0 {\n\t\treturn r.p[off : n+off]\n\t}\n\treturn r.p[off : n+off]\n}\n",
		"codec/codec_test.go": "package codec_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/cross/codec\"\n)\n\n" +
			"func BenchmarkPeek(b *testing.B) {\n\tr := codec.NewReader(make([]byte, 8))\n\tfor b.Loop() {\n\t\tr.Peek(1, 2)\n\t\tcodec.Pack(0, 1, nil)\n\t}\n}\n",
		"codec/same.go": "package codec\n\nimport \"reflect\"\n\nfunc Same(a, b []byte) bool { return reflect.DeepEqual(a, b) }\n",
		"server/server.go": "package server\n\nimport \"example.com/cross/codec\"\n\n" +
			"func Serve(msgs [][]byte) {\n\tfor _, m := range msgs {\n\t\tcodec.Frame(0, 1, m)\n\t}\n}\n",
	})
	for _, run := range []string{"cold", "cached"} {
		res, err := Run(context.Background(), Config{Dir: dir, Patterns: []string{"./..."}, Analyzers: suite.Analyzers(), Visibility: suite.Visibility{All: true}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Errors) > 0 {
			t.Fatalf("errors: %q", res.Errors)
		}
		got := make(map[string]string)
		for _, f := range res.Report.Findings {
			if f.Analyzer == "deepequal" && f.Function == "example.com/cross/codec.Same" && f.Tier == "unknown" {
				got["deepequal"] = "reported"
			}
			if f.Analyzer == "redundantbranch" {
				i := strings.LastIndex(f.Message, " [")
				got[f.Function[strings.LastIndex(f.Function, ".")+1:]] = f.Tier + " " + f.Message[i+1:]
			}
		}
		for fn, want := range map[string]string{
			"Frame":     "per-item [per-item: called in a loop in server.Serve]",
			"Pack":      "per-item [per-item: called in BenchmarkPeek's loop]",
			"Peek":      "per-item [per-item: called in BenchmarkPeek's loop]",
			"Unused":    "unknown [unknown: exported: how often its callers run it is not known]",
			"deepequal": "reported",
		} {
			if got[fn] != want {
				t.Errorf("%s run: %s: %q, want %q", run, fn, got[fn], want)
			}
		}
	}
}
