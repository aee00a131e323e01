package e

import (
	"fmt"
	"strconv"
)

// The fallbacks of String methods for values they have no name for run
// only for values outside the type's names: cold.

type kindT int

var kindNames = map[kindT]string{0: "zero", 1: "one"}

// String looks the name up in a map (arrow's MetadataVersion).
func (k kindT) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	mark() // want `cold: only for a value its String method has no name for`
	return fmt.Sprintf("kindT(%d)", int(k))
}

type color uint8

// String switches on the receiver.
func (c color) String() string {
	switch c {
	case 0:
		mark() // want `unknown: a method other packages may call through an interface: how often is not known`
		return "red"
	case 1:
		return "green"
	default:
		mark() // want `cold: only for a value its String method has no name for`
		return "color(" + strconv.Itoa(int(c)) + ")"
	}
}

type level int8

const _level_name = "debuginfowarn"

var _level_index = [...]uint8{0, 5, 9, 13}

// String is stringer's: a bounds check on the receiver.
func (i level) String() string {
	if i < 0 || i >= level(len(_level_index)-1) {
		mark() // want `cold: only for a value its String method has no name for`
		return "level(" + strconv.FormatInt(int64(i), 10) + ")"
	}
	return _level_name[_level_index[i]:_level_index[i+1]]
}

type op int

var opNames = []string{"add", "sub"}

// String indexes a slice after checking the receiver is in it.
func (o op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	mark() // want `cold: only for a value its String method has no name for`
	return "op" + strconv.Itoa(int(o))
}

type point struct{ x, y int }

// String of a struct, not an enumeration: every value is printed, no
// fallback.
func (p point) String() string {
	if p.x < 0 {
		mark() // want `unknown: a method other packages may call through an interface: how often is not known`
		return "-"
	}
	return strconv.Itoa(p.x) + "," + strconv.Itoa(p.y)
}

// Name has the shape of a fallback, but is not a String method: how
// often it names unknown values is not known.
func (k kindT) Name() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	mark() // want `unknown: a method other packages may call through an interface: how often is not known`
	return "?"
}

type flags uint

var flagNames = map[string]string{}

// String looks up something other than the receiver.
func (f flags) String() string {
	if s, ok := flagNames["x"]; ok {
		return s
	}
	mark() // want `unknown: a method other packages may call through an interface: how often is not known`
	return strconv.FormatUint(uint64(f), 2)
}

type bytesize int64

// String of a quantity: it compares the value with bounds, but formats
// every value and looks none up.
func (b bytesize) String() string {
	if b < 1024 {
		mark() // want `unknown: a method other packages may call through an interface: how often is not known`
		return strconv.FormatInt(int64(b), 10) + "B"
	}
	return strconv.FormatInt(int64(b)/1024, 10) + "KiB"
}

type seconds int

// String of a quantity that names one value: the default formats the
// others, which are most of them.
func (s seconds) String() string {
	switch s {
	case 0:
		return "now"
	default:
		mark() // want `unknown: a method other packages may call through an interface: how often is not known`
		return strconv.Itoa(int(s)) + "s"
	}
}
