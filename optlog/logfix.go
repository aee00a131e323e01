package optlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	goparser "go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/goadvise/goadvise/internal/gocmd"
	"github.com/goadvise/goadvise/load"
)

// parseTarget parses the log of one compiled target. It maps the
// positions in the files that cgo generated from the package's files back
// to those files, and recovers the records of files whose log file the
// compiler overwrote (see [pkgLog.headers]).
func (c *collector) parseTarget(t *target) ([]Record, error) {
	// Records name the files the build renamed (see renameFlag), the
	// package's and those of its dependencies, by their new names.
	fix := func(p *Position) { p.File = restoreName(p.File) }
	if t.frontEnd {
		// The export data of the packages the go command compiled as
		// go build does names the standard library's files from
		// $GOROOT; the build with the log names them as they are.
		root := c.env.GOROOT
		fix = func(p *Position) {
			if rest, ok := strings.CutPrefix(p.File, "$GOROOT/"); ok && root != "" {
				p.File = filepath.Join(root, rest)
			} else {
				p.File = restoreName(p.File)
			}
		}
	}
	if t.cgo {
		cgoFix, err := c.cgoFix(t)
		if err != nil {
			return nil, err
		}
		fix = func(p *Position) {
			p.File = restoreName(p.File)
			cgoFix(p)
		}
	}
	l, err := readLog(t.logDirs, t.importPath, fix)
	if err != nil {
		return nil, err
	}
	lost := lostFiles(l.headers, t.files, t.renamed)
	if len(lost) == 0 {
		return l.records, nil
	}
	return c.recoverLost(t, lost, fix)
}

// lostFiles returns the files of the package whose log file names another
// file in its header: a file of another package with the same base name
// (whose code, such as a generic function instantiated here, is compiled
// in this package) was written to it after the package's own, which is
// lost. (If the package's file had no records, nothing is lost, but that
// cannot be told from the log.) A file the build renamed (renamed[f]) has
// a log file of its own, which nothing else can replace.
func lostFiles(headers map[string]string, files []string, renamed map[string]bool) []string {
	var lost []string
	for _, f := range files {
		if renamed[f] {
			continue
		}
		if h, ok := headers[logName(f)]; ok && h != f {
			lost = append(lost, f)
		}
	}
	return lost
}

// recoveries counts the calls of recoverLost, for tests.
var recoveries atomic.Int64

// recoverLost compiles the target again, alone, with the compiler told
// (by -trimpath, which rewrites the file names it records) to name the
// lost files by base names no other file has, and returns the records of
// that compile with the original names. File names do not take part in
// the compiler's decisions: the records are those of the first compile.
func (c *collector) recoverLost(t *target, lost []string, cgoFix func(*Position)) ([]Record, error) {
	recoveries.Add(1)
	dir, err := os.MkdirTemp("", "goadvise-escape-")
	if err != nil {
		return nil, fmt.Errorf("creating compiler log directory: %w", err)
	}
	defer os.RemoveAll(dir)
	orig := make(map[string]string)
	var rewrites []string
	for i, f := range lost {
		renamed := filepath.Join(filepath.Dir(f), fmt.Sprintf("goadvise%d~%s", i, filepath.Base(f)))
		orig[renamed] = f
		rewrites = append(rewrites, f+"=>"+renamed)
	}
	// The flag replaces the go command's own -trimpath, which trims its
	// work directory from the names of generated (cgo) files: cgoFix
	// matches those by base name.
	logDir := filepath.Join(dir, "log")
	flags := gocmd.Quote("-json=0,"+logDir) + c.compileFlags(t) + " " + gocmd.Quote("-trimpath="+strings.Join(rewrites, ";"))
	args := []string{"list", "-e", "-export", "-buildvcs=false", "-json=ImportPath,Error,DepsErrors", "-gcflags=" + t.importPath + "=" + flags, "--", t.importPath}
	if t.test {
		args = []string{"test", "-c", "-o", filepath.Join(dir, "bin") + string(filepath.Separator), "-gcflags=" + t.importPath + "=" + flags, t.forTest}
	}
	cmd := c.goCmd(c.ctx, args...)
	if limit := compileMemoryLimit([]*target{t}); limit != "" && c.tuneGC() && !c.envSet("GOMEMLIMIT") {
		cmd.Env = append(cmd.Environ(), "GOMEMLIMIT="+limit)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := gocmd.Run(cmd); err != nil {
		return nil, fmt.Errorf("%s: the compiler's log lost its records, and compiling the package again failed: %v: %s", lost[0], err, firstLines(stderr.String(), 5))
	}
	fix := func(p *Position) {
		if o, ok := orig[p.File]; ok {
			p.File = o
		}
		if cgoFix != nil {
			cgoFix(p)
		}
	}
	l, err := readLog([]string{logDir}, t.importPath, fix)
	if err != nil {
		return nil, err
	}
	for renamed, f := range orig {
		if h, ok := l.headers[logName(renamed)]; ok && h != renamed {
			return nil, fmt.Errorf("%s: the compiler's optimization log holds the records of %s instead of this file's", f, h)
		}
	}
	return l.records, nil
}

// cgoFix returns a function that maps a position in a file that cgo
// generated from one of the target's files (x.cgo1.go, which the compiler
// compiles and logs, under its base name) to the position in the original
// file, as the //line directives cgo writes into it say, and as the
// compiler reports it with -m. The generated files are those go list
// -compiled names (in the build cache).
func (c *collector) cgoFix(t *target) (func(*Position), error) {
	names, err := c.compiledGoFiles(t)
	if err != nil {
		return nil, err
	}
	own := make(map[string]bool)
	for _, f := range t.files {
		own[f] = true
	}
	fset := token.NewFileSet()
	gen := make(map[string]*token.File) // by the generated file's base name
	for _, name := range names {
		if own[name] {
			continue // a file compiled as it is
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("reading cgo output: %w", err)
		}
		orig := cgoOriginal(src)
		if !own[orig] {
			continue // _cgo_gotypes.go, _cgo_imports.go
		}
		f, err := goparser.ParseFile(fset, name, src, goparser.SkipObjectResolution|goparser.ParseComments)
		if err != nil && f == nil {
			return nil, fmt.Errorf("%s: parsing cgo output: %v", orig, err)
		}
		gen[strings.TrimSuffix(filepath.Base(orig), ".go")+".cgo1.go"] = fset.File(f.FileStart)
	}
	if len(gen) == 0 {
		return nil, errors.New("go list -compiled names no cgo output of the package's cgo files")
	}
	return func(p *Position) {
		tf := gen[p.File]
		if tf == nil && filepath.IsAbs(p.File) {
			tf = gen[filepath.Base(p.File)] // named in a work directory: see recoverLost
		}
		if tf == nil || p.Line < 1 || p.Line > tf.LineCount() || p.Col < 1 {
			return
		}
		off := tf.Offset(tf.LineStart(p.Line)) + p.Col - 1
		if off > tf.Size() {
			return
		}
		m := tf.PositionFor(tf.Pos(off), true)
		p.File, p.Line = m.Filename, m.Line
		if m.Column > 0 {
			p.Col = m.Column
		}
	}, nil
}

// cgoOriginal returns the file named by the first //line directive of a
// file cgo generated, or "".
func cgoOriginal(src []byte) string {
	if !bytes.HasPrefix(src, []byte("// Code generated by cmd/cgo; DO NOT EDIT.")) {
		return ""
	}
	i := bytes.Index(src, []byte("\n//line "))
	if i < 0 {
		return ""
	}
	line := src[i+len("\n//line "):]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	// "/dir/x.go:1:1"
	s := string(line)
	for range 2 {
		if k := strings.LastIndexByte(s, ':'); k >= 0 {
			s = s[:k]
		}
	}
	return s
}

// compiledGoFiles returns the Go files the compiler compiled for t: for a
// cgo package, the files cgo generated. They come from the build's own
// listing when it has one (go list -compiled for each cgo package of std
// took 0.3 to 0.5 s, seven times), or else from go list.
func (c *collector) compiledGoFiles(t *target) ([]string, error) {
	if c.listing != nil && !t.test {
		c.compiledOnce.Do(func() { c.compiled = decodeCompiled(c.listing) })
		if names, ok := c.compiled[t.importPath]; ok {
			return names, nil
		}
	}
	compiledLists.Add(1)
	return load.CompiledGoFiles(c.ctx, load.ListOptions{Dir: c.opts.Dir, Env: c.opts.Env}, t.importPath)
}

// compiledLists counts the go list runs of compiledGoFiles, for tests.
var compiledLists atomic.Int64

// decodeCompiled returns the absolute names of the CompiledGoFiles of each
// package of a go list -json listing, by import path. A listing it cannot
// decode gives what it decoded before.
func decodeCompiled(listing []byte) map[string][]string {
	m := make(map[string][]string)
	dec := json.NewDecoder(bytes.NewReader(listing))
	for {
		var p struct {
			ImportPath, Dir string
			CompiledGoFiles []string
		}
		if err := dec.Decode(&p); err != nil {
			return m
		}
		for i, f := range p.CompiledGoFiles {
			if !filepath.IsAbs(f) {
				p.CompiledGoFiles[i] = filepath.Join(p.Dir, f)
			}
		}
		m[p.ImportPath] = p.CompiledGoFiles
	}
}
