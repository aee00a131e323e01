package inherent

import seqs "iter"

// Set is a set whose iterators range loops inline.
type Set struct{ items []string }

// All returns an iter.Seq: the closure it returns is the iterator.
func (s *Set) All() seqs.Seq[string] {
	return func(yield func(string) bool) { // want `^func literal escapes to heap because it is returned and outlives the call; inherent: it is the iterator the function returns, and the compiler inlines the function`
		for _, x := range s.items {
			if !yield(x) {
				return
			}
		}
	}
}

// Indexed returns an iter.Seq2.
func (s *Set) Indexed() seqs.Seq2[int, string] {
	return func(yield func(int, string) bool) { // want `inherent: it is the iterator the function returns`
		for i, x := range s.items {
			if !yield(i, x) {
				return
			}
		}
	}
}

// Visit returns an iterator written as a plain function type.
func (s *Set) Visit() func(func(string) bool) {
	return func(yield func(string) bool) { // want `inherent: it is the iterator the function returns`
		for _, x := range s.items {
			if !yield(x) {
				return
			}
		}
	}
}

// Printer returns a closure that is not an iterator: the closure-once
// advice is a rewrite's, reported without -all (see TestClosureOnce).
func (s *Set) Printer() func() int {
	return func() int { return len(s.items) } // want `^func literal escapes to heap because it is returned and outlives the call; the closure captures only s`
}
