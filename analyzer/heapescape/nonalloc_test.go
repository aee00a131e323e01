package heapescape_test

import (
	"context"
	"testing"
	"time"
)

// The shapes that heapescape does not report although the compiler says
// they escape (see nonAllocating), measured: each must not allocate, while
// a non-constant string converted to an interface does.

var (
	sink     any
	str           = "dynamic"
	flag          = true
	oneByte  byte = 7
	oneInt8  int8 = -3
	bigInt        = 1 << 20
	wrappedB      = struct{ b bool }{true}
	kept     []int
	keptB    []byte
)

type point struct{ x, y int }

type wrapper struct{ b uint8 }

func TestNonAllocating(t *testing.T) {
	b, i8, w := oneByte, oneInt8, wrappedB
	// The backing array of make([]T, 0) escapes here, with zero bytes.
	zeroMake := func() { kept = make([]int, 0) }
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"constant string", func() { sink = "constant" }},
		{"constant int", func() { sink = 1000 }},
		{"typed constant", func() { sink = time.Second }},
		{"constant float", func() { sink = 2.5 }},
		{"zero-size struct", func() { sink = struct{}{} }},
		{"bool", func() { sink = flag }},
		{"byte", func() { sink = b }},
		{"int8", func() { sink = i8 }},
		{"struct of one bool", func() { sink = w }},
		{"struct of one byte", func() { sink = wrapper{oneByte} }},
		{"static composite literal", func() { sink = point{1, 2} }},
		{"make of length 0 (stored, not converted)", zeroMake},
		{"empty slice literal (stored)", func() { keptB = []byte{} }},
		{"context.Background (inlined, boxed)", func() { sink = context.Background() }},
		{"context.TODO (inlined, boxed)", func() { sink = context.TODO() }},
	} {
		if n := testing.AllocsPerRun(100, c.f); n != 0 {
			t.Errorf("%s converted to an interface: %v allocations per run, want 0", c.name, n)
		}
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"non-constant string", func() { sink = str }},
		{"non-constant int above 255", func() { sink = bigInt }},
		{"non-constant composite literal", func() { sink = point{bigInt, 2} }},
	} {
		if n := testing.AllocsPerRun(100, c.f); n == 0 {
			t.Errorf("%s converted to an interface: no allocation, want at least 1", c.name)
		}
	}
}

var (
	items      = []point{{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}}
	byName     = map[string]int{"a": 1, "b": 2, "c": 3, "d": 4}
	keptPoints []point
	keptKeys   []string
)

// TestNeverGrows measures the shapes of testdata/src/growth that
// heapescape does not report (see outgrowsNever): the make is their only
// allocation, the appends never grow the slice. The shapes it reports
// allocate more.
func TestNeverGrows(t *testing.T) {
	n := len(items)
	for _, c := range []struct {
		name  string
		f     func()
		grows bool
	}{
		{"range over a slice, conditional append", func() {
			out := make([]point, 0, len(items))
			for _, it := range items {
				if it.x != 3 {
					out = append(out, it)
				}
			}
			keptPoints = out
		}, false},
		{"counted loop", func() {
			s := make([]point, 0, n)
			for i := 0; i < n; i++ {
				s = append(s, items[i])
			}
			keptPoints = s
		}, false},
		{"range over a map", func() {
			var keys = make([]string, 0, len(byName))
			for k := range byName {
				keys = append(keys, k)
			}
			keptKeys = keys
		}, false},
		{"range over an integer", func() {
			s := make([]point, 0, n)
			for i := range n {
				s = append(s, point{i, i})
			}
			keptPoints = s
		}, false},
		{"two appends per item", func() {
			out := make([]point, 0, len(items))
			for _, it := range items {
				out = append(out, it)
				out = append(out, it)
			}
			keptPoints = out
		}, true},
		{"half the capacity", func() {
			out := make([]point, 0, len(items)/2)
			for _, it := range items {
				out = append(out, it)
			}
			keptPoints = out
		}, true},
	} {
		got := testing.AllocsPerRun(100, c.f)
		if c.grows && got <= 1 || !c.grows && got != 1 {
			t.Errorf("%s: %v allocations per run, want %s", c.name, got, map[bool]string{true: "more than 1 (it grows)", false: "1 (the make)"}[c.grows])
		}
	}
}
