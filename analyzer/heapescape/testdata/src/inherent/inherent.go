// Package inherent checks the allocations that no change identified in
// the code removes: with -all they are reported, saying why.
package inherent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// A Msg is decoded per item.
type Msg struct{ Kind byte }

// decode is a constructor called per item: its result is its purpose. It
// is not inlined: inlined at its call, where the message does not escape,
// its own body would never run.
//
//go:noinline
func decode(p []byte) *Msg {
	return &Msg{Kind: p[0]} // want `&Msg{...} escapes to heap because decode returns it; inherent: it is the value the function returns \[per-item: called in a loop in All\]`
}

// All decodes each payload, fails with an error value.
func All(ps [][]byte) (n int, err error) {
	for _, p := range ps {
		if len(p) == 0 {
			return n, fmt.Errorf("empty payload %d", n) // want `calling fmt.Errorf allocates \(inlined\): &errors.errorString{...} escapes to heap because it is returned; no known rewrite: the allocation is inside the called function \[cold: on an error path\]` `n escapes to heap because it is converted to an interface and passed to fmt.Errorf; no known rewrite: .* \[cold: on an error path\]`
		}
		n += int(decode(p).Kind)
	}
	return n, nil
}

// Config is filled by json.Unmarshal, which needs its address.
type Config struct{ Name string }

// Load decodes a config: the variable's address is what Unmarshal needs.
func Load(data []byte) string {
	var c Config // want `variable c is moved to heap because its address is passed as an interface value to json\.Unmarshal, which lets it escape; no known rewrite: json\.Unmarshal takes it as an interface and needs it \[unknown: exported: how often its callers run it is not known\]`
	json.Unmarshal(data, &c)
	return c.Name
}

// Read passes a buffer of run-time size to an interface method: not a
// fixed-size field.
func Read(r io.Reader, n int) int {
	buf := make([]byte, n) // want `make\(\[\]byte, n\) escapes to heap because it is passed to io.Reader.Read \(an interface method call\), which the compiler cannot see through; no known rewrite: the dynamic call may keep it \[per-item: function Read runs per item\]`
	m, _ := r.Read(buf)
	return m
}

// Evens appends conditionally: the final size is not known.
func Evens(xs []int) []int {
	var out []int
	for _, x := range xs {
		if x%2 == 0 {
			out = append(out, x) // idiom/presize's, at most len(xs)
		}
	}
	return out
}

// Cache allocates its map lazily.
type Cache struct{ m map[string]int }

// Put allocates the map on first use.
func (c *Cache) Put(k string, v int) {
	if c.m == nil {
		c.m = make(map[string]int) // want `make\(map\[string\]int\) escapes to heap because .*; no known rewrite: it is allocated lazily, only when needed \[unknown: allocated only when the condition on c\.m holds, not each time the code runs\]`
	}
	c.m[k] = v
}

// Label formats with fmt per item, with a width that only fmt writes.
func Label(xs []int) []string {
	out := make([]string, len(xs)) // want `make\(\[\]string, len\(xs\)\) escapes to heap because .*; no known rewrite: .*`
	for i, x := range xs {
		out[i] = fmt.Sprintf("%03d", x) // want `x escapes to heap because it is converted to an interface and passed to fmt.Sprintf; no known rewrite: .* \[hot-loop: inside a loop\]`
	}
	return out
}

// Zero returns and keeps values of no bytes, inlined or not: the runtime
// does not allocate them, and nothing is reported, even with -all.
func Zero(keep func(context.Context)) ([]byte, []string) {
	keep(context.Background())
	return []byte{}, emptyNames()
}

func emptyNames() []string { return make([]string, 0) }

// A Memo fills its map lazily.
type Memo struct{ m map[string]int }

// Lazy allocates only when the map is missing: inherent, lazily.
func (c *Memo) Lazy() map[string]int {
	if c.m == nil {
		c.m = make(map[string]int) // want `make\(map\[string\]int\) escapes to heap because it is stored in c\.m; no known rewrite: it is allocated lazily, only when needed`
	}
	return c.m
}

// Shadowed tests c.m but assigns a new m that shadows nothing it tests:
// the map is made every time c.m is nil, which is every call, since
// c.m is never set. It is what the function returns, not lazy.
func (c *Memo) Shadowed() map[string]int {
	m := c.m
	if m == nil {
		m := make(map[string]int) // want `make\(map\[string\]int\) escapes to heap because it is returned; no known rewrite: the function returns it`
		return m
	}
	return m
}

// AlwaysNil tests a variable that is nil whenever the test runs.
func AlwaysNil(keys []string) map[string]int {
	var m map[string]int
	if m == nil {
		m = make(map[string]int, len(keys)) // want `make\(map\[string\]int, len\(keys\)\) escapes to heap because it is returned; no known rewrite: the function returns it`
	}
	for i, k := range keys {
		m[k] = i
	}
	return m
}

// Chunks reads into a buffer made in every iteration, which the
// iteration does not keep: one buffer before the loop does.
func Chunks(r io.Reader, n int) (total int) {
	for i := 0; i < n; i++ {
		buf := make([]byte, 64) // want `^make\(\[\]byte, 64\) escapes to heap because it is passed to io\.Reader\.Read .*; hoist the allocation out of the loop`
		m, _ := r.Read(buf)
		total += m
	}
	return total
}

// Last formats with fmt what strconv formats: the boxing of x belongs to
// idiom's finding, whose rewrite removes it; heapescape does not report it
// again.
func Last(xs []int) {
	for _, x := range xs {
		sinkString = fmt.Sprint(x)
	}
}
