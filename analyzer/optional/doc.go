// Package optional defines an Analyzer that finds unexported struct fields
// that hold an optional value by pointer, set from the address of a local,
// and proposes storing the value itself (with a presence flag when nil is
// tested).
//
// # Analyzer optional
//
// optional: store an optional scalar or small struct in its field, not behind a pointer to a local
//
// A field f of type *T that is set only with s.f = &x or S{f: &x}, where x
// is a parameter or a local, uses the pointer only to say that the value
// is set. Taking &x makes the compiler move x to the heap, one allocation
// for each time x is declared, when s outlives the call. Storing the value
// itself, with a bool that says whether it is set, costs a copy of T
// instead.
//
// A finding is made only where the compiler says so ("moved to heap: x",
// from the escape analyzer's decisions), at the declaration of x (of the
// hottest x when several are stored). For an unexported function the
// compiler can inline, the decisions where it is inlined count, not those
// of its own body; an exported one is inlined in other packages, and its
// own body's decision stands for them. The field must be:
//
//   - unexported, of type *T, declared alone (not "a, b *T"), in a
//     non-generic struct of the package;
//   - T a bool, number or string type, or a named struct of at most 64
//     bytes (by the build's type sizes) with no lock, no noCopy marker, no
//     sync/atomic value and no pointer to T or to the struct itself;
//   - assigned only with s.f = &x and S{f: &x} of parameters and locals,
//     or nil.
//
// The fix changes the field to T and adds a bool field hasF (the first
// free name) when the package compares the field with nil, and rewrites
// every use: s.f = &x becomes s.f, s.hasF = x, true; f: &x in a literal
// becomes f: x, hasF: true; s.f != nil and s.f == nil become s.hasF and
// !s.hasF; *s.f becomes s.f; s.f = nil becomes s.f, s.hasF = <zero>,
// false. When nothing compares the field with nil, the field becomes T and
// no flag is added. It is offered only when the change is safe by
// construction:
//
//   - every use of the field is one of those shapes, or a read of a field
//     or a value method through it (s.f.x); the pointer is never passed,
//     stored, returned, compared with another pointer, written through,
//     or used to call a pointer method, and the field's address is never
//     taken;
//   - each x is a parameter or local of the function that stores its
//     address, not a named result, whose address is taken only there,
//     which no closure uses, and which is not assigned after its address
//     is stored (nor earlier in a loop that also stores it, nor in a
//     function with goto), so that the value stored equals what the
//     pointer showed;
//   - the expression that holds the struct is a chain of names, fields,
//     dereferences and indexes (the fix writes it twice);
//   - the struct has no unkeyed literal; no value holding it (by value or
//     through pointers, slices, maps) is converted to an empty interface
//     or a type parameter, is a type argument, or is used with unsafe;
//     no value holding it by value is put in a non-empty interface,
//     compared with == or used as a map key or switch tag; it is not
//     converted to or from another struct type;
//   - if the package is not main and the struct is comparable, the
//     package's exported API does not reach it (code outside could
//     compare its values);
//   - no generated file uses the field.
//
// When the shape matches and the compiler's escape is real but a condition
// fails, the finding is still reported, without a fix, with the change it
// advises and, in Blocked and one clause of the message, what stands in
// the way ("no automatic fix: the pointer is passed to setTimeout at
// conn.go:40"); it ranks below the findings whose change is checked. The
// kind of every finding is optional/store-by-value. Cold code, generated
// files (unless the driver analyses them, as goadvise check does) and test
// files are not reported. In-package test files count:
// when they are not type-checked (goadvise check without -tests) and
// mention the field, the finding has no fix and says that tests use it;
// with -tests their uses are judged and rewritten like any other.
//
// Two things the fix cannot see change with it: a read of *s.f while the
// field is nil, which panicked, now reads the zero value; and reflection
// on the struct reached through an interface with methods, or from
// another package (fmt's %v of the whole struct), shows the value instead
// of an address.
package optional
