package idiom

import "github.com/goadvise/goadvise/analyzer/kind"

// The kinds of the analyzer's findings: each is one known performance
// idiom of Go, stated as a principle in its Doc.
const (
	SprintfStrconv kind.ID = "idiom/sprintf-strconv"
	StrconvAppend  kind.ID = "idiom/strconv-append"
	Presize        kind.ID = "idiom/presize"
	PoolPointer    kind.ID = "idiom/pool-pointer"
	BytesLookup    kind.ID = "idiom/bytes-lookup"
	RangeRunes     kind.ID = "idiom/range-runes"
	EqualFold      kind.ID = "idiom/equal-fold"
	WriteBytes     kind.ID = "idiom/write-bytes"
	Fprint         kind.ID = "idiom/fprint"
	WriteString    kind.ID = "idiom/write-string"
	WriteByte      kind.ID = "idiom/write-byte"
	AppendCombine  kind.ID = "idiom/append-combine"
	HugeParam      kind.ID = "idiom/huge-param"
	RangeValCopy   kind.ID = "idiom/range-val-copy"
	RangeExprCopy  kind.ID = "idiom/range-expr-copy"
	ConcatLoop     kind.ID = "idiom/concat-loop"
	ClearLoop      kind.ID = "idiom/clear-loop"
)

// Costs of one execution, in nanoseconds, of the orders of magnitude the
// other analyzers use: a small heap allocation with its share of the
// collector's work, and what fmt spends parsing a format and boxing its
// arguments beyond what strconv spends.
const (
	allocNS = 30
	fmtNS   = 100
)

func init() {
	k := func(id kind.ID, title string, scoring kind.Scoring, ns float64, mechanical, owns, behaviour bool, doc string) kind.Kind {
		return kind.Kind{ID: id, Title: title, Doc: doc, Scoring: scoring, CostNS: ns, Rewrite: true,
			Mechanical: mechanical, Owns: owns, ChangesBehaviour: behaviour}
	}
	kind.Register(
		k(SprintfStrconv, "fmt formatting one value, or only concatenating", kind.ScoreUnder, fmtNS, true, true, true,
			"fmt.Sprintf, fmt.Sprint and fmt.Errorf parse their format at run time and box each argument into an interface "+
				"(an allocation for most values) before formatting it by reflection on its dynamic type. When the format "+
				"formats one value with its default verb, the function that formats that type directly builds the same "+
				"string: strconv.Itoa, FormatInt and FormatUint for integers (base 16 for %x), strconv.FormatBool for "+
				"booleans, hex.EncodeToString for %x of bytes, the string itself for %s of a string. A format of literal text "+
				"and %s, %d and %v of strings and integers only concatenates: the + operator builds the same string and "+
				"allocates only the result. fmt.Errorf with a constant format and no arguments is errors.New. These are exact "+
				"for the types named (a named type may have a String or Format method that fmt would call, and is left "+
				"alone). %s of an error or of a Stringer is x.Error() or x.String(), which differ from fmt for a nil value "+
				"(fmt prints <nil>, the call panics): that rewrite is advised, not applied."),
		k(StrconvAppend, "a string formatted only to be appended to a byte slice", kind.ScoreAlloc, allocNS, true, true, false,
			"append(b, strconv.FormatInt(n, 10)...) allocates a string only to copy it into b; strconv.AppendInt(b, n, 10) "+
				"formats into b directly, and so do AppendUint, AppendFloat, AppendBool and AppendQuote for their Format "+
				"and Quote counterparts. append(b, fmt.Sprintf(format, args...)...) is fmt.Appendf(b, format, args...) "+
				"(Go 1.19). A bytes.Buffer or bufio.Writer given strconv's string by WriteString can be given the bytes "+
				"appended to its AvailableBuffer instead, which writes them in place."),
		k(Presize, "a slice grown by append in a loop whose length bounds it", kind.ScoreAlloc, allocNS*3, true, false, true,
			"A slice declared empty (var s []T, s := []T{}, make([]T, 0)) and appended to in a loop whose trip count is known "+
				"before it (a range over a slice, map, array or integer, a counted for loop) grows by reallocation: "+
				"append doubles the capacity and copies, about log2(n) allocations and 2n element copies for n elements. "+
				"make([]T, 0, n) before the loop allocates once. When every iteration appends, unconditionally, n is exact; "+
				"when the appends are conditional, or the loop may end early, n is an upper bound, and the saving is a guess "+
				"of the same order (the slice may end shorter than its capacity). A slice declared nil becomes non-nil "+
				"and empty when the loop does not run (s == nil, JSON's null): that finding says so and has no fix. The "+
				"compiler's escape analysis does not matter here: growslice allocates on the heap whether or not the "+
				"slice escapes."),
		k(PoolPointer, "a value that is not a pointer put into a sync.Pool", kind.ScoreAlloc, allocNS, false, true, false,
			"sync.Pool stores interface values: Put(x) of a slice, string or struct boxes x, allocating a copy of it on "+
				"every Put, which is what the pool exists to avoid. Putting a pointer (*[]byte, *T) boxes nothing; the "+
				"pool's Get callers then dereference it. The change spans every Get and Put of the pool."),
		k(BytesLookup, "a []byte converted to a string only to look it up or compare it", kind.ScoreAlloc, allocNS, true, true, false,
			"string(b) copies b (on the heap when longer than 32 bytes or when it escapes). The compiler does not copy "+
				"for the forms whose string cannot outlive the expression: m[string(b)] as a map lookup, string(b) == s "+
				"and != s, switch string(b). A variable k := string(b) used only in those forms can be replaced by the "+
				"conversion at each use. strings.Index, Contains, HasPrefix, HasSuffix, EqualFold and Count of string(b) "+
				"have package bytes counterparts that take b as it is (bytes.Index(b, []byte(s)): a constant's "+
				"conversion is free). Not reported: k := string(b) used once, as a map lookup in the statement that "+
				"follows, which the compiler already substitutes."),
		k(RangeRunes, "a string converted to []rune only to be walked", kind.ScoreAlloc, allocNS, true, true, true,
			"for _, r := range []rune(s) decodes the whole string into a new rune slice (4 bytes per rune, on the heap "+
				"beyond 32 runes) before the loop; for _, r := range s decodes each rune in place and yields the same "+
				"runes. Only the index differs: it is the rune's byte offset in the string instead of its count, so the "+
				"rewrite is exact when the index is not used. []rune(s)[0] is utf8.DecodeRuneInString(s) for a non-empty "+
				"string."),
		k(EqualFold, "strings lowered or uppered only to compare them", kind.ScoreAlloc, allocNS*2, true, true, true,
			"strings.ToLower(a) == strings.ToLower(b) builds a new string for each side that has an upper-case letter, "+
				"then compares; strings.EqualFold(a, b) compares under Unicode simple case folding, rune by rune, without "+
				"allocating. They agree on ASCII and on most text; they differ for a few letters whose case mapping is "+
				"not a simple fold (U+0130, whose lower case is two runes; the Kelvin sign and U+017F, which fold to "+
				"ASCII letters) and for invalid UTF-8, so the finding says so. When only one side is lowered and the other "+
				"is not a constant already in that case, EqualFold also accepts an other side in another case: "+
				"that rewrite holds only if the other side is always in that case."),
		k(WriteBytes, "a []byte converted to a string only to be written", kind.ScoreAlloc, allocNS, true, true, false,
			"io.WriteString(w, string(b)) copies b into a new string, which io.WriteString then passes to w's "+
				"WriteString or converts back to bytes for its Write; w.Write(b) writes the bytes as they are."),
		k(Fprint, "a string formatted only to be written", kind.ScoreAlloc, allocNS*2, true, true, false,
			"w.Write([]byte(fmt.Sprintf(...))) builds a string, copies it into a byte slice and writes that; "+
				"fmt.Fprintf(w, ...) formats into fmt's own reused buffer and writes it, with the same result and error. "+
				"The same holds for w.WriteString(fmt.Sprintf(...)) and io.WriteString(w, fmt.Sprintf(...)), and for "+
				"Sprint and Sprintln."),
		k(WriteString, "a string converted to []byte only to be written", kind.ScoreAlloc, allocNS, true, true, false,
			"w.Write([]byte(s)) copies s into a new byte slice, on the heap when the writer is an interface or keeps "+
				"it; when w also has WriteString(string) (int, error) (io.StringWriter: bytes.Buffer, bufio.Writer, "+
				"strings.Builder, os.File), w.WriteString(s) writes the string without the copy. A constant's "+
				"conversion to []byte still copies, and so does a WriteString of the package written as "+
				"Write([]byte(s)), which is not advised."),
		k(WriteByte, "a one-byte rune written with WriteRune", kind.ScoreFlat, 2, true, false, false,
			"WriteRune encodes its rune as UTF-8, with a branch on its size, before writing it; for a constant rune "+
				"below utf8.RuneSelf, WriteByte writes the byte directly. The saving is a few nanoseconds."),
		k(AppendCombine, "consecutive appends to one slice", kind.ScoreFlat, 3, true, false, false,
			"Two appends to one slice in consecutive statements check the capacity, and may grow it, twice; "+
				"xs = append(xs, a, b) does both at once. The rewrite is exact when the second append's values do not "+
				"read the slice."),
		k(HugeParam, "a large struct passed by value", kind.ScoreFunc, 5, false, false, true,
			"A parameter of 80 bytes or more passed by value is copied at every call (about a nanosecond per 32 bytes, "+
				"and stack space). A pointer passes 8 bytes, but changes the function's signature, every call, and what "+
				"the function may do to the caller's value (writes become visible, the value may escape to the heap); "+
				"for an exported function or a method that satisfies an interface it changes the API: the finding says so."),
		k(RangeValCopy, "a large element copied in each iteration of a range loop", kind.ScoreFlat, 8, false, false, true,
			"for _, v := range xs copies each element into v; for elements of 128 bytes or more that copy costs about a "+
				"nanosecond per 32 bytes per iteration. for i := range xs with v := &xs[i] reads the element in place, "+
				"but writes through v then change xs, where writes to the copy did not: a person must check the body."),
		k(RangeExprCopy, "an array copied to be ranged over", kind.ScoreFlat, 32, true, false, false,
			"range over an array value copies the whole array before the first iteration (the range expression is "+
				"evaluated once, as a value); ranging over a pointer to it (range &a) or a slice of it (range a[:]) copies "+
				"nothing and yields the same elements when the loop does not modify the array."),
		k(ConcatLoop, "a string built by concatenation in a loop", kind.ScoreAlloc, allocNS*2, false, true, false,
			"s += x in a loop makes a new string per iteration and copies into it all that s holds so far: n iterations "+
				"copy O(n²) bytes and allocate n strings. A strings.Builder declared before the loop grows its buffer by "+
				"doubling, copies each piece once, and String() returns its bytes without a copy."),
		k(ClearLoop, "a counted loop that zeroes a slice element by element", kind.ScoreFlat, 16, true, false, false,
			"The compiler turns for i := range s { s[i] = zero } into one call of the runtime's memory clear, which "+
				"clears many bytes per instruction; it does not recognize the counted form for i := 0; i < len(s); i++ "+
				"{ s[i] = zero }, which stores one element per iteration with a bounds check. clear(s) (Go 1.21) says "+
				"the same and compiles to the same clear; for an array, clear(a[:]). The rewrite is exact: both leave "+
				"every element zero, and the counter is not visible after the loop."),
	)
}
