package pgo

import "testing"

func TestIsConstructor(t *testing.T) {
	for name, want := range map[string]bool{
		"example.com/p.NewReader":          true,
		"example.com/p.newBuffer":          true,
		"example.com/p.makeKey":            true,
		"example.com/p.(*Arena).Allocate":  true,
		"example.com/p.alloc":              true,
		"example.com/p.New[go.shape.int]":  true,
		"example.com/p.(*reader).next":     false,
		"example.com/p.News":               false,
		"example.com/p.Newline":            false,
		"example.com/p.allocated":          false,
		"example.com/p.Drain":              false,
		"example.com/p.(*Pool).renewLease": false,
	} {
		if got := IsConstructor(name); got != want {
			t.Errorf("IsConstructor(%q) = %v, want %v", name, got, want)
		}
	}
}
