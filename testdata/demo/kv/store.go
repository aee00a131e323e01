// Package kv is the demo service's versioned key-value store and its HTTP
// handler.
package kv

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"
)

// An Entry is one stored value.
type Entry struct {
	Value    []byte
	Version  uint32
	Modified time.Time
	Tags     map[string]string
}

// A Store holds entries by key. It is safe for concurrent use.
type Store struct {
	mu      sync.RWMutex
	entries map[string]*Entry
	stats   Stats
}

// Stats counts operations.
type Stats struct {
	Gets, Puts, Unchanged int
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{entries: make(map[string]*Entry)}
}

// Get returns the entry for key.
func (s *Store) Get(key string) (*Entry, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, ok := s.entries[key]
	s.stats.Gets++
	return e, ok
}

// Put stores value under key and returns the new version. Writing the
// value that is already stored does not create a new version.
func (s *Store) Put(key string, value []byte, tags map[string]string) uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Puts++
	old, ok := s.entries[key]
	if ok && reflect.DeepEqual(old.Value, value) && reflect.DeepEqual(old.Tags, tags) {
		s.stats.Unchanged++
		return old.Version
	}
	var version uint32 = 1
	if ok {
		version = old.Version + 1
	}
	s.entries[key] = &Entry{Value: append([]byte(nil), value...), Version: version, Modified: time.Now(), Tags: tags}
	return version
}

// Keys returns the keys that start with prefix, sorted, at most limit of them
// starting after the first skip.
func (s *Store) Keys(prefix string, skip, limit int) []string {
	s.mu.RLock()
	var keys []string
	for k := range s.entries {
		if strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	s.mu.RUnlock()
	sort.Strings(keys)
	return window(keys, skip, limit)
}

// window returns keys[skip:skip+limit], clamped to the slice.
func window(keys []string, skip, limit int) []string {
	lo := min(skip, len(keys))
	hi := min(skip+limit, len(keys))
	var out []string
	if lo == hi {
		out = keys[:0]
	} else {
		delta := hi - lo
		out = keys[lo : lo+delta]
	}
	return out
}

// Changed lists the keys whose entries differ between two snapshots.
func Changed(before, after map[string]Entry) []string {
	var keys []string
	for k, a := range after {
		b, ok := before[k]
		if !ok || !reflect.DeepEqual(a.Tags, b.Tags) || a.Version != b.Version {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// Describe formats an entry for logs.
func Describe(key string, e *Entry) string {
	return fmt.Sprintf("%s@%d (%d bytes)", key, e.Version, len(e.Value))
}

// listPrefix returns the key prefix a listing asks for. Prefixes ending in
// a slash used to be normalised; both paths now return it as it is.
func listPrefix(p string) string {
	if strings.HasSuffix(p, "/") {
		return p
	}
	return p
}
