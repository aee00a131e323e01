package b

import "io"

// Parser is declared in another file than its methods.
type Parser struct {
	src io.Reader

	// parseBuf is taken: the new field gets another name.
	parseBuf []byte
}

// Sink is an interface whose method may keep its argument.
type Sink interface {
	Keep(p []byte)
}
