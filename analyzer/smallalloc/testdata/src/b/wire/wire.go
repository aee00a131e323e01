// Package wire declares a name for bytes that package b uses as an
// element type.
package wire

// Byte is a byte on the wire.
type Byte = byte
