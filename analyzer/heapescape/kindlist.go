package heapescape

import "github.com/goadvise/goadvise/analyzer/kind"

// The kinds of heapescape's findings. Each rewrite kind is a change that
// removes the allocation, chosen by where the compiler's escape flow ends
// (the sink) and a few facts about the code; NoRewrite and Inherent
// explain an allocation no known rewrite removes.
const (
	FieldBuffer      kind.ID = "heapescape/field-buffer"
	HoistLoop        kind.ID = "heapescape/hoist-loop"
	ReuseLoopBuffer  kind.ID = "heapescape/reuse-loop-buffer"
	ReuseLargeBuffer kind.ID = "heapescape/reuse-large-buffer"
	SlicesSort       kind.ID = "heapescape/slices-sort"
	ReuseField       kind.ID = "heapescape/reuse-field"
	ResetSlice       kind.ID = "heapescape/reset-slice"
	StackCapacity    kind.ID = "heapescape/stack-capacity"
	FieldByValue     kind.ID = "heapescape/field-by-value"
	AppendAPI        kind.ID = "heapescape/append-api"
	NarrowResult     kind.ID = "heapescape/narrow-result"
	ClosureOnce      kind.ID = "heapescape/closure-once"
	NamedFunc        kind.ID = "heapescape/named-func"
	DeadAlloc        kind.ID = "heapescape/dead-alloc"
	LateAlloc        kind.ID = "heapescape/late-alloc"
	LazyMap          kind.ID = "heapescape/lazy-map"
	DoubleCopy       kind.ID = "heapescape/double-copy"
	RarePath         kind.ID = "heapescape/rare-path"
	InMemoryReader   kind.ID = "heapescape/in-memory-reader"
	ResetKept        kind.ID = "heapescape/reset-kept"
	LoopCall         kind.ID = "heapescape/loop-call"
	TypedCompare     kind.ID = "heapescape/typed-compare"
	ZeroCopyString   kind.ID = "heapescape/zero-copy-string"
	NoRewrite        kind.ID = "heapescape/no-known-rewrite"
	Inherent         kind.ID = "heapescape/inherent"
)

// allocNS is the cost of one small heap allocation: the allocator's fast
// path and its share of the collector's work.
const allocNS = 30

func init() {
	rw := func(id kind.ID, title, doc string, ns float64, mechanical bool) kind.Kind {
		return kind.Kind{ID: id, Title: title, Doc: doc, Scoring: kind.ScoreAlloc, CostNS: ns, Rewrite: true, Mechanical: mechanical}
	}
	kind.Register(
		rw(FieldBuffer, "a buffer passed only to calls that must not keep it",
			"A buffer the function makes and passes only to calls that do not keep it (interface methods whose contract "+
				"forbids it: io.Reader.Read, io.Writer.Write and what embeds them; functions that only pass it to those) "+
				"escapes because the compiler cannot see through the dynamic call. Kept as an array in the receiver and "+
				"passed as a slice of it, it is allocated once with the receiver instead of on every call.", allocNS, false),
		rw(HoistLoop, "an allocation in a loop that does not outlive its iteration",
			"A value allocated in every iteration that provably stays in the iteration (passed only to calls that do "+
				"not keep it, never stored, returned, sent or captured) can be allocated once before the loop and reset "+
				"where it was allocated.", allocNS, true),
		rw(ReuseLoopBuffer, "a buffer sized per iteration that does not outlive it",
			"A make whose size changes per iteration and that stays in the iteration can be one buffer declared before "+
				"the loop, grown when an iteration needs more: most iterations then allocate nothing.", allocNS, false),
		rw(ReuseLargeBuffer, "a buffer too large for the stack that does not outlive the call",
			"A buffer too large for the stack is allocated and zeroed on every call; when it does not outlive the call, "+
				"one kept across calls (a receiver field, a sync.Pool of pointers) saves both.", allocNS*4, false),
		rw(SlicesSort, "a slice boxed to be sorted by package sort",
			"sort.Sort, sort.Slice and their kin take the data as an interface, boxing the slice on every call, and "+
				"call the comparison dynamically; slices.SortFunc takes the slice as it is and calls the comparison "+
				"directly.", allocNS, true),
		rw(ReuseField, "a map or slice made anew in a field each time the code runs",
			"A map (or empty slice) made and stored in a field each time a method runs, when the package never lets it "+
				"out of the field, can be cleared and reused: clear(m) keeps the buckets, s[:0] the capacity.", allocNS*5, true),
		rw(ResetSlice, "a slice field reset to no capacity and grown again",
			"A slice field that a method resets to nil (or an empty make) and then grows with append reallocates its "+
				"storage every time; resetting it with s = s[:0] keeps the capacity of the last use.", allocNS*3, false),
		rw(StackCapacity, "a work list declared empty and grown in a loop",
			"A local slice used as a stack or work list starts empty and grows by reallocation; started with a "+
				"capacity for its usual depth (an array on the stack, when small), it allocates rarely or never.", allocNS*2, false),
		rw(FieldByValue, "a pointer field given only values allocated with its holder",
			"A struct allocated to be stored, as a pointer, in a field of a struct allocated with it, when the package "+
				"only reads and writes the struct through that field, can be held by value in the field: one allocation "+
				"instead of two.", allocNS, false),
		rw(AppendAPI, "a fresh string or byte slice that every caller appends to something longer",
			"A function that builds and returns a string or byte slice that each of its callers only appends to something "+
				"longer (an operand of +, WriteString's or Write's argument, append(b, s...), copy) allocates a result "+
				"that lives for one statement; an append-style API (appending to the caller's buffer and returning it, as "+
				"strconv.AppendInt does) writes it in place.", allocNS*2, false),
		rw(NarrowResult, "a struct passed by address only to read a few fields back",
			"A struct variable passed by address to an interface method as a scratch value to fill in, when the code "+
				"reads back at most a few scalar fields, is moved to the heap; a method that returns those scalars takes "+
				"no pointer.", allocNS*2, false),
		rw(ClosureOnce, "a closure that captures only the receiver, made on every call",
			"A function literal made on every call of a method with a pointer receiver, when it captures nothing but "+
				"the receiver, is the same closure each time, wherever it goes (a field, a function or interface method "+
				"that keeps it, a return): one made once and kept in a field of the receiver saves the allocation per call.", allocNS, false),
		rw(NamedFunc, "a function literal called only, captured by a closure that escapes",
			"A function literal bound to a name and only called, moved to the heap because a closure that outlives "+
				"the call captures it, can be a function or method taking its captured variables as parameters.", allocNS, false),
		rw(DeadAlloc, "an allocation whose value nothing uses",
			"A make, new or composite literal whose variable is assigned again before any use (per the function's SSA "+
				"form) allocates for nothing: delete it.", allocNS, true),
		rw(LateAlloc, "an allocation made before a return that does not use it",
			"An allocation bound to a variable before a statement that may return without using it (a cache hit "+
				"served first) is made on paths that do not need it; made after that statement, with the statements "+
				"that only fill it, those paths allocate nothing.", allocNS, false),
		rw(LazyMap, "index maps a constructor makes that only rare methods query",
			"Maps a constructor makes and every method keeps up to date, but only a function that few paths reach "+
				"queries, can be made when that function first needs them, skipping their upkeep until then.", allocNS*5, false),
		rw(RarePath, "a variable that escapes only on a rare path",
			"A variable whose address escapes only in cold code (returned with an error, put in a panic, logged under "+
				"a trace flag) is moved to the heap on every path, since the compiler decides per variable. A copy taken "+
				"on the rare path, whose address escapes instead, leaves the variable on the stack on the common path; the "+
				"change is checked by compiling it.", allocNS, true),
		rw(DoubleCopy, "a copy of a slice that the code copies again and otherwise only reads",
			"A slice copied (bytes.Clone, an append to nil) and then copied again into another buffer, and otherwise "+
				"only read, is copied twice: drop the first copy and give the readers the bytes of the second.", allocNS*2, false),
		rw(InMemoryReader, "a reader over data already in memory",
			"bufio.NewReader over bytes.NewReader or strings.NewReader allocates a reader and its buffer to read data "+
				"that is already in memory; slicing the data directly allocates neither. A bytes.Reader or strings.Reader "+
				"made only to be read through an interface (io.ByteReader, io.Reader) escapes for that alone; a form of "+
				"the reading code that takes the bytes allocates nothing.", allocNS*4, false),
		rw(ResetKept, "a value made anew where the last one was kept, whose type has a Reset method",
			"A call of another package's constructor (bufio.NewReader, bytes.NewReader, bufio.NewWriterSize) whose value "+
				"is stored in a field of a value the code did not make (a receiver, a parameter, a pooled or package-level "+
				"value) replaces the one stored there last time. When the type has a Reset method taking what the "+
				"constructor takes first, keeping one value there and resetting it reuses the value and its buffers; "+
				"whatever still holds the previous value sees it reset. The same holds when the value is passed straight "+
				"to a method whose code keeps it in a field of its receiver (dec.Reset(bytes.NewReader(b)) on a pooled "+
				"decoder): one value kept beside that receiver, reset per call, serves every call.", allocNS*2, false),
		rw(LoopCall, "another package's allocating call in a loop, with an argument that does not change",
			"A call of another package, inlined in a loop, that allocates a value the iteration does not keep can be "+
				"hoisted out of the loop when its arguments do not change, or reset in place (a Reset method) when they "+
				"do.", allocNS, false),
		rw(TypedCompare, "values boxed for reflect.DeepEqual",
			"reflect.DeepEqual boxes both values into interfaces and compares them by reflection; a comparison "+
				"written for the type boxes nothing.", allocNS*2, false),
		rw(ZeroCopyString, "a []byte converted to a string only to be read",
			"string(b) passed to a function that only reads it, where the compiler cannot see that, copies the bytes; "+
				"the module's own zero-copy conversion (a func([]byte) string using unsafe) avoids the copy while the bytes "+
				"do not change.", allocNS, false),
		kind.Kind{ID: NoRewrite, Title: "an allocation no known rewrite removes",
			Doc: "A heap allocation the compiler decided on, with the compiler's flow that makes it escape, for which none " +
				"of goadvise's rewrites applies. It ranks by what it costs, below allocations with a rewrite, so that a " +
				"hot one is still seen.",
			Scoring: kind.ScoreAlloc, CostNS: allocNS},
		kind.Kind{ID: Inherent, Title: "an allocation the code exists to make",
			Doc: "A heap allocation proven to be what the code is for: the value a function exists to return (a " +
				"constructor's result, a closure it returns, what a sync.Pool's New function returns for the pool to " +
				"keep), the growth of the buffer an append-style function's caller passes in and gets back, or data stored in " +
				"a container that itself escapes. It " +
				"ranks last among allocations.",
			Scoring: kind.ScoreAlloc, CostNS: allocNS},
	)
}
