package optlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The compiler's optimization log (-json=0,DIR) is one directory per
// package (named by the URL-escaped package path) holding one file per
// source file: a version header line followed by one LSP-style Diagnostic
// per line. The types below mirror cmd/compile/internal/logopt.

type logHeader struct {
	Version   *int   `json:"version"`
	Package   string `json:"package"`
	Goos      string `json:"goos"`
	Goarch    string `json:"goarch"`
	GcVersion string `json:"gc_version"`
	File      string `json:"file"`
}

type logPos struct {
	Line int `json:"line"`
	Char int `json:"character"`
}

type logRange struct {
	Start logPos `json:"start"`
}

type logLocation struct {
	URI   string   `json:"uri"`
	Range logRange `json:"range"`
}

type logRelated struct {
	Location logLocation `json:"location"`
	Message  string      `json:"message"`
}

type logDiagnostic struct {
	Range   logRange     `json:"range"`
	Code    string       `json:"code"`
	Message string       `json:"message"`
	Related []logRelated `json:"relatedInformation"`

	// Version is set only on the header line.
	Version *int   `json:"version"`
	File    string `json:"file"`
	GcVer   string `json:"gc_version"`
}

// UnknownFormatError reports a log whose version header is not 0.
type UnknownFormatError struct {
	File      string
	Version   int
	GoVersion string
}

func (e *UnknownFormatError) Error() string {
	return fmt.Sprintf("%s: compiler optimization log format version %d (from %s) is not supported; goadvise understands version 0", e.File, e.Version, e.GoVersion)
}

// parseLogDir parses the optimization log that one compile wrote under dir
// (the directory given to -json=0,dir) for package pkgPath, and returns the
// records sorted by position.
func parseLogDir(dir, pkgPath string) ([]Record, error) {
	l, err := readLog([]string{dir}, pkgPath, func(p *Position) { p.File = restoreName(p.File) })
	if err != nil {
		return nil, err
	}
	return l.records, nil
}

// pkgLog is the optimization log of one compile.
type pkgLog struct {
	records []Record
	// headers maps the name of each log file (without .json) to the
	// source file its header names: the compiler names a log file after
	// the base name of a source file, so two files of one base name (the
	// package's own and one of another package whose code is compiled
	// here, such as a generic function) share one log file, and the last
	// written replaces the other.
	headers map[string]string
}

// readLog parses the log of one compile, in the first of dirs that has it.
// The compiler writes it in a subdirectory named after the package path it
// was given with -p, which is "main" for every main package; goadvise gives
// each main package a directory of its own (go test -c logs a package's
// test packages and test main to the package's directory). The compiler
// creates the subdirectory even when it logs nothing, so its absence means
// the compile did not log (or did not run): that is an error, not a
// package without decisions. fix, if not nil, corrects every position of
// the log (see [parser.fix]).
func readLog(dirs []string, pkgPath string, fix func(*Position)) (*pkgLog, error) {
	sub := ""
	for _, dir := range dirs {
		if s := filepath.Join(dir, url.PathEscape(pkgPath)); isDir(s) {
			sub = s
			break
		}
	}
	if sub == "" && len(dirs) > 0 && isDir(filepath.Join(dirs[0], "main")) {
		sub = filepath.Join(dirs[0], "main")
	}
	if sub == "" {
		return nil, fmt.Errorf("the compiler wrote no optimization log for %s in %s", pkgPath, strings.Join(dirs, ", "))
	}
	ents, err := os.ReadDir(sub)
	if err != nil {
		return nil, fmt.Errorf("reading compiler log: %w", err)
	}
	p := newParser()
	p.fix = fix
	l := &pkgLog{headers: make(map[string]string)}
	for _, e := range ents {
		base, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		name := filepath.Join(sub, e.Name())
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("reading compiler log: %w", err)
		}
		err = p.parseFile(f, name)
		f.Close()
		if err != nil {
			return nil, err
		}
		l.headers[base] = p.headerFile
	}
	l.records = p.finish()
	return l, nil
}

func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// logName returns the name, without .json, of the log file in which the
// compiler writes the records of file (cmd/compile/internal/logopt's
// writerForLSP).
func logName(file string) string {
	base := file
	if i := strings.LastIndexAny(base, `\/`); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.LastIndex(base, ".go"); i >= 0 {
		base = base[:i]
	}
	return url.PathEscape(base)
}

// parser turns the diagnostics of a log into records. Heap decisions need
// all diagnostics at one position (see finishHeap), so escape diagnostics
// are grouped by position first; everything else becomes a record at once.
type parser struct {
	records []Record
	// headerFile is the file that the header of the log being parsed
	// names, as it names it.
	headerFile string
	// fix, if not nil, corrects a position of the log: it maps a file
	// that the compiler was made to see under another name back to the
	// user's file, and the positions of a cgo-generated file to those of
	// the original it was generated from.
	fix  func(*Position)
	heap map[heapKey]*heapGroup
	src  map[string][]byte // source files, read lazily to tell go/defer wrappers apart
}

type heapKey struct{ pos, inner Position }

// heapGroup collects the escape diagnostics at one position.
type heapGroup struct {
	final bool     // an empty-message "escape" diagnostic: a non-variable allocation escaped
	named []Record // diagnostics with "x escapes to heap" and the escape flow
}

func newParser() *parser {
	return &parser{heap: make(map[heapKey]*heapGroup), src: make(map[string][]byte)}
}

// parseFile decodes one log file, one diagnostic (one line) at a time.
func (p *parser) parseFile(r io.Reader, name string) error {
	br := bufio.NewReaderSize(r, 64<<10)
	first := true
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) == 0 {
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("%s: reading compiler log: %v", name, err)
			}
			continue
		}
		var d logDiagnostic
		if line = withoutLeakFlow(line); first || !decodeLine(line, &d) {
			d = logDiagnostic{}
			if err := json.Unmarshal(line, &d); err != nil {
				return fmt.Errorf("%s: malformed compiler log: %v", name, err)
			}
		}
		if first {
			first = false
			if d.Version == nil {
				return fmt.Errorf("%s: compiler log has no version header", name)
			}
			if *d.Version != 0 {
				return &UnknownFormatError{File: name, Version: *d.Version, GoVersion: d.GcVer}
			}
			if d.File == "" {
				return fmt.Errorf("%s: compiler log header names no file", name)
			}
			p.headerFile = filepath.FromSlash(d.File)
		} else {
			p.add(&d)
		}
		if err == io.EOF {
			return nil
		}
	}
}

var (
	leakCode   = []byte(`"code":"leak"`)
	relatedKey = []byte(`,"relatedInformation":`)
)

// withoutLeakFlow returns the line of a parameter's leak without its
// related information: the whole flow that makes the parameter leak, which
// no analyzer uses and which can be huge (28 KB for each leak of go/types'
// *Checker receiver: 176 MB of the 289 MB log of std). Other lines are
// returned as they are. The compiler writes the fields in a fixed order,
// and the key cannot occur inside a string (its quotes would be escaped).
func withoutLeakFlow(line []byte) []byte {
	i := bytes.Index(line, relatedKey)
	if i < 0 || !bytes.Contains(line[:i], leakCode) {
		return line
	}
	return append(line[:i:i], '}')
}

// fileOfURI converts a file: URI of the log to a file name.
func fileOfURI(uri string) string {
	// A file the compiler knows by a relative name (a cgo-generated
	// file, its directory trimmed) has a URI "file://x.cgo1.go", which
	// a URL parser reads as a host name.
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" && u.Host == "" {
		return filepath.FromSlash(u.Path)
	}
	rest := strings.TrimPrefix(uri, "file://")
	if s, err := url.PathUnescape(rest); err == nil {
		return s
	}
	return rest
}

func (p *parser) add(d *logDiagnostic) {
	// The log's main range has no file name: it is the file of the first
	// related location, or of the header. The compiler reports the outermost
	// position, which is in the file being logged; related "inlineLoc"
	// entries give the inlined positions.
	rec := Record{
		Pos:     Position{Line: d.Range.Start.Line, Col: d.Range.Start.Char},
		Message: d.Message,
	}
	inlineDone := false
	for _, ri := range d.Related {
		pos := Position{File: fileOfURI(ri.Location.URI), Line: ri.Location.Range.Start.Line, Col: ri.Location.Range.Start.Char}
		if ri.Message == "inlineLoc" {
			if !inlineDone {
				rec.InlinedFrom = append(rec.InlinedFrom, pos)
			}
			continue
		}
		inlineDone = true
		text := strings.TrimSpace(strings.TrimPrefix(ri.Message, "escflow:"))
		rec.Flow = append(rec.Flow, Step{Pos: pos, Text: text})
	}
	// The log lists the inlining context from the outermost call to the
	// innermost position; Record.InlinedFrom has the innermost first.
	slices.Reverse(rec.InlinedFrom)
	rec.Pos.File = p.headerFile
	if p.fix != nil {
		p.fix(&rec.Pos)
		for i := range rec.InlinedFrom {
			p.fix(&rec.InlinedFrom[i])
		}
		for i := range rec.Flow {
			p.fix(&rec.Flow[i].Pos)
		}
	}
	switch d.Code {
	case "escape", "escapes":
		// Several allocations inlined from one call share the call's
		// position; the innermost position tells them apart.
		k := heapKey{pos: rec.Pos}
		if len(rec.InlinedFrom) > 0 {
			k.inner = rec.InlinedFrom[0]
		}
		g := p.heap[k]
		if g == nil {
			g = new(heapGroup)
			p.heap[k] = g
		}
		if d.Message == "" {
			g.final = true
			if len(g.named) == 0 {
				g.named = append(g.named, rec) // keeps the inlining context
			} else if g.named[0].InlinedFrom == nil {
				g.named[0].InlinedFrom = rec.InlinedFrom
			}
			return
		}
		rec.Name = strings.TrimSuffix(d.Message, " escapes to heap")
		if len(g.named) == 1 && g.named[0].Message == "" {
			g.named[0] = rec
			return
		}
		g.named = append(g.named, rec)
		return
	case "leak":
		// "parameter s leaks to {heap} with derefs=0"
		msg := strings.TrimPrefix(d.Message, "parameter ")
		name, rest, _ := strings.Cut(msg, " leaks to ")
		root, derefs, _ := strings.Cut(rest, " with derefs=")
		rec.Name = name
		n, _ := strconv.Atoi(derefs)
		switch {
		case root == "{heap}" || strings.HasPrefix(root, "{storage for"):
			if n > 0 {
				rec.Kind = LeakParamContent
			} else {
				rec.Kind = LeakParam
			}
		default:
			rec.Kind = LeakToResult
		}
		rec.Reason = root
		rec.Explanation = explain(rec.Name, "leaks", rec.Flow)
	case "canInlineFunction":
		rec.Kind = CanInline
		if c, ok := strings.CutPrefix(d.Message, "cost: "); ok {
			rec.Cost, _ = strconv.Atoi(c)
		}
	case "cannotInlineFunction":
		rec.Kind = CannotInline
		rec.Reason = d.Message
		rec.Cost, rec.Budget = tooComplex(d.Message)
	case "cannotInlineCall":
		rec.Kind = CannotInlineCall
		rec.Reason = d.Message
	case "isInBounds":
		rec.Kind = BoundsCheck
	case "isSliceInBounds":
		rec.Kind = SliceBoundsCheck
	case "nilcheck":
		rec.Kind = NilCheck
	default:
		rec.Kind = Other
		rec.Reason = d.Code
	}
	p.records = append(p.records, rec)
}

// finish decides the heap groups and returns all records sorted by position.
//
// The compiler logs a heap allocation in two ways. While solving, the first
// time a location is found to escape it logs "x escapes to heap" with the
// flow that explains it; this happens for variables and for allocations
// alike. Afterwards, for each escaping location that is not a variable, it
// logs a diagnostic with an empty message. So a position with an
// empty-message diagnostic is an allocation that escapes ("x escapes to
// heap" in -m output), and a position with only explained diagnostics is a
// variable ("moved to heap: x").
func (p *parser) finish() []Record {
	for _, g := range p.heap {
		rec := g.named[0]
		if g.final {
			rec.Kind = EscapesToHeap
			if rec.Name == "" {
				rec.Name = p.sourceAt(rec.Pos, 20)
			}
			if rec.Name == "func literal" && !p.isFuncLit(&rec) {
				// The wrapper closure of a go or defer statement with
				// arguments: -m output omits it, and it is not a
				// separate allocation the user can avoid.
				rec.Kind = Other
				rec.Reason = "go/defer wrapper"
			}
		} else {
			rec.Kind = MovedToHeap
		}
		rec.Message = rec.Name + " escapes to heap"
		if rec.Kind == MovedToHeap {
			rec.Message = "moved to heap: " + rec.Name
		}
		if rec.Kind.IsHeap() {
			rec.Cause = classify(&rec)
			rec.Sink, rec.SinkExpr, rec.SinkPos = sinkOf(&rec)
			if rec.Cause == CauseUnknown && rec.Name == "func literal" && p.goDeferBefore(rec.Pos) {
				rec.Cause = CauseGoDefer
			}
			rec.Explanation = explain(rec.Name, "escapes", rec.Flow)
			switch {
			case rec.Cause == CauseInterfaceConversion && !strings.Contains(rec.Explanation, "converted to an interface"):
				rec.Explanation = strings.Replace(rec.Explanation+":", " escapes:", " escapes: converted to an interface,", 1)
				rec.Explanation = strings.TrimSuffix(strings.TrimSuffix(rec.Explanation, ":"), ",")
				rec.Explanation = strings.Replace(rec.Explanation, "interface, ", "interface, then ", 1)
			case rec.Cause == CauseGoDefer && !strings.Contains(rec.Explanation, " statement"):
				rec.Explanation = rec.Name + " escapes: used by a go or defer statement"
			}
		}
		p.records = append(p.records, rec)
	}
	clear(p.heap)
	sortRecords(p.records)
	p.records = dedupe(p.records)
	return p.records
}

// sortRecords orders records by position and kind, and records at the same
// position and of the same kind (allocations inlined from one call) by
// their content, so that the order, and so which duplicate dedupe keeps,
// does not depend on map iteration.
func sortRecords(recs []Record) {
	sort.SliceStable(recs, func(i, j int) bool {
		a, b := &recs[i], &recs[j]
		if a.Pos != b.Pos {
			return a.Pos.less(b.Pos)
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if la, lb := len(a.InlinedFrom), len(b.InlinedFrom); la != lb {
			return la < lb
		}
		for k := range a.InlinedFrom {
			if a.InlinedFrom[k] != b.InlinedFrom[k] {
				return a.InlinedFrom[k].less(b.InlinedFrom[k])
			}
		}
		if a.Cause != b.Cause {
			return a.Cause < b.Cause
		}
		return a.Explanation < b.Explanation
	})
}

// dedupe removes repeated records (same position, kind and name), such as
// the several "leak" diagnostics of one parameter that leaks to several
// places. The first, with its flow, is kept.
func dedupe(recs []Record) []Record {
	out := recs[:0]
	for i := range recs {
		if n := len(out); n > 0 {
			prev := &out[n-1]
			if prev.Pos == recs[i].Pos && prev.Kind == recs[i].Kind && prev.Name == recs[i].Name && recs[i].Kind != Other {
				continue
			}
		}
		out = append(out, recs[i])
	}
	return out
}

// source returns the content of file, or nil.
func (p *parser) source(file string) []byte {
	data, ok := p.src[file]
	if !ok {
		data, _ = os.ReadFile(file)
		p.src[file] = data
	}
	return data
}

// offset returns the byte offset of pos in data, or -1.
func offset(data []byte, pos Position) int {
	line := 1
	off := 0
	for line < pos.Line {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
		line++
	}
	off += pos.Col - 1
	if off < 0 || off > len(data) {
		return -1
	}
	return off
}

// isFuncLit reports whether a "func literal" record is at a func keyword
// (a function literal of the source, possibly inlined) rather than at the
// go or defer keyword of a statement whose call the compiler wrapped.
func (p *parser) isFuncLit(rec *Record) bool {
	if len(rec.InlinedFrom) > 0 {
		return p.sourceHasPrefix(rec.InlinedFrom[0], "func")
	}
	return p.sourceHasPrefix(rec.Pos, "func")
}

func (p *parser) sourceHasPrefix(pos Position, prefix string) bool {
	data := p.source(pos.File)
	off := offset(data, pos)
	return off >= 0 && bytes.HasPrefix(data[off:], []byte(prefix))
}

// goDeferBefore reports whether the source before pos on its line ends
// with a go or defer keyword: "go func() {...}()".
func (p *parser) goDeferBefore(pos Position) bool {
	data := p.source(pos.File)
	off := offset(data, pos)
	if off < 0 {
		return false
	}
	line := data[:off]
	if i := bytes.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	line = bytes.TrimRight(line, " \t")
	return bytes.HasSuffix(line, []byte("go")) || bytes.HasSuffix(line, []byte("defer"))
}

// sourceAt returns up to n bytes of the source line at pos.
func (p *parser) sourceAt(pos Position, n int) string {
	data := p.source(pos.File)
	off := offset(data, pos)
	if off < 0 {
		return ""
	}
	s := data[off:]
	if i := bytes.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > n {
		s = s[:n]
	}
	return string(s)
}

// tooComplex returns the cost and budget that the reason why a function
// cannot be inlined gives, if it is "function too complex: cost 159
// exceeds budget 80", and zeros otherwise.
func tooComplex(reason string) (cost, budget int) {
	if _, after, ok := strings.Cut(reason, "cost "); ok {
		c, b, _ := strings.Cut(after, " exceeds budget ")
		cost, _ = strconv.Atoi(c)
		budget, _ = strconv.Atoi(b)
	}
	return cost, budget
}
