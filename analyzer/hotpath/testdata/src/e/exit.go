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

// gather's returning block has loops and a switch of its own, whose
// break and continue stay in them: it runs once per call (gjson's
// parseArray).
func gather(es []entry, key string) []int {
	for _, e := range es {
		if e.key == key {
			mark() // want `unknown: no loop or per-item code of the package calls it`
			var out []int
			for _, v := range e.vals {
				if v < 0 {
					continue
				}
				switch {
				case v == 0:
					break
				default:
					out = append(out, v)
				}
				if v > 100 {
					break
				}
			}
			return out
		}
	}
	return nil
}

// jump's returning block may break out of the outer loop, by its label,
// or continue it from inside a switch: it runs per iteration.
func jump(es []entry, key string) int {
outer:
	for i, e := range es {
		if e.key == key {
			mark() // want `hot-loop: inside a loop`
			for range e.vals {
				break outer
			}
			return i
		}
		if e.key == "" {
			mark() // want `hot-loop: inside a loop`
			switch len(e.vals) {
			case 0:
				continue
			}
			return -i
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

var _, _, _, _, _ = find, skip, lit, gather, jump
var _ = panics
