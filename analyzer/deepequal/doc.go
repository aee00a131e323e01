// Package deepequal defines an Analyzer that reports calls of
// reflect.DeepEqual for which a cheaper, type-specific comparison exists.
//
// # Analyzer deepequal
//
// deepequal: replace reflect.DeepEqual with a type-specific comparison
//
// reflect.DeepEqual walks both values through reflection: it allocates,
// cannot be inlined, and is typically 10 to 100 times slower than a direct
// comparison. When the static type of both arguments is known and a direct
// comparison means the same thing, the analyzer suggests it:
//
//	[]byte                               bytes.Equal(a, b)
//	[]E, E comparable like ==            slices.Equal(a, b)
//	map[K]V, V comparable like ==        maps.Equal(a, b)
//	basic, array or struct type          a == b
//	T with method Equal(T) bool          a.Equal(b)
//	[]E or map[K]E, E has Equal(E) bool  slices.EqualFunc / maps.EqualFunc
//
// "Comparable like ==" means that == and DeepEqual agree on every value of
// the type: numbers, strings, booleans, channels, and arrays and structs made
// only of those. Pointers and interfaces do not qualify, because DeepEqual
// follows pointers and compares dynamic values deeply where == compares
// identity; no suggestion is made for them.
//
// Where the suggestion differs from DeepEqual on some inputs the message says
// so: DeepEqual tells a nil slice or map from an empty one, reports a slice
// or map equal to itself even when it holds NaN, and an Equal method defines
// its own notion of equality (time.Time.Equal ignores the location).
//
// Package slices and maps came with go1.21: in a file of an older Go
// version (go.mod's go line, or its //go:build line) their suggestions have
// no automatic fix, and the message says why ("no automatic fix:
// slices.Equal needs go1.21 and this file is go1.12").
//
// Calls in generated files are not reported unless the driver analyses
// them, as goadvise check does. The message ends with the
// hot-path tier of the call. The diagnostic's Category is the finding's
// kind, deepequal/direct-compare.
package deepequal
