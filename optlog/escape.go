// Package optlog reads the Go compiler's optimization log: the decisions
// it takes on heap escapes, parameter leaks, inlining, bounds and nil
// checks, and devirtualization. It collects them, parses them into typed
// records, caches them, and gives them to analyzers (through the escape
// Analyzer, analyzer/escape) and to package decisions.
//
// It never re-implements escape analysis. It runs the compiler with
// -json=0,DIR (the optimization log that gopls uses for its compiler-details
// view) and parses what the compiler wrote; [ParseRemarks] reads the text
// the compiler prints with -m and -d=pgodebug. Results are cached under
// os.UserCacheDir()/goadvise (GOADVISE_CACHE overrides it), keyed by
// everything that determines them, so a re-run on an unchanged tree costs
// almost nothing.
//
// [ForPass] gets the decisions for pass.Pkg in one of three ways, in this
// order: from a table filled by [Preload] (goadvise check), from compiling
// the unit described by a go vet configuration file given to
// [VetUnit.Provide] (go vet -vettool), or, as a fallback, by running go build
// for the single package (analysistest, multichecker, golangci-lint).
package optlog

import (
	"cmp"
	"go/token"
	"path/filepath"
	"slices"
	"sync"
)

// Kind is the kind of an optimization record.
type Kind int

// The kinds of records.
const (
	Other            Kind = iota
	EscapesToHeap         // "x escapes to heap": a value is allocated on the heap
	MovedToHeap           // "moved to heap: x": a variable is allocated on the heap
	LeakParam             // "leaking param: p": the parameter leaks to the heap
	LeakParamContent      // "leaking param content: p": what p points to leaks
	LeakToResult          // "leaking param: p to result ~r0": p flows to a result
	DoesNotEscape         // "x does not escape" (the JSON log has these only for parameters)
	CanInline             // "can inline F" with its cost
	CannotInline          // "cannot inline F: reason"
	InlineCall            // "inlining call to F"
	CannotInlineCall      // "cannot inline call to F: reason"
	BoundsCheck           // index bounds check (isInBounds)
	SliceBoundsCheck      // slice bounds check (isSliceInBounds)
	NilCheck              // nil check
)

var kindNames = [...]string{
	Other:            "other",
	EscapesToHeap:    "escapes to heap",
	MovedToHeap:      "moved to heap",
	LeakParam:        "leaking param",
	LeakParamContent: "leaking param content",
	LeakToResult:     "leaking param to result",
	DoesNotEscape:    "does not escape",
	CanInline:        "can inline",
	CannotInline:     "cannot inline",
	InlineCall:       "inlining call",
	CannotInlineCall: "cannot inline call",
	BoundsCheck:      "bounds check",
	SliceBoundsCheck: "slice bounds check",
	NilCheck:         "nil check",
}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "other"
}

// IsHeap reports whether k is a heap allocation (EscapesToHeap or MovedToHeap).
func (k Kind) IsHeap() bool { return k == EscapesToHeap || k == MovedToHeap }

// Cause classifies why a value was allocated on the heap.
type Cause int

// The causes of heap allocations.
const (
	CauseUnknown             Cause = iota // none of the below; the raw flow is kept
	CauseInterfaceConversion              // converted to an interface value
	CauseInterfaceMethodCall              // passed to (or receiver of) an interface method or unknown function
	CauseClosure                          // captured by a closure that escapes
	CauseReturnedOrStored                 // returned, or stored in a global or a field of an escaping value
	CauseTooLarge                         // too large (or too aligned) for the stack
	CauseNonConstantMake                  // make with a size not known at compile time
	CauseAppend                           // backing array grown by append
	CauseAddressStored                    // its address is taken and stored where it outlives the function
	CauseGoDefer                          // used by a go or defer statement
)

var causeNames = [...]string{
	CauseUnknown:             "unknown cause",
	CauseInterfaceConversion: "interface conversion",
	CauseInterfaceMethodCall: "passed to an interface method or unknown function",
	CauseClosure:             "captured by an escaping closure",
	CauseReturnedOrStored:    "returned or stored outside the function",
	CauseTooLarge:            "too large for the stack",
	CauseNonConstantMake:     "non-constant size make",
	CauseAppend:              "append growth",
	CauseAddressStored:       "address taken and stored",
	CauseGoDefer:             "go/defer statement",
}

func (c Cause) String() string {
	if c >= 0 && int(c) < len(causeNames) {
		return causeNames[c]
	}
	return "unknown cause"
}

// Position is a source position as the compiler reports it.
type Position struct {
	File string // absolute file name
	Line int    // 1-based line
	Col  int    // 1-based byte column
}

// IsValid reports whether p names a position.
func (p Position) IsValid() bool { return p.File != "" && p.Line > 0 }

func (p Position) String() string {
	if !p.IsValid() {
		return "-"
	}
	if p.Col == 0 {
		// "<autogenerated>:1", as the compiler prints it.
		return p.File + ":" + itoa(p.Line)
	}
	return p.File + ":" + itoa(p.Line) + ":" + itoa(p.Col)
}

func (p Position) less(q Position) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Step is one step of an escape flow: a "flow: dst ← src" line or a
// "from expr (reason)" line of the compiler's explanation.
type Step struct {
	Pos  Position
	Text string // without the "escflow:" prefix and indentation
}

// Record is one decision of the compiler.
type Record struct {
	Kind        Kind
	Pos         Position   // where the compiler reports it (the outermost position if inlined)
	TokPos      token.Pos  // Pos resolved in the pass's FileSet (NoPos if the file is not in the package)
	Func        string     // enclosing function as the compiler names it, when known
	Name        string     // the value: "buf", "make([]byte, 4)", "&T{...}", "p" (parameter)
	Message     string     // raw compiler message
	Cause       Cause      // heap records only
	Sink        Sink       // heap records only: where the escape flow ends
	SinkExpr    string     // the expression of the flow's step that reaches the sink: "return &h, err", "r.Read(b)"
	SinkPos     Position   // where that step is
	Flow        []Step     // escape flow (relatedInformation), in order
	Explanation string     // short human explanation: "buf escapes: passed to io.Reader.Read (interface method call)"
	InlinedFrom []Position // inlining context: the innermost position first, outermost call last (empty if not inlined)
	Cost        int        // for CanInline/CannotInline, when the log has it
	Budget      int        // for CannotInline, when the log has it
	Reason      string     // for CannotInline / CannotInlineCall
}

// Result holds the compiler's decisions for one package.
type Result struct {
	err     error
	records []Record // sorted by position
	byPos   map[token.Pos][]int

	// Indexes that the analyzers' questions need, built on the first:
	// going through every record for each function or allocation took
	// time quadratic in the size of a package. The analyzers of a
	// package share the Result, and may run at once.
	indexOnce sync.Once
	heapByPos []int              // the heap records at a valid position, by TokPos
	canInline []token.Pos        // the positions of the CanInline records, sorted
	inlinedAt map[Position][]int // the records by their InlinedFrom[0], its file name cleaned
}

func (r *Result) index() {
	r.indexOnce.Do(func() {
		r.inlinedAt = make(map[Position][]int)
		for i := range r.records {
			rec := &r.records[i]
			if rec.Kind.IsHeap() && rec.TokPos.IsValid() {
				r.heapByPos = append(r.heapByPos, i)
			}
			if rec.Kind == CanInline {
				r.canInline = append(r.canInline, rec.TokPos)
			}
			if len(rec.InlinedFrom) > 0 {
				in := rec.InlinedFrom[0]
				k := Position{File: filepath.Clean(in.File), Line: in.Line, Col: in.Col}
				r.inlinedAt[k] = append(r.inlinedAt[k], i)
			}
		}
		slices.SortStableFunc(r.heapByPos, func(a, b int) int { return cmp.Compare(r.records[a].TokPos, r.records[b].TokPos) })
		slices.Sort(r.canInline)
	})
}

// Available reports whether the compiler's decisions are known. It is false
// when the escape Analyzer's -off flag is set or collection failed (see Err).
func (r *Result) Available() bool { return r != nil && r.err == nil }

// Err reports why the decisions are not available.
func (r *Result) Err() error {
	if r == nil {
		return errNoResult
	}
	return r.err
}

// Records returns all records of the package, sorted by position.
func (r *Result) Records() []Record {
	if r == nil {
		return nil
	}
	return r.records
}

// At returns the records exactly at pos (same file, line and column).
func (r *Result) At(pos token.Pos) []Record {
	if r == nil || !pos.IsValid() {
		return nil
	}
	idx := r.byPos[pos]
	out := make([]Record, 0, len(idx))
	for _, i := range idx {
		out = append(out, r.records[i])
	}
	return out
}

// Heap returns the EscapesToHeap or MovedToHeap record at pos, or nil.
func (r *Result) Heap(pos token.Pos) *Record {
	if r == nil || !pos.IsValid() {
		return nil
	}
	for _, i := range r.byPos[pos] {
		if r.records[i].Kind.IsHeap() {
			return &r.records[i]
		}
	}
	return nil
}

// HeapIn returns the heap records whose position lies within [start,
// end), by position.
func (r *Result) HeapIn(start, end token.Pos) []Record {
	if r == nil {
		return nil
	}
	r.index()
	i, _ := slices.BinarySearchFunc(r.heapByPos, start, func(i int, p token.Pos) int { return cmp.Compare(r.records[i].TokPos, p) })
	var out []Record
	for ; i < len(r.heapByPos) && r.records[r.heapByPos[i]].TokPos < end; i++ {
		out = append(out, r.records[r.heapByPos[i]])
	}
	return out
}

// CanInlineIn reports whether a CanInline record lies within [start, end):
// whether the compiler can inline the function declared there, given the
// range from its declaration to the opening brace of its body.
func (r *Result) CanInlineIn(start, end token.Pos) bool {
	if r == nil {
		return false
	}
	r.index()
	i, _ := slices.BinarySearch(r.canInline, start)
	return i < len(r.canInline) && r.canInline[i] < end
}

// InlinedAt returns the records of code inlined from the position p (the
// innermost of their InlinedFrom), in the order of Records.
func (r *Result) InlinedAt(p token.Position) []*Record {
	if r == nil {
		return nil
	}
	r.index()
	var out []*Record
	for _, i := range r.inlinedAt[Position{File: filepath.Clean(p.Filename), Line: p.Line, Col: p.Column}] {
		out = append(out, &r.records[i])
	}
	return out
}
