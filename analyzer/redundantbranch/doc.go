// Package redundantbranch defines an Analyzer that reports conditional code
// whose branch does not matter: both arms do the same thing, or one arm
// computes what the other would compute anyway under the branch condition.
//
// # Analyzer redundantbranch
//
// redundantbranch: remove branches whose arms compute the same thing
//
// A branch whose outcome does not change what the program computes costs a
// compare and a jump every time it runs, and its duplicated arm makes the
// function larger, which can keep it from being inlined. The analyzer reports
// these forms:
//
//	if c { A } else { A }               identical arms
//	if c { return X }; return X          early return equal to the fall-through
//	if c1 { A } else if c2 { A }         adjacent arms with the same body: c1 || c2
//	case x: A; case y: A                 adjacent switch cases with the same body
//	case x: A; case y: B; default: A     a case that does what the default does
//
// Adjacent arms or cases are merged to share their body, which saves code
// only when the body has some: a body of one jump (break, continue, goto)
// or of one return or assignment of names and literals (return 4, n = 4)
// is not reported. For two arms of continue the compiler emits the same
// jumps for c1 || c2 (a loop of that shape compiled to 102 bytes instead
// of 98), and for return 4 merging lowers the inlining cost by 1 to 3 of
// its budget of 80; such arms are usually written apart for the comment
// each carries. Larger arms that carry comments of their own are
// reported without a fix: Prometheus' query engine has a case for the
// histogram functions and one for changes, each saying why it needs the
// buckets, and an automatic merge would leave one reason under the
// other's values; the developer who merges them can keep both. A branch
// of an if is not reported as redundant, nor an if whose body does what
// the code after it does, when removing it would drop a comment that the
// code kept does not repeat.
//
// A case like the default is reported when no case after it could take
// over its values once it is deleted: the cases after it all do the same
// as the default too, or, in a switch with a tag, its values and those of
// every later case are distinct constants (concrete types in a type
// switch, where a later interface case could match the deleted type). A
// case that falls through, or that the case before falls into, is kept,
// and so is one that carries a comment of its own, in it or just above it:
// it says why the value is handled there (Prometheus' checkpoint drops a
// record type it knows, and says why it may).
//
// and arms that are equal only under the equality the condition establishes:
//
//	if off != 0 {
//		return p[off : n+off] // under off == 0 this is p[:n]
//	}
//	return p[:n]
//
//	d := hi - lo
//	if lo == hi {
//		total = base
//	} else {
//		total = base + d // under lo == hi, d is 0
//	}
//
//	if err := f(); err != nil {
//		return err // under err == nil this is return nil (with -nilfacts)
//	}
//	return nil
//
// The condition's equalities (x == y in the if arm, the negation of x != y in
// the else arm, through && and ||) are substituted into the arms, local
// single-assignment definitions such as delta := b - a are inlined, integer
// arithmetic is normalised with identities that hold under wrap-around
// (x-x = 0, x+0 = x, x*1 = x, reordering of + and *), and slice expressions
// are normalised (s[0:n] = s[:n], s[i:len(s)] = s[i:], s[i:j:cap(s)] =
// s[i:j]). The arms are then compared with identifiers resolved to their
// objects, so shadowing is respected. Constants compare by identity, not
// by value: if leaf { n = LeafSize } else { n = BranchSize } is not
// reported when both are 16 today, nor is 16 against BranchSize or A+1
// against B; only literals fold to their value.
//
// The analyzer prefers missing a finding to reporting a wrong one:
// equalities are used only for integer and string operands (never floats,
// where 0 == -0 and NaN break substitution) and for an interface compared
// with nil (len(s) == 0 also gives s == "" for a string s, never s == nil
// for a slice; a pointer compared with nil is not used, because a nil
// pointer converted to an interface is not a nil interface), and only for
// local variables
// that are not address-taken, not assigned by a closure, not named results,
// and not assigned anywhere in the branch. A definition is inlined only when
// its value is pure arithmetic on such variables and none of them is assigned
// between the definition and the use, outside loops and in functions without
// goto. Calls, receives, indexing and pointer dereferences are never
// reordered or cancelled, and nothing is substituted inside function
// literals, which may run later.
//
// The suggested fix keeps the general arm and deletes the condition and the
// redundant arm; the if's init statement is kept before it. A condition
// with a call or receive in it is kept for its side effects, as a call
// statement or as _ = cond, and the message says so ("keeping the call to
// f for its side effects"), unless every call in it is known to be pure:
// conversions, len, cap, min, max, and a short list of standard-library
// functions such as strings.HasPrefix and bytes.Equal. Possible run-time panics
// in a condition without calls (a nil dereference, an index out of range)
// are not preserved. No fix is offered when removing code would leave a
// variable or import unused or would drop a label.
//
// Flags: -nilfacts uses x == nil for interfaces, which is what reports the
// common if err != nil { return err }; return nil. It is off by default:
// the saving is one compare and a jump that the branch predictor gets
// right, the if is Go's error-check idiom, and in goadvise's readings of
// some twenty real modules none was judged worth changing. -mergecases=false
// stops reporting adjacent switch cases with the same body.
//
// A branch whose removal saves work beyond compares and jumps (its
// condition, or a deleted case's values, calls a pure function, which the
// fix drops, or indexes a map) is estimated at the cost of that work. One
// that saves only a compare and a jump (a case equal to the default, a
// condition that compares variables), or only code size (merged arms or
// cases), has the class "negligible" and the cost of a compare: the
// branch predictor makes such a compare almost free, so it ranks below
// almost every other finding, and a profile that charges its line ranks
// it by what it measured.
//
// Generated files are not reported unless the driver analyses them, as
// goadvise check does. The message ends with the hot-path tier
// of the branch. The diagnostic's Category is the finding's kind:
// redundantbranch/equal-arms (both branches of an if compute the same,
// or one does under its condition's facts), redundantbranch/under-condition
// (the if body computes what the code after it does),
// redundantbranch/same-body-ifs, redundantbranch/same-body-cases and
// redundantbranch/default-cases.
package redundantbranch
