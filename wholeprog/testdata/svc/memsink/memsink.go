// Package memsink has a Sink that is only ever built by reflection.
package memsink

import (
	"reflect"

	"example.com/svc/codec"
)

type Mem struct{ data [][]byte }

func (m *Mem) Put(buf []byte) { m.data = append(m.data, buf) }

// Make builds a Mem through reflection: the call graph cannot follow it.
func Make() codec.Sink {
	return reflect.New(reflect.TypeOf(Mem{})).Interface().(codec.Sink)
}
