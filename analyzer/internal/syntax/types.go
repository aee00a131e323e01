package syntax

import "go/types"

// IsString reports whether t's underlying type is a string type.
func IsString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// IsByteSlice reports whether t's underlying type is a slice of bytes.
func IsByteSlice(t types.Type) bool { return sliceOf(t, types.Byte) }

// IsRuneSlice reports whether t's underlying type is a slice of runes.
func IsRuneSlice(t types.Type) bool { return sliceOf(t, types.Rune) }

func sliceOf(t types.Type, k types.BasicKind) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == k
}
