package e

// Code in a loop that leaves the function runs once per call, however
// long the loop: a match returned, an error built and returned.

type entry struct {
	key  string
	vals []int
}

// find returns the first entry with the key: the block that returns runs
// once per call.
func find(es []entry, key string) *entry {
	for i := range es {
		mark() // want `hot-loop: inside a loop`
		if es[i].key == key {
			mark() // want `unknown: no loop or per-item code of the package calls it`
			for range es[i].vals {
				mark() // want `hot-loop: inside a loop`
			}
			return &es[i]
		}
	}
	return nil
}

// Lookup is named like per-item work: its returning case keeps the
// function's own tier.
func Lookup(es []entry, key string) int {
	for i, e := range es {
		switch {
		case e.key == key:
			mark() // want `per-item: function Lookup runs per item`
			return i
		case e.key == "":
			mark() // want `hot-loop: inside a loop`
		}
	}
	return -1
}

// skip may continue before it returns: its block runs per iteration.
func skip(es []entry) int {
	for i, e := range es {
		if e.key != "" {
			mark() // want `hot-loop: inside a loop`
			if len(e.vals) == 0 {
				continue
			}
			return i
		}
	}
	return -1
}

// lit returns from a function literal, which leaves the literal only.
func lit(es []entry) {
	for range es {
		func() {
			for range es {
				if len(es) > 3 {
					mark() // want `hot-loop: inside a loop`
					return
				}
			}
		}()
	}
}

// panics leaves the function too (and is an error path).
func panics(es []entry) {
	for _, e := range es {
		if e.key == "!" {
			mark() // want `cold: on an error path`
			panic(e.key)
		}
	}
}

var _, _, _ = find, skip, lit
var _ = panics
