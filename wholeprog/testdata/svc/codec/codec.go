// Package codec declares the interfaces of the service.
package codec

// Decoder decodes one message from buf.
type Decoder interface {
	Decode(buf []byte) (int, error)
}

// Hasher hashes messages; it has two implementations.
type Hasher interface {
	Hash(buf []byte) uint64
}

// Sink receives results; its second implementation is built by reflection.
type Sink interface {
	Put(buf []byte)
}

// Codec is registered by name, plugin-style.
type Codec interface {
	Encode(buf []byte) int
}

var registry = map[string]Codec{}

// Register adds a codec to the registry.
func Register(name string, c Codec) { registry[name] = c }

// Lookup returns a registered codec.
func Lookup(name string) Codec { return registry[name] }
