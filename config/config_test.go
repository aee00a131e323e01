package config

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const full = `# goadvise's configuration
enable: [deepequal, heapescape, devirt]
disable:
  - inlinebudget
analyzers:
  heapescape:
    all: true
  hotpath:
    profile: cpu.pprof
exclude:
  - internal/gen/**
  - "*.pb.go"
sarif-levels:
  hot-loop: error
  cold: none
new-from-rev: origin/main
`

func TestParse(t *testing.T) {
	c, err := Parse("/m/.goadvise.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Path:      "/m/.goadvise.yaml",
		Enable:    []string{"deepequal", "heapescape", "devirt"},
		Disable:   []string{"inlinebudget"},
		Analyzers: map[string]map[string]Value{"heapescape": {"all": {"true", 7}}, "hotpath": {"profile": {"cpu.pprof", 9}}},
		Exclude:   []string{"internal/gen/**", "*.pb.go"},
		SARIFLevels: map[string]string{
			"hot-loop": "error",
			"cold":     "none",
		},
		NewFromRev: "origin/main",
	}
	c.lines = nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Parse:\n got %+v\nwant %+v", c, want)
	}

	for _, empty := range []string{"", "# nothing yet\n", "enable:\nexclude:\n"} {
		c, err := Parse("/m/goadvise.yaml", []byte(empty))
		if err != nil || len(c.Enable)+len(c.Exclude) != 0 || c.Path != "/m/goadvise.yaml" {
			t.Errorf("Parse(%q) = %+v, %v; want an empty configuration", empty, c, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"enable: [deepequal]\nenabled: [heapescape]\n", `/m/.goadvise.yaml:2: unknown key "enabled" (known: enable, disable, analyzers, exclude, sarif-levels, new-from-rev)`},
		{"sarif-levels:\n  hot: error\n", `/m/.goadvise.yaml:2: sarif-levels: unknown tier "hot" (known: hot-loop, per-item, unknown, cold)`},
		{"sarif-levels:\n  hot-loop: fatal\n", `/m/.goadvise.yaml:2: sarif-levels: hot-loop: level "fatal" is not one of error, warning, note, none`},
		{"exclude:\n  - gen/[\n", `/m/.goadvise.yaml:2: exclude "gen/[": syntax error in pattern`},
		{"exclude: [../other]\n", `/m/.goadvise.yaml:1: exclude "../other": want a path inside the configuration file's directory`},
		{"enable: a\nenable: b\n", `/m/.goadvise.yaml:2: key "enable" given twice`},
		{"analyzers:\n  heapescape: true\n", `/m/.goadvise.yaml:2: analyzers.heapescape: want a mapping`},
		{"analyzers:\n  heapescape:\n    all: [true]\n", `/m/.goadvise.yaml:3: analyzers.heapescape.all: want a flag's value (a boolean, number or string)`},
		{"enable: {deepequal: true}\n", `/m/.goadvise.yaml:1: enable: want a list of strings`},
		{"- deepequal\n", `/m/.goadvise.yaml:1: want a mapping of keys (enable, disable, analyzers, exclude, sarif-levels, new-from-rev)`},
		{"enable: [deepequal\n", `/m/.goadvise.yaml:1: did not find expected ',' or ']'`},
		// Tabs: the line is the tab's, also on the first line and where the
		// parser names the line before.
		{"enable: [a]\n\tdisable: [b]\n", `/m/.goadvise.yaml:2: found character that cannot start any token (YAML indents with spaces, not tabs)`},
		{"\tenable: [heapescape]\n", `/m/.goadvise.yaml:1: found character that cannot start any token (YAML indents with spaces, not tabs)`},
		{"exclude:\n  - a\n\t- b\n", `/m/.goadvise.yaml:3: found a tab character that violates indentation (YAML indents with spaces, not tabs)`},
		{"# tabs\nanalyzers:\n\theapescape:\n\t\tall: true\n", `/m/.goadvise.yaml:3: found character that cannot start any token (YAML indents with spaces, not tabs)`},
		{"sarif-levels:\n    hot-loop: error\n\tcold: none\n", `/m/.goadvise.yaml:3: found a tab character that violates indentation (YAML indents with spaces, not tabs)`},
		{"enable: 'deepequal\n\n", `/m/.goadvise.yaml:3: found unexpected end of stream`},
		// Wrong types.
		{"enable: 5\n", `/m/.goadvise.yaml:1: enable: want a list of strings, not 5 (int); quote a string that YAML reads as another type`},
		{"disable:\n  - heapescape\n  - true\n", `/m/.goadvise.yaml:3: disable: want a list of strings, not true (bool); quote a string that YAML reads as another type`},
		{"exclude: [gen, 2024]\n", `/m/.goadvise.yaml:1: exclude: want a list of strings, not 2024 (int); quote a string that YAML reads as another type`},
	} {
		_, err := Parse("/m/.goadvise.yaml", []byte(tc.data))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q):\n got error %v\nwant %s", tc.data, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): error of more than one line: %q", tc.data, err)
		}
	}
}

// write creates the files, with their parent directories, under dir.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		from  string // the module's root
		want  string // "" for none
	}{
		{"in the module", map[string]string{"repo/.git/HEAD": "", "repo/m/.goadvise.yaml": "", "repo/m/go.mod": ""}, "repo/m", "repo/m/.goadvise.yaml"},
		{"above the module", map[string]string{"repo/.git/HEAD": "", "repo/goadvise.yaml": "", "repo/m/go.mod": ""}, "repo/m", "repo/goadvise.yaml"},
		{"nearest first", map[string]string{"repo/.git/HEAD": "", "repo/.goadvise.yaml": "", "repo/a/goadvise.yaml": "", "repo/a/m/go.mod": ""}, "repo/a/m", "repo/a/goadvise.yaml"},
		{"dotted name first", map[string]string{"repo/.git/HEAD": "", "repo/.goadvise.yaml": "", "repo/goadvise.yaml": ""}, "repo", "repo/.goadvise.yaml"},
		{"not above the repository", map[string]string{".goadvise.yaml": "", "repo/.git/HEAD": "", "repo/m/go.mod": ""}, "repo/m", ""},
		{"a worktree's .git file is its top", map[string]string{".goadvise.yaml": "", "wt/.git": "gitdir: ../.git/worktrees/wt", "wt/m/go.mod": ""}, "wt/m", ""},
		{"a directory is not a file", map[string]string{"repo/.git/HEAD": "", "repo/.goadvise.yaml/x": ""}, "repo", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tc.files)
			got, err := Find(filepath.Join(dir, tc.from))
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if tc.want != "" {
				want = filepath.Join(dir, tc.want)
			}
			if got != want {
				t.Errorf("Find = %q, want %q", got, want)
			}
		})
	}
	// Up to the root of the file system, without a repository: Find
	// finds no file above t.TempDir() in a test's environment, or the
	// one there is.
	dir := t.TempDir()
	if _, err := Find(dir); err != nil {
		t.Errorf("Find outside a repository: %v", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{".git/HEAD": "", "m/go.mod": "", "goadvise.yaml": "enable: deepequal\nexclude: [gen]\n"})
	c, err := Load(filepath.Join(dir, "m"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != filepath.Join(dir, "goadvise.yaml") || !slices.Equal(c.Enable, []string{"deepequal"}) {
		t.Errorf("Load = %+v", c)
	}
	write(t, dir, map[string]string{"goadvise.yaml": "enable: deepequal\nexlude: [gen]\n"})
	_, err = Load(filepath.Join(dir, "m"))
	if want := filepath.Join(dir, "goadvise.yaml") + `:2: unknown key "exlude"`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Load of a mistyped key: %v, want %s ...", err, want)
	}
	empty := t.TempDir()
	write(t, empty, map[string]string{".git/HEAD": "", "m/go.mod": ""})
	c, err = Load(filepath.Join(empty, "m"))
	if err != nil || c.Path != "" {
		t.Errorf("Load without a file = %+v, %v; want an empty configuration", c, err)
	}
}

func TestExcluded(t *testing.T) {
	c := &Config{Path: "/m/.goadvise.yaml", Exclude: []string{"internal/gen/**", "*.pb.go", "cmd/tool", "**/zz_*.go", "./legacy/*/old.go"}}
	for file, want := range map[string]bool{
		"/m/internal/gen/a.go":       true,
		"/m/internal/gen/sub/b.go":   true,
		"/m/internal/generate/a.go":  false,
		"/m/x.pb.go":                 true,
		"/m/api/x.pb.go":             false, // * does not cross directories
		"/m/cmd/tool/main.go":        true,  // a directory's files
		"/m/cmd/tool2/main.go":       false,
		"/m/zz_gen.go":               true,
		"/m/a/b/zz_gen.go":           true,
		"/m/legacy/v1/old.go":        true,
		"/m/legacy/v1/new.go":        false,
		"/other/internal/gen/a.go":   false, // outside the file's directory
		"/m/internal/gen":            true,
		"/m/internal/gen_test/a.go":  false,
		"/m/main.go":                 false,
		"/m/internal/gen/../keep.go": false, // /m/internal/keep.go
	} {
		if got := c.Excluded(filepath.FromSlash(file)); got != want {
			t.Errorf("Excluded(%s) = %v, want %v", file, got, want)
		}
	}
	if (&Config{Exclude: []string{"**"}}).Excluded("/m/a.go") {
		t.Error("a configuration without a file excludes files")
	}
}

// flags returns a flag set like goadvise check's, parsed from args.
func flags(t *testing.T, args ...string) *flag.FlagSet {
	t.Helper()
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.String("enable", "", "")
	fs.String("disable", "", "")
	fs.String("new-from-rev", "", "")
	fs.Bool("heapescape.all", false, "")
	fs.Bool("heapescape.cold", false, "")
	fs.String("hotpath.profile", "", "")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fs
}

var names = []string{"deepequal", "heapescape", "hotpath", "inlinebudget", "devirt"}

func TestApply(t *testing.T) {
	c, err := Parse("/m/.goadvise.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	get := func(fs *flag.FlagSet, name string) string { return fs.Lookup(name).Value.String() }

	fs := flags(t)
	if err := c.Apply(fs, names); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"enable":          "deepequal,heapescape,devirt",
		"disable":         "inlinebudget",
		"new-from-rev":    "origin/main",
		"heapescape.all":  "true",
		"heapescape.cold": "false",
		"hotpath.profile": "cpu.pprof",
	} {
		if got := get(fs, name); got != want {
			t.Errorf("from the file: -%s = %q, want %q", name, got, want)
		}
	}

	// Flags override the file, each on its own.
	fs = flags(t, "-enable=heapescape", "-heapescape.all=false", "-new-from-rev=")
	if err := c.Apply(fs, names); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"enable":          "heapescape",
		"disable":         "inlinebudget",
		"new-from-rev":    "",
		"heapescape.all":  "false",
		"hotpath.profile": "cpu.pprof",
	} {
		if got := get(fs, name); got != want {
			t.Errorf("with flags: -%s = %q, want %q", name, got, want)
		}
	}

	// What is in effect: the flags as the file and the command line set
	// them, the file's exclusions.
	e := c.Effective(fs, names, "/m")
	if e.File != "/m/.goadvise.yaml" || e.Searched != "/m" || strings.Join(e.Enable, ",") != "heapescape" ||
		strings.Join(e.Disable, ",") != "inlinebudget" || e.NewFromRev != "" || !slices.Equal(e.Exclude, c.Exclude) ||
		e.Analyzers["heapescape"]["all"] != "false" || e.Analyzers["hotpath"]["profile"] != "cpu.pprof" || len(e.SARIFLevels) != 0 {
		t.Errorf("Effective = %+v", e)
	}

	for _, tc := range []struct{ data, want string }{
		{"enable: [deepequal, deepequl]\n", `/m/.goadvise.yaml:1: enable: unknown analyzer "deepequl"`},
		{"# one name\nenable: deepequl\n", `/m/.goadvise.yaml:2: enable: unknown analyzer "deepequl"`},
		{"disable:\n  - heapescape\n  - smallaloc\n", `/m/.goadvise.yaml:3: disable: unknown analyzer "smallaloc"`},
		{"analyzers:\n  heapescap:\n    all: true\n", `/m/.goadvise.yaml:2: analyzers: unknown analyzer "heapescap"`},
		{"analyzers:\n  heapescape:\n    al: true\n", `/m/.goadvise.yaml:3: analyzers: analyzer heapescape has no flag "al" for goadvise check`},
		{"analyzers:\n  heapescape:\n    all: maybe\n", `/m/.goadvise.yaml:3: analyzers.heapescape.all: parse error`},
	} {
		c, err := Parse("/m/.goadvise.yaml", []byte(tc.data))
		if err != nil {
			t.Fatal(err)
		}
		err = c.Apply(flags(t), names)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Apply of %q:\n got error %v\nwant %s", tc.data, err, tc.want)
		}
	}
}

// TestSchema checks that docs/config.schema.json is JSON and describes
// the keys, tiers and levels Parse knows, no more, no less.
func TestSchema(t *testing.T) {
	data, err := os.ReadFile("../docs/config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	type object struct {
		Type                 any                        `json:"type"`
		AdditionalProperties any                        `json:"additionalProperties"`
		Properties           map[string]json.RawMessage `json:"properties"`
		Enum                 []string                   `json:"enum"`
	}
	var schema struct {
		object
		Defs map[string]object `json:"$defs"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&schema); err != nil {
		t.Fatalf("docs/config.schema.json: %v", err)
	}
	if schema.Type != "object" || schema.AdditionalProperties != false {
		t.Errorf("schema: type %v, additionalProperties %v; want an object without other keys", schema.Type, schema.AdditionalProperties)
	}
	keys := func(m map[string]json.RawMessage) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	sorted := func(xs []string) []string { return slices.Sorted(slices.Values(xs)) }
	if got, want := keys(schema.Properties), sorted(Keys); !slices.Equal(got, want) {
		t.Errorf("schema's keys %v, the parser's %v", got, want)
	}
	var levels object
	if err := json.Unmarshal(schema.Properties[KeySARIFLevels], &levels); err != nil {
		t.Fatal(err)
	}
	if got, want := keys(levels.Properties), sorted(Tiers()); !slices.Equal(got, want) {
		t.Errorf("schema's tiers %v, the parser's %v", got, want)
	}
	if got := schema.Defs["level"].Enum; !slices.Equal(got, Levels) {
		t.Errorf("schema's levels %v, the parser's %v", got, Levels)
	}
	// Every key is documented in docs/config.md.
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Keys {
		if !bytes.Contains(doc, []byte("`"+k+"`")) {
			t.Errorf("docs/config.md does not document %s", k)
		}
	}
}

// TestEffective checks that the effective configuration is printed as
// a file that Parse reads back as the same configuration.
func TestEffective(t *testing.T) {
	e := &Effective{
		File:        "/m/.goadvise.yaml",
		Enable:      []string{"deepequal"},
		Analyzers:   map[string]map[string]string{"heapescape": {"all": "true", "cold": "false"}, "hotpath": {"profile": "a b: c.pprof"}},
		Exclude:     []string{"*.pb.go"},
		SARIFLevels: map[string]string{"hot-loop": "warning", "per-item": "warning", "unknown": "note", "cold": "none"},
	}
	var b bytes.Buffer
	if err := e.Write(&b); err != nil {
		t.Fatal(err)
	}
	want := `# goadvise check's configuration: /m/.goadvise.yaml and the command line
enable: [deepequal]
disable: []
analyzers:
  heapescape:
    all: true
    cold: false
  hotpath:
    profile: 'a b: c.pprof'
exclude: ['*.pb.go']
sarif-levels:
  hot-loop: warning
  per-item: warning
  unknown: note
  cold: none
new-from-rev: ""
`
	if b.String() != want {
		t.Errorf("Write:\n%s\nwant:\n%s", b.String(), want)
	}
	c, err := Parse("/m/.goadvise.yaml", b.Bytes())
	if err != nil {
		t.Fatalf("Parse of the effective configuration: %v", err)
	}
	if !slices.Equal(c.Enable, e.Enable) || !slices.Equal(c.Exclude, e.Exclude) ||
		!reflect.DeepEqual(c.SARIFLevels, e.SARIFLevels) || c.Analyzers["hotpath"]["profile"].Value != "a b: c.pprof" {
		t.Errorf("Parse of the effective configuration = %+v", c)
	}
}
