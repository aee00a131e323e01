package q

import "reflect"

// Dedup compares in a loop: its finding is reported.
func Dedup(items [][]byte) [][]byte {
	var out [][]byte
	for i, it := range items {
		if i > 0 && reflect.DeepEqual(it, items[i-1]) { // want `use bytes.Equal`
			continue
		}
		out = append(out, it)
	}
	return out
}

// same is cold code (only init calls it): its finding is reported only
// with the cold setting.
func init() { _ = same(nil, nil) }

func same(a, b []byte) bool {
	return reflect.DeepEqual(a, b)
}
