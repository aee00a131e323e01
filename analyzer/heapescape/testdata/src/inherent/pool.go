package inherent

import "sync"

type conn struct {
	buf [64]byte
	n   int
}

// A pool's New makes what the pool keeps: what it returns is what the
// pool is for, whatever makes it escape. (The array behind b is stored
// in b, not returned: that is not proven.)
var bigBufs = sync.Pool{
	New: func() any {
		return make([]byte, 1<<20) // want `make\(\[\]byte, 1048576\) escapes to heap because it is too large for the stack; inherent: it is what the sync.Pool's New function makes`
	},
}

var conns = &sync.Pool{New: func() any { return new(conn) }} // want `new\(conn\) escapes to heap because .*; inherent: it is what the sync.Pool's New function makes`

type server struct {
	scratch sync.Pool
}

// init is inlined at its one call, where the function literal is
// reported; the literal's body is reported here.
func (s *server) init() {
	s.scratch.New = func() any {
		b := make([]byte, 0, 512) // want `variable b is moved to heap because its address is taken, then converted to an interface, then returned; inherent: it is what the sync.Pool's New function makes` `make\(\[\]byte, 0, 512\) escapes to heap because it is returned or stored outside the function; no known rewrite`
		return &b
	}
}

// A field named New of another type is not a pool: what its function
// makes is not proven to be kept.
type factory struct {
	New func() any
}

var notPool = factory{New: func() any { return new(conn) }} // want `new\(conn\) escapes to heap because .*; no known rewrite`

func use(s *server) {
	s.init() // want `calling \(\*server\).init allocates \(inlined\): func literal escapes to heap`
	b := bigBufs.Get().([]byte)
	bigBufs.Put(b[:0]) // idiom/pool-pointer's
	conns.Put(conns.Get())
	_ = notPool.New()
}
