package presize

import "strings"

type item struct{ name string }

func Names(items []item) []string {
	names := []string{} // want `^names starts empty and the loop appends exactly len\(items\) elements to it, growing it by reallocation; declare it with make\(\[\]string, 0, len\(items\)\), which allocates once \[`
	for _, it := range items {
		names = append(names, it.name)
	}
	return names
}

func Pairs(m map[string]int) []string {
	kv := make([]string, 0) // want `appends exactly 2\*len\(m\) elements to it.*make\(\[\]string, 0, 2\*len\(m\)\)`
	for k, v := range m {
		kv = append(kv, k)
		if len(kv) > 0 && kv[0] == "" {
			v++
		}
		kv = append(kv, string(rune(v)))
	}
	return kv
}

func Counted(n int) []int {
	var out []int // want `appends exactly n elements.*behaviour change: out is no longer nil when the loop does not run\); no automatic fix: make gives a non-nil slice`
	for i := 0; i < n; i++ {
		out = append(out, i*i)
	}
	return out
}

func Evens(xs []int) []int {
	evens := []int{} // want `^evens starts empty and the loop appends to it at most len\(xs\) times.*; no automatic fix: the loop appends to it only on some iterations`
	for _, x := range xs {
		if x%2 == 0 {
			evens = append(evens, x)
		}
	}
	return evens
}

func Later(load func() []int) []int {
	out := []int{} // want `no automatic fix: the length is known only after out is declared: declare it just before the loop`
	xs := load()
	for _, x := range xs {
		out = append(out, x)
	}
	return out
}

// Not reported: the bound is not known before the loop, the slice is used
// before the loop, a nested loop appends, the slice escapes into a closure.

func Unknown(ch chan int) []int {
	out := []int{}
	for x := range ch {
		out = append(out, x)
	}
	return out
}

func Around(xs []string) []string {
	out := []string{} // want `appends exactly len\(xs\)\+3 elements.*make\(\[\]string, 0, len\(xs\)\+3\)`
	out = append(out, "[", "")
	for _, x := range xs {
		out = append(out, x)
	}
	out = append(out, "]")
	return out
}

func UsedBefore(xs []int, seed []int) []int {
	out := []int{}
	out = append(out, seed...)
	for _, x := range xs {
		out = append(out, x)
	}
	return out
}

func Nested(xss [][]int) []int {
	out := []int{}
	for _, xs := range xss {
		for _, x := range xs {
			out = append(out, x)
		}
	}
	return out
}

func Captured(xs []int) []int {
	out := []int{}
	for _, x := range xs {
		func() { out = append(out, x) }()
	}
	return out
}

func Presized(xs []int) []int {
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		out = append(out, x)
	}
	return out
}

func Literal() []string {
	out := []string{} // want `appends exactly 3 elements.*make\(\[\]string, 0, 3\)`
	for _, s := range []string{"a", "b", "c"} {
		out = append(out, s+s)
	}
	return out
}

func TwoLoops(add, del []string, ok func(string) bool) []string {
	changes := []string{} // want `appends to it at most len\(add\)\+len\(del\) times`
	for _, a := range add {
		changes = append(changes, a)
	}
	for _, d := range del {
		if ok(d) {
			changes = append(changes, d)
		}
	}
	return changes
}

func ThenMore(xs []string, more chan string) []string {
	out := []string{} // want `appends len\(xs\) elements to it, growing it by reallocation, and later code more; declare it with a capacity of at least len\(xs\)`
	for _, x := range xs {
		out = append(out, x)
	}
	for m := range more {
		out = append(out, m)
	}
	return out
}

func Labeled(xs []int) []int {
	out := []int{} // want `at most len\(xs\) times`
outer:
	for _, x := range xs {
		out = append(out, x)
		for range x {
			continue outer
		}
	}
	return out
}

type option int

func Options(extra []option, more []option) []option {
	opts := []option{1} // want `^opts starts with a capacity of 1 and the appends after it grow it to 1\+len\(extra\)\+len\(more\) elements, reallocating each time it outgrows it; start it with room for all of them, append\(make\(\[\]option, 0, 1\+len\(extra\)\+len\(more\)\), \.\.\.the literal's elements\)`
	opts = append(opts, extra...)
	opts = append(opts, more...)
	return opts
}

func Header(a, b []byte) []byte {
	buf := make([]byte, 8) // want `make it with make\(\[\]byte, 8, 8\+len\(a\)\+len\(b\)\)`
	buf[0] = 1
	buf = append(buf, a...)
	buf = append(buf, b...)
	return buf
}

// Not reported: one append to an empty slice allocates once anyway.
func Clone(xs []int) []int {
	var out []int
	out = append(out, xs...)
	return out
}

func Manifest(body func() []byte) []byte {
	buf := make([]byte, 8) // want `make it with make\(\[\]byte, 8, 8\+len\(crc\[:\]\)\+len\(payload\)\) once payload is known.*no automatic fix: len\(payload\) is known only after buf is made`
	buf[0] = 'M'
	payload := body()
	var crc [4]byte
	buf = append(buf, crc[:]...)
	buf = append(buf, payload...)
	return buf
}

// untilDone's counter starts at a constant that is not a number: no trip
// count, and nothing to report (nor to panic on).
func untilDone(next func() (int, bool)) []int {
	var out []int
	for done := false; !done; {
		v, ok := next()
		out = append(out, v)
		done = !ok
	}
	words := make([]uint64, 4)
	for stop := false; !stop; stop = true {
		words[0] = 0
	}
	return out
}

// keysOf builds its slice in the case of a switch.
func keysOf(kind int, m map[string]int) []string {
	switch kind {
	case 1:
		keys := []string{} // want `^keys starts empty and the loop appends exactly len\(m\) elements to it`
		for k := range m {
			keys = append(keys, k)
		}
		return keys
	}
	return nil
}

type request struct{ h map[string][]string }

func (r *request) headers() map[string][]string { return r.h }

// headerPairs ranges over a method's result, a map.
func headerPairs(r *request) []string {
	pairs := make([]string, 0) // want `^pairs starts empty and the loop appends exactly len\(r\.headers\(\)\) elements to it, growing it by reallocation; declare it with make\(\[\]string, 0, len\(src\)\), which allocates once; no automatic fix: the loop ranges over the result of a call: store r\.headers\(\) in a variable src before pairs is declared, and range over src`
	for k := range r.headers() {
		pairs = append(pairs, k)
	}
	return pairs
}

// fieldLens ranges over another package's result, a slice, appending two
// elements per iteration.
func fieldLens(s string) []int {
	src := []int{} // want `appends exactly 2\*len\(strings\.Fields\(s\)\) elements.*make\(\[\]int, 0, 2\*len\(from\)\).*store strings\.Fields\(s\) in a variable from before src is declared`
	for _, f := range strings.Fields(s) {
		src = append(src, len(f), 0)
	}
	return src
}

func count() int { return 3 }

// squares ranges over an integer a call returns.
func squares() []int {
	var sq []int // want `appends exactly count\(\) elements.*make\(\[\]int, 0, src\).*store count\(\) in a variable src`
	for i := range count() {
		sq = append(sq, i*i)
	}
	return sq
}
