package o

import "sync"

// Pools the package puts values back into call New only when they are
// empty: New is cold, whatever the shape of the pool.
var bufs = sync.Pool{New: func() any {
	mark() // want `cold: runs rarely: a sync.Pool's New, called only when the pool is empty`
	return make([]byte, 4096)
}}

var ptrs = &sync.Pool{
	New: func() any {
		mark() // want `cold: runs rarely: a sync.Pool's New`
		return new([64]byte)
	},
}

type server struct {
	scratch sync.Pool
	conns   sync.Pool
	spare   sync.Pool // never put back
}

func newServer() *server {
	s := &server{conns: sync.Pool{New: func() any {
		mark() // want `cold: runs rarely: a sync.Pool's New`
		return new(int)
	}}}
	s.scratch.New = func() any {
		mark() // want `cold: runs rarely: a sync.Pool's New`
		return new(int)
	}
	// A pool nothing is put back into calls New on every Get.
	s.spare.New = func() any {
		mark() // want `unknown: in a function literal run elsewhere`
		return new(int)
	}
	return s
}

// Serve uses the pools per request.
func (s *server) Serve(reqs []int) {
	for range reqs {
		b := bufs.Get().([]byte)
		bufs.Put(b)
		ptrs.Put(ptrs.Get())
		s.scratch.Put(s.scratch.Get())
		s.conns.Put(s.conns.Get())
		_ = s.spare.Get()
	}
}

// A field named New of another type is not a pool.
type factory struct {
	New func() any
}

func (f *factory) Put(any) {}

var made = factory{New: func() any {
	mark() // want `unknown: in a function literal run elsewhere`
	return nil
}}

func useFactory() {
	made.Put(made.New())
}
