// Package config reads goadvise's configuration file, .goadvise.yaml (or
// goadvise.yaml), which gives goadvise check defaults that its flags
// override: the analyzers to run and their flags, files whose findings are
// dropped, the SARIF level of each tier, and a -new-from-rev revision.
//
// The file is looked for in the module's root directory and the
// directories above it, up to the top of the git repository or the root
// of the file system, as staticcheck looks for staticcheck.conf. See
// docs/config.md; docs/config.schema.json is its JSON schema.
package config

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/goadvise/goadvise/analyzer/kind"
)

// FileNames are the names of a configuration file, in the order they are
// looked for in each directory.
var FileNames = []string{".goadvise.yaml", "goadvise.yaml"}

// The keys of a configuration file.
const (
	KeyEnable      = "enable"
	KeyDisable     = "disable"
	KeyAnalyzers   = "analyzers"
	KeyExclude     = "exclude"
	KeySARIFLevels = "sarif-levels"
	KeyNewFromRev  = "new-from-rev"
)

// Keys are the keys of a configuration file, in the order they are
// documented and printed.
var Keys = []string{KeyEnable, KeyDisable, KeyAnalyzers, KeyExclude, KeySARIFLevels, KeyNewFromRev}

// Levels are the SARIF levels a tier can be given.
var Levels = []string{"error", "warning", "note", "none"}

// Tiers returns the tiers of findings, from the hottest: the keys of
// sarif-levels.
func Tiers() []string { return slices.Clone(kind.Tiers) }

// A Config is the content of a configuration file.
type Config struct {
	// Path is the file's absolute path, or empty if there is no file.
	Path string

	Enable  []string // analyzers and whole-program passes to run (-enable)
	Disable []string // analyzers and passes not to run (-disable)

	// Analyzers are analyzers' flags: Analyzers["heapescape"]["all"] is
	// the value of -heapescape.all.
	Analyzers map[string]map[string]Value

	// Exclude are slash-separated path globs, relative to the file's
	// directory, of files whose findings are dropped (see Excluded).
	Exclude []string

	// SARIFLevels maps a tier to the SARIF level of its findings.
	SARIFLevels map[string]string

	NewFromRev string // default of -new-from-rev

	lines map[string]int // line of each key, "enable" or "enable.2" (an element)
}

// A Value is the value of an analyzer's flag in the file.
type Value struct {
	Value string
	Line  int
}

// Find returns the path of the configuration file for the module whose
// root directory is dir: the first of FileNames in dir or the nearest
// directory above it, stopping after a directory that holds .git (the top
// of a repository) or at the root of the file system. It returns "" if
// there is none.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		for _, name := range FileNames {
			p := filepath.Join(dir, name)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p, nil
			} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Load reads the configuration file for the module whose root directory
// is dir (see Find). Without a file it returns an empty Config.
func Load(dir string) (*Config, error) {
	p, err := Find(dir)
	if err != nil {
		return nil, fmt.Errorf("looking for %s: %w", FileNames[0], err)
	}
	if p == "" {
		return &Config{}, nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return Parse(p, data)
}

// Parse parses data, the content of the configuration file at path. An
// error names the file and the line: "path:3: unknown key "enabled"".
func Parse(file string, data []byte) (*Config, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	c := &Config{Path: abs, lines: make(map[string]int)}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, syntaxError(file, data, err)
	}
	if len(doc.Content) == 0 {
		return c, nil // an empty file
	}
	top := doc.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return c, nil // only comments
	}
	errorf := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", file, n.Line, fmt.Sprintf(format, args...))
	}
	if top.Kind != yaml.MappingNode {
		return nil, errorf(top, "want a mapping of keys (%s)", strings.Join(Keys, ", "))
	}
	seen := make(map[string]bool)
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if !slices.Contains(Keys, k.Value) {
			return nil, errorf(k, "unknown key %q (known: %s)", k.Value, strings.Join(Keys, ", "))
		}
		if seen[k.Value] {
			return nil, errorf(k, "key %q given twice", k.Value)
		}
		seen[k.Value] = true
		c.lines[k.Value] = k.Line
		switch k.Value {
		case KeyEnable, KeyDisable, KeyExclude:
			list, lines, err := stringList(file, k.Value, v)
			if err != nil {
				return nil, err
			}
			for j, l := range lines {
				c.lines[k.Value+"."+strconv.Itoa(j)] = l
			}
			switch k.Value {
			case KeyEnable:
				c.Enable = list
			case KeyDisable:
				c.Disable = list
			default:
				for j, p := range list {
					if err := checkGlob(p); err != nil {
						return nil, fmt.Errorf("%s:%d: exclude %q: %v", file, lines[j], p, err)
					}
				}
				c.Exclude = list
			}
		case KeyNewFromRev:
			if v.Kind != yaml.ScalarNode {
				return nil, errorf(v, "%s: want a git revision", k.Value)
			}
			c.NewFromRev = v.Value
		case KeySARIFLevels:
			m, err := mapping(file, k.Value, v)
			if err != nil {
				return nil, err
			}
			c.SARIFLevels = make(map[string]string)
			for j := 0; j+1 < len(m); j += 2 {
				tk, tv := m[j], m[j+1]
				if !slices.Contains(Tiers(), tk.Value) {
					return nil, errorf(tk, "%s: unknown tier %q (known: %s)", k.Value, tk.Value, strings.Join(Tiers(), ", "))
				}
				if tv.Kind != yaml.ScalarNode || !slices.Contains(Levels, tv.Value) {
					return nil, errorf(tv, "%s: %s: level %q is not one of %s", k.Value, tk.Value, tv.Value, strings.Join(Levels, ", "))
				}
				c.SARIFLevels[tk.Value] = tv.Value
			}
		case KeyAnalyzers:
			m, err := mapping(file, k.Value, v)
			if err != nil {
				return nil, err
			}
			c.Analyzers = make(map[string]map[string]Value)
			for j := 0; j+1 < len(m); j += 2 {
				ak, av := m[j], m[j+1]
				c.lines[k.Value+"."+ak.Value] = ak.Line
				flags, err := mapping(file, k.Value+"."+ak.Value, av)
				if err != nil {
					return nil, err
				}
				c.Analyzers[ak.Value] = make(map[string]Value)
				for l := 0; l+1 < len(flags); l += 2 {
					fk, fv := flags[l], flags[l+1]
					if fv.Kind != yaml.ScalarNode {
						return nil, errorf(fv, "%s.%s.%s: want a flag's value (a boolean, number or string)", k.Value, ak.Value, fk.Value)
					}
					c.Analyzers[ak.Value][fk.Value] = Value{Value: fv.Value, Line: fk.Line}
				}
			}
		}
	}
	return c, nil
}

// stringList decodes a list of strings, or a single string, and returns
// them with their lines.
func stringList(file, key string, n *yaml.Node) ([]string, []int, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil, nil, nil
		}
		n = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{n}}
	case yaml.SequenceNode:
	default:
		return nil, nil, fmt.Errorf("%s:%d: %s: want a list of strings", file, n.Line, key)
	}
	var out []string
	var lines []int
	for _, e := range n.Content {
		if e.Kind != yaml.ScalarNode || e.Value == "" {
			return nil, nil, fmt.Errorf("%s:%d: %s: want a list of strings", file, e.Line, key)
		}
		if tag := e.ShortTag(); tag != "!!str" {
			// enable: 5, exclude: [2024]: a string only when quoted.
			return nil, nil, fmt.Errorf("%s:%d: %s: want a list of strings, not %s (%s); quote a string that YAML reads as another type", file, e.Line, key, e.Value, strings.TrimPrefix(tag, "!!"))
		}
		out = append(out, e.Value)
		lines = append(lines, e.Line)
	}
	return out, lines, nil
}

// syntaxError returns the error of a file that the YAML parser refused
// with err, as "file:line: problem". The parser's message names the line
// of the construct it was reading, which is not always the problem's: a
// tab that breaks the indentation of a list is reported on the line of the
// item before, and a problem on the first line is reported with no line.
// The line given is the first, from the message's on, after which the
// file cut short is refused with the same problem: where the parser
// stopped.
func syntaxError(file string, data []byte, err error) error {
	from, problem := yamlProblem(err)
	line := from
	if len(data) <= 1<<20 { // else parsing every prefix costs too much: keep the message's line
		lines := bytes.SplitAfter(data, []byte("\n"))
		for k := max(from, 1); k <= len(lines); k++ {
			var doc yaml.Node
			if err := yaml.Unmarshal(bytes.Join(lines[:k], nil), &doc); err != nil {
				if _, p := yamlProblem(err); p == problem {
					line = k
					if indent := len(lines[k-1]) - len(bytes.TrimLeft(lines[k-1], " \t")); bytes.IndexByte(lines[k-1][:indent], '\t') >= 0 {
						problem += " (YAML indents with spaces, not tabs)"
					}
					break
				}
			}
		}
	}
	if line == 0 {
		return fmt.Errorf("%s: %s", file, problem)
	}
	return fmt.Errorf("%s:%d: %s", file, line, problem)
}

// yamlProblem splits an error of yaml.Unmarshal, "yaml: line 3: found
// character that cannot start any token", into the line it names (0 for
// none) and the problem, on one line.
func yamlProblem(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, p, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(n); err == nil {
				return line, strings.ReplaceAll(p, "\n", "; ")
			}
		}
	}
	return 0, strings.ReplaceAll(msg, "\n", "; ")
}

// mapping returns the keys and values of a mapping node, alternating, or
// nothing for an empty value.
func mapping(file, key string, n *yaml.Node) ([]*yaml.Node, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: %s: want a mapping", file, n.Line, key)
	}
	seen := make(map[string]bool)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if seen[k.Value] {
			return nil, fmt.Errorf("%s:%d: %s: key %q given twice", file, k.Line, key, k.Value)
		}
		seen[k.Value] = true
	}
	return n.Content, nil
}

// line returns the line of a key of the file, or 0.
func (c *Config) line(key string) int { return c.lines[key] }

// Where names the file and line of a key (as "enable", or "enable.2" for
// its third element), for an error: "FILE:LINE", or "FILE" if the key
// is not in the file.
func (c *Config) Where(key string) string {
	if l := c.line(key); l > 0 {
		return fmt.Sprintf("%s:%d", c.Path, l)
	}
	return c.Path
}

// Apply sets the flags of fs that were not given on the command line
// (after fs.Parse) from c: -enable, -disable, -new-from-rev and the
// analyzers' flags -NAME.FLAG. names are the analyzers and passes that
// enable, disable and analyzers may name. An error names the file and
// line of the key at fault.
func (c *Config) Apply(fs *flag.FlagSet, names []string) error {
	if c.Path == "" {
		return nil
	}
	given := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	set := func(name, value, key string) error {
		if given[name] {
			return nil // the command line wins
		}
		if fs.Lookup(name) == nil {
			return fmt.Errorf("%s: goadvise check has no flag -%s", c.Where(key), name)
		}
		if err := fs.Set(name, value); err != nil {
			return fmt.Errorf("%s: -%s: %v", c.Where(key), name, err)
		}
		return nil
	}
	for _, key := range []string{KeyEnable, KeyDisable} {
		list := c.Enable
		if key == KeyDisable {
			list = c.Disable
		}
		for i, n := range list {
			if !slices.Contains(names, n) {
				return fmt.Errorf("%s: %s: unknown analyzer %q", c.Where(key+"."+strconv.Itoa(i)), key, n)
			}
		}
		if list != nil {
			if err := set(key, strings.Join(list, ","), key); err != nil {
				return err
			}
		}
	}
	if c.NewFromRev != "" {
		if err := set("new-from-rev", c.NewFromRev, KeyNewFromRev); err != nil {
			return err
		}
	}
	for _, a := range sortedKeys(c.Analyzers) {
		if !slices.Contains(names, a) {
			return fmt.Errorf("%s: %s: unknown analyzer %q", c.Where(KeyAnalyzers+"."+a), KeyAnalyzers, a)
		}
		for _, f := range sortedKeys(c.Analyzers[a]) {
			v := c.Analyzers[a][f]
			name := a + "." + f
			if given[name] {
				continue
			}
			where := fmt.Sprintf("%s:%d", c.Path, v.Line)
			if fs.Lookup(name) == nil {
				return fmt.Errorf("%s: %s: analyzer %s has no flag %q for goadvise check", where, KeyAnalyzers, a, f)
			}
			if err := fs.Set(name, v.Value); err != nil {
				return fmt.Errorf("%s: %s.%s.%s: %v", where, KeyAnalyzers, a, f, err)
			}
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkGlob reports whether p is a valid exclude pattern.
func checkGlob(p string) error {
	if path.IsAbs(p) || filepath.IsAbs(p) {
		return errors.New("want a path relative to the configuration file's directory")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return errors.New("want a path inside the configuration file's directory")
		}
		if _, err := path.Match(seg, ""); err != nil {
			return err
		}
	}
	return nil
}

// Excluded reports whether the findings in file, an absolute path, are
// dropped: whether its path relative to the configuration file's
// directory matches one of the Exclude globs. A glob is a path of
// slash-separated elements as for path.Match, in which "**" matches any
// number of directories; a glob that matches a directory excludes the
// files under it ("internal/gen" is "internal/gen/**").
func (c *Config) Excluded(file string) bool {
	if c.Path == "" || len(c.Exclude) == 0 {
		return false
	}
	dir := filepath.Dir(c.Path)
	rel, ok := relative(dir, file)
	if !ok {
		// The same file under other names (symbolic links)?
		d, err1 := filepath.EvalSymlinks(dir)
		f, err2 := filepath.EvalSymlinks(file)
		if err1 != nil || err2 != nil {
			return false
		}
		if rel, ok = relative(d, f); !ok {
			return false
		}
	}
	elems := strings.Split(rel, "/")
	for _, p := range c.Exclude {
		if matchPrefix(strings.Split(strings.TrimPrefix(path.Clean(p), "./"), "/"), elems) {
			return true
		}
	}
	return false
}

// relative returns file's slash-separated path relative to dir, and
// whether it is inside dir.
func relative(dir, file string) (string, bool) {
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// matchPrefix reports whether the glob's elements match elems or leading
// elements of it (a directory of the file).
func matchPrefix(glob, elems []string) bool {
	if len(glob) == 0 {
		return true
	}
	if glob[0] == "**" {
		for i := 0; i <= len(elems); i++ {
			if matchPrefix(glob[1:], elems[i:]) {
				return true
			}
		}
		return false
	}
	if len(elems) == 0 {
		return false
	}
	if ok, _ := path.Match(glob[0], elems[0]); !ok {
		return false
	}
	return matchPrefix(glob[1:], elems[1:])
}

// Effective describes the configuration a run uses, from the file and the
// command line, for goadvise check -config.
type Effective struct {
	File        string                       // the configuration file, or ""
	Searched    string                       // the directory the file was looked for from
	Enable      []string                     // analyzers and passes to run; empty: all analyzers
	Disable     []string                     // analyzers and passes not to run
	Analyzers   map[string]map[string]string // flags set by the file or the command line
	Exclude     []string
	SARIFLevels map[string]string // the level of every tier
	NewFromRev  string
}

// Effective returns the configuration in effect after Apply: the flags of
// fs (-enable, -disable, -new-from-rev, and -NAME.FLAG of the analyzers
// names, those the file or the command line set), the file's exclude
// globs, and where the file was looked for from (searched). The SARIF
// levels are left to the caller, who knows their defaults.
func (c *Config) Effective(fs *flag.FlagSet, names []string, searched string) *Effective {
	e := &Effective{
		File:        c.Path,
		Searched:    searched,
		Analyzers:   make(map[string]map[string]string),
		Exclude:     c.Exclude,
		SARIFLevels: make(map[string]string),
	}
	list := func(name string) []string {
		var out []string
		if f := fs.Lookup(name); f != nil {
			for _, x := range strings.Split(f.Value.String(), ",") {
				if x = strings.TrimSpace(x); x != "" {
					out = append(out, x)
				}
			}
		}
		return out
	}
	e.Enable, e.Disable = list(KeyEnable), list(KeyDisable)
	if f := fs.Lookup(KeyNewFromRev); f != nil {
		e.NewFromRev = f.Value.String()
	}
	fs.Visit(func(f *flag.Flag) {
		for _, a := range names {
			if name, ok := strings.CutPrefix(f.Name, a+"."); ok {
				if e.Analyzers[a] == nil {
					e.Analyzers[a] = make(map[string]string)
				}
				e.Analyzers[a][name] = f.Value.String()
			}
		}
	})
	return e
}

// Write writes e as a configuration file that has the same effect as the
// run's file and flags, with a comment that names the file.
func (e *Effective) Write(w io.Writer) error {
	var b bytes.Buffer
	if e.File != "" {
		fmt.Fprintf(&b, "# goadvise check's configuration: %s and the command line\n", e.File)
	} else {
		fmt.Fprintf(&b, "# goadvise check's configuration: the command line (no %s found from %s up)\n",
			strings.Join(FileNames, " or "), e.Searched)
	}
	doc := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) {
		doc.Content = append(doc.Content, str(key), v)
	}
	list := func(xs []string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, x := range xs {
			n.Content = append(n.Content, str(x))
		}
		return n
	}
	add(KeyEnable, list(e.Enable))
	add(KeyDisable, list(e.Disable))
	an := &yaml.Node{Kind: yaml.MappingNode}
	for _, a := range sortedKeys(e.Analyzers) {
		fn := &yaml.Node{Kind: yaml.MappingNode}
		for _, f := range sortedKeys(e.Analyzers[a]) {
			fn.Content = append(fn.Content, str(f), str(e.Analyzers[a][f]))
		}
		an.Content = append(an.Content, str(a), fn)
	}
	if len(an.Content) == 0 {
		an.Style = yaml.FlowStyle
	}
	add(KeyAnalyzers, an)
	add(KeyExclude, list(e.Exclude))
	ln := &yaml.Node{Kind: yaml.MappingNode}
	for _, t := range Tiers() {
		if l, ok := e.SARIFLevels[t]; ok {
			ln.Content = append(ln.Content, str(t), str(l))
		}
	}
	add(KeySARIFLevels, ln)
	add(KeyNewFromRev, str(e.NewFromRev))
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// str returns a scalar node, which the encoder quotes where YAML would
// read it otherwise.
func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: s}
	if s == "" {
		n.Style = yaml.DoubleQuotedStyle // "", not an empty value
	}
	return n
}
