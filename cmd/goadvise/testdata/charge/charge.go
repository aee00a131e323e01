// Package charge is a fixture whose allocations have known counts: every
// byte is allocated by the helper allocBytes, ten times per Drain through
// (*Reader).Next, which could reuse its reader's buffer, and once through
// the constructor NewReader, whose allocation is its job. Charged to the
// frame that can avoid them, 10/11 of the bytes belong to Next's call.
package charge

var sink []byte

// allocBytes is the allocator helper: it returns new memory.
func allocBytes(n int) []byte {
	return make([]byte, n)
}

// A Reader reads records from src.
type Reader struct {
	src     []byte
	scratch []byte
}

// NewReader returns a reader of src with its own buffer.
func NewReader(src []byte) *Reader {
	return &Reader{src: src, scratch: allocBytes(4096)}
}

// Next reads one record into a fresh buffer, although r.scratch would do.
func (r *Reader) Next() int {
	buf := allocBytes(4096)
	n := copy(buf, r.src)
	sink = buf
	return n
}

// Drain reads ten records from a new reader of src.
func Drain(src []byte) int {
	r := NewReader(src)
	t := 0
	for range 10 {
		t += r.Next()
	}
	sink = r.scratch
	return t
}
