// Package sink has the ordinary Sink.
package sink

type File struct{ n int }

func (f *File) Put(buf []byte) { f.n += len(buf) }
