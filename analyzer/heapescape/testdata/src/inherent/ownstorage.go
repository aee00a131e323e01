package inherent

// header keeps its values' bytes and reuses them for each request.
type header struct {
	kv    []kv
	order []string
	raw   []byte
}

type kv struct{ key, value []byte }

// Set copies v into the entry's own bytes, reusing their capacity.
func (h *header) Set(i int, v []byte) {
	h.kv[i].value = append(h.kv[i].value[:0], v...) // want `^append\(h\.kv\[i\]\.value\[:0\], v\.\.\.\) escapes to heap because append grows it; inherent: the slice is the data structure's own storage, kept and grown in place`
}

// Add grows the list of keys, the header's own storage.
func (h *header) Add(key string) {
	h.order = append(h.order, key) // want `inherent: the slice is the data structure's own storage`
}

// Reset reuses the raw buffer for a new request.
func (h *header) Reset(b []byte) {
	h.raw = append(h.raw[:0], b...) // want `inherent: the slice is the data structure's own storage`
}

var sinkBytes []byte

// JoinAll grows a local slice, which no structure keeps.
func JoinAll(parts [][]byte) {
	var out []byte
	for _, p := range parts {
		out = append(out, p...) // want `append\(out, p\.\.\.\) escapes to heap because append grows it.*; no known rewrite`
	}
	sinkBytes = out
}

// Use calls Set, inlined: its append is reported at the call, as the
// growth of the header's own storage too.
func Use(h *header, v []byte) {
	h.Set(0, v) // want `^calling \(\*header\)\.Set allocates \(inlined\): append\(h\.kv\[i\]\.value\[:0\], v\.\.\.\) escapes to heap because append grows it; inherent: the slice is the data structure's own storage`
}

// appendLine is append-style, inlined where it is called. A copy of an
// append inlined where it does not escape may still grow on the heap:
// its own body is reported too.
func appendLine(dst []byte, k, v string) []byte {
	dst = append(dst, k...)  // want `inherent: an append-style function grows the buffer its caller passes in`
	return append(dst, v...) // want `inherent: an append-style function grows the buffer its caller passes in`
}

// alloc returns the slice grown by one element, and that element.
func alloc(h []kv) ([]kv, *kv) {
	h = append(h, kv{}) // want `inherent: an append-style function grows the buffer its caller passes in`
	return h, &h[len(h)-1]
}

type scanner struct {
	raw *[]byte
	b   []byte
}

// keep appends to the buffer the scanner's field points to.
func (s *scanner) keep() {
	*s.raw = append(*s.raw, s.b...) // want `inherent: the slice is the data structure's own storage`
}

// Lines builds the header's lines in its own buffer, through an
// append-style helper, grows its entries through another, and keeps the
// scanner's bytes.
func (h *header) Lines(keys []string, s *scanner) *kv {
	h.raw = h.raw[:0]
	for _, k := range keys {
		h.raw = appendLine(h.raw, k, "\r\n") // want `^calling appendLine allocates \(inlined\): .*inherent: the slice is the data structure's own storage` `^calling appendLine allocates \(inlined\): .*inherent: the slice is the data structure's own storage`
	}
	var last *kv
	h.kv, last = alloc(h.kv) // want `^calling alloc allocates \(inlined\): .*inherent: the slice is the data structure's own storage`
	s.keep()                 // want `^calling \(\*scanner\)\.keep allocates \(inlined\): .*inherent: the slice is the data structure's own storage`
	return last
}

type cache struct{ pending []*kv }

// release is append-style for its first parameter, and grows the cache's
// own list of pending entries.
func (c *cache) release(out []*kv, e *kv) []*kv {
	if e.key != nil {
		c.pending = append(c.pending, e) // want `inherent: the slice is the data structure's own storage`
		return out
	}
	return append(out, e) // want `inherent: an append-style function grows the buffer its caller passes in`
}

// Clean releases every entry.
func (c *cache) Clean(es []*kv) []*kv {
	var out []*kv
	for _, e := range es {
		out = c.release(out, e) // want `^calling \(\*cache\)\.release allocates \(inlined\): append\(c\.pending, e\).*inherent: the slice is the data structure's own storage` `^calling \(\*cache\)\.release allocates \(inlined\): append\(out, e\).*no known rewrite`
	}
	return out
}
