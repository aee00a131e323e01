package e

import (
	"reflect"
	"strings"
	"sync"
)

// The code that fills a cache keyed by type, which nothing deletes from,
// runs once per type: cold. Not a cache keyed by something else, nor one
// that loses its entries, nor what runs before the lookup.

type encoderFunc func(any) string

var encoders sync.Map // reflect.Type -> encoderFunc

// encoderOf returns early when the cache has the type (msgpack's
// getDecoder); the rest, and what only it calls, builds the encoder.
func encoderOf(t reflect.Type) encoderFunc {
	mark() // want `per-item: called in a loop in useCaches`
	if v, ok := encoders.Load(t); ok {
		return v.(encoderFunc)
	}
	fn := buildEncoder(t)
	mark() // want `cold: runs once per type: fills a cache keyed by reflect.Type that nothing deletes from`
	encoders.Store(t, fn)
	return fn
}

func buildEncoder(t reflect.Type) encoderFunc {
	for i := 0; i < t.NumField(); i++ {
		mark() // want `cold: .*the fill of a cache keyed by type`
	}
	return func(any) string { return t.String() }
}

// A cache of a type's field names by tag, in a field, keyed by a struct
// holding the type, under a read lock, and filled in "if !ok".
type fieldKey struct {
	typ reflect.Type
	tag string
}

type fieldCache struct {
	mu sync.RWMutex
	m  map[fieldKey][]string
}

var fields = &fieldCache{m: map[fieldKey][]string{}}

func (c *fieldCache) names(t reflect.Type, tag string) []string {
	key := fieldKey{t, tag}
	c.mu.RLock()
	names, ok := c.m[key]
	c.mu.RUnlock()
	if !ok {
		for i := 0; i < t.NumField(); i++ {
			names = append(names, strings.ToLower(t.Field(i).Name))
			mark() // want `cold: runs once per type`
		}
		c.mu.Lock()
		c.m[key] = names
		c.mu.Unlock()
	}
	return names
}

// A plain map checked with "if ok" a statement after the lookup.
var sizes = map[reflect.Type]int{}

func sizeOf(t reflect.Type) int {
	n, ok := sizes[t]
	if ok {
		return n
	}
	n = int(t.Size()) + mark() // want `cold: runs once per type`
	sizes[t] = n
	return n
}

// Keyed by a string: names of any number of values, not of types.
var byName sync.Map

func lookupName(s string) int {
	if v, ok := byName.Load(s); ok {
		return v.(int)
	}
	n := len(s) + mark() // want `per-item: called in a loop in useCaches`
	byName.Store(s, n)
	return n
}

// Keyed by type, but entries are deleted: the fill may run again.
var registered sync.Map

func unregister(t reflect.Type) { registered.Delete(t) }

func handlerOf(t reflect.Type) int {
	if v, ok := registered.Load(t); ok {
		return v.(int)
	}
	n := mark() // want `per-item: called in a loop in useCaches`
	registered.Store(t, n)
	return n
}

// Reset by assignment: the same.
var kinds = map[reflect.Type]string{}

func resetKinds() { kinds = map[reflect.Type]string{} }

func kindOf(t reflect.Type) string {
	if k, ok := kinds[t]; ok {
		return k
	}
	k := t.Kind().String()
	mark() // want `per-item: called in a loop in useCaches`
	kinds[t] = k
	return k
}

// Callers of each, so that they run per item.
func useCaches(items []any) {
	for _, it := range items {
		t := reflect.TypeOf(it)
		encoderOf(t)
		fields.names(t, "json")
		sizeOf(t)
		lookupName(t.Name())
		handlerOf(t)
		kindOf(t)
	}
	_ = unregister
	_ = resetKinds
}

// A map of pointers read in one value, its nil a missing entry (gorilla
// schema's cache), filled in "if v == nil", or returned in "if v != nil".
type layout struct{ offsets []uintptr }

var layouts = map[reflect.Type]*layout{}

var layoutMu sync.RWMutex

func layoutOf(t reflect.Type) *layout {
	layoutMu.RLock()
	l := layouts[t]
	layoutMu.RUnlock()
	if l == nil {
		l = &layout{}
		mark() // want `cold: runs once per type`
		layoutMu.Lock()
		layouts[t] = l
		layoutMu.Unlock()
	}
	return l
}

var widths = map[reflect.Type]*int{}

func widthOf(t reflect.Type) int {
	if w := widths[t]; w != nil {
		return *w
	}
	n := int(t.Size()) + mark() // want `cold: runs once per type`
	widths[t] = &n
	return n
}

// A map of values: its zero is a value like any other, not a missing
// entry.
var counts = map[reflect.Type]int{}

func countOf(t reflect.Type) int {
	n := counts[t]
	if n == 0 {
		n = t.NumField() + mark() // want `per-item: called in a loop in useMore`
		counts[t] = n
	}
	return n
}

func useMore(items []any) {
	for _, it := range items {
		t := reflect.TypeOf(it)
		layoutOf(t)
		widthOf(t)
		countOf(t)
	}
}
