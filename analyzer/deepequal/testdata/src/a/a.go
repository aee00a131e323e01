package a

import (
	"reflect"
	"time"
)

type Point struct{ X, Y int }

type Sample struct {
	Name  string
	Score float64
	Tags  [2]string
}

type WithPtr struct{ P *int }

type WithBlank struct {
	A int
	_ int
}

type Version struct{ Major, Minor int }

func (v Version) Equal(o Version) bool { return v.Major == o.Major }

type ptrEq struct{ s []int }

func (p *ptrEq) Equal(o ptrEq) bool { return len(p.s) == len(o.s) }

type Bytes []byte

func bytesCase(a, b []byte) bool {
	return reflect.DeepEqual(a, b) // want `reflect\.DeepEqual on \[\]byte uses reflection: use bytes\.Equal, which compares directly without allocating \(behaviour change: a nil and an empty slice compare equal with it but not with DeepEqual\) \[unknown: no loop or per-item code of the package calls it\]`
}

func namedBytes(a, b Bytes) bool {
	return reflect.DeepEqual(a, b) // want `on Bytes uses reflection: use bytes.Equal`
}

func ints(a, b []int) bool {
	return reflect.DeepEqual(a, b) // want `on \[\]int uses reflection: use slices.Equal`
}

func floats(a, b []float64) bool {
	return reflect.DeepEqual(a, b) // want `use slices.Equal, .*NaN, slices.Equal does not\)`
}

func maps1(a, b map[string]int) bool {
	return reflect.DeepEqual(a, b) // want `on map\[string\]int uses reflection: use maps.Equal`
}

func strs(a, b string) bool {
	return reflect.DeepEqual(a, b) // want `reflect\.DeepEqual on string uses reflection: use ==, which compares directly without allocating \[unknown: no loop or per-item code of the package calls it\]`
}

func num(a int64) bool {
	return reflect.DeepEqual(a, int64(3)) // want `on int64 uses reflection: use ==`
}

func structs(p, q Point) bool {
	if !reflect.DeepEqual(p, q) { // want `on Point uses reflection: use ==`
		return false
	}
	return true
}

func samples(p, q Sample) bool {
	return reflect.DeepEqual(p, q) && p.Name != "" // want `on Sample uses reflection: use ==`
}

func arrays(a, b [4]uint32) bool {
	return reflect.DeepEqual(a, b) // want `on \[4\]uint32 uses reflection: use ==`
}

func times(a, b time.Time) bool {
	return reflect.DeepEqual(a, b) // want `on time.Time uses reflection: use time.Time's Equal method, .*behaviour change: the Equal method defines its own equality`
}

func versions(a, b Version) bool {
	return reflect.DeepEqual(a, b) // want `on Version uses reflection: use ==`
}

func timeSlices(a, b []time.Time) bool {
	return reflect.DeepEqual(a, b) // want `on \[\]time.Time uses reflection: use slices.EqualFunc with the elements' Equal method`
}

func timeMaps(a, b map[string]time.Time) bool {
	return reflect.DeepEqual(a, b) // want `use maps.EqualFunc with the elements' Equal method`
}

func inLoop(rows [][]byte, key []byte) int {
	for i, r := range rows {
		if reflect.DeepEqual(r, key) { // want `use bytes.Equal.*\[hot-loop: inside a loop\]`
			return i
		}
	}
	return -1
}

type Reader struct{ last []string }

func (r *Reader) Next(s []string) bool {
	return reflect.DeepEqual(r.last, s) // want `use slices.Equal.*\[per-item: method Next runs per item\]`
}

// Negative cases: no cheaper comparison that means the same thing.

func ifaces(a, b any) bool { return reflect.DeepEqual(a, b) }

func sliceMaps(a, b map[string][]int) bool { return reflect.DeepEqual(a, b) }

func ptrs(a, b *Point) bool { return reflect.DeepEqual(a, b) }

func withPtr(a, b WithPtr) bool { return reflect.DeepEqual(a, b) }

func ptrSlices(a, b []*Point) bool { return reflect.DeepEqual(a, b) }

func mixed(a int, b int64) bool { return reflect.DeepEqual(a, b) }

func nilArg(a []int) bool { return reflect.DeepEqual(a, nil) }

func blank(a, b WithBlank) bool { return reflect.DeepEqual(a, b) }

func generic[T comparable](a, b T) bool { return reflect.DeepEqual(a, b) }

func ptrRecv(a, b ptrEq) bool { return reflect.DeepEqual(a, b) }

func errs(a, b error) bool { return reflect.DeepEqual(a, b) }

func nested(a, b [][]byte) bool { return reflect.DeepEqual(a, b) }

var _ = reflect.TypeOf(0)

func notEqualInExpr(p, q Point, ok bool) bool {
	return ok && !reflect.DeepEqual(p, q) // want `on Point uses reflection: use ==`
}

func negatedAgain(p, q Point) bool {
	return !!reflect.DeepEqual(p, q) // want `on Point uses reflection: use ==`
}
