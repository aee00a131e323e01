// Package plural spells counts in English: "1 file", "2 files". Every
// package that writes counts for people uses it, so that none needs
// another's writer for so little.
package plural

import "strconv"

// Count returns n and the noun that counts it, in the singular for 1:
// "1 file", "2 files".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Noun(n, one, many)
}

// Noun returns one for 1 and many otherwise.
func Noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
