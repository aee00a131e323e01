package optlog

import (
	"bytes"
	"encoding/gob"

	"github.com/goadvise/goadvise/internal/cache"
)

// decisions is the cache of the compiler's decisions, by package key.
var decisions = cache.New("escape")

// cacheGet returns the cached records for key. A missing or damaged entry
// is a miss.
func cacheGet(key string) ([]Record, bool) {
	if key == "" {
		return nil, false
	}
	data, ok := decisions.Get(key)
	if !ok {
		return nil, false
	}
	var recs []Record
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&recs); err != nil {
		return nil, false
	}
	return recs, true
}

// cacheHas reports whether sound records for key are cached.
func cacheHas(key string) bool {
	return key != "" && decisions.Has(key)
}

// cachePut stores the records for key, atomically, and reports whether
// it could. Failures are otherwise ignored: the cache only saves time.
func cachePut(key string, recs []Record) bool {
	if key == "" {
		return false
	}
	var buf bytes.Buffer
	if recs == nil {
		recs = []Record{}
	}
	if err := gob.NewEncoder(&buf).Encode(recs); err != nil {
		return false
	}
	return decisions.Put(key, buf.Bytes()) == nil
}
