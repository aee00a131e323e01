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
