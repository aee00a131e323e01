package report

import (
	"fmt"
	"testing"
)

// TestRankStatic checks the order without a profile: tier first, then the
// estimated cost of one execution, then file and position; not the file
// path alone.
func TestRankStatic(t *testing.T) {
	fs := []Finding{
		{Analyzer: "heapescape", File: "/m/a.go", Offset: 10, Tier: "per-item", Message: "x escapes to heap because it is converted to an interface; avoid it"},
		{Analyzer: "heapescape", File: "/m/a.go", Offset: 20, Tier: "per-item", Message: "y escapes to heap because it is converted to an interface; avoid it"},
		{Analyzer: "redundantbranch", File: "/m/a.go", Offset: 5, Tier: "hot-loop", Message: "both arms compute the same"},
		{Analyzer: "heapescape", File: "/m/b.go", Offset: 1, Tier: "per-item", Message: "&T{...} escapes to heap because it is returned; T is small (4096 bytes) and may be copied"},
		{Analyzer: "deepequal", File: "/m/c.go", Offset: 1, Tier: "per-item", Message: "reflect.DeepEqual on []byte uses reflection"},
		{Analyzer: "heapescape", File: "/m/d.go", Offset: 1, Tier: "cold", Message: "map[string]int{} escapes to heap because it is returned"},
		{Analyzer: "percall", File: "/m/e.go", Offset: 1, Tier: "per-item", Message: "regexp.MustCompile of a constant on every call"},
		{Analyzer: "smallalloc", File: "/m/f.go", Offset: 1, Tier: "per-item", Message: "make([]byte, 8) escapes to the heap on every call; add a field"},
		// A command's code after a library's of the same tier, whatever
		// its cost.
		{Analyzer: "percall", File: "/m/0.go", Offset: 1, Tier: "per-item", Program: true, Message: "regexp.MustCompile of a constant on every call"},
	}
	Rank(fs)
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s:%d", f.File[3:], f.Offset))
	}
	want := "[a.go:5 e.go:1 c.go:1 b.go:1 f.go:1 a.go:10 a.go:20 0.go:1 d.go:1]"
	if s := fmt.Sprint(got); s != want {
		t.Errorf("order %s, want %s", s, want)
	}
	for i, f := range fs {
		if f.Rank != i+1 {
			t.Errorf("finding %d has rank %d", i, f.Rank)
		}
	}
}

func TestIsProgram(t *testing.T) {
	for _, c := range []struct {
		name, path string
		want       bool
	}{
		{"main", "example.com/m", true},
		{"main", "example.com/m/cmd/tool", true},
		{"fuzzgen", "golang.org/x/tools/cmd/signature-fuzzer/internal/fuzz-generator", true},
		{"ssa", "golang.org/x/tools/go/ssa", false},
		{"server", "github.com/nats-io/nats-server/v2/server", false},
		{"cmdline", "example.com/m/cmdline", false},
		{"objfile", "cmd/internal/objfile", false},
		{"genopenapi", "github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-openapiv2/internal/genopenapi", true},
		{"protogen", "google.golang.org/protobuf/compiler/protogen", false},
	} {
		if got := IsProgram(c.name, c.path); got != c.want {
			t.Errorf("IsProgram(%q, %q) = %v, want %v", c.name, c.path, got, c.want)
		}
	}
}

// TestCommandInternal checks which packages are internal to a command.
func TestCommandInternal(t *testing.T) {
	mains := map[string]bool{"example.com/m/tool": true, "example.com/m": true}
	for path, want := range map[string]bool{
		"example.com/m/tool/internal/render":         true,
		"example.com/m/tool/internal":                true,
		"example.com/m/internal/x":                   true, // the module's root is a command
		"example.com/m/lib/internal/x":               false,
		"example.com/m/tool/internalize":             false,
		"example.com/m/lib/internal/tool/internal/y": false,
		"example.com/m/tool/render":                  false,
	} {
		if got := commandInternal(path, mains); got != want {
			t.Errorf("commandInternal(%q) = %v, want %v", path, got, want)
		}
	}
}
