// Package percall defines an Analyzer that reports values rebuilt on every
// call of hot code although they depend only on constants or on the
// receiver's fields.
//
// # Analyzer percall
//
// percall: find per-call work that could be done once
//
// A handler that calls regexp.MustCompile(`^/v1/(\w+)$`) compiles the same
// regular expression on every request; the compilation allocates and costs
// microseconds, far more than the match. The same holds for templates
// parsed from constant text, time.LoadLocation of a constant zone,
// strings.NewReplacer of constant pairs, and large map literals of
// constants that are only read.
//
// The analyzer reports these calls when they are in code that the hotpath
// analyzer rates per-item or inside a loop, and when every argument is a
// constant or a field of the method's receiver:
//
//	regexp.MustCompile, regexp.Compile, regexp.MustCompilePOSIX, regexp.CompilePOSIX
//	template.New(c).Parse(c) (text/template and html/template), and template.Must of it
//	time.LoadLocation
//	strings.NewReplacer
//	map literals of at least 8 constant entries, assigned to a local variable
//	that is only read (indexed, ranged over, or passed to len), or indexed directly
//
// With constant arguments the value belongs in a package-level variable,
// built once at program start; sync.OnceValue (or sync.OnceValues when
// there is an error to return) builds it lazily on first use instead. With
// receiver fields it belongs in a field of the receiver, set when the
// receiver is built.
//
// A receiver field counts only when it keeps its value between calls: it
// is unexported and untagged (so neither another package nor a decoder
// such as encoding/json fills it), and the package assigns it, takes its
// address, or overwrites the whole value holding it only in constructors
// (functions returning the type or a pointer to it) and initialisers
// (init, or a name starting with init). A pattern decoded from input, a
// parameter, or a field that a setter changes has nothing to cache and is
// not reported.
//
// A value that the function changes after building it (a regexp made
// leftmost-longest with Longest, a template given more templates or
// functions with New, Parse or Funcs) is not reported: one shared value
// would be changed by every call, and by concurrent calls at once.
//
// For regexp.MustCompile and strings.NewReplacer with constant arguments
// the analyzer suggests a fix: the call is moved to a package-level
// variable declared before the function, named after the function (parse
// gets parseRe, (*Server).route gets routeRe, with a number added if the
// name is taken). When the call alone initializes a local variable that is
// never assigned again (idRe := regexp.MustCompile(...)), the declaration
// itself moves, with its comments: the variable keeps its name if it ends
// in Re or Replacer and is free at package level, or else gets the
// function's and its uses are renamed. The fix is not offered for a pattern that does not
// compile, since the program would then panic at start rather than on the
// first call.
//
// Generated files (unless the driver analyses them, as goadvise check
// does) and test files are skipped. The message ends with the
// hot-path tier of the call, and the diagnostic's Category is that tier.
package percall
