// Package heapescape defines an Analyzer that reports the heap allocations
// the Go compiler decided on: values that escape to the heap and variables
// moved to the heap.
//
// # Analyzer heapescape
//
// heapescape: report heap allocations decided by the compiler's escape analysis, with cause and advice
//
// The findings are the compiler's own decisions, read from its optimization
// log (see package optlog); heapescape does not guess which values escape.
// Each finding is one sentence: what allocates and why, then what to do,
// then the hot-path tier in brackets, for example
//
//	make([]byte, 5) escapes to heap because io.ReadFull passes it to an interface method (io.Reader.Read) the compiler cannot see through; keep a [5]byte array field in Reader and pass r.buf[:] (a name of your choice), which saves one allocation per call [per-item: method Next runs per item]
//
// The cause comes from the compiler's escape flow: an interface conversion,
// a dynamic call (interface method or function value), a return or a store,
// the size, append growth, a capturing closure, a go or defer statement.
// When a value is passed to a statically known function that lets it
// escape, heapescape reads that function's source (and, up to three levels
// deep, the functions it calls with the value) to say whether it passes the
// value to an interface method or a function value, calls the value's
// methods through an interface, or takes it as an interface; otherwise the
// message says only that the callee lets it escape.
//
// What allocates is named as the source writes it. Where the compiler
// names a value of its own making, the message names the source instead:
// the result of an inlined call ("~r0"), generic code compiled for a
// shape, and the temporary (".autotmp_N") holding a result of a call
// passed on whole to an interface (return f(), g(f()), v, err = f()),
// named by its type and the call ("the []int result of f()"), the
// result told by its place in the compiler's flow when several are
// converted.
//
// Every heap allocation is reported, with its kind (the diagnostic's
// category) and the sink of its escape flow. When a change that removes
// it is identified in the code (a rewrite kind), the advice names that
// change and what it saves; otherwise the finding says "no known rewrite"
// with the compiler's flow (heapescape/no-known-rewrite), or "inherent"
// when the code proves it needs the allocation (heapescape/inherent).
// Drivers rank them all by estimated saving (package kind): a rewrite
// ranks above an explanation of its tier. The rewrite kinds:
//
//   - a slice of constant size (at most 1 KiB: a make of constant length,
//     or a slice literal of N elements without keys, such as []byte{c}) or
//     an array variable, in a method with a pointer receiver, passed only
//     to calls that do not keep it: keep a [N]T array field in the
//     receiver and pass a slice of it (for a literal, after storing its
//     elements in it). A call does not keep its argument when the compiler says so
//     (this package's functions), when it is a method whose contract
//     forbids it (io.Reader.Read, io.Writer.Write, io.ReaderAt.ReadAt,
//     io.WriterAt.WriteAt: "implementations must not retain p"), or a
//     function that only passes it to such methods (io.ReadFull, io.Copy,
//     io.ReadAll, ...). Other interface methods and function values may
//     keep what they are given. In a method on a value of a struct type of
//     the package, a field of the copy would not last: the advice is a
//     pointer receiver and the field, which changes the type's method
//     set (an API change it says, when the type is exported from a
//     package other modules import). Outside a
//     method (a function, a function literal run elsewhere) the advice is
//     to take the buffer from a caller that reuses it;
//   - a variable whose address escapes only on a rare path, as the
//     compiler's flow shows it (returned with an error, put in a panic,
//     logged under a trace flag: code the hotpath analyzer calls cold),
//     while it is declared on the common path (one of the function's
//     returns is not cold: a stub that always returns an error has no
//     other path): take a copy there and let
//     the copy's address escape (heapescape/rare-path, with a fix), when
//     the package compiled with the change keeps the variable on the
//     stack;
//   - a slice boxed to be passed to sort.Sort, sort.Stable, sort.IsSorted,
//     sort.Slice, sort.SliceStable or sort.SliceIsSorted: call
//     slices.SortFunc (SortStableFunc, IsSortedFunc) with a comparison of
//     two elements, which takes the slice as it is. The fix writes the
//     call when the Less method, or the less function, is one comparison
//     of the two elements or of one field path of them, of an integer or
//     string type (slices.Sort for the elements themselves; cmp.Compare
//     otherwise, reversed for >); not in files older than Go 1.21;
//   - a map made anew and stored in a field (or package-level variable)
//     each time the code runs, when the package never lets the map out of
//     the field (it only indexes, ranges over, measures, deletes from or
//     clears it): clear and reuse it (if x.f == nil { x.f = make(...) }
//     else { clear(x.f) }), with a fix; an empty slice so made (x.f =
//     []T{}), x.f = x.f[:0]; a slice field that the function resets to no
//     capacity (x.f = nil, make(T, 0)) and then grows with append (a stack
//     per call): reset it with x.f = x.f[:0], which keeps its capacity.
//     A field of the method's receiver needs evidence that the method runs
//     twice on one value: a per-item name, an exported method of an
//     exported type, a call in a loop on a receiver declared before the
//     loop, or a call on the receiver of such a method (nats-server's
//     setPermissions, once per client, has none);
//   - a map that a constructor (a function of the package returning a
//     value of a named type T of the package) makes and stores in an
//     unexported field of that value, directly or in a method inlined
//     there, when every use of the field that the constructor, T's methods
//     and the package's functions with a T reach (following static calls,
//     function values, closures, interface calls by method name and the
//     methods of values converted to interfaces) only keeps the map up to
//     date (m[k] = v, delete, clear, len, or a read that only decides
//     whether an if statement deletes from or writes to such maps) and
//     another function of the package queries it (an index that only
//     another type's methods search), and no other value can share the
//     map's holder (it is held by value from T, and the package never lets
//     it or a receiver of its type out): make it when that function first
//     needs it, skipping its upkeep while it is nil;
//   - a local slice that the function uses as a stack or a work list
//     (appended to and resliced in a loop) and declares empty: start it
//     with a capacity for its usual depth;
//   - a make, new or composite literal whose value nothing uses (the
//     variable it initialises is assigned again first, by the function's
//     SSA form): delete it, with a fix when its arguments cannot panic;
//   - a closure made on every call of a method with a pointer receiver
//     that captures nothing but the receiver, wherever it goes (stored in
//     a field, passed to a function or an interface method that keeps it,
//     returned): it is the same closure on every call, so one made once,
//     kept in a field of the receiver, serves every call
//     (heapescape/closure-once);
//   - a function literal bound to a name, called only, and allocated
//     because a closure that outlives the call captures it, whose
//     captured variables are never reassigned: declare it as a function
//     or method taking them as parameters. Not when the function makes it
//     once, outside loops, and then runs an event loop (a for loop with a
//     select, a range over a channel) or starts goroutines and waits for
//     them: one closure per session is a small share of such a call;
//   - a string or byte slice built and returned by an unexported function
//     every call of which only appends the result to something longer (an
//     operand of +, WriteString's or Write's argument, append(b, s...)'s
//     elements, copy's source): append to the caller's buffer instead, as
//     strconv.AppendInt does (heapescape/append-api);
//   - a struct variable passed by address, as a scratch value to fill in,
//     to a method of an interface of the module, when the code reads at
//     most three scalar fields of it or of the pointer the method returns:
//     a method returning those alone takes no pointer (an API change when
//     the interface is exported from a package other modules import);
//   - a conversion string(b) passed to a function of the standard
//     library that only reads it though the compiler says it leaks
//     ((*big.Int).SetString and its kin), in a module that has its own
//     zero-copy conversion (a func([]byte) string in a package that imports
//     unsafe): pass the module's conversion;
//   - a copy of a slice (x = clone(y): bytes.Clone, slices.Clone, a
//     function of the package that only makes and copies, an append to
//     nil) that a later statement, in a block that holds it, copies again
//     (append(d, x...), copy(d, x)), when every other use only reads it
//     (len, index, slice, range, conversion to a string, an argument of a
//     function of the package that writes none of it, or of package
//     bytes): drop the first copy, and give the calls the compiler says
//     may keep x, which must come after the second copy, the bytes of the
//     second copy (nats-server's storeRawMsg);
//   - an allocation bound to a local variable before a statement that may
//     return without using it (a cache hit served first): make it, and
//     the statements that only fill it (v[i] = ..., calling nothing but
//     builtins, conversions and one-expression functions of the
//     package), after that statement;
//   - bufio.NewReader or bufio.NewReaderSize over bytes.NewReader or
//     strings.NewReader, in per-item code: the data is already in memory,
//     and slicing it allocates neither the reader nor its buffer; and a
//     line read through a reader parameter that every call of the
//     (unexported) function builds that way; and bytes.NewReader or
//     strings.NewReader whose reader goes only to calls (an argument, or
//     a local variable only passed or asked for its length) and escapes
//     because the callee reads it through an interface (calls its
//     methods through one, or passes it to an interface method), not
//     because anything keeps it: the reader is all the allocation is,
//     and reading the bytes themselves (a form of the callee that takes
//     the slice and returns how much it consumed, as binary.Uvarint does
//     beside binary.ReadUvarint) allocates nothing. When the callee is
//     another module's, the change replaces the call, for a person to
//     judge (the destination's Write for io.Copy, json.Unmarshal for a
//     json.Decoder, binary.Decode for binary.Read);
//   - a value another package's constructor makes (inlined here) and the
//     code stores in a field of a value it did not make (a receiver, a
//     parameter, a range variable or an element, a package-level
//     variable), directly or through a local variable: the value stored
//     there last time is replaced. When the type has an exported Reset
//     method that takes what the constructor takes first
//     (bufio.NewReader(r) and Reset(r), bytes.NewReader(b),
//     bufio.NewWriterSize(w, n) and Reset(w)), keep one value there and
//     reset it (the advice says that whatever still holds the previous
//     value sees it reset). The same when the value is passed straight to
//     a method whose code (read from source, through methods called on
//     the same receiver) stores it in a field of its receiver, and that
//     receiver is used again across calls: it comes from a sync.Pool
//     (p.Get().(*T), or a function of the package that returns one or a
//     new value when the pool is empty), or is a receiver, parameter or
//     package-level value as above (dec.Reset(bytes.NewReader(data)) on a
//     pooled decoder, zr.Reset(bytes.NewReader(b)) on a pooled
//     gzip.Reader): keep one value beside the receiver (a field of its
//     type, when the package declares it) and reset it;
//   - a struct allocated to be stored, as a pointer, in a field of a
//     struct allocated with it (&C{f: &T{...}}), when the package gives the
//     field only such new values and only reads and writes the struct
//     through it: hold T by value in the field (the advice says how many
//     literals and uses the change touches);
//   - an allocation in a loop that provably stays in the iteration
//     (passed to calls that do not keep it, or bound to a variable of the
//     loop body that is not stored, appended, returned, sent, captured or
//     passed to go or defer, whose address, or that of a part of it, is
//     not taken, and whose methods that get a reference to it are this
//     package's and do not keep their receiver, as the compiler says), or
//     a variable of the loop body moved to heap under the same
//     conditions: hoist it out of the loop (with a fix, below), or, for a
//     make whose size changes per iteration, declare one buffer before
//     the loop and grow it when an iteration needs more;
//   - another package's inlined call in a loop whose result stays in the
//     iteration: call Reset on one value (bytes.NewReader) or hoist the
//     call when its arguments do not change in the loop;
//   - a buffer too large for the stack that does not outlive the call:
//     reuse one (a receiver field or a sync.Pool);
//   - a value boxed for a reflect.DeepEqual call that the deepequal
//     analyzer has no replacement for: compare with a function written for
//     the type. The boxing of a call deepequal reports is part of that
//     finding (it goes away with its fix) and is not reported again.
//
// The same holds for the allocations an idiom finding owns (package idiom):
// the boxing of the arguments of a fmt call that idiom rewrites with
// strconv or a concatenation, the growth of a slice it presizes, a
// conversion its rewrite drops, a value boxed by sync.Pool.Put.
//
// The hoist fix moves the allocation before the loop and resets the value
// where it was allocated, so that each iteration sees what a fresh
// allocation gave it:
//
//	buf := make([]T, 64)        buf := make([]T, 64) before the loop, clear(buf) in it
//	buf := make([]T, n, m)      clear(buf[:cap(buf)]): make zeroes the capacity too
//	buf := make([]T, size)      var buf []T before the loop; in it, if buf == nil { buf = make([]T, size) } else { clear(buf) }
//	p := &T{...}, p := new(T)   p := new(T) before the loop, *p = T{...} (or T{}) in it
//	var x T (moved to heap)     var x T before the loop, x = T{} (or its value) in it
//
// A make whose size is not a constant is made by the first iteration that
// reaches it, so that a negative size panics where it did and a loop that
// does not run allocates nothing; its size must be provably the same in
// every iteration: constants and local variables that nothing assigns
// while the loop runs (not in the loop, not in a function literal, their
// address not taken), combined by arithmetic, conversions, len and cap.
// The fix is offered only when the variable is declared alone by a
// statement of the loop body (v := ..., var v = ..., var v T) and not
// assigned or appended to after it, the names the moved code uses mean the
// same before the loop, and the function has no goto. The hoisted
// variable keeps its name when the name refers to nothing else from the
// loop on and no other hoist fix of the function declares it; otherwise
// it gets a fresh name (buf2) and every use is renamed. A loop in a
// function literal gets the declaration in that literal, one per call.
//
// Each avoidable finding without a fix ends its advice with "; no
// automatic fix: " and the reason, for example "the size changes per
// iteration", "it is assigned again in the loop", "a field shared by
// calls would make the method unsafe for concurrent calls on one
// receiver", so that every finding says whether a fix was considered.
//
// For every other escape no rewrite is known, and the finding says why in
// a phrase ("no known rewrite: the dynamic call may keep it"): a value a
// function returns, data stored in a field, map, global or interface, a
// value a callee keeps (the compiler's leak records for this package,
// the callee's source otherwise), a variable whose address a callee needs
// (json.Unmarshal(data, &v)), the growth of a presized slice (made with a
// capacity here, or by a function of the package every return of which
// makes it so or reslices the caller's; when every such capacity is
// computed at run time, make([]T, 0, len(args)), the code's estimate of
// the count, the growth is amortized: append allocates only when the
// slice outgrows it; a constant capacity is a guess, and keeps its
// function's tier), lazy or
// grow-on-demand allocation (when the condition tests the variable the
// allocation is assigned to, or a local variable set only to its value
// ("m := *ptr; if m == nil { *ptr = make(...) }"), not one a := in the
// block shadows, and that
// variable may hold a value there; or when an early return before it,
// "if c.buf != nil { return c.buf }" or "if n <= cap(b) { return b[:n]
// }", finds a field or package-level variable there and big enough (or a
// local the function reads from one, directly or through an atomic's
// Load, and stores back: "v, _ := c.versions.Load().(T); if v != nil {
// return v }; v = make(T); c.versions.Store(v)"), or a local slice's
// capacity enough, and returns no error it makes; an
// append is grow-on-demand only under, or after such a return on, a test
// of its slice's capacity, not of its length; such an allocation, in its function or
// in a copy of its function inlined at a call, runs once per owner or per
// growth, not each time its code runs: its tier is at most unknown and
// its finding is amortized, which the ranking weighs as a cost the code
// already keeps to when it is needed), closures and go statements,
// allocations inside another package's function. What the code is proven
// to need is inherent instead ("inherent: <reason>"): the value a
// constructor returns (a function whose result type is *T returning the
// allocated T, or the address of a variable, when the compiler's flow
// reaches that return; where the flow goes on into a caller analysed with
// the function, the message names the step: "because newConn returns it
// and (*Client).open passes it on at conn.go:40") and its parts, a
// closure a function returns (for an
// iterator the compiler can inline, a function returning
// func(yield func(...) bool) as iter.Seq and iter.Seq2 are, the message
// says that range loops inline it and make the closure on the stack;
// no closure-once advice), what the New
// function of a sync.Pool returns (the pool calls it only when it is
// empty, and keeps what it makes), and what the code makes where a
// sync.Pool's Get gave nothing (in "if v == nil" or "if !ok" after v :=
// p.Get() or v, ok := p.Get().(T), or after "if v != nil { return ... }",
// in the function, or in a function of the package inlined at the call):
// the pool's fill, as New would make it), data stored
// in a container that itself escapes, a field's slice grown in place
// (x.f = append(x.f, ...), or append(x.f[:0], ...) reusing its capacity
// for a new value, or x.f = appendLine(x.f, ...) through an append-style
// call; x.f a field, an element of one, or what a field points to, or
// what a pointer parameter or the receiver points to, a slice the caller
// keeps: "*b = append(*b, p...)" in a method of a named slice type; also
// where a method doing so is inlined), the slice
// another package's inlined function grows as its own storage (both
// amortized, as a lazy allocation is: append allocates only when the kept
// slice outgrows its capacity), the growth of the buffer an
// append-style function's caller passes in and gets back (a function
// whose first result has the type of its slice parameter dst, appending
// to dst, directly or through append-style calls such as
// strconv.AppendBool(append(dst, ','), v): it allocates only when the
// caller's buffer is too small). Both rank below every rewrite of
// their tier; nothing is hidden for being either.
//
// An allocation inlined from another package is reported at the call,
// phrased "calling bufio.NewWriter allocates (inlined): ...". The
// compiler puts every step of such a value's flow at that call; when the
// inlined body is of the package, the call the step names (an interface
// method, a function value, a callee that keeps it) is found in the body
// around the allocation, and the cause names it, not the inlined
// function. The
// compiler also reports the allocations of an inlinable function's own
// compiled body, which only calls that are not inlined run. When every
// reference to a function in the package is a call the compiler inlines
// (its log records each call it does not inline; a go or defer statement
// or a use as a value runs the body), an allocation that would be on the
// stack where it does not escape (a variable, a literal or its address,
// new, a function literal, a boxed value, a make of constant size) is not
// reported if nothing else can call the body (an unexported function, or
// a method no interface of the package declares; with a profile it is,
// to say which callers the samples at its line come from), unless its
// finding names a change to make in the body (kafka-go's
// sortMetadataTopics and its sort.Slice): then it is reported there, once,
// with the tier its callers give it, and its copies at the calls are not;
// and otherwise is not
// ranked as hot by those calls (tier reason "inlined at each of its calls
// in the package..."). Where an inlined copy escapes, it is reported at
// the call, and ranks at least as hot as where it is written: an
// allocation inside a loop of the inlined function is hot-loop ("inside a
// loop of the inlined fillPoints") wherever that is called.
// Conversions that do not allocate are never reported, although the
// compiler says the value escapes: constants, composite literals of
// constants, zero-size values, bools and one-byte integers (and structs
// or arrays of one such), empty slice literals ([]T{}) and make of a slice
// with length and capacity 0, also where they come from an inlined call
// (context.Background()'s context.backgroundCtx{}).
// TestNonAllocating measures each shape with testing.AllocsPerRun. Nor is
// the growth of an append that cannot outgrow its slice: the slice is
// made empty with a capacity, make(T, 0, c), before a loop that runs at
// most c times (c as written: len(xs) for range xs, n for i < n or range
// n) and appends at most one element to it per iteration, nothing between
// the make and the loop mentioning the slice or what c reads; the
// compiler reports the growth site, which never runs (TestNeverGrows
// measures it).
//
// Findings are ranked by the hot-path estimate of the hotpath analyzer: the
// tier ("hot-loop", "per-item", "unknown" or "cold") ends the message in
// brackets, and is a field of the finding with its reason. Allocations on
// an error path are "cold" with the reason "on an error path", wherever
// they are: inside a return
// statement that returns a non-nil error (fmt.Errorf, errors.New, a
// concrete error type, a package-level error variable, or a variable the
// enclosing if statement compared with "!= nil", or defined in the block
// from such a value), inside the block of "if err != nil" for a value of
// type error, inside an if, else or case block whose last
// statement is such a return or a call that does not return (panic,
// log.Fatal*, log.Panic*, os.Exit, runtime.Goexit, t.Fatal*, t.Skip*,
// t.FailNow), or passed as an argument to such a call, to t.Error or
// t.Errorf, or to panic in inlined code (an allocation made there; a
// variable moved to the heap for it is allocated on every path), or
// recovering from a panic. The detection is syntactic and shared with
// every analyzer through hotpath. Cold findings are reported only with
// -cold.
//
// Allocations in generated files (unless the driver analyses them, as
// goadvise check does), in _test.go files (tests and benchmarks
// are not the program whose CPU the advice is about), and at positions
// outside the package are not reported.
package heapescape
