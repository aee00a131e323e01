// Package local has function literals bound to local variables that the
// code only calls: helpers of the function that makes them. Where that
// code runs once whatever its loops (init, set-up, an error path), so
// does the helper; elsewhere it is a literal that runs elsewhere.
package local

import (
	"errors"
	"sort"
	"strings"
)

func mark() {}

var table []string

func init() {
	pad := func(s string, n int) string {
		for len(s) < n {
			mark() // want `cold: runs once: in init`
			s += " "
		}
		return s
	}
	for i := range table {
		table[i] = pad(table[i], 8)
	}
}

// initRoutes is set-up by its name; its helper, called in a loop, is too.
func initRoutes(routes []string) []string {
	var out []string
	var clean = func(s string) string {
		mark() // want `unknown: set-up by its name, how often it runs is not known`
		return strings.TrimSpace(s)
	}
	for _, r := range routes {
		out = append(out, clean(r))
	}
	return out
}

// Parse reports an error built by a helper made on the error path.
func Parse(items []string) error {
	for _, it := range items {
		if it == "" {
			describe := func(i string) string {
				for range 2 {
					mark() // want `cold: on an error path`
				}
				return "empty item after " + i
			}
			return errors.New(describe(it))
		}
	}
	return nil
}

// Sum's helper runs per item, in the loop that calls it: not cold.
func Sum(xs [][]int) int {
	total := 0
	add := func(ys []int) {
		for _, y := range ys {
			mark() // want `hot-loop: inside a loop`
			total += y
		}
	}
	for _, ys := range xs {
		add(ys)
	}
	return total
}

// initOrder's comparison is passed to sort.Slice, not called: a literal that
// runs elsewhere, even in set-up code.
func initOrder(names []string) {
	less := func(i, j int) bool {
		mark() // want `unknown: .*`
		return names[i] < names[j]
	}
	sort.Slice(names, less)
}

// initWorkers starts a helper in a goroutine: not a local helper.
func initWorkers(jobs chan string) {
	work := func() {
		for j := range jobs {
			mark() // want `hot-loop: inside a loop`
			_ = j
		}
	}
	go work()
}
