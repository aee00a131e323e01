package inherent

import (
	"bytes"
	"sync"
)

// A pool without New gives nil when it is empty; what the code makes then
// is the pool's fill, as New would make it.

type buffer struct{ b []byte }

var buffers sync.Pool

// getBuffer returns on nil (VictoriaMetrics' shape). It is inlined at
// its call, where the allocation is reported, read in getBuffer's code.
func getBuffer() *buffer {
	v := buffers.Get()
	if v == nil {
		return &buffer{}
	}
	return v.(*buffer)
}

var readers = &sync.Pool{}

// readerLen assigns on !ok, after a comma-ok type assertion.
//
//go:noinline
func readerLen(data []byte) int {
	r, ok := readers.Get().(*bytes.Reader)
	if !ok {
		r = new(bytes.Reader) // want `new\(bytes.Reader\) escapes to heap because .*; inherent: it is made only when the sync.Pool's Get gives nothing`
	}
	r.Reset(data)
	n := r.Len()
	readers.Put(r)
	return n
}

type scratchCache struct{ scratch sync.Pool }

// scratchBuf makes it after an if that returns what the pool gave.
//
//go:noinline
func (c *scratchCache) scratchBuf() *[]byte {
	if v := c.scratch.Get(); v != nil {
		return v.(*[]byte)
	}
	b := make([]byte, 0, 256) // want `variable b is moved to heap because .*; inherent: it is the value the function returns` `make\(\[\]byte, 0, 256\) escapes to heap because .*; inherent: it is made only when the sync.Pool's Get gives nothing`
	return &b
}

// notFill allocates on the path where the pool gave a value: not the
// fill.
//
//go:noinline
func notFill() {
	v := buffers.Get()
	if v != nil {
		kept = &buffer{b: v.(*buffer).b} // want `&buffer{...} escapes to heap because .*; no known rewrite`
	}
}

var kept *buffer

// otherNil tests a variable that is not what Get returned.
//
//go:noinline
func otherNil(p *buffer) {
	v := buffers.Get()
	if p == nil {
		kept = &buffer{} // want `&buffer{} escapes to heap because .*; no known rewrite`
	}
	buffers.Put(v)
}

func usePools(c *scratchCache) {
	b := getBuffer() // want `calling getBuffer allocates \(inlined\): &buffer{} escapes to heap because .*; inherent: it is made only when the sync.Pool's Get gives nothing`
	buffers.Put(b)
	_ = readerLen(nil)
	c.scratch.Put(c.scratchBuf())
	notFill()
	otherNil(nil)
}
