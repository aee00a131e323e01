// Package idiom defines an Analyzer that reports code that a known Go
// performance idiom makes cheaper: the checks of the performance linters
// teams already run (perfsprint, prealloc, staticcheck's SA6000 series,
// gocritic's performance checks), each stated as a principle and ranked by
// what it costs.
//
// # Analyzer idiom
//
// idiom: report code that a known Go performance idiom makes cheaper, with the idiom's rewrite
//
// Each finding is one kind, whose documentation (goadvise help, the SARIF
// rule) states when the idiom applies and why its rewrite holds. Unlike
// heapescape, idiom does not need the compiler to say that something
// escapes: the cost of these forms is there whether or not the value
// escapes (fmt parses its format, growslice allocates, a conversion
// copies). Findings in every tier are reported; drivers hide cold code
// (error paths, set-up) as for every analyzer. The kinds:
//
//   - idiom/sprintf-strconv: fmt.Sprintf or fmt.Sprint of one value with
//     its default verb (%d or %v of an integer, %x of an integer or of
//     bytes, %t or %v of a bool, %s or %v of a string, %q of a string,
//     %g or %v of a float32 or float64, %s of bytes) is strconv.Itoa,
//     FormatInt, FormatUint (base 16 for %x), FormatBool, Quote,
//     FormatFloat(x, 'g', -1, 64 or 32) (fmt's %v of a float is %g, the
//     shortest representation, as strconv's 'g' with precision -1 is),
//     hex.EncodeToString, the string itself or string(b); literal text
//     with these verbs and values is a concatenation;
//     fmt.Errorf with a constant format and no arguments is errors.New.
//     A format named by a constant may be shared with other calls:
//     spelling it out in one of them would part them, so that rewrite is
//     advised without a fix, for a person to judge.
//     These have a fix, which adds the imports it needs (goadvise check
//     -fix removes fmt's import when no use is left). %s of an error or of
//     a Stringer is x.Error() or x.String(): advised without a fix, since
//     fmt prints <nil> where the call panics. Named types with methods are
//     left alone: fmt may call them. The finding owns the heap allocations
//     of the call (the boxing of its arguments), which heapescape then does
//     not report;
//   - idiom/strconv-append: append(b, strconv.FormatInt(...)...) is
//     strconv.AppendInt(b, ...), and so for each Format and Quote function
//     with an Append counterpart (Itoa is AppendInt with int64 and base
//     10); append(b, fmt.Sprintf(...)...) is fmt.Appendf (Go 1.19);
//     buf.WriteString(strconv.Itoa(n)) on a bytes.Buffer (Go 1.21) or a
//     bufio.Writer is buf.Write(strconv.AppendInt(buf.AvailableBuffer(),
//     int64(n), 10)), when buf is a variable or a field;
//   - idiom/presize: a slice declared empty and appended to, one or more
//     elements per append, in the loop that is the first statement after
//     the declaration to use it, when the loop's trip count is known
//     before it (a range over a slice, map, array or integer, or for i :=
//     0; i < n; i++ with n not changed in the loop) and
//     the loop uses the slice only to append to it, read its length or
//     index it. Appends in every iteration give the exact length, and a
//     fix for a slice declared with an empty literal or make; appends under
//     a condition, or a loop with a break, continue or return, give an
//     upper bound ("at most"), advised without a fix and with a lower cost.
//     Single-element appends in the block before and after the loop, and
//     later loops of known trip count that append to it, add to the bound
//     (len(xs)+len(ys)+1); when later code appends in a way that has no
//     bound, the finding gives the capacity the counted part needs, as a
//     lower bound, without a fix. A slice declared nil (var s []T) gets no
//     fix: make would make it non-nil when the loop does not run. Where the bound is known only
//     after the declaration, the finding says to declare the slice just
//     before the loop; where the loop ranges over a call's result (range
//     r.Headers()), to store the result in a variable before the
//     declaration and range over it, without a fix. The statements of a
//     switch or select case are a block too. The growth of a slice idiom reports is its finding,
//     not heapescape's; a slice that does not escape is reported all the
//     same, since growslice allocates on the heap anyway. A slice made
//     with its elements (a literal, make([]T, n)) and then extended by
//     appends of known lengths (append(s, xs...) with xs unchanged since,
//     single elements) before any other use than filling its elements
//     reallocates at each append that outgrows it: the finding gives the
//     capacity for all of them (make([]T, n, n+len(xs)), with a fix; for a
//     literal, append(make([]T, 0, N), elements...), advised; where a
//     length is known only later, the make moves: advised). One append to
//     an empty slice allocates once either way: not reported. Not reported
//     either: a literal with elements followed by a loop of appends, and a
//     slice made under a condition;
//   - idiom/concat-loop: s += x (or s = s + x) in a loop, for a string
//     declared outside it and used in the loop only to be concatenated to,
//     copies all s holds at every iteration: build it in a
//     strings.Builder. No fix: the builder goes before the loop and its
//     String() after it;
//   - idiom/pool-pointer: sync.Pool.Put of a slice, string, struct or other
//     value that is not pointer-shaped boxes a copy on every Put: put a
//     pointer. No fix: every Get changes too;
//   - idiom/bytes-lookup: strings.Index, Contains, HasPrefix, HasSuffix,
//     Count, LastIndex and EqualFold of string(b) are the bytes package's
//     functions of b; k := string(b) whose every use is a map lookup, == or
//     != or a switch tag, where the compiler reads string(b) in place, is
//     the conversion at each use. k := string(b) used once as a map lookup
//     in the next statement (staticcheck's SA6001) is not reported: the
//     compiler substitutes it already (Go 1.22 and later), and it
//     allocates nothing. string(b) == s and switch string(b) themselves
//     do not copy: not reported;
//   - idiom/range-runes: range []rune(s) is range s, exact when the loop
//     does not use the index (which becomes a byte offset); []rune(s)[0]
//     is utf8.DecodeRuneInString(s), advised;
//   - idiom/equal-fold: strings.ToLower(a) == strings.ToLower(b) (ToUpper,
//     !=, or one side a constant already in that case) is
//     strings.EqualFold(a, b), with a fix that says how it differs for a
//     few non-ASCII letters; with one side lowered and the other a
//     variable, the finding says that the rewrite holds only if that side
//     is always in that case;
//   - idiom/write-bytes: io.WriteString(w, string(b)) is w.Write(b);
//   - idiom/fprint: w.Write([]byte(fmt.Sprintf(...))),
//     w.WriteString(fmt.Sprintf(...)) and io.WriteString(w,
//     fmt.Sprintf(...)) are fmt.Fprintf(w, ...) (Fprint, Fprintln), when
//     the Sprintf has no strconv form (which idiom/sprintf-strconv reports
//     instead);
//   - idiom/write-string: w.Write([]byte(s)) where w also has
//     WriteString(string) (int, error) is w.WriteString(s), unless that
//     WriteString, declared in the package, converts its string to bytes
//     itself (a wrapper of Write, or the call being in it);
//   - idiom/write-byte: w.WriteRune of a constant below utf8.RuneSelf is
//     w.WriteByte, where w has WriteByte(byte) error and the results are
//     not used;
//   - idiom/append-combine: xs = append(xs, a) followed by xs = append(xs,
//     b) is xs = append(xs, a, b), when b does not read xs;
//   - idiom/huge-param: a struct or array parameter of 80 bytes or more
//     passed by value (cost: a nanosecond per 32 bytes per call). No fix:
//     the advice to pass a pointer changes the signature; for exported
//     functions and methods the finding says that it changes the API;
//   - idiom/range-val-copy: for _, v := range xs with elements of 128
//     bytes or more copies each into v: index instead, when the body does
//     not write to v; over a map of such values, store pointers in it;
//   - idiom/range-expr-copy: range over an array value of 512 bytes or
//     more copies it first: range over &a, with a fix when the loop does
//     not change the array;
//   - idiom/clear-loop: for i := 0; i < len(s); i++ { s[i] = zero } stores
//     one element per iteration; the compiler turns only the range form
//     into one memory clear: clear(s) (clear(a[:]) for an array; the range
//     form before Go 1.21), with a fix.
//
// Not reported, with the reason: the range form of gocritic's sliceClear
// (for i := range s { s[i] = 0 }), which the compiler already turns into
// one memory clear;
// gocritic's stringXbytes (copy(b, []byte(s))), which the compiler
// already compiles to a copy from the string without converting it.
//
// Calls in generated files are not reported unless the driver analyses
// them, as goadvise check does. The message ends with the
// hot-path tier of the code. The diagnostic's Category is the finding's
// kind.
package idiom
