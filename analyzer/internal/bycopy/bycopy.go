// Package bycopy decides whether a struct type is small and safe enough to
// pass, return or store by value instead of by pointer.
package bycopy

import (
	"go/types"
)

// MaxSize is the size in bytes, by the pass's types.Sizes, up to which a
// struct is cheap enough to copy that returning or storing it by value is
// worth suggesting instead of a pointer: eight words on 64-bit platforms,
// one cache line.
const MaxSize = 64

// Small reports whether values of type t may be suggested to be
// returned or stored by value: t is a struct of at most MaxSize bytes that
// holds no lock, no noCopy marker and no atomic value (copying those is a
// bug that go vet's copylocks check reports).
func Small(t types.Type, sizes types.Sizes) (int64, bool) {
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return 0, false
	}
	size, ok := Size(t, sizes)
	if !ok || size > MaxSize || mustNotCopy(t, make(map[types.Type]bool)) {
		return size, false
	}
	return size, true
}

// mustNotCopy reports whether t contains, directly or in fields and array
// elements (not behind pointers), a value that must not be copied: a type
// of package sync or sync/atomic, or a type with pointer methods Lock and
// Unlock (the rule of go vet's copylocks, which noCopy markers rely on).
func mustNotCopy(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if pkg := n.Obj().Pkg(); pkg != nil {
			switch pkg.Path() {
			case "sync", "sync/atomic":
				return true
			}
		}
		if hasPtrMethod(n, "Lock") && hasPtrMethod(n, "Unlock") {
			return true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mustNotCopy(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Array:
		return mustNotCopy(u.Elem(), seen)
	}
	return false
}

func hasPtrMethod(n *types.Named, name string) bool {
	ms := types.NewMethodSet(types.NewPointer(n))
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Name() == name {
			return true
		}
	}
	return false
}

// Size returns the size in bytes of values of type t by sizes, or false
// if it is not fixed: t holds a value of a type parameter (itself, in a
// field or as an array element), whose size depends on the type argument.
// (types.Sizes panics on such a type.)
func Size(t types.Type, sizes types.Sizes) (int64, bool) {
	if ofTypeParam(t, nil) {
		return 0, false
	}
	return sizes.Sizeof(t), true
}

// ofTypeParam reports whether the layout of t depends on a type parameter.
func ofTypeParam(t types.Type, seen map[*types.Named]bool) bool {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		if seen[t] {
			return false
		}
		if seen == nil {
			seen = make(map[*types.Named]bool)
		}
		seen[t] = true
		return ofTypeParam(t.Underlying(), seen)
	case *types.Struct:
		for i := range t.NumFields() {
			if ofTypeParam(t.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Array:
		return ofTypeParam(t.Elem(), seen)
	}
	return false
}
